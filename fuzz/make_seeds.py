#!/usr/bin/env python3
"""Builds the seed corpus of one fuzz target from the repository's tests.

Usage: make_seeds.py TARGET OUTDIR

  program_reader, roundtrip, streaming, pipeline, tools: test/corpus/*.json, every JSON input of
      the lit tests (split-file sections), test/malformed/*.json
  treespec: every in_spec/out_spec string found in those programs, plus the
      treespec strings written in test/unit/TreespecTest.cpp
  symexpr:  every expr_str found in those programs, plus the short string
      literals of test/unit/SymbolicExprTest.cpp
  text:     every text-form program of the tests: test/malformed/*.pt2ir and
      the lit tests' split-file sections that start like the text form
  archive:  small .pt2 archives (pt2 layout stored and deflated, with
      weights and constants, the legacy layout) built around corpus programs,
      plus test/malformed/*.pt2

Every target also gets fuzz/regressions/TARGET/*: inputs that once crashed
it (each fixed, with a unit or lit regression test of its own). Seeds are
named by the hash of their bytes, so rerunning is idempotent.
"""
import glob
import hashlib
import io
import itertools
import json
import os
import re
import sys
import warnings
import zipfile

# Literal unescaping below meets C++ escapes Python does not know.
warnings.simplefilter("ignore", DeprecationWarning)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def program_texts():
    """Yields (name, text) for every program-like JSON input of the tests."""
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "corpus", "*.json"))):
        with open(path, encoding="utf-8") as f:
            yield os.path.basename(path), f.read()
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "lit", "**", "*.test"), recursive=True)):
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        # split-file sections: "//--- name" up to the next marker.
        parts = re.split(r"^//--- (\S+)\n", text, flags=re.M)
        for name, body in zip(parts[1::2], parts[2::2]):
            if name.endswith(".json"):
                yield name, body
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "malformed", "*.json"))):
        with open(path, "rb") as f:
            yield os.path.basename(path), f.read().decode("utf-8", "surrogateescape")


def parsed_programs():
    for name, text in program_texts():
        try:
            yield name, json.loads(text)
        except (ValueError, RecursionError):
            continue


def walk(value, key=None):
    """Yields (key, value) for every member of a JSON tree (iteratively)."""
    stack = [(key, value)]
    while stack:
        k, v = stack.pop()
        yield k, v
        if isinstance(v, dict):
            stack.extend(v.items())
        elif isinstance(v, list):
            stack.extend((None, e) for e in v)


def treespec_seeds():
    for _, program in parsed_programs():
        for key, value in walk(program):
            if key in ("in_spec", "out_spec") and isinstance(value, str):
                yield value
    unit = os.path.join(ROOT, "test", "unit", "TreespecTest.cpp")
    if os.path.exists(unit):
        with open(unit, encoding="utf-8") as f:
            for raw in re.findall(r'R"\((.*?)\)"', f.read(), flags=re.S):
                if "children_spec" in raw:
                    yield raw


def symexpr_seeds():
    for _, program in parsed_programs():
        for key, value in walk(program):
            if key == "expr_str" and isinstance(value, str):
                yield value
            if key == "as_expr" and isinstance(value, str):
                yield value
    # Short string literals of the unit test: expressions, most of them.
    unit = os.path.join(ROOT, "test", "unit", "SymbolicExprTest.cpp")
    if os.path.exists(unit):
        with open(unit, encoding="utf-8") as f:
            for literal in re.findall(r'"((?:[^"\\\n]|\\.){1,200})"', f.read()):
                yield literal.encode().decode("unicode_escape")


def small_programs():
    texts = dict(program_texts())
    for name in ("mlp.json", "dyn_mlp.json", "buffer_mutation.json"):
        if name in texts:
            yield name[:-5], texts[name]


def payload_config(entries):
    config = {fqn: {"path_name": path, "is_param": True, "use_pickle": False,
                    "tensor_meta": {"dtype": 7, "sizes": [{"as_int": 4}]}}
              for fqn, path in entries}
    return json.dumps({"config": config})


def make_zip(members, compression):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as z:
        for name, data in members:
            z.writestr(name, data)
    return buffer.getvalue()


def archive_seeds():
    for model, program in small_programs():
        root = "archive"
        base = [(root + "/archive_format", "pt2"), (root + "/archive_version", "0"),
                (root + "/.data/version", "6\n"), (root + "/byteorder", "little")]
        models = [(root + "/models/" + model + ".json", program)]
        payload = [(root + "/data/weights/" + model + "_weights_config.json",
                    payload_config([("w", "weight_0")])),
                   (root + "/data/weights/weight_0", bytes(range(16))),
                   (root + "/data/constants/" + model + "_constants_config.json",
                    payload_config([("c", "tensor_0")])),
                   (root + "/data/constants/tensor_0", b"\x01" * 16),
                   (root + "/extra/notes.txt", "hello")]
        yield make_zip(base + models, zipfile.ZIP_STORED)
        yield make_zip(base + models + payload, zipfile.ZIP_STORED)
        yield make_zip(base + models + payload, zipfile.ZIP_DEFLATED)
        yield make_zip([("serialized_exported_program.json", program),
                        ("serialized_state_dict.pt", b"\x80\x02}q\x00."),
                        ("version", "8.19")], zipfile.ZIP_STORED)
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "malformed", "*.pt2"))):
        with open(path, "rb") as f:
            yield f.read()


def text_seeds():
    """Text-form programs: the malformed-text corpus and lit inputs."""
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "malformed", "*.pt2ir"))):
        with open(path, "rb") as f:
            yield f.read()
    starts = (b"program", b"graph", b"signature")
    for path in sorted(glob.glob(os.path.join(ROOT, "test", "lit", "**", "*.test"), recursive=True)):
        with open(path, "rb") as f:
            parts = re.split(rb"^//--- .*$", f.read(), flags=re.M)[1:]
        for part in parts:
            body = b"\n".join(l for l in part.split(b"\n") if not l.startswith(b"//"))
            if body.lstrip().startswith(starts):
                yield part


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    target, outdir = sys.argv[1], sys.argv[2]
    if target in ("program_reader", "roundtrip", "streaming", "pipeline", "tools"):
        seeds = (text for _, text in program_texts())
    elif target == "text":
        seeds = text_seeds()
    elif target == "treespec":
        seeds = treespec_seeds()
    elif target == "symexpr":
        seeds = symexpr_seeds()
    elif target == "archive":
        seeds = archive_seeds()
    else:
        sys.exit("unknown target " + target)
    # Inputs that once crashed a target stay in its seeds forever.
    regressions = sorted(glob.glob(os.path.join(ROOT, "fuzz", "regressions", target, "*")))
    seeds = itertools.chain(seeds, (open(p, "rb").read() for p in regressions))
    os.makedirs(outdir, exist_ok=True)
    count = 0
    for seed in seeds:
        data = seed if isinstance(seed, bytes) else seed.encode("utf-8", "surrogateescape")
        name = hashlib.sha1(data).hexdigest()
        path = os.path.join(outdir, name)
        if not os.path.exists(path):
            with open(path, "wb") as f:
                f.write(data)
        count += 1
    print(f"{target}: {count} seeds in {outdir}")


if __name__ == "__main__":
    main()
