#!/usr/bin/env python3
"""Converts the JSON inputs of lit tests to the text form, where that keeps
the test passing.

Usage: lit-json-to-text.py BUILD_DIR TEST...

For each TEST (a test/lit/.../*.test file), every split-file part `NAME.json`
that pt2-opt reads becomes `NAME.pt2ir` holding the program in the text form
(docs/text-format.md; the same program: JSON -> text -> JSON is exact), and
`NAME.json` in the RUN lines becomes `NAME.pt2ir`. The test is then run with
lit; if it fails (it is about JSON itself: byte comparisons, JSON paths of
the input, malformed JSON) the file is put back as it was. Prints what it
did with each test.
"""
import os
import re
import subprocess
import sys
import tempfile

LIT = "/usr/lib/llvm-19/build/utils/lit/lit.py"


def split_parts(lines):
    """Yields (start, end, name) of each `//--- name` part."""
    starts = [i for i, l in enumerate(lines) if l.startswith("//--- ")]
    for k, i in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        yield i, end, lines[i][len("//--- "):].strip()


def convert(build, path):
    with open(path) as f:
        original = f.read()
    lines = original.split("\n")
    opt = os.path.join(build, "tools", "pt2-opt")
    out, changed, last = [], [], 0
    for start, end, name in split_parts(lines):
        out.extend(lines[last:start])
        last = end
        body = "\n".join(lines[start + 1:end])
        if not name.endswith(".json") or not body.lstrip().startswith("{"):
            out.extend(lines[start:end])
            continue
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "in.json")
            dst = os.path.join(tmp, "out.pt2ir")
            with open(src, "w") as f:
                f.write(body)
            r = subprocess.run([opt, src, "--no-verify", "-o", dst],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if r.returncode != 0:
                out.extend(lines[start:end])
                continue
            with open(dst) as f:
                text = f.read()
        # Keep the part's trailing blank lines (they separate parts).
        trailing = len(lines[start + 1:end]) - len("\n".join(lines[start + 1:end]).rstrip("\n").split("\n"))
        new_name = name[:-len(".json")] + ".pt2ir"
        out.append("//--- " + new_name)
        out.extend(text.rstrip("\n").split("\n"))
        out.extend([""] * trailing)
        changed.append((name, new_name))
    out.extend(lines[last:])
    if not changed:
        return "no JSON program inputs"
    converted = "\n".join(out)
    for old, new in changed:
        converted = re.sub(r"(%t/)" + re.escape(old) + r"\b", r"\g<1>" + new, converted)
    with open(path, "w") as f:
        f.write(converted)
    rel = os.path.relpath(path, os.path.join(os.path.dirname(__file__), "..", "test", "lit"))
    r = subprocess.run([sys.executable, LIT, "-q", os.path.join(build, "test", "lit", rel)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        with open(path, "w") as f:
            f.write(original)
        return "kept JSON (the test needs it)"
    return "converted %d input(s)" % len(changed)


def main():
    build, tests = sys.argv[1], sys.argv[2:]
    for t in tests:
        print("%s: %s" % (t, convert(build, t)), flush=True)


if __name__ == "__main__":
    main()
