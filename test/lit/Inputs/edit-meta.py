"""Hand-edits the recorded metadata of one value of a program, for the
meta-mismatch tests: edit-meta.py IN OUT VALUE FIELD [INDEX] NEW.

FIELD is dtype (NEW an integer ScalarType), size or stride (INDEX the
dimension, NEW an integer or an expression string), or sym (a sym_int_values
entry; NEW an integer or an expression). Expressions are written in the
form the program already uses for its expressions."""
import json
import sys


def sym(text, srepr):
    try:
        return {"as_int": int(text)}
    except ValueError:
        return {"as_expr": {"expr_str": text, "hint": None}}


def find_graph_with(graph, name, table):
    if name in graph.get(table, {}):
        return graph
    for node in graph["nodes"]:
        for inp in node["inputs"]:
            sub = inp["arg"].get("as_graph")
            if sub:
                g = find_graph_with(sub["graph"], name, table)
                if g:
                    return g
    return None


def main(argv):
    src, dst, value, field = argv[1:5]
    rest = argv[5:]
    with open(src) as f:
        program = json.load(f)
    table = "sym_int_values" if field == "sym" else "tensor_values"
    graph = find_graph_with(program["graph_module"]["graph"], value, table)
    if graph is None:
        sys.exit("edit-meta.py: no %s entry '%s'" % (table, value))
    entry = graph[table][value]
    if field == "dtype":
        entry["dtype"] = int(rest[0])
    elif field in ("size", "stride"):
        key = "sizes" if field == "size" else "strides"
        entry[key][int(rest[0])] = sym(rest[1], False)
    elif field == "rank":
        entry["sizes"] = entry["sizes"][: int(rest[0])]
        entry["strides"] = entry["strides"][: int(rest[0])]
    elif field == "sym":
        graph[table][value] = sym(rest[0], False)
    else:
        sys.exit("edit-meta.py: unknown field " + field)
    with open(dst, "w") as f:
        json.dump(program, f)


if __name__ == "__main__":
    main(sys.argv)
