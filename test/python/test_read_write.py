"""pt2ir.load / loads / Program.save / dumps: JSON, the text form and .pt2 archives."""

import zipfile

import pytest

import pt2ir


def corpus_programs(corpus):
    return sorted(corpus.glob("*.json"))


def test_every_corpus_program_loads_verifies_and_saves_byte_for_byte(corpus, tmp_path):
    paths = corpus_programs(corpus)
    assert len(paths) >= 8
    for path in paths:
        program = pt2ir.load(str(path))
        errors = [d for d in program.verify() if d.severity == "error"]
        assert errors == [], path
        assert program.dumps() == path.read_text(), path
        out = tmp_path / path.name
        program.save(str(out))
        assert out.read_bytes() == path.read_bytes(), path


def test_loads_takes_str_and_bytes(corpus):
    text = (corpus / "mlp.json").read_text()
    from_str = pt2ir.loads(text)
    from_bytes = pt2ir.loads(text.encode())
    assert from_str.dumps() == text
    assert from_bytes.dumps() == text
    assert len(from_str.graph) == 12
    assert from_str.path == ""


def test_save_to_pt2_and_back(corpus, tmp_path):
    program = pt2ir.load(str(corpus / "dyn_mlp.json"))
    archive = tmp_path / "dyn.pt2"
    program.save(str(archive))
    assert zipfile.is_zipfile(archive)
    names = zipfile.ZipFile(archive).namelist()
    assert "dyn/models/model.json" in names
    again = pt2ir.load(str(archive))
    assert again.model_name == "model"
    assert again.dumps() == program.dumps()


def test_archive_keeps_its_other_entries(corpus, tmp_path):
    first = tmp_path / "m.pt2"
    pt2ir.load(str(corpus / "mlp.json")).save(str(first))
    # Add entries pt2ir does not interpret: an extra file and an unknown one.
    with zipfile.ZipFile(first, "a") as z:
        z.writestr("m/extra/notes.txt", "kept as is\n")
        z.writestr("m/something/else.bin", bytes(range(256)))
    program = pt2ir.load(str(first))
    relu = program.graph.find_node("relu_2")
    # Change the program, then write it to a new archive.
    with program.graph.inserting_after(relu):
        neg = program.graph.call_function("aten::neg", (relu,), meta_like=relu)
    relu.replace_all_uses_with(neg)
    second = tmp_path / "out.pt2"
    program.save(str(second))
    with zipfile.ZipFile(second) as z:
        assert z.read("m/extra/notes.txt") == b"kept as is\n"
        assert z.read("m/something/else.bin") == bytes(range(256))
        assert b"torch.ops.aten.neg.default" in z.read("m/models/model.json")
    assert pt2ir.load(str(second)).graph.find_node("neg") is not None


def test_save_by_extension_writes_json_for_other_paths(corpus, tmp_path):
    program = pt2ir.load(str(corpus / "mlp.json"))
    out = tmp_path / "copy.txt"
    program.save(str(out))
    assert out.read_text() == (corpus / "mlp.json").read_text()


def test_save_to_pt2ir_writes_the_text_form_and_reads_back(corpus, tmp_path):
    program = pt2ir.load(str(corpus / "mlp.json"))
    out = tmp_path / "mlp.pt2ir"
    program.save(str(out))
    assert out.read_text().startswith("program schema")
    assert pt2ir.load(str(out)).dumps() == program.dumps()
    assert pt2ir.loads(out.read_text()).dumps() == program.dumps()


def test_model_picks_one_of_an_archive(corpus, tmp_path):
    archive = tmp_path / "a.pt2"
    pt2ir.load(str(corpus / "mlp.json")).save(str(archive))
    assert pt2ir.load(str(archive), "model").model_name == "model"
    with pytest.raises(pt2ir.ReadError, match=r"no model 'other' in the archive \(models: model\)"):
        pt2ir.load(str(archive), model="other")
    with pytest.raises(pt2ir.ReadError, match="--model applies to .pt2 archives"):
        pt2ir.load(str(corpus / "mlp.json"), model="model")


def test_str_is_the_text_form(corpus):
    text = str(pt2ir.load(str(corpus / "mlp.json")))
    assert text.startswith('program schema 8.19 torch "2.9.0"')
    assert "aten.relu.default" in text
