"""Drops one user output (graph output, output spec and out_spec leaf) of a
program, so the nodes that only computed it become dead.
Usage: drop-output.py IN.json INDEX > OUT.json"""
import json
import sys

program = json.load(open(sys.argv[1]))
index = int(sys.argv[2])
module = program["graph_module"]
module["graph"]["outputs"].pop(index)
module["signature"]["output_specs"].pop(index)
for entry in module["module_call_graph"]:
    if entry["fqn"] == "" and entry["signature"]:
        spec = json.loads(entry["signature"]["out_spec"])
        children = spec[1]["children_spec"]
        children.pop(index)
        if len(children) == 1:
            spec = [spec[0], children[0]]
        entry["signature"]["out_spec"] = json.dumps(spec)
json.dump(program, sys.stdout)
