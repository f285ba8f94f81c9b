#!/usr/bin/env python3
"""Writes the malformed-input corpus of test/malformed/ (run from anywhere).

Every input is derived from one small valid program (BASE below: a graph
input with a symbolic size, an add node, a sym_size node, tensor and symint
tables, a signature and a module call graph with treespecs) by one targeted
change, so each file exercises exactly one way to be wrong. Byte-level
damage (truncation, invalid UTF-8, raw control bytes) is applied to the
JSON text; structural damage to the parsed object, written back the way
torch writes JSON (json.dumps defaults). Archives (*.pt2) are built with
zipfile and patched at the byte level where zipfile refuses to write the
damage (traversal names, lying sizes, encryption flags).

The expected message of every input is checked by test/lit/malformed/*.test
(programs) and test/unit/MalformedInputTest.cpp (archives). Regenerate with
`python3 test/malformed/generate.py` and commit the result; the output is
deterministic. The deep-* and huge-* inputs (tens of megabytes together) are
not committed: the tests make them with `generate.py --large --out DIR`.
"""
import argparse
import copy
import fnmatch
import io
import json
import os
import struct
import zipfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))


def tensor_meta(sizes, strides, dtype=7):
    return {"dtype": dtype, "sizes": sizes, "requires_grad": False,
            "device": {"type": "cpu", "index": None}, "strides": strides,
            "storage_offset": {"as_int": 0}, "layout": 7}


S0 = {"as_expr": {"expr_str": "s0", "hint": {"as_int": 3}}}
LEAF = {"type": None, "context": None, "children_spec": []}
IN_SPEC = json.dumps([1, {"type": "builtins.tuple", "context": "null", "children_spec": [
    {"type": "builtins.tuple", "context": "null", "children_spec": [LEAF]},
    {"type": "builtins.dict", "context": "[]", "children_spec": []}]}])
OUT_SPEC = json.dumps([1, {"type": "builtins.tuple", "context": "null", "children_spec": [LEAF, LEAF]}])

BASE = {
    "graph_module": {
        "graph": {
            "inputs": [{"as_tensor": {"name": "x"}}],
            "outputs": [{"as_tensor": {"name": "add"}}, {"as_sym_int": {"as_name": "sym_size_int"}}],
            "nodes": [
                {"target": "torch.ops.aten.add.Tensor",
                 "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}, "kind": 1},
                            {"name": "other", "arg": {"as_tensor": {"name": "x"}}, "kind": 1},
                            {"name": "alpha", "arg": {"as_int": 2}, "kind": 2}],
                 "outputs": [{"as_tensor": {"name": "add"}}],
                 "metadata": {"stack_trace": "x + x", "seq_nr": "1"},
                 "is_hop_single_tensor_return": None, "name": "add"},
                {"target": "torch.ops.aten.sym_size.int",
                 "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "add"}}, "kind": 1},
                            {"name": "dim", "arg": {"as_int": 0}, "kind": 1}],
                 "outputs": [{"as_sym_int": {"as_name": "sym_size_int"}}],
                 "metadata": {}, "is_hop_single_tensor_return": None, "name": "sym_size_int"},
            ],
            "tensor_values": {
                "x": tensor_meta([S0, {"as_int": 4}], [{"as_int": 4}, {"as_int": 1}]),
                "add": tensor_meta([S0, {"as_int": 4}], [{"as_int": 4}, {"as_int": 1}]),
            },
            "sym_int_values": {"sym_size_int": S0},
            "sym_bool_values": {},
            "is_single_tensor_return": False,
            "custom_obj_values": {},
            "sym_float_values": {},
        },
        "signature": {
            "input_specs": [{"user_input": {"arg": {"as_tensor": {"name": "x"}}}}],
            "output_specs": [{"user_output": {"arg": {"as_tensor": {"name": "add"}}}},
                             {"user_output": {"arg": {"as_sym_int": {"as_name": "sym_size_int"}}}}],
        },
        "module_call_graph": [{"fqn": "", "signature": {
            "inputs": [{"as_tensor": {"name": "x"}}],
            "outputs": [{"as_tensor": {"name": "add"}}, {"as_sym_int": {"as_name": "sym_size_int"}}],
            "in_spec": IN_SPEC, "out_spec": OUT_SPEC, "forward_arg_names": ["x"]}}],
        "metadata": {},
        "treespec_namedtuple_fields": {},
    },
    "opset_version": {"aten": 0},
    "range_constraints": {"s0": {"min_val": 2, "max_val": 1024}},
    "schema_version": {"major": 8, "minor": 19},
    "verifiers": ["ATEN"],
    "torch_version": "2.9.0",
    "guards_code": [],
}

BASE_TEXT = json.dumps(BASE)

# The corpus: file name -> bytes. Filled by the sections below.
FILES = {}


def emit(name, data):
    assert name not in FILES, name
    FILES[name] = data.encode("utf-8") if isinstance(data, str) else data


def is_large(name):
    """Deep and huge inputs are made at test time, not committed."""
    return name.startswith(("deep-", "huge-"))


def mutate(name, change):
    """Applies `change` to a copy of BASE and emits it."""
    program = copy.deepcopy(BASE)
    change(program)
    emit(name, json.dumps(program))


def graph(p):
    return p["graph_module"]["graph"]


def node(p, i):
    return graph(p)["nodes"][i]


def arg(p, i, j):
    return node(p, i)["inputs"][j]


def meta(p, name):
    return graph(p)["tensor_values"][name]


def deep_text(template_open, inner, template_close, depth):
    return template_open * depth + inner + template_close * depth


def with_arg(name, arg_json_text):
    """BASE with the add node's `alpha` argument replaced by raw JSON text."""
    marker = '{"as_int": 2}'
    assert BASE_TEXT.count(marker) == 1
    emit(name, BASE_TEXT.replace(marker, arg_json_text))


# --- the valid base itself (the tests check it is accepted) ---------------
emit("valid-base.json", BASE_TEXT)

# --- truncations at many points -------------------------------------------
CUTS = {
    "empty": 0, "first-byte": 1, "in-first-key": 5, "after-first-key": 15,
    "after-colon": 17, "in-nested-key": 40,
    "in-string-value": BASE_TEXT.index("torch.ops.aten.add") + 10,
    "in-number": BASE_TEXT.index("1024") + 2, "in-literal": BASE_TEXT.index("false") + 3,
    "in-null": BASE_TEXT.index("null") + 2, "after-comma": BASE_TEXT.index(", ") + 1,
    "in-array": BASE_TEXT.index('"outputs": [') + 12, "in-escape": None,
    "before-last-brace": len(BASE_TEXT) - 1, "in-treespec-string": BASE_TEXT.index("in_spec") + 30,
    "in-expr-str": BASE_TEXT.index('"expr_str": "s0"') + 14,
}
for label, cut in CUTS.items():
    if cut is None:
        continue
    emit("truncated-%s.json" % label, BASE_TEXT[:cut])
# An escape cut in the middle, and a multi-byte UTF-8 character cut in two.
escaped = BASE_TEXT.replace('"x + x"', '"x \\u00e9 x"')
emit("truncated-in-escape.json", escaped[:escaped.index("\\u00e9") + 4])
utf8 = BASE_TEXT.replace('"x + x"', '"x \u20ac x"').encode("utf-8")
emit("truncated-in-utf8-sequence.json", utf8[:utf8.index("\u20ac".encode()) + 2])

# --- wrong JSON types -----------------------------------------------------
emit("type-root-array.json", "[" + BASE_TEXT + "]")
emit("type-root-string.json", json.dumps(BASE_TEXT))
mutate("type-graph-module-number.json", lambda p: p.update(graph_module=3))
mutate("type-nodes-object.json", lambda p: graph(p).update(nodes={"0": node(p, 0)}))
mutate("type-node-string.json", lambda p: graph(p)["nodes"].__setitem__(0, "add"))
mutate("type-target-int.json", lambda p: node(p, 0).update(target=7))
mutate("type-as-int-string.json", lambda p: arg(p, 0, 2).update(arg={"as_int": "2"}))
mutate("type-as-ints-nested.json", lambda p: arg(p, 0, 2).update(arg={"as_ints": [[1]]}))
mutate("type-sizes-object.json", lambda p: meta(p, "x").update(sizes={"0": S0}))
mutate("type-requires-grad-int.json", lambda p: meta(p, "x").update(requires_grad=0))
mutate("type-device-type-null.json", lambda p: meta(p, "x")["device"].update(type=None))
mutate("type-metadata-value-int.json", lambda p: node(p, 0)["metadata"].update(seq_nr=1))
mutate("type-opset-version-float.json", lambda p: p["opset_version"].update(aten=0.5))
mutate("type-range-min-string.json", lambda p: p["range_constraints"]["s0"].update(min_val="2"))
mutate("type-in-spec-object.json",
       lambda p: p["graph_module"]["module_call_graph"][0]["signature"].update(in_spec={}))
mutate("type-expr-str-int.json", lambda p: graph(p)["sym_int_values"].update(
    sym_size_int={"as_expr": {"expr_str": 5, "hint": None}}))
mutate("type-guards-code-string.json", lambda p: p.update(guards_code="x.size(0) > 1"))

# --- missing fields -------------------------------------------------------
mutate("missing-graph-module.json", lambda p: p.pop("graph_module"))
mutate("missing-schema-version.json", lambda p: p.pop("schema_version"))
mutate("missing-node-target.json", lambda p: node(p, 0).pop("target"))
mutate("missing-node-outputs.json", lambda p: node(p, 1).pop("outputs"))
mutate("missing-tensor-meta-dtype.json", lambda p: meta(p, "add").pop("dtype"))
mutate("missing-named-argument-arg.json", lambda p: arg(p, 0, 1).pop("arg"))
mutate("missing-user-input-arg.json",
       lambda p: p["graph_module"]["signature"]["input_specs"][0]["user_input"].pop("arg"))
mutate("missing-graph-nodes.json", lambda p: graph(p).pop("nodes"))
mutate("missing-expr-str.json", lambda p: graph(p)["sym_int_values"].update(
    sym_size_int={"as_expr": {"hint": {"as_int": 3}}}))

# --- dangling and duplicate names -----------------------------------------
mutate("dangling-node-input.json", lambda p: arg(p, 0, 1).update(arg={"as_tensor": {"name": "nowhere"}}))
mutate("dangling-graph-output.json", lambda p: graph(p)["outputs"].__setitem__(0, {"as_tensor": {"name": "nowhere"}}))
mutate("dangling-sym-name.json", lambda p: arg(p, 1, 1).update(arg={"as_sym_int": {"as_name": "s_missing"}}))
mutate("dangling-optional-tensors.json", lambda p: arg(p, 0, 2).update(
    arg={"as_optional_tensors": [{"as_none": True}, {"as_tensor": {"name": "nowhere"}}]}))
mutate("duplicate-node-output.json", lambda p: node(p, 1).update(outputs=[{"as_tensor": {"name": "add"}}]))
mutate("duplicate-graph-input.json", lambda p: graph(p)["inputs"].append({"as_tensor": {"name": "x"}}))
mutate("duplicate-output-in-one-node.json", lambda p: node(p, 0).update(
    outputs=[{"as_tensors": [{"name": "add"}, {"name": "add"}]}]))
emit("duplicate-key-in-node.json", BASE_TEXT.replace('"name": "add"}, {"target"', '"name": "add", "name": "again"}, {"target"', 1))
emit("duplicate-tensor-values-entry.json",
     BASE_TEXT.replace('"tensor_values": {"x": ', '"tensor_values": {"add": %s, "x": ' % json.dumps(BASE["graph_module"]["graph"]["tensor_values"]["add"]), 1))

# --- use before definition and cycles --------------------------------------
def swap_nodes(p):
    nodes = graph(p)["nodes"]
    nodes[0], nodes[1] = nodes[1], nodes[0]
mutate("use-before-def-swapped-nodes.json", swap_nodes)
mutate("cycle-self-use.json", lambda p: arg(p, 0, 1).update(arg={"as_tensor": {"name": "add"}}))
def two_node_cycle(p):
    # add uses sym_size_int (defined by the next node), which uses add.
    arg(p, 0, 2).update(arg={"as_sym_int": {"as_name": "sym_size_int"}})
mutate("cycle-two-nodes.json", two_node_cycle)


def subgraph_use_before_def(p):
    # A subgraph whose first node reads the value its second node defines.
    body = {"inputs": [{"as_tensor": {"name": "a"}}], "outputs": [{"as_tensor": {"name": "c"}}],
            "nodes": [{"target": "torch.ops.aten.neg.default",
                       "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "b"}}, "kind": 1}],
                       "outputs": [{"as_tensor": {"name": "c"}}], "metadata": {},
                       "is_hop_single_tensor_return": None, "name": "c"},
                      {"target": "torch.ops.aten.neg.default",
                       "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "a"}}, "kind": 1}],
                       "outputs": [{"as_tensor": {"name": "b"}}], "metadata": {},
                       "is_hop_single_tensor_return": None, "name": "b"}],
            "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {},
            "is_single_tensor_return": False, "custom_obj_values": {}, "sym_float_values": {}}
    arg(p, 0, 2).update(arg={"as_graph": {"name": "body", "graph": body}})
mutate("use-before-def-in-subgraph.json", subgraph_use_before_def)
mutate("dangling-outer-value-in-subgraph.json", lambda p: (subgraph_use_before_def(p), arg(p, 0, 2)["arg"]["as_graph"]["graph"]["nodes"][1]["inputs"][0].update(arg={"as_tensor": {"name": "x"}}), arg(p, 0, 2)["arg"]["as_graph"]["graph"]["nodes"].reverse()))

# --- bad unions and enums --------------------------------------------------
mutate("union-empty-argument.json", lambda p: arg(p, 0, 2).update(arg={}))
mutate("union-two-members.json", lambda p: arg(p, 0, 2).update(arg={"as_int": 2, "as_float": 2.0}))
mutate("union-input-spec-two-kinds.json", lambda p: p["graph_module"]["signature"]["input_specs"][0].update(
    parameter={"arg": {"as_name": "x"}, "parameter_name": "w"}))
mutate("union-symint-unknown-member.json", lambda p: meta(p, "x")["sizes"].__setitem__(0, {"as_float": 3.0}))
mutate("union-optional-tensor-unknown-member.json",
       lambda p: arg(p, 0, 2).update(arg={"as_optional_tensor": {"as_int": 1}}))
mutate("union-output-spec-not-object.json",
       lambda p: p["graph_module"]["signature"]["output_specs"].__setitem__(0, ["user_output"]))
mutate("enum-dtype-99.json", lambda p: meta(p, "x").update(dtype=99))
mutate("enum-layout-negative.json", lambda p: meta(p, "add").update(layout=-1))
mutate("enum-memory-format-1000.json", lambda p: arg(p, 0, 2).update(arg={"as_memory_format": 1000}))
mutate("enum-argument-kind-7.json", lambda p: arg(p, 0, 2).update(kind=7))
mutate("enum-scalar-type-string.json", lambda p: arg(p, 0, 2).update(arg={"as_scalar_type": "float32"}))

# --- integers past 64 bits -------------------------------------------------
with_arg("int-2pow64.json", '{"as_int": 18446744073709551616}')
with_arg("int-2pow63.json", '{"as_int": 9223372036854775808}')
with_arg("int-below-int64-min.json", '{"as_int": -9223372036854775809}')
with_arg("int-100-digits.json", '{"as_int": %s}' % ("9" * 100))
with_arg("int-in-list-past-64-bits.json", '{"as_ints": [1, 36893488147419103232]}')
emit("int-size-past-64-bits.json", BASE_TEXT.replace('"sizes": [{"as_expr": {"expr_str": "s0", "hint": {"as_int": 3}}}, {"as_int": 4}]',
                                                       '"sizes": [{"as_int": 99999999999999999999}, {"as_int": 4}]', 1))
emit("int-range-max-past-64-bits.json", BASE_TEXT.replace('"max_val": 1024', '"max_val": 18446744073709551617'))
with_arg("float-past-double.json", '{"as_float": 1e400}')

# --- invalid UTF-8 and control bytes ---------------------------------------
raw = BASE_TEXT.encode("utf-8")
emit("utf8-stray-continuation.json", raw.replace(b'"x + x"', b'"x \x80 x"'))
emit("utf8-overlong-slash.json", raw.replace(b'"x + x"', b'"x \xc0\xaf x"'))
emit("utf8-surrogate-encoded.json", raw.replace(b'"x + x"', b'"x \xed\xa0\x80 x"'))
emit("utf8-past-u10ffff.json", raw.replace(b'"x + x"', b'"x \xf4\x90\x80\x80 x"'))
emit("utf8-in-key.json", raw.replace(b'"seq_nr"', b'"seq\xffnr"'))
emit("utf8-lone-surrogate-escape.json", raw.replace(b'"x + x"', b'"x \\ud800 x"'))
emit("control-byte-in-string.json", raw.replace(b'"x + x"', b'"x \x01 x"'))
emit("nul-byte-in-string.json", raw.replace(b'"x + x"', b'"x \x00 x"'))

# --- deep nesting ------------------------------------------------------------
N = 100000
emit("deep-arrays-root.json", "[" * N + "]" * N)
emit("deep-arrays-unterminated.json", "[" * N)
emit("deep-objects-in-unknown-field.json", BASE_TEXT[:-1] + ', "future_field": ' + '{"a": ' * N + "1" + "}" * N + "}")
with_arg("deep-arrays-in-unknown-argument.json", '{"as_future": ' + "[" * N + "]" * N + "}")
with_arg("deep-string-to-argument.json",
         deep_text('{"as_string_to_argument": {"k": ', '{"as_int": 1}', "}}", 10000))
with_arg("deep-arrays-in-as-ints.json", '{"as_ints": ' + "[" * N + "]" * N + "}")
emit("deep-arrays-in-metadata.json", BASE_TEXT.replace('"seq_nr": "1"', '"seq_nr": ' + "[" * N + "]" * N, 1))


def nested_subgraphs(depth):
    """A node whose as_graph argument holds a graph whose node holds ..."""
    inner = {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {}, "sym_int_values": {},
             "sym_bool_values": {}, "is_single_tensor_return": False, "custom_obj_values": {},
             "sym_float_values": {}}
    text = json.dumps(inner)
    head = ('{"inputs": [], "outputs": [], "nodes": [{"target": "torch.ops.higher_order.wrap", '
            '"inputs": [{"name": "", "arg": {"as_graph": {"name": "g", "graph": ')
    tail = ('}}, "kind": 1}], "outputs": [], "metadata": {}, "is_hop_single_tensor_return": null, '
            '"name": "wrap"}], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}, '
            '"is_single_tensor_return": false, "custom_obj_values": {}, "sym_float_values": {}}')
    return head * depth + text + tail * depth


with_arg("deep-subgraphs.json",
         '{"as_graph": {"name": "g", "graph": ' + nested_subgraphs(2000) + "}}")
# Just inside the limits: accepted, and every later stage (printer, writer,
# clone, verifier, passes) must cope with the depth without recursing away.
# (The add node's argument holds the first subgraph, so nested_subgraphs(n)
# makes n + 1 levels; the reader accepts 64.)
with_arg("deep-subgraphs-at-limit.json",
         '{"as_graph": {"name": "g", "graph": ' + nested_subgraphs(63) + "}}")
with_arg("deep-subgraphs-past-limit.json",
         '{"as_graph": {"name": "g", "graph": ' + nested_subgraphs(64) + "}}")
with_arg("deep-string-to-argument-at-limit.json",
         deep_text('{"as_string_to_argument": {"k": ', '{"as_int": 1}', "}}", 512))
emit("deep-expr-str.json", BASE_TEXT.replace('"expr_str": "s0"', '"expr_str": "%s"' % ("(" * 5000 + "s0" + ")" * 5000), 1))
emit("deep-treespec.json", BASE_TEXT.replace(json.dumps(OUT_SPEC), json.dumps(
    '[1, ' + '{"type": "builtins.tuple", "context": "null", "children_spec": [' * 3000 +
    '{"type": null, "context": null, "children_spec": []}' + ']}' * 3000 + ']'), 1))

# --- huge strings and arrays (accepted: no quadratic time, no blow-up) -------
emit("huge-string.json", BASE_TEXT.replace('"x + x"', json.dumps("x" * (4 << 20)), 1))
with_arg("huge-int-list.json", '{"as_ints": [' + ", ".join(["7"] * 500000) + "]}")
emit("huge-node-count.json", BASE_TEXT.replace(
    '"nodes": [', '"nodes": [' + "".join(
        '{"target": "torch.ops.aten.zeros.default", "inputs": [], "outputs": [{"as_tensor": {"name": "z%d"}}], '
        '"metadata": {}, "is_hop_single_tensor_return": null, "name": "z%d"}, ' % (i, i) for i in range(50000)), 1))
emit("huge-key-count.json", BASE_TEXT.replace('"metadata": {"stack_trace"', '"metadata": {' + "".join(
    '"k%d": "v", ' % i for i in range(200000)) + '"stack_trace"', 1))


# --- archives ----------------------------------------------------------------
def zip_bytes(members, compression=zipfile.ZIP_STORED):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as z:
        for name, data in members:
            info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
            info.compress_type = compression
            z.writestr(info, data)
    return buffer.getvalue()


def pt2_members(program=BASE_TEXT, root="archive"):
    return [(root + "/archive_format", "pt2"), (root + "/archive_version", "0"),
            (root + "/.data/version", "6\n"), (root + "/byteorder", "little"),
            (root + "/models/model.json", program)]


def rename_member(data, old, new):
    """Renames a member in place (same length), in local and central headers."""
    assert len(old) == len(new)
    assert data.count(old.encode()) == 2, old
    return data.replace(old.encode(), new.encode())


def patch_central(data, name, offset_in_header, fmt, value):
    """Overwrites a field of the central directory header of member `name`."""
    at = data.rfind(b"PK\x01\x02", 0, data.rfind(name.encode()))
    return data[:at + offset_in_header] + struct.pack(fmt, value) + data[at + offset_in_header + struct.calcsize(fmt):]


def patch_local(data, name, offset_in_header, fmt, value):
    at = data.rfind(b"PK\x03\x04", 0, data.find(name.encode()))
    return data[:at + offset_in_header] + struct.pack(fmt, value) + data[at + offset_in_header + struct.calcsize(fmt):]


good = zip_bytes(pt2_members())
emit("archive-valid.pt2", good)
emit("archive-not-a-zip.pt2", BASE_TEXT)
emit("archive-empty-file.pt2", b"")
emit("archive-truncated-half.pt2", good[:len(good) // 2])
emit("archive-truncated-directory.pt2", good[:-10])
emit("archive-path-traversal.pt2", rename_member(zip_bytes(pt2_members() + [("archive/aaaaa/evil", "x")]),
                                                 "archive/aaaaa/evil", "archive/../../evil"))
emit("archive-dot-component.pt2", rename_member(zip_bytes(pt2_members() + [("archive/x/a/y", "x")]),
                                                "archive/x/a/y", "archive/x/./y"))
emit("archive-absolute-path.pt2", rename_member(zip_bytes(pt2_members() + [("xarchive/abs", "x")]),
                                                "xarchive/abs", "/archive/abs"))
emit("archive-backslash-path.pt2", rename_member(zip_bytes(pt2_members() + [("archive/a/b", "x")]),
                                                 "archive/a/b", "archive\\a\\b"))
emit("archive-duplicate-entry.pt2", rename_member(zip_bytes(pt2_members() + [("archive/extra/a", "1"), ("archive/extra/b", "2")]),
                                                  "archive/extra/b", "archive/extra/a"))
# A deflated entry whose ZIP64 record claims 20 GiB uncompressed (over the
# 16 GiB entry limit, like a zip bomb): the 32-bit size says 0xFFFFFFFF, the
# extra field (id 0x0001) holds the 64-bit size.
zip64 = struct.pack("<HHQ", 0x0001, 8, 20 << 30)
buffer = io.BytesIO()
with zipfile.ZipFile(buffer, "w") as z:
    for name, data in pt2_members():
        z.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), data)
    info = zipfile.ZipInfo("archive/extra/big", date_time=(2024, 1, 1, 0, 0, 0))
    info.extra = zip64
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, "tiny")
emit("archive-oversize-entry.pt2", patch_central(buffer.getvalue(), "archive/extra/big", 24, "<I", 0xFFFFFFFF))
# A deflated entry whose data inflates to more than the header declares.
bomb = zip_bytes(pt2_members() + [("archive/extra/bomb", "z" * 100000)], zipfile.ZIP_DEFLATED)
emit("archive-inflates-past-declared-size.pt2",
     patch_local(patch_central(bomb, "archive/extra/bomb", 24, "<I", 1000), "archive/extra/bomb", 22, "<I", 1000))
emit("archive-bad-crc.pt2", patch_local(patch_central(good, "archive/models/model.json", 16, "<I", 0x12345678),
                                        "archive/models/model.json", 14, "<I", 0x12345678))
emit("archive-encrypted-flag.pt2", patch_local(patch_central(good, "archive/models/model.json", 8, "<H", 1),
                                               "archive/models/model.json", 6, "<H", 1))
emit("archive-unknown-method.pt2", patch_local(patch_central(good, "archive/models/model.json", 10, "<H", 99),
                                               "archive/models/model.json", 8, "<H", 99))
emit("archive-two-top-level-folders.pt2", zip_bytes(pt2_members() + [("other/file", "x")]))
emit("archive-wrong-format.pt2", zip_bytes([(n, "zip" if n.endswith("archive_format") else d) for n, d in pt2_members()]))
emit("archive-wrong-version.pt2", zip_bytes([(n, "7" if n.endswith("archive_version") else d) for n, d in pt2_members()]))
emit("archive-malformed-program.pt2", zip_bytes(pt2_members(program=BASE_TEXT[:100])))
emit("archive-broken-weights-config.pt2", zip_bytes(pt2_members() + [
    ("archive/data/weights/model_weights_config.json", '{"config": ' + "[" * 5000 + "]" * 5000 + "}")]))
emit("archive-config-names-missing-payload.pt2", zip_bytes(pt2_members() + [
    ("archive/data/weights/model_weights_config.json",
     json.dumps({"config": {"w": {"path_name": "weight_0", "is_param": True, "use_pickle": False,
                                  "tensor_meta": {"dtype": 7, "sizes": [{"as_int": 4}]}}}}))]))
emit("archive-config-path-traversal.pt2", zip_bytes(pt2_members() + [
    ("archive/data/weights/model_weights_config.json",
     json.dumps({"config": {"w": {"path_name": "../../../etc/passwd", "is_param": True, "use_pickle": False,
                                  "tensor_meta": {"dtype": 7, "sizes": [{"as_int": 4}]}}}}))]))


# --- The text form (*.pt2ir): each a one-place change of a small hand-written
# program; test/lit/malformed/text.test checks the messages.
TEXT_BASE = """graph(%x: f32[2, 3]) {
  %relu = aten.relu.default(%x) : f32[2, 3]
  return %relu
}
"""
TEXT_RELU = "aten.relu.default(%x)"
for _name, _text in [
    ("valid-base", TEXT_BASE),
    ("truncated", TEXT_BASE[:60]),
    ("empty", ""),
    ("unterminated-string", 'program schema 8.19 torch "2.5\n' + TEXT_BASE),
    ("bad-escape", 'program schema 8.19 torch "2\\q" verifiers []\n' + TEXT_BASE),
    ("nul-byte", TEXT_BASE.replace("%relu = ", "%relu\0 = ", 1)),
    ("undefined-value", TEXT_BASE.replace(TEXT_RELU, "aten.relu.default(%y)")),
    ("defined-twice", TEXT_BASE.replace(
        "  return", "  %relu = aten.relu.default(%x) : f32[2, 3]\n  return")),
    ("use-before-def", TEXT_BASE.replace(
        "  %relu = aten.relu.default(%x) : f32[2, 3]\n",
        "  %a = aten.relu.default(%b) : f32[2, 3]\n"
        "  %b = aten.relu.default(%x) : f32[2, 3]\n").replace("return %relu", "return %a")),
    ("unknown-dtype", TEXT_BASE.replace("%x: f32[2, 3]", "%x: f33[2, 3]")),
    ("int-overflow", TEXT_BASE.replace(
        "%x: f32[2, 3]", "%x: f32[2, 3]{offset=99999999999999999999}")),
    ("missing-return", TEXT_BASE.replace("  return %relu\n", "")),
    ("unknown-section", TEXT_BASE + "frobnicate {\n}\n"),
    ("too-many-positionals", TEXT_BASE.replace(TEXT_RELU, "aten.relu.default(%x, %x)")),
    ("result-type-count", TEXT_BASE.replace(": f32[2, 3]\n", ": f32[2, 3], f32[2, 3]\n")),
    ("unknown-tensor-attribute", TEXT_BASE.replace(
        "%x: f32[2, 3]", "%x: f32[2, 3]{colour=1}")),
    ("untagged-nested-list", TEXT_BASE.replace(
        TEXT_RELU, "aten.relu.default(%x, foo=[[1], [2]])")),
    ("bad-device-index", TEXT_BASE.replace(
        "%x: f32[2, 3]", '%x: f32[2, 3]{device="cuda:zero"}')),
    ("missing-graph", 'program schema 8.19 torch "2.5.0" verifiers []\n'),
    ("deep-nesting", TEXT_BASE.replace(
        TEXT_RELU, "aten.relu.default(%x, foo=" + "[" * 200 + "]" * 200 + ")")),
    ("stray-byte", TEXT_BASE.replace("return %relu", "return %relu $")),
    ("unknown-argument-kind", TEXT_BASE.replace(
        TEXT_RELU, "aten.relu.default(as_tensorz(%x))")),
]:
    emit("text-%s.pt2ir" % _name, _text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--large", action="store_true",
                        help="write only the deep-* and huge-* inputs (made at test time)")
    parser.add_argument("--out", default=HERE, help="output folder (default: test/malformed)")
    parser.add_argument("--only", default="*", help="write only the files matching this glob")
    options = parser.parse_args()
    chosen = {n: d for n, d in FILES.items()
              if is_large(n) == options.large and fnmatch.fnmatch(n, options.only)}
    os.makedirs(options.out, exist_ok=True)
    if not options.large and options.only == "*" and os.path.abspath(options.out) == HERE:
        for stale in os.listdir(HERE):
            if stale.endswith((".json", ".pt2", ".pt2ir")) and stale not in chosen:
                os.remove(os.path.join(HERE, stale))
    for name, data in sorted(chosen.items()):
        with open(os.path.join(options.out, name), "wb") as f:
            f.write(data)
    programs = sum(1 for n in chosen if n.endswith(".json"))
    texts = sum(1 for n in chosen if n.endswith(".pt2ir"))
    print("%d programs, %d text programs, %d archives in %s"
          % (programs, texts, len(chosen) - programs - texts, options.out))


if __name__ == "__main__":
    main()
