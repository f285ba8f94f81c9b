#!/usr/bin/env python3
"""Shows that the doc test can fail: runs check_docs.py (the command given as
arguments) on test/docs/broken.md and checks that it exits 1 and reports
exactly the blocks announced by `<!-- expect-fail: REASON -->` comments, each
with its reason, and passes the others.

Usage: selftest.py CHECK_DOCS_COMMAND...   (check_docs.py and its options)
"""

import os
import re
import subprocess
import sys

here = os.path.dirname(os.path.abspath(__file__))
page = os.path.join(here, "broken.md")


def expected_failures():
    """[(first line, last line, reason)] of the announced blocks."""
    lines = open(page, encoding="utf-8").read().split("\n")
    found = []
    for i, line in enumerate(lines):
        match = re.match(r"<!-- expect-fail: (.*) -->$", line)
        if not match:
            continue
        start = i + 2  # the fence, 1-based
        end = start
        while end < len(lines) and not (end > start and lines[end - 1].startswith("```")):
            end += 1
        found.append((start, end, match.group(1)))
    return found


def has_python_module(argv):
    """Whether the build check_docs.py is given (--build) has the Python module;
    without it, Python blocks are skipped, so they cannot fail."""
    if "--build" not in argv:
        return False
    folder = os.path.join(argv[argv.index("--build") + 1], "python")
    return os.path.isdir(folder) and any(f.startswith("pt2ir.") and f.endswith(".so") for f in os.listdir(folder))


def main():
    proc = subprocess.run(sys.argv[1:] + [page], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    output = proc.stdout.decode("utf-8", "replace")
    problems = []
    if proc.returncode != 1:
        problems.append("check_docs.py exited with %d, expected 1" % proc.returncode)
    reported = []
    for match in re.finditer(r"^FAIL: [^\n]*?broken\.md:(\d+): (.*?)(?=^FAIL: |^\S[^\n]*(?:all passed|failed)$)",
                             output, re.M | re.S):
        reported.append((int(match.group(1)), match.group(2)))
    expected = expected_failures()
    if not has_python_module(sys.argv):
        expected = [e for e in expected if "Python block exited" not in e[2]]
    for start, end, reason in expected:
        hits = [r for r in reported if start <= r[0] <= end]
        if not hits:
            problems.append("the broken block at line %d (%s) was not reported" % (start, reason))
        elif not any(reason in text for _, text in hits):
            problems.append("the block at line %d was reported, but not as '%s': %s" % (start, reason, hits[0][1]))
    for line, text in reported:
        if not any(start <= line <= end for start, end, _ in expected):
            problems.append("line %d was reported but should pass: %s" % (line, text))
    if problems:
        print("\n".join(problems))
        print("--- check_docs.py said:\n" + output)
        return 1
    print("docs-can-fail: %d broken examples reported as such, the others passed" % len(expected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
