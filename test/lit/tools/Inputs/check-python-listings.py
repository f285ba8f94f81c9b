"""Checks that `pt2-opt --emit=python` is valid Python for many programs
(or, with --emit=dot, that `--emit=dot` is a graph Graphviz reads; with
--stats-json, that `--stats --stats-format=json` is one JSON document).

Usage: check-python-listings.py [--emit=dot | --stats-json] WORKDIR FILE...

Each FILE is a JSON program or a lit test whose split-file sections
(`//--- name.json`) hold programs. Every program pt2-opt reads (with
--no-verify) is listed with --emit=python, with and without
--print-metadata, and each listing must parse with ast.parse; with
--emit=dot, `dot -Tcanon` must accept each graph without a warning; with
--stats-json, the statistics must be a JSON object. Programs pt2-opt rejects
(the error-path inputs) are counted and skipped; a crash is a failure.
Prints one summary line.
"""
import ast
import json
import os
import subprocess
import sys


def programs(path):
    """Yields (name, text) for each program in `path`."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    if path.endswith(".json"):
        yield os.path.basename(path), text
        return
    name, lines = None, []
    for line in text.splitlines(keepends=True):
        if line.startswith("//--- "):
            if name and name.endswith(".json"):
                yield name, "".join(lines)
            name, lines = line[len("//--- "):].strip(), []
        elif name is not None:
            lines.append(line)
    if name and name.endswith(".json"):
        yield name, "".join(lines)


def check_python(listing):
    """Returns None when `listing` is valid Python, else the error."""
    try:
        ast.parse(listing.decode("utf-8"))
    except (SyntaxError, UnicodeDecodeError) as err:
        return "not valid Python: %s" % err
    return None


def check_dot(listing):
    """Returns None when Graphviz reads `listing` cleanly, else its complaint."""
    run = subprocess.run(["dot", "-Tcanon"], input=listing,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if run.returncode != 0 or run.stderr:
        return "dot rejects it: %s" % run.stderr.decode(errors="replace")
    return None


def check_json(listing):
    """Returns None when `listing` is one JSON object, else the error."""
    try:
        document = json.loads(listing.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as err:
        return "not JSON: %s" % err
    if not isinstance(document, dict) or "nodes" not in document:
        return "not a statistics object"
    return None


def main():
    args = sys.argv[1:]
    emit, check = "python", check_python
    flags = ["--emit=python"]
    variants = ([], ["--print-metadata"])
    if args and args[0] == "--emit=dot":
        emit, check, flags = "dot", check_dot, ["--emit=dot"]
        args = args[1:]
    elif args and args[0] == "--stats-json":
        emit, check = "stats", check_json
        flags = ["--stats", "--stats-format=json"]
        variants = ([],)
        args = args[1:]
    workdir, files = args[0], args[1:]
    os.makedirs(workdir, exist_ok=True)
    listed = rejected = 0
    failures = []
    for index, path in enumerate(files):
        for name, text in programs(path):
            program = os.path.join(workdir, "%d-%s" % (index, name.replace("/", "_")))
            with open(program, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write(text)
            where = "%s (%s)" % (path, name)
            for extra in variants:
                run = subprocess.run(["pt2-opt", "--no-verify"] + flags + extra + [program],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                if run.returncode == 1 and not run.stdout:
                    rejected += 1
                    break
                if run.returncode != 0:
                    failures.append("%s: pt2-opt exited with %d: %s" % (where, run.returncode,
                                                                        run.stderr.decode(errors="replace")))
                    break
                error = check(run.stdout)
                if error:
                    failures.append("%s %s: %s" % (where, " ".join(extra), error))
                listed += 1
    for failure in failures:
        print("FAIL: " + failure)
    print("%s listings: %d parsed, %d inputs rejected by the reader, %d failures"
          % (emit, listed, rejected, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
