"""Inspecting a program: nodes, arguments, metadata, values, signature."""

import pt2ir


def test_nodes_in_program_order(mlp):
    names = [n.name for n in mlp.graph.nodes]
    assert names == ["t", "addmm", "relu", "t_1", "addmm_1", "relu_1", "t_2",
                     "addmm_2", "relu_2", "t_3", "addmm_3", "_log_softmax"]
    assert [n.name for n in mlp.graph] == names
    assert len(mlp.graph) == 12


def test_target_args_and_kwargs(mlp, dyn_mlp):
    addmm = mlp.graph.find_node("addmm")
    assert addmm.op == "call_function"
    assert addmm.target == "torch.ops.aten.addmm.default"
    bias, inp, weight_t = addmm.args
    assert [v.name for v in addmm.args] == ["p_body_0_bias", "input", "t"]
    assert isinstance(bias, pt2ir.Value)
    assert weight_t.node == mlp.graph.find_node("t")
    assert addmm.kwargs == {}
    assert addmm.arg_names == ["self", "mat1", "mat2"]
    softmax = mlp.graph.find_node("_log_softmax")
    assert softmax.args[1:] == (-1, False)
    # Symbolic values are Values too; int lists stay lists.
    view = dyn_mlp.graph.find_node("view")
    shape = view.args[1]
    assert isinstance(shape[0], pt2ir.Value) and shape[0].type == "SymInt"
    assert shape[0].name == "sym_size"
    zeros = dyn_mlp.graph.find_node("zeros")
    assert zeros.kwargs == {"device": "cpu", "pin_memory": False}
    size = zeros.args[0]
    assert size[1] == 8 and size[0].name == "add" and size[0].node.target == "_operator.add"


def test_meta_is_decoded(mlp):
    meta = mlp.graph.find_node("addmm").meta
    assert meta["stack_trace"].startswith('File "/opt/conda/lib/python3.11/site-packages/torch/nn/modules/container.py"')
    assert meta["nn_module_stack"] == {
        "L__self__": ("", "torch.nn.modules.container.Sequential"),
        "L__self___body": ("body", "torch.nn.modules.container.Sequential"),
        "L__self___body_0": ("body.0", "torch.nn.modules.linear.Linear"),
    }
    assert meta["source_fn_stack"] == [("body_0", "torch.nn.modules.linear.Linear")]


def test_custom_meta_is_json_decoded(mlp):
    node = mlp.graph.find_node("relu")
    node.set_meta("custom", '{"quantization_tag": "static", "n": [1, 2]}')
    assert node.meta["custom"] == {"quantization_tag": "static", "n": [1, 2]}
    node.set_meta("custom", "{not json")
    assert node.meta["custom"] == "{not json"


def test_users_and_value_node(mlp):
    g = mlp.graph
    addmm = g.find_node("addmm")
    assert addmm.users == [g.find_node("relu")]
    assert g.find_node("_log_softmax").users == []  # read by the graph output only
    value = addmm.value
    assert value.node == addmm
    assert value.users == [g.find_node("relu")]
    assert addmm.outputs == [value]
    weight = g.find_value("p_body_0_weight")
    assert weight.is_input and weight.node is None
    assert g.outputs == [g.find_node("_log_softmax").value]


def test_value_dtype_and_shape(mlp, dyn_mlp):
    addmm = mlp.graph.find_node("addmm").value
    assert addmm.type == "Tensor"
    assert addmm.dtype == pt2ir.ScalarType.FLOAT
    assert addmm.shape == [4, 64]
    assert addmm.strides == [64, 1]
    assert addmm.device == "cpu"
    assert addmm.requires_grad is True
    # Written as Symbol('s0', positive=True, integer=True) in the file.
    x = dyn_mlp.graph.find_value("x")
    assert x.shape == ["s0", 4, 4]
    assert x.strides == [16, 4, 1]
    sym = dyn_mlp.graph.find_value("sym_size")
    assert sym.type == "SymInt" and sym.expr == "s0" and sym.dtype is None and sym.shape is None


def test_signature_by_kind(dyn_mlp):
    sig = dyn_mlp.signature
    assert [s.target for s in sig.parameters] == [
        "fc1.weight", "fc1.bias", "bn.weight", "bn.bias", "fc2.weight", "fc2.bias"]
    assert [s.target for s in sig.buffers] == [
        "bn.running_mean", "bn.running_var", "bn.num_batches_tracked"]
    assert all(s.persistent for s in sig.buffers)
    assert [s.name for s in sig.user_inputs] == ["x"]
    assert sig.user_inputs[0].value == dyn_mlp.graph.find_value("x")
    assert len(sig.input_specs) == 10
    assert [s.kind for s in sig.output_specs] == ["user_output", "user_output"]
    assert sig.user_outputs == sig.output_specs or len(sig.user_outputs) == 2
    assert sig.inputs_of("parameter")[0].value.shape == [32, 16]


def test_range_constraints_and_module_call_graph(mlp, dyn_mlp):
    assert dyn_mlp.range_constraints == {"s0": (2, None)}
    assert mlp.range_constraints == {}
    calls = mlp.module_call_graph
    assert [c.fqn for c in calls][:3] == ["", "body", "body.0"]
    root = calls[0]
    assert root.inputs == [] and root.outputs == []
    assert root.forward_arg_names == ["input"]
    assert root.in_spec.startswith("[1,")
    assert calls[1].in_spec is None
    assert mlp.schema_version == (8, 19)
    assert mlp.torch_version == "2.9.0"
    assert mlp.verifiers == ["ATEN"]


def test_subgraphs_of_higher_order_ops(corpus):
    program = pt2ir.load(str(corpus / "ops_zoo.json"))
    parents = [n for n in program.graph.nodes if n.subgraphs]
    for node in parents:
        for sub in node.subgraphs:
            assert sub.parent == node
            assert all(n.graph == sub for n in sub.nodes)
