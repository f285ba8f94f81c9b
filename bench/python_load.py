#!/usr/bin/env python3
"""Compares pt2ir.load with json.loads of the same file: the Python row of
the performance table (docs/performance.md).

Usage: PYTHONPATH=build/python /usr/bin/python3 bench/python_load.py FILE.json...

For each program it prints one Markdown row: the best of several runs of
json.loads(text) (Python's parser, which only builds dicts and lists),
pt2ir.loads(text) and pt2ir.load(path) (which also reads the file), both of
which build the whole IR, and the ratio json.loads / pt2ir.load (target: 5x
or more). Reading the file into `text` is not timed for json.loads.
"""

import json
import os
import sys
import time

import pt2ir


def best(fn, budget=2.0, at_least=3):
    times = []
    start = time.perf_counter()
    while len(times) < at_least or time.perf_counter() - start < budget:
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
        if len(times) >= 200:
            break
    return min(times)


def main(paths):
    if not paths:
        print(__doc__.strip().split("\n\n")[1])
        return 2
    print("| program | nodes | size | json.loads | pt2ir.loads | pt2ir.load | json.loads / pt2ir.load |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        nodes = len(pt2ir.loads(text).graph)
        j = best(lambda: json.loads(text))
        s = best(lambda: pt2ir.loads(text))
        l = best(lambda: pt2ir.load(path))
        print("| %s | %d | %.1f MB | %.1f ms | %.1f ms | %.1f ms | %.1fx |"
              % (os.path.basename(path), nodes, len(text) / 1e6, j * 1e3, s * 1e3, l * 1e3, j / l))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
