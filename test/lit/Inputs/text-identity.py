#!/usr/bin/env python3
"""JSON -> text -> JSON gives the bytes JSON -> JSON gives, for every program.

Usage: text-identity.py PT2_OPT SCRATCH_DIR SOURCE...

Each SOURCE is a JSON program, a folder (searched for *.json and *.test), or
a lit test whose inline `//--- NAME` parts are programs. Every program that
pt2-opt reads (`pt2-opt F --no-verify -o a.json` succeeds) must give:
  - the same bytes through the text form: F -> t.pt2ir -> b.json == a.json;
  - a fixed point: t.pt2ir -> t2.pt2ir == t.pt2ir.
Inputs pt2-opt refuses (the malformed-input tests) are counted and skipped.
Prints one line per failure and a summary; exits 1 on any failure.
"""
import os
import subprocess
import sys


def programs(source):
    """Yields (display name, JSON bytes) for every candidate program."""
    if os.path.isdir(source):
        for root, dirs, files in os.walk(source):
            dirs.sort()
            for f in sorted(files):
                if f.endswith(".json") or f.endswith(".test"):
                    yield from programs(os.path.join(root, f))
        return
    with open(source, "rb") as f:
        data = f.read()
    if source.endswith(".json"):
        yield source, data
        return
    # split-file parts: `//--- name` (or `# --- name`) starts a part.
    name, lines = None, []
    for line in data.split(b"\n") + [b"//--- <end>"]:
        stripped = line.strip()
        if stripped.startswith(b"//--- ") or stripped.startswith(b"#--- "):
            if name is not None:
                body = b"\n".join(lines)
                if body.lstrip().startswith(b"{"):
                    yield "%s:%s" % (source, name), body
            name, lines = stripped.split(b" ", 1)[1].decode(), []
        elif name is not None:
            lines.append(line)


def run(args, stdin=None):
    return subprocess.run(args, input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE)


def main():
    opt, scratch, sources = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(scratch, exist_ok=True)
    inp = os.path.join(scratch, "in.json")
    a = os.path.join(scratch, "a.json")
    t = os.path.join(scratch, "t.pt2ir")
    t2 = os.path.join(scratch, "t2.pt2ir")
    b = os.path.join(scratch, "b.json")
    checked = skipped = failed = 0
    for source in sources:
        for name, body in programs(source):
            with open(inp, "wb") as f:
                f.write(body)
            if run([opt, inp, "--no-verify", "-o", a]).returncode != 0:
                skipped += 1
                continue
            checked += 1
            steps = [([opt, inp, "--no-verify", "-o", t], "JSON -> text"),
                     ([opt, t, "--no-verify", "-o", b], "text -> JSON"),
                     ([opt, t, "--no-verify", "-o", t2], "text -> text")]
            problem = None
            for args, what in steps:
                r = run(args)
                if r.returncode != 0:
                    problem = "%s failed: %s" % (what, r.stderr.decode(errors="replace").strip())
                    break
            if problem is None:
                with open(a, "rb") as fa, open(b, "rb") as fb:
                    if fa.read() != fb.read():
                        problem = "JSON -> text -> JSON differs from JSON -> JSON"
            if problem is None:
                with open(t, "rb") as fa, open(t2, "rb") as fb:
                    if fa.read() != fb.read():
                        problem = "text -> IR -> text is not a fixed point"
            if problem:
                failed += 1
                print("FAIL %s: %s" % (name, problem))
    print("text identity: %d programs checked, %d failed, %d inputs refused by pt2-opt"
          % (checked, failed, skipped))
    return 1 if failed or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
