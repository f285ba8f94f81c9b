"""Changing a program with torch.fx's names, passes, the verifier, registries."""

import json

import pytest

import pt2ir


def test_inserting_before_and_after(mlp):
    g = mlp.graph
    relu = g.find_node("relu")
    with g.inserting_before(relu):
        a = g.call_function("aten::neg", (relu.args[0],), meta_like=relu)
    with g.inserting_after(relu):
        b = g.call_function("torch.ops.aten.neg.default", (relu,), meta_like=relu)
        c = g.call_function("aten::neg", (b,), meta_like=relu)
    names = [n.name for n in g.nodes]
    assert names[:7] == ["t", "addmm", a.name, "relu", b.name, c.name, "t_1"]
    # Named after the operator, made unique in the graph.
    assert a.name == "neg" and len({a.name, b.name, c.name}) == 3
    assert b.name.startswith("neg_") and c.name.startswith("neg_")
    assert a.target == "torch.ops.aten.neg.default"
    assert c.args == (b.value,)
    # Outside any block, nodes are appended.
    d = g.call_function("aten::neg", (c,), meta_like=relu)
    assert g.nodes[-1] == d


def test_call_function_kwargs_and_schema_errors(mlp):
    g = mlp.graph
    relu = g.find_node("relu")
    add = g.call_function("aten::add.Tensor", (relu, relu), {"alpha": 2}, meta_like=relu, name="twice")
    assert add.name == "twice"
    assert add.kwargs == {"alpha": 2}
    assert add.arg_names == ["self", "other", "alpha"]
    with pytest.raises(pt2ir.GraphError, match="no schema is registered for 'torch.ops.aten.no_such_op.default'"):
        g.call_function("aten::no_such_op", (relu,))
    with pytest.raises(pt2ir.GraphError, match="argument 'other' of type 'Tensor' cannot take a list"):
        g.call_function("aten::add.Tensor", (relu, [1, 2]), meta_like=relu)
    with pytest.raises(pt2ir.GraphError, match="argument 'other' is missing"):
        g.call_function("aten::add.Tensor", (relu,), meta_like=relu)
    with pytest.raises(pt2ir.GraphError, match="cannot pass a object"):
        g.call_function("aten::neg", (object(),))
    assert len(g) == 13


def test_replace_all_uses_with_follows_the_signature(mlp):
    g = mlp.graph
    out = g.find_node("_log_softmax")
    with g.inserting_after(out):
        neg = g.call_function("aten::neg", (out,), meta_like=out)
    changed = out.replace_all_uses_with(neg)
    assert changed == []  # only the graph output read it
    # The new node still reads the old one; the graph output and the
    # signature now name the new value.
    assert neg.args == (out.value,)
    assert g.outputs == [neg.value]
    assert [s.name for s in mlp.signature.user_outputs] == ["neg"]
    assert not [d for d in mlp.verify() if d.severity == "error"]


def test_erase_node_and_dead_code(mlp):
    g = mlp.graph
    relu = g.find_node("relu")
    with pytest.raises(pt2ir.GraphError, match="cannot erase node 'relu': its value 'relu' is still used by node 't_1'|addmm_1"):
        g.erase_node(relu)
    with g.inserting_after(relu):
        dead = g.call_function("aten::neg", (relu,), meta_like=relu)
        dead2 = g.call_function("aten::neg", (dead,), meta_like=relu)
    assert g.eliminate_dead_code() is True
    assert dead.is_erased and dead2.is_erased
    assert g.eliminate_dead_code() is False
    assert len(g) == 12
    unused = g.call_function("aten::neg", (relu,), meta_like=relu)
    g.erase_node(unused)
    assert unused.is_erased
    assert len(g) == 12


def test_run_passes_returns_statistics(mlp):
    g = mlp.graph
    relu = g.find_node("relu")
    g.call_function("aten::neg", (relu,), meta_like=relu)
    runs = mlp.run_passes("dce")
    assert [r.name for r in runs] == ["dce"]
    assert runs[0].changed is True
    assert runs[0].statistics["nodes-erased"] == 1 or 1 in runs[0].statistics.values()
    assert len(g) == 12
    with pytest.raises(pt2ir.PassError, match="no-such-pass"):
        mlp.run_passes("no-such-pass")


def test_verify_returns_diagnostics(corpus):
    program = pt2ir.load(str(corpus / "mlp.json"))
    assert program.verify() == []
    # A program the reader accepts but the verifier does not: its signature
    # lists one input fewer than the graph has.
    doc = json.loads((corpus / "mlp.json").read_text())
    del doc["graph_module"]["signature"]["input_specs"][0]
    broken = pt2ir.loads(json.dumps(doc))
    diags = broken.verify()
    assert diags
    d = diags[0]
    assert d.severity == "error"
    assert d.rule.startswith("signature")
    assert d.json_path.startswith("graph_module.signature")
    assert d.message
    assert str(d).startswith(d.json_path + ": [" + d.rule + "]")
    # A dialect's rules: aten's core-ness is not required by ATEN, and an
    # unknown dialect is reported.
    assert program.verify(dialect="ATEN") == []
    assert [x.rule for x in program.verify(dialect="NO_SUCH")] != []
    with pytest.raises(pt2ir.PassError, match=d.rule):
        broken.run_passes("dce")


def fuse_addmm_relu(program):
    """A torch.fx-style pass: addmm followed by relu becomes one custom op."""
    g = program.graph
    fused = 0
    for relu in [n for n in g.nodes if n.target == "torch.ops.aten.relu.default"]:
        addmm = relu.args[0].node
        if addmm is None or addmm.target != "torch.ops.aten.addmm.default" or len(addmm.users) != 1:
            continue
        with g.inserting_before(relu):
            new = g.call_function("mylib::addmm_relu", addmm.args, meta_like=relu, replaces=[addmm, relu])
        relu.replace_all_uses_with(new)
        g.erase_node(relu)
        g.erase_node(addmm)
        fused += 1
    return fused


def test_a_torch_fx_style_fusion_pass(corpus, tmp_path):
    reg = pt2ir.Registry()
    reg.register_operator("mylib::addmm_relu(Tensor self, Tensor mat1, Tensor mat2) -> Tensor")
    program = pt2ir.load(str(corpus / "mlp.json"), registry=reg)
    assert fuse_addmm_relu(program) == 3
    targets = [n.target for n in program.graph.nodes]
    assert targets.count("torch.ops.mylib.addmm_relu.default") == 3
    assert "torch.ops.aten.relu.default" not in targets
    assert len(program.graph) == 9
    assert [d for d in program.verify() if d.severity == "error"] == []
    fused = program.graph.find_node("addmm_relu")
    assert fused.meta["nn_module_stack"]["L__self___body_0"] == ("body.0", "torch.nn.modules.linear.Linear")
    assert fused.value.shape == [4, 64]
    out = tmp_path / "fused.json"
    program.save(str(out))
    again = pt2ir.load(str(out), registry=reg)
    assert [n.name for n in again.graph.nodes] == [n.name for n in program.graph.nodes]
    # Without the schema, the reader still reads it (torch.ops targets are
    # kept) but the verifier reports the unknown operator under ATEN.
    plain = pt2ir.load(str(out))
    assert any(d.rule for d in plain.verify(dialect="ATEN"))


def test_registry_copy_on_write(corpus):
    reg = pt2ir.Registry()
    before = pt2ir.load(str(corpus / "mlp.json"), registry=reg)
    reg.register_operator("mylib::later(Tensor x) -> Tensor")
    after = pt2ir.load(str(corpus / "mlp.json"), registry=reg)
    assert reg.has_operator("mylib::later")
    assert after.registry.has_operator("mylib::later")
    assert not before.registry.has_operator("mylib::later")
    assert reg.schema("mylib::later") == "mylib::later(Tensor x) -> Tensor"
    assert "mylib" in reg.namespaces
    with pytest.raises(pt2ir.RegistryError, match="read-only"):
        after.registry.register_operator("mylib::other(Tensor x) -> Tensor")


def test_extension_namespaces(examples):
    reg = pt2ir.Registry()
    schemas = [line for line in (examples / "extensions" / "my_accel.schemas").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    with pytest.raises(pt2ir.ReadError):
        pt2ir.load(str(examples / "extensions" / "mlp_my_accel.json"))
    reg.register_extension("my_accel", schemas)
    program = pt2ir.load(str(examples / "extensions" / "mlp_my_accel.json"), registry=reg)
    targets = {n.target for n in program.graph.nodes}
    assert any(t.startswith("#my_accel:") for t in targets)
    assert "my_accel" in program.registry.namespaces
    loose = pt2ir.Registry()
    loose.allow_unregistered_extensions = True
    assert pt2ir.load(str(examples / "extensions" / "mlp_my_accel.json"), registry=loose)


def test_replace_input_with(mlp):
    g = mlp.graph
    addmm_1, relu, t_1 = g.find_node("addmm_1"), g.find_node("relu"), g.find_node("t_1")
    with g.inserting_after(relu):
        neg = g.call_function("aten::neg", (relu,), meta_like=relu)
    addmm_1.replace_input_with(relu, neg)
    assert addmm_1.args[1] == neg.value
    assert relu.users == [neg]
    assert neg.users == [addmm_1]
    dyn = pt2ir.load(mlp.path.replace("mlp.json", "dyn_mlp.json"))
    with pytest.raises(pt2ir.GraphError, match="belongs to another program"):
        addmm_1.replace_input_with(neg, dyn.graph.find_value("x"))
    view = dyn.graph.find_node("view")
    with pytest.raises(pt2ir.GraphError, match="cannot replace Tensor 'x' with SymInt 'sym_size'"):
        view.replace_input_with(dyn.graph.find_value("x"), dyn.graph.find_value("sym_size"))
    assert not [d for d in mlp.verify() if d.severity == "error"]
