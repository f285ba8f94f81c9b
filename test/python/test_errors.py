"""Bad input and misuse raise pt2ir.Error subclasses; nothing crashes."""

import gc
import pathlib

import pytest

import pt2ir

DATA = pathlib.Path(__file__).parent / "data"


def test_error_hierarchy():
    for cls in (pt2ir.ReadError, pt2ir.WriteError, pt2ir.GraphError, pt2ir.PassError,
                pt2ir.RegistryError, pt2ir.StaleHandleError):
        assert issubclass(cls, pt2ir.Error)
    assert issubclass(pt2ir.StaleHandleError, pt2ir.GraphError)
    assert issubclass(pt2ir.Error, Exception)


def test_missing_file():
    with pytest.raises(pt2ir.ReadError, match=r"^/no/such/file.json: error: cannot read file: No such file"):
        pt2ir.load("/no/such/file.json")


def test_malformed_json_names_file_and_position(malformed):
    path = str(malformed / "truncated-in-number.json")
    with pytest.raises(pt2ir.ReadError) as e:
        pt2ir.load(path)
    assert str(e.value).startswith(path + ":")
    assert "error" in str(e.value)


def test_schema_error_names_json_path(malformed):
    path = str(malformed / "type-target-int.json")
    with pytest.raises(pt2ir.ReadError, match=r"graph_module\.graph\.nodes\[0\]\.target"):
        pt2ir.load(path)


def test_loads_errors():
    with pytest.raises(pt2ir.ReadError, match=r"^<string>"):
        pt2ir.loads("{")
    with pytest.raises(pt2ir.ReadError, match="zip archive"):
        pt2ir.loads(b"PK\x03\x04rest")
    with pytest.raises(pt2ir.ReadError, match="str or bytes"):
        pt2ir.loads(42)


def test_every_malformed_input_raises_read_error(malformed, tmp_path):
    count = 0
    for path in sorted(malformed.iterdir()):
        if path.suffix not in (".json", ".pt2") or "valid" in path.name:
            continue
        try:
            program = pt2ir.load(str(path))
        except pt2ir.ReadError as e:
            assert str(e).startswith(str(path)), str(e)
            count += 1
            continue
        # The archives the reader accepts (a payload named by a config but
        # missing is just dangling; entries are read when written) are
        # refused on writing, and nothing is left behind.
        assert path.suffix == ".pt2", path
        if not path.read_bytes().startswith(b"PK"):
            continue  # not a zip: read by its content, as a JSON program
        out = tmp_path / "out.pt2"
        with pytest.raises(pt2ir.WriteError, match="^" + str(out) + ": error: .*" + path.name + "|weights config refers to"):
            program.save(str(out))
        assert not out.exists()
    assert count > 100


def test_save_to_unwritable_path(mlp):
    with pytest.raises(pt2ir.WriteError):
        mlp.save("/no/such/dir/out.json")
    with pytest.raises(pt2ir.WriteError):
        mlp.save("/no/such/dir/out.pt2")


def test_node_used_after_erase(mlp):
    g = mlp.graph
    relu = g.find_node("relu")
    neg = g.call_function("aten::neg", (relu,), meta_like=relu)
    value = neg.value
    g.erase_node(neg)
    assert neg.is_erased
    assert repr(neg) == "<pt2ir.Node (erased)>"
    for use in (lambda: neg.name, lambda: neg.args, lambda: neg.meta, lambda: neg.users,
                lambda: value.shape, lambda: value.node, lambda: g.erase_node(neg),
                lambda: neg.replace_all_uses_with(relu), lambda: relu.replace_all_uses_with(neg),
                lambda: g.inserting_before(neg), lambda: g.call_function("aten::neg", (neg,))):
        with pytest.raises(pt2ir.StaleHandleError, match="erased"):
            use()


def test_handles_go_stale_when_a_pass_erases_their_node(mlp):
    g = mlp.graph
    relu = g.find_node("relu")
    dead = g.call_function("aten::neg", (relu,), meta_like=relu)
    # A new node may reuse the erased one's memory; the old handle must
    # still know it is stale.
    mlp.run_passes("dce")
    fresh = [g.call_function("aten::neg", (relu,), meta_like=relu) for _ in range(20)]
    with pytest.raises(pt2ir.StaleHandleError):
        dead.target
    assert all(not f.is_erased for f in fresh)
    assert fresh[0].target == "torch.ops.aten.neg.default"


def test_insertion_point_erased_inside_block(mlp):
    g = mlp.graph
    relu = g.find_node("relu")
    anchor = g.call_function("aten::neg", (relu,), meta_like=relu)
    with g.inserting_before(anchor):
        g.erase_node(anchor)
        with pytest.raises(pt2ir.StaleHandleError, match="insertion point"):
            g.call_function("aten::neg", (relu,), meta_like=relu)
    # Leaving the block restores appending.
    assert g.call_function("aten::neg", (relu,), meta_like=relu) == g.nodes[-1]


def test_mixing_two_programs(corpus):
    a = pt2ir.load(str(corpus / "mlp.json"))
    b = pt2ir.load(str(corpus / "mlp.json"))
    ra, rb = a.graph.find_node("relu"), b.graph.find_node("relu")
    assert ra != rb
    with pytest.raises(pt2ir.GraphError, match="another program"):
        a.graph.erase_node(rb)
    with pytest.raises(pt2ir.GraphError, match="another program"):
        ra.replace_all_uses_with(rb)
    with pytest.raises(pt2ir.GraphError, match="another program"):
        a.graph.call_function("aten::neg", (rb,), meta_like=ra)
    with pytest.raises(pt2ir.GraphError, match="another program"):
        a.graph.inserting_before(rb)
    assert a.dumps() == b.dumps() == (corpus / "mlp.json").read_text()


def test_handles_keep_the_program_alive(corpus):
    relu = pt2ir.load(str(corpus / "mlp.json")).graph.find_node("relu")
    gc.collect()
    assert relu.value.shape == [4, 64]
    assert relu.graph.find_node("addmm").users == [relu]


def test_replacing_with_values_of_another_type_or_count(dyn_mlp):
    g = dyn_mlp.graph
    sym = g.find_value("sym_size")
    x = g.find_value("x")
    with pytest.raises(pt2ir.GraphError, match="cannot replace"):
        sym.replace_all_uses_with(x)
    with pytest.raises(pt2ir.GraphError):
        x.replace_all_uses_with(42)


def test_subgraph_handles_go_stale_with_their_owner():
    # cond_1 is unused: dce erases it, and with it its two branch graphs.
    program = pt2ir.load(str(DATA / "cond.json"))
    cond_1 = program.graph.find_node("cond_1")
    branch = cond_1.subgraphs[0]
    inner = branch.nodes
    inner_value = inner[0].value
    assert branch.parent == cond_1 and [n.name for n in inner] == ["cos", "dead_in_branch"]
    assert all(n.graph == branch for n in inner)
    # The used cond keeps its branches; dce only cleans the dead node in them.
    cond = program.graph.find_node("cond")
    kept = cond.subgraphs[0]
    kept_dead = kept.find_node("dead_in_branch")
    runs = program.run_passes("dce")
    assert runs[0].changed
    assert cond_1.is_erased
    assert kept_dead.is_erased
    assert [n.name for n in kept.nodes] == ["cos"]
    for stale in (lambda: len(branch), lambda: branch.nodes, lambda: inner[0].name,
                  lambda: inner_value.shape, lambda: branch.parent):
        with pytest.raises(pt2ir.StaleHandleError):
            stale()
    assert all(n.is_erased for n in inner)
    assert repr(branch) == "<pt2ir.Graph (erased)>"


def test_nodes_of_a_subgraph_are_not_nodes_of_the_top_graph():
    program = pt2ir.load(str(DATA / "cond.json"))
    cond = program.graph.find_node("cond")
    branch = cond.subgraphs[0]
    cos = branch.find_node("cos")
    with pytest.raises(pt2ir.GraphError, match="belongs to another graph"):
        program.graph.erase_node(cos)
    with pytest.raises(pt2ir.GraphError, match="belongs to another graph"):
        program.graph.inserting_before(cos)
    with pytest.raises(pt2ir.GraphError, match="belongs to another graph"):
        program.graph.call_function("aten::neg", (cos,), meta_like=cos)
    # Inside the branch it works like anywhere else.
    with branch.inserting_after(cos):
        neg = branch.call_function("aten::neg", (cos,), meta_like=cos)
    assert [n.name for n in branch.nodes][:2] == ["cos", "neg"]
    assert neg.graph == branch


def test_wrong_argument_types_raise_type_error(mlp):
    with pytest.raises(TypeError):
        mlp.graph.erase_node("relu")
    with pytest.raises(TypeError):
        pt2ir.load(42)


def test_a_cycle_made_by_replace_all_uses_with_is_reported_not_crashed_on(mlp, tmp_path):
    g = mlp.graph
    relu, relu_1 = g.find_node("relu"), g.find_node("relu_1")
    # relu_1 reads addmm_1, which reads relu: replacing relu by relu_1 makes
    # addmm_1 read a value defined after it.
    assert relu.replace_all_uses_with(relu_1) == [g.find_node("addmm_1")]
    assert [d.rule for d in mlp.verify()] == ["use-before-def"]
    str(mlp)
    g.eliminate_dead_code()
    with pytest.raises(pt2ir.PassError, match=r"\[use-before-def\] node 'addmm_1': uses 'relu_1' before its definition"):
        mlp.run_passes("dce")
    out = tmp_path / "cycle.json"
    mlp.save(str(out))
    with pytest.raises(pt2ir.ReadError, match="use of undefined value 'relu_1'"):
        pt2ir.load(str(out))


def test_truncated_and_corrupted_text_raises_read_error(corpus):
    text = (corpus / "dyn_mlp.json").read_bytes()
    step = max(1, len(text) // 150)
    for cut in range(0, len(text) - 1, step):
        with pytest.raises(pt2ir.ReadError, match=r"^<string>"):
            pt2ir.loads(text[:cut])
    # Bytes flipped here and there: an error or a program, never a crash.
    for i in range(1, len(text), step):
        corrupted = text[:i] + bytes([text[i] ^ 0x5A]) + text[i + 1:]
        try:
            program = pt2ir.loads(corrupted)
        except pt2ir.ReadError:
            continue
        program.verify()
        program.dumps()
