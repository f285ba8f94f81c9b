#!/usr/bin/env python3
"""Generates ir/AtenOperators.inc, the built-in aten operator schema table.

Reads native_functions.yaml and tags.yaml (PyTorch's operator declarations)
and writes one table entry per operator: its schema string and its tags. The
operators that an entry declares under `autogen:` (for example `uniform_`
declares `uniform` and `uniform.out`) have no `func:` line of their own, so
their schemas are derived here with the same rules PyTorch's code generator
applies (functional variant of an in-place or mutable op, `.out` variant of
an in-place, mutable or functional op).

This script deliberately does not validate the C++-side grammar (the C++
parser's unit tests do that over the generated table), and it is not run at
build time: the generated file is committed.

Usage:
  /usr/bin/python3 scripts/gen_op_table.py [--native-functions PATH]
      [--tags PATH] [--output PATH] [--check]

The inputs are PyTorch's aten/src/ATen/native/native_functions.yaml and
tags.yaml, which this repository does not ship; by default they are read from
../shared/reference/ next to the repository, and a missing input is an error
that says which file and how to pass another. Needs PyYAML (Debian:
python3-yaml) once the inputs are found.
"""

import argparse
import os
import re
import string
import sys
from dataclasses import dataclass, replace
from typing import Dict, List, Optional, Tuple

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_REFERENCE = os.path.normpath(
    os.path.join(REPO_ROOT, "..", "shared", "reference"))

# Dunder names whose `__i<name>__` form is an in-place operator.
AUGMENTED_ASSIGNMENT_NAMES = [
    "add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow",
    "lshift", "rshift", "and", "xor", "or",
]

# The keyword-only arguments that together form a factory's TensorOptions,
# in the order they must appear (each may also be optional).
TENSOR_OPTIONS = [("dtype", "ScalarType"), ("layout", "Layout"),
                  ("device", "Device"), ("pin_memory", "bool")]


@dataclass(frozen=True)
class Annotation:
    """An alias annotation such as `a!` or `a -> *`, kept as normalized text."""
    text: str

    @property
    def is_write(self) -> bool:
        return "!" in self.text.split("->")[0]

    @property
    def alias_sets(self) -> List[str]:
        before = self.text.split("->")[0].replace("!", "").strip()
        return [s.strip() for s in before.split("|") if s.strip()]


@dataclass(frozen=True)
class Arg:
    name: str
    type: str  # without the annotation, e.g. "Tensor[]", "int[2]?"
    annotation: Optional[Annotation]
    default: Optional[str]

    def render(self) -> str:
        ty = self.type
        if self.annotation is not None:
            ty = ty.replace("Tensor", "Tensor(%s)" % self.annotation.text, 1)
        text = "%s %s" % (ty, self.name)
        if self.default is not None:
            text += "=" + self.default
        return text

    def is_write(self) -> bool:
        return self.annotation is not None and self.annotation.is_write


@dataclass(frozen=True)
class Ret:
    name: Optional[str]
    type: str
    annotation: Optional[Annotation]

    def render(self) -> str:
        ty = self.type
        if self.annotation is not None:
            ty = ty.replace("Tensor", "Tensor(%s)" % self.annotation.text, 1)
        return ty if self.name is None else "%s %s" % (ty, self.name)

    def is_tensor_like(self) -> bool:
        return self.type.startswith("Tensor")


@dataclass(frozen=True)
class Schema:
    """One operator schema. `positional` and `kwarg_only` exclude out args."""
    base: str  # the base name without trailing '_' or dunder decoration
    inplace: bool
    dunder: bool
    functional_overload: bool
    overload: str
    positional: Tuple[Arg, ...]
    kwarg_only: Tuple[Arg, ...]
    out: Tuple[Arg, ...]
    returns: Tuple[Ret, ...]

    @property
    def name(self) -> str:
        if self.dunder:
            return "__%s%s__" % ("i" if self.inplace else "", self.base)
        suffix = "_" if self.inplace else (
            "_functional" if self.functional_overload else "")
        return self.base + suffix

    @property
    def full_name(self) -> str:
        return self.name + ("." + self.overload if self.overload else "")

    def self_index(self) -> Optional[int]:
        for i, a in enumerate(self.positional):
            if a.name == "self":
                return i
        return None

    def post_self_positional(self) -> Tuple[Arg, ...]:
        i = self.self_index()
        return self.positional if i is None else self.positional[i + 1:]

    def kind(self) -> str:
        if self.inplace:
            return "inplace"
        if self.out:
            return "out"
        if any(a.is_write() for a in self.post_self_positional()):
            return "mutable"
        return "functional"

    def render(self) -> str:
        parts = [a.render() for a in self.positional]
        if self.kwarg_only or self.out:
            parts.append("*")
        parts += [a.render() for a in self.kwarg_only]
        parts += [a.render() for a in self.out]
        if len(self.returns) == 1:
            rets = self.returns[0].render()
        else:
            rets = "(" + ", ".join(r.render() for r in self.returns) + ")"
        return "%s(%s) -> %s" % (self.full_name, ", ".join(parts), rets)


def split_top_level(text: str) -> List[str]:
    """Splits on commas outside brackets and quotes."""
    parts, depth, quote, start, i = [], 0, None, 0, 0
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "[(":
            depth += 1
        elif c in "])":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
        i += 1
    tail = text[start:].strip()
    if tail:
        parts.append(tail)
    return parts


TYPE_RE = re.compile(r"^(\w+)(?:\(([^)]*)\))?(.*)$")


def parse_type(text: str) -> Tuple[str, Optional[Annotation]]:
    m = TYPE_RE.match(text)
    if not m:
        raise ValueError("unparseable type %r" % text)
    ann = Annotation(m.group(2).strip()) if m.group(2) is not None else None
    return m.group(1) + m.group(3), ann


def parse_arg(text: str) -> Arg:
    default = None
    if "=" in text:
        text, default = text.split("=", 1)
    ty, name = text.strip().rsplit(" ", 1)
    ty, ann = parse_type(ty.strip())
    return Arg(name, ty, ann, default)


def parse_ret(text: str) -> Ret:
    pieces = text.strip().rsplit(" ", 1)
    # A trailing identifier after a type (and not part of it) is a name.
    if len(pieces) == 2 and re.match(r"^\w+$", pieces[1]) and \
            not pieces[0].endswith("->"):
        ty, name = pieces
    else:
        ty, name = text.strip(), None
    ty, ann = parse_type(ty)
    return Ret(name, ty, ann)


def parse_name(full: str):
    name, _, overload = full.partition(".")
    dunder = re.match(r"^__(\w+)__$", name)
    if dunder:
        base = dunder.group(1)
        inplace = any(base == "i" + n for n in AUGMENTED_ASSIGNMENT_NAMES)
        return (base[1:] if inplace else base), inplace, True, False, overload
    if name.endswith("_"):
        return name[:-1], True, False, False, overload
    if name.endswith("_functional"):
        return name[: -len("_functional")], False, False, True, overload
    return name, False, False, False, overload


def parse_schema(func: str) -> Schema:
    m = re.match(r"^([\w.]+)\((.*)\) -> (.*)$", func)
    if not m:
        raise ValueError("unparseable schema %r" % func)
    base, inplace, dunder, functional_overload, overload = parse_name(
        m.group(1))
    positional, kwarg_only, out = [], [], []
    seen_star = False
    for piece in split_top_level(m.group(2)):
        if piece == "*":
            seen_star = True
            continue
        arg = parse_arg(piece)
        if not seen_star:
            positional.append(arg)
        elif arg.is_write():
            out.append(arg)
        else:
            kwarg_only.append(arg)
    rets_text = m.group(3).strip()
    if rets_text.startswith("("):
        rets = [parse_ret(r) for r in split_top_level(rets_text[1:-1])]
    else:
        rets = [parse_ret(rets_text)]
    return Schema(base, inplace, dunder, functional_overload, overload,
                  tuple(positional), tuple(kwarg_only), tuple(out),
                  tuple(rets))


def strip_annotation(arg: Arg) -> Arg:
    return replace(arg, annotation=None)


def drop_tensor_options(kwargs: Tuple[Arg, ...]) -> Tuple[Arg, ...]:
    """Removes the dtype/layout/device/pin_memory run, if present."""
    n = len(TENSOR_OPTIONS)
    for i in range(len(kwargs) - n + 1):
        window = kwargs[i:i + n]
        if all(a.name == name and a.type in (ty, ty + "?")
               for a, (name, ty) in zip(window, TENSOR_OPTIONS)):
            return kwargs[:i] + kwargs[i + n:]
    return kwargs


def signature(s: Schema, keep_return_names: bool) -> Schema:
    """The functional core shared by every variant of one operator: no
    overload, no in-place marker, no out args, no annotations, no
    TensorOptions, and mutated inputs that are not returned become returns."""
    self_i = s.self_index()
    candidates = ([s.positional[self_i]] if self_i is not None else []) + \
        list(s.out) + list(s.post_self_positional())
    extra = tuple(
        Ret("%s_out" % a.name if keep_return_names else None, a.type, None)
        for a in candidates
        if a.is_write() and not any(a.annotation == r.annotation
                                    for r in s.returns))
    rets = tuple(Ret(r.name if keep_return_names else None, r.type, None)
                 for r in s.returns) + extra
    return Schema(s.base, False, s.dunder, False, "",
                  tuple(map(strip_annotation, s.positional)),
                  drop_tensor_options(tuple(map(strip_annotation,
                                                s.kwarg_only))),
                  (), rets)


def out_overload(overload: str) -> str:
    return overload + "_out" if overload else "out"


def out_args_from_returns(s: Schema):
    """Turns tensor-like returns into fresh `Tensor(x!) out` arguments."""
    used = {name for a in s.positional + s.kwarg_only + s.out
            if a.annotation for name in a.annotation.alias_sets}
    free = [c for c in string.ascii_lowercase if c not in used]
    all_plain_tensors = all(r.type == "Tensor" for r in s.returns)
    out_args, rets = [], []
    for i, r in enumerate(s.returns):
        if not r.is_tensor_like():
            rets.append(r)
            continue
        ann = Annotation(free[i] + "!")
        out_args.append(Arg("out" if len(s.returns) == 1 else "out%d" % i,
                            r.type, ann, None))
        if all_plain_tensors:
            rets.append(Ret(None, r.type, ann))
    if not out_args:
        raise ValueError("%s has no tensor-like return" % s.full_name)
    return tuple(out_args), tuple(rets)


def generate_out(base_fn: Schema) -> Schema:
    kind = base_fn.kind()
    if kind == "inplace":
        self_i = base_fn.self_index()
        self_arg = base_fn.positional[self_i]
        positional = list(base_fn.positional)
        positional[self_i] = strip_annotation(self_arg)
        out = Arg("out", self_arg.type, self_arg.annotation, None)
        return replace(base_fn, inplace=False,
                       overload=out_overload(base_fn.overload),
                       positional=tuple(positional),
                       out=base_fn.out + (out,))
    if kind == "mutable":
        out_args, rets = out_args_from_returns(base_fn)
        return replace(base_fn, overload=out_overload(base_fn.overload),
                       out=base_fn.out + out_args, returns=rets)
    if kind == "functional":
        out_args, rets = out_args_from_returns(base_fn)
        core = signature(base_fn, keep_return_names=True)
        return replace(core, overload=out_overload(base_fn.overload),
                       dunder=base_fn.dunder, out=out_args, returns=rets)
    raise ValueError("cannot derive an out= variant from %s (%s)" %
                     (base_fn.full_name, kind))


def generate_functional(base_fn: Schema) -> Schema:
    core = signature(base_fn, keep_return_names=True)
    return replace(core, functional_overload=base_fn.kind() == "mutable",
                   overload=base_fn.overload)


def group_key(s: Schema) -> str:
    return signature(s, keep_return_names=False).render()


def pick_base(group: Dict[str, Schema]) -> Schema:
    for kind in ("inplace", "mutable", "out", "functional"):
        if kind in group:
            return group[kind]
    raise AssertionError("empty group")


def parse_tags(value) -> List[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [t.strip() for t in value.split(",") if t.strip()]
    return list(value)


def build_table(native_functions, tag_names):
    """Returns [(schema string, [tags])] in declaration order, each entry
    followed by the variants it declares under `autogen:`."""
    entries = []
    for e in native_functions:
        schema = parse_schema(e["func"])
        tags = parse_tags(e.get("tags"))
        for t in tags:
            if t not in tag_names:
                raise ValueError("%s: unknown tag %r" % (e["func"], t))
        autogen = [a.strip() for a in str(e.get("autogen", "")).split(",")
                   if a.strip()]
        entries.append((schema, tags, autogen))

    groups: Dict[str, Dict[str, Schema]] = {}
    for schema, _, _ in entries:
        groups.setdefault(group_key(schema), {})[schema.kind()] = schema

    table, seen = [], set()
    generated: Dict[str, str] = {}

    def add(schema: Schema, tags: List[str]):
        if schema.full_name in seen:
            raise ValueError("duplicate operator %s" % schema.full_name)
        seen.add(schema.full_name)
        table.append((schema.render(), tags))

    for schema, tags, autogen in entries:
        add(schema, tags)
        base_fn = pick_base(groups[group_key(schema)])
        for name in autogen:
            is_out = name.split(".")[-1] == "out" or name.endswith("_out")
            derived = generate_out(base_fn) if is_out else \
                generate_functional(base_fn)
            if derived.full_name != name:
                raise ValueError("autogen %s of %s derived as %s" %
                                 (name, schema.full_name, derived.full_name))
            if derived.full_name in generated:
                # Several variants of one group may declare the same
                # autogen name; it is one operator.
                if generated[derived.full_name] != derived.render():
                    raise ValueError("autogen %s derived twice, differently"
                                     % name)
                continue
            generated[derived.full_name] = derived.render()
            derived_tags = ["generated"] + [
                t for t in tags_of(entries, base_fn)
                if t == "nondeterministic_seeded"]
            add(derived, derived_tags)
    return table


def tags_of(entries, schema: Schema) -> List[str]:
    for s, tags, _ in entries:
        if s is schema:
            return tags
    return []


def c_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def camel(tag: str) -> str:
    return "".join(p[:1].upper() + p[1:] for p in tag.split("_"))


def render_inc(table, tag_names) -> str:
    lines = [
        "//===- AtenOperators.inc - Built-in aten operator table ---------*- C++ -*-===//",
        "//",
        "// GENERATED by scripts/gen_op_table.py from native_functions.yaml and",
        "// tags.yaml. Do not edit by hand; regenerate (see docs/operator-schemas.md).",
        "//",
        "// PT2IR_ATEN_TAG(Enumerator, \"name\") lists the tags in tags.yaml order.",
        "// PT2IR_ATEN_OP(\"schema\", Tags) lists every operator with its tags as an",
        "// expression over the tag enumerators ('0' when it has none).",
        "//",
        "//===----------------------------------------------------------------------===//",
        "",
        "#ifdef PT2IR_ATEN_TAG",
    ]
    for tag in tag_names:
        lines.append("PT2IR_ATEN_TAG(%s, %s)" % (camel(tag), c_string(tag)))
    lines += ["#undef PT2IR_ATEN_TAG", "#endif", "", "#ifdef PT2IR_ATEN_OP"]
    for text, tags in table:
        mask = "|".join(camel(t) for t in tag_names if t in tags) or "0"
        lines.append("PT2IR_ATEN_OP(%s, %s)" % (c_string(text), mask))
    lines += ["#undef PT2IR_ATEN_OP", "#endif", ""]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--native-functions", default=os.path.join(
        DEFAULT_REFERENCE, "native_functions.yaml"))
    parser.add_argument("--tags", default=os.path.join(
        DEFAULT_REFERENCE, "tags.yaml"))
    parser.add_argument("--output", default=os.path.join(
        REPO_ROOT, "ir", "AtenOperators.inc"))
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the output file is out of date")
    args = parser.parse_args()

    inputs = (("--native-functions", args.native_functions, "native_functions.yaml"),
              ("--tags", args.tags, "tags.yaml"))
    for flag, path, upstream in inputs:
        if not os.path.isfile(path):
            print("%s: error: cannot read %s (%s); pass PyTorch's %s with %s PATH "
                  "(aten/src/ATen/native/ in a PyTorch checkout; this repository "
                  "does not ship it)"
                  % (sys.argv[0], path, "not a file" if os.path.exists(path) else "no such file",
                     upstream, flag), file=sys.stderr)
            return 2
    try:
        import yaml
    except ImportError:
        print("%s: error: needs PyYAML (Debian package python3-yaml; scripts/setup.sh installs it "
              "for /usr/bin/python3)" % sys.argv[0], file=sys.stderr)
        return 2

    with open(args.tags, encoding="utf-8") as f:
        tag_names = [t["tag"] for t in yaml.safe_load(f)]
    with open(args.native_functions, encoding="utf-8") as f:
        native_functions = yaml.load(f, Loader=getattr(yaml, "CSafeLoader",
                                                       yaml.SafeLoader))
    table = build_table(native_functions, tag_names)
    text = render_inc(table, tag_names)

    if args.check:
        try:
            with open(args.output, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print("%s is out of date; rerun %s" % (args.output, sys.argv[0]),
                  file=sys.stderr)
            return 1
        return 0
    with open(args.output, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print("wrote %d operators and %d tags to %s" %
          (len(table), len(tag_names), args.output))
    return 0


if __name__ == "__main__":
    sys.exit(main())
