"""Writes an ExportedProgram JSON from a few lines of description, so a pass
test states only the nodes it is about. Usage: mkprog.py IN.txt > OUT.json

Lines (blank lines and lines starting with '#' are ignored):

  input x: f32[2, s0]              a user input tensor (sizes: ints, symbols)
  input n: sym s0                  a user input SymInt
  %r = aten.relu.default(self=%x) : f32[2, s0]
  %a, %b = aten.var_mean.correction(self=%x) : f32[], f32[]
  %c = aten.add.Tensor(self=%x, other=1.0, *alpha=2) : f32[2] {"custom": "{}"}
  output %r                        a user output
  verifiers TRAINING               the program's dialect (default ATEN)
  range s0 2 64                    a range constraint (default: min 2 for
                                   every symbol seen)
  subgraph body(x: f32[2]) {       a graph for `graph:body` arguments,
    %y = aten.neg.default(self=%x) : f32[2]
    return %y
  }

Targets without a dot-prefix get `torch.ops.`; `_operator.`, `torch.` and
`#ns:op` targets are kept. A `*` before an argument name passes it by
keyword. Values: %v (a tensor, or a SymInt when declared `sym`), ints,
floats (with a '.'), True/False, None, "text", dtype:f16, layout:strided,
mf:preserve, device:cpu, graph:NAME, and lists [..] of ints, floats, tensors
or SymInts mixed with ints. Output types: f32[..] style tensors or `sym EXPR`.
Trailing `{...}` on a node line is its metadata (a JSON object of strings).
"""
import json
import re
import sys

DTYPES = {"u8": 1, "i8": 2, "i16": 3, "i32": 4, "i64": 5, "f16": 6, "f32": 7,
          "f64": 8, "b8": 12, "bf16": 13}
LAYOUTS = {"strided": 7, "sparse_coo": 1}
FORMATS = {"contiguous": 1, "channels_last": 2, "preserve": 4}
LEAF = {"type": None, "context": None, "children_spec": []}


def fail(lineno, message):
    sys.exit(f"mkprog.py:{lineno}: {message}")


def split_top(text, sep=","):
    """Splits at `sep` outside brackets, braces and quotes."""
    parts, depth, quote, cur = [], 0, False, ""
    for ch in text:
        if ch == '"':
            quote = not quote
        elif not quote and ch in "([{":
            depth += 1
        elif not quote and ch in ")]}":
            depth -= 1
        if ch == sep and depth == 0 and not quote:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts


SYMBOLS = set()


def sym_slot(text):
    text = text.strip()
    if re.fullmatch(r"-?\d+", text):
        return {"as_int": int(text)}
    SYMBOLS.update(re.findall(r"\bs\d+\b", text))
    return {"as_expr": {"expr_str": text, "hint": None}}


def tensor_meta(text, lineno):
    m = re.fullmatch(r"(\w+)\[(.*)\]", text.strip())
    if not m or m.group(1) not in DTYPES:
        fail(lineno, f"bad tensor type '{text}'")
    sizes = [s for s in split_top(m.group(2))]
    # Contiguous strides, written as ints when static.
    strides, acc = [], "1"
    for s in reversed(sizes):
        strides.insert(0, acc)
        if re.fullmatch(r"\d+", acc) and re.fullmatch(r"\d+", s):
            acc = str(int(acc) * int(s))
        else:
            acc = s if acc == "1" else f"{s}*{acc}"
    return {"dtype": DTYPES[m.group(1)], "sizes": [sym_slot(s) for s in sizes],
            "requires_grad": False, "device": {"type": "cpu", "index": None},
            "strides": [sym_slot(s) for s in strides],
            "storage_offset": {"as_int": 0}, "layout": 7}


class Graph:
    def __init__(self):
        self.inputs, self.outputs, self.nodes = [], [], []
        self.tensors, self.syms = {}, {}

    def kind_of(self, name):
        return "sym" if name in self.syms else "tensor"

    def ref(self, name):
        if name in self.syms:
            return {"as_sym_int": {"as_name": name}}
        return {"as_tensor": {"name": name}}

    def json(self):
        return {"inputs": [self.ref(n) for n in self.inputs],
                "outputs": [self.ref(n) for n in self.outputs],
                "nodes": self.nodes, "tensor_values": self.tensors,
                "sym_int_values": {k: sym_slot(v) for k, v in self.syms.items()},
                "sym_bool_values": {}, "is_single_tensor_return": False,
                "custom_obj_values": {}, "sym_float_values": {}}


def parse_value(text, graph, subgraphs, lineno):
    text = text.strip()
    if text.startswith("%"):
        return graph.ref(text[1:])
    if text == "None":
        return {"as_none": True}
    if text in ("True", "False"):
        return {"as_bool": text == "True"}
    if re.fullmatch(r"-?\d+", text):
        return {"as_int": int(text)}
    if re.fullmatch(r"-?\d*\.\d*(e-?\d+)?|-?inf", text):
        return {"as_float": float(text)}
    if text.startswith('"'):
        return {"as_string": json.loads(text)}
    prefix, _, rest = text.partition(":")
    if prefix == "dtype":
        return {"as_scalar_type": DTYPES[rest]}
    if prefix == "layout":
        return {"as_layout": LAYOUTS[rest]}
    if prefix == "mf":
        return {"as_memory_format": FORMATS[rest]}
    if prefix == "device":
        return {"as_device": {"type": rest, "index": None}}
    if prefix == "graph":
        if rest not in subgraphs:
            fail(lineno, f"no subgraph '{rest}'")
        return {"as_graph": {"name": rest, "graph": subgraphs[rest].json()}}
    if text.startswith("["):
        items = split_top(text[1:-1])
        values = [parse_value(i, graph, subgraphs, lineno) for i in items]
        kinds = {next(iter(v)) for v in values}
        if not values or kinds == {"as_int"}:
            return {"as_ints": [v["as_int"] for v in values]}
        if kinds == {"as_float"}:
            return {"as_floats": [v["as_float"] for v in values]}
        if kinds == {"as_tensor"}:
            return {"as_tensors": [v["as_tensor"] for v in values]}
        if kinds <= {"as_int", "as_sym_int"}:
            return {"as_sym_ints": [v.get("as_sym_int", v) for v in values]}
        fail(lineno, f"unsupported list {text}")
    fail(lineno, f"bad value '{text}'")


def parse_node(line, graph, subgraphs, lineno):
    m = re.fullmatch(r"(.*?)=\s*([\w.:#]+)\((.*)\)\s*:\s*(.*?)\s*(\{.*\})?", line)
    if not m:
        fail(lineno, f"bad node line '{line}'")
    results = [r.strip()[1:] for r in m.group(1).split(",")]
    target = m.group(2)
    if not (target.startswith(("_operator.", "torch.", "#", "math."))):
        target = "torch.ops." + target
    types = split_top(m.group(4))
    if len(types) != len(results):
        fail(lineno, "one type per result expected")
    outputs = []
    for name, ty in zip(results, types):
        if ty.startswith("sym "):
            graph.syms[name] = ty[4:]
            outputs.append({"as_sym_int": {"as_name": name}})
        else:
            graph.tensors[name] = tensor_meta(ty, lineno)
            outputs.append({"as_tensor": {"name": name}})
    inputs = []
    for arg in split_top(m.group(3)):
        name, _, value = arg.partition("=")
        kind = 1
        if name.startswith("*"):
            name, kind = name[1:], 2
        inputs.append({"name": name.strip(), "kind": kind,
                       "arg": parse_value(value, graph, subgraphs, lineno)})
    metadata = json.loads(m.group(5)) if m.group(5) else {}
    graph.nodes.append({"target": target, "inputs": inputs, "outputs": outputs,
                        "metadata": metadata, "is_hop_single_tensor_return": None,
                        "name": results[0]})


def parse_input(text, graph, lineno):
    name, _, ty = text.partition(":")
    name, ty = name.strip(), ty.strip()
    if ty.startswith("sym "):
        graph.syms[name] = ty[4:]
    else:
        graph.tensors[name] = tensor_meta(ty, lineno)
    graph.inputs.append(name)


def main():
    top, subgraphs, current = Graph(), {}, None
    verifiers, ranges = ["ATEN"], {}
    for lineno, raw in enumerate(open(sys.argv[1]), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        m = re.fullmatch(r"subgraph (\w+)\((.*)\)\s*\{", line)
        if m:
            current = Graph()
            subgraphs[m.group(1)] = current
            for item in split_top(m.group(2)):
                parse_input(item, current, lineno)
            continue
        graph = current or top
        if line == "}":
            current = None
        elif line.startswith("return "):
            graph.outputs += [r.strip()[1:] for r in line[7:].split(",")]
        elif line.startswith("input "):
            parse_input(line[6:], graph, lineno)
        elif line.startswith("output "):
            graph.outputs += [r.strip()[1:] for r in line[7:].split(",")]
        elif line.startswith("verifiers "):
            verifiers = line.split()[1:]
        elif line.startswith("range "):
            _, sym, lo, hi = line.split()
            ranges[sym] = {"min_val": int(lo),
                           "max_val": None if hi == "inf" else int(hi)}
        else:
            parse_node(line, graph, subgraphs, lineno)
    top.json()
    for sym in sorted(SYMBOLS):
        ranges.setdefault(sym, {"min_val": 2, "max_val": None})
    in_spec = [1, {"type": "builtins.tuple", "context": "null", "children_spec": [
        {"type": "builtins.tuple", "context": "null",
         "children_spec": [LEAF] * len(top.inputs)},
        {"type": "builtins.dict", "context": "[]", "children_spec": []}]}]
    out_spec = [1, LEAF] if len(top.outputs) == 1 else [1, {
        "type": "builtins.tuple", "context": "null",
        "children_spec": [LEAF] * len(top.outputs)}]
    program = {
        "graph_module": {
            "graph": top.json(),
            "signature": {
                "input_specs": [{"user_input": {"arg": top.ref(n)}} for n in top.inputs],
                "output_specs": [{"user_output": {"arg": top.ref(n)}} for n in top.outputs]},
            "module_call_graph": [{"fqn": "", "signature": {
                "inputs": [], "outputs": [], "in_spec": json.dumps(in_spec),
                "out_spec": json.dumps(out_spec), "forward_arg_names": None}}],
            "metadata": {}, "treespec_namedtuple_fields": {}},
        "opset_version": {"aten": 10}, "range_constraints": ranges,
        "schema_version": {"major": 8, "minor": 19}, "verifiers": verifiers,
        "torch_version": "2.9.0", "guards_code": []}
    json.dump(program, sys.stdout)


if __name__ == "__main__":
    main()
