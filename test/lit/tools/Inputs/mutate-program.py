"""Writes a changed copy of a program JSON, for pt2-diff tests.

Usage: mutate-program.py IN OUT MUTATION...

Mutations (applied in order):
  rename:OLD:NEW        rename a value/node everywhere (value tables too)
  const:NODE:INPUT:INT  set an as_int input of a node
  insert-neg:VALUE      add `neg = aten.neg.default(VALUE)` after VALUE's
                        producer and make every later reader use it
  bypass:NODE           delete a one-input node; its readers read its input
  shape:VALUE:D0,D1     set a tensor value's sizes
  meta:NODE:KEY:TEXT    set node metadata
  range:SYM:MIN:MAX     set a range constraint (`inf` for none)
  buffer-nonpersistent:TARGET
  retarget:OLD:NEW      replace a node target everywhere (subgraphs too)
  zip:MODEL=FILE,...    (alone) write an archive OUT with these models
"""
import copy, json, sys, zipfile


def walk_names(obj, old, new):
    if isinstance(obj, dict):
        out = {}
        for k, v in obj.items():
            key = new if k == old else k
            if k in ("name", "as_name") and v == old:
                out[key] = new
            else:
                out[key] = walk_names(v, old, new)
        return out
    if isinstance(obj, list):
        return [walk_names(v, old, new) for v in obj]
    return obj


def node_named(graph, name):
    for n in graph["nodes"]:
        if n.get("name") == name:
            return n
    raise SystemExit("no node " + name)


def replace_reads(obj, old, new):
    """Renames value references (not definitions) inside node inputs."""
    if isinstance(obj, dict):
        return {k: (new if k in ("name", "as_name") and v == old else replace_reads(v, old, new))
                for k, v in obj.items()}
    if isinstance(obj, list):
        return [replace_reads(v, old, new) for v in obj]
    return obj


def main():
    src, out, *mutations = sys.argv[1:]
    if src == "zip":
        root = "models_pt2"
        z = zipfile.ZipFile(out, "w")
        z.writestr(root + "/archive_format", "pt2")
        z.writestr(root + "/archive_version", "0")
        for item in mutations:
            model, path = item.split("=", 1)
            z.writestr(root + "/models/" + model + ".json", open(path, "rb").read())
        z.close()
        return
    prog = json.load(open(src))
    for m in mutations:
        kind, *args = m.split(":")
        graph = prog["graph_module"]["graph"]
        if kind == "rename":
            prog = walk_names(prog, args[0], args[1])
        elif kind == "const":
            node = node_named(graph, args[0])
            for i in node["inputs"]:
                if i["name"] == args[1]:
                    i["arg"] = {"as_int": int(args[2])}
        elif kind == "insert-neg":
            value = args[0]
            nodes = graph["nodes"]
            pos = next(i for i, n in enumerate(nodes)
                       if any(o.get("as_tensor", {}).get("name") == value for o in n["outputs"]))
            for n in nodes[pos + 1:]:
                n["inputs"] = replace_reads(n["inputs"], value, "neg")
            graph["outputs"] = replace_reads(graph["outputs"], value, "neg")
            nodes.insert(pos + 1, {"target": "torch.ops.aten.neg.default",
                                   "inputs": [{"name": "self", "arg": {"as_tensor": {"name": value}}, "kind": 1}],
                                   "outputs": [{"as_tensor": {"name": "neg"}}], "metadata": {},
                                   "is_hop_single_tensor_return": None, "name": "neg"})
            graph["tensor_values"]["neg"] = copy.deepcopy(graph["tensor_values"][value])
        elif kind == "bypass":
            node = node_named(graph, args[0])
            source = node["inputs"][0]["arg"]["as_tensor"]["name"]
            graph["nodes"].remove(node)
            for n in graph["nodes"]:
                n["inputs"] = replace_reads(n["inputs"], args[0], source)
            graph["outputs"] = replace_reads(graph["outputs"], args[0], source)
            del graph["tensor_values"][args[0]]
        elif kind == "shape":
            sizes = [int(d) for d in args[1].split(",")]
            tv = graph["tensor_values"][args[0]]
            tv["sizes"] = [{"as_int": d} for d in sizes]
        elif kind == "meta":
            node_named(graph, args[0])["metadata"][args[1]] = ":".join(args[2:])
        elif kind == "range":
            lo = None if args[1] == "inf" else int(args[1])
            hi = None if args[2] == "inf" else int(args[2])
            prog["range_constraints"][args[0]] = {"min_val": lo, "max_val": hi}
        elif kind == "buffer-nonpersistent":
            for spec in prog["graph_module"]["signature"]["input_specs"]:
                if "buffer" in spec and spec["buffer"]["buffer_name"] == args[0]:
                    spec["buffer"]["persistent"] = False
        elif kind == "retarget":
            prog = json.loads(json.dumps(prog).replace(json.dumps(args[0]), json.dumps(args[1])))
        else:
            raise SystemExit("unknown mutation " + kind)
    with open(out, "w") as f:
        json.dump(prog, f)


main()
