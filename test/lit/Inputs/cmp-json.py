"""Byte comparison for lit tests whose expected JSON comes from split-file.

split-file keeps the newline that ends each part, while pt2-opt (like torch)
writes none. Usage: cmp-json.py EXPECTED ACTUAL. Exactly one trailing newline
of EXPECTED is ignored; every other byte must match.
"""
import sys

expected = open(sys.argv[1], "rb").read()
actual = open(sys.argv[2], "rb").read()
if expected.endswith(b"\n"):
    expected = expected[:-1]
if expected == actual:
    sys.exit(0)
n = next((i for i, (a, b) in enumerate(zip(expected, actual)) if a != b), min(len(expected), len(actual)))
sys.stderr.write("%s and %s differ at byte %d:\n  expected: %r\n  actual:   %r\n" % (
    sys.argv[1], sys.argv[2], n, expected[max(0, n - 40):n + 40], actual[max(0, n - 40):n + 40]))
sys.exit(1)
