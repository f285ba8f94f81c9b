"""The type stubs (python/pt2ir.pyi) name what the module has, no more, no less."""

import ast
import pathlib

import pt2ir

STUBS = pathlib.Path(__file__).parent.parent.parent / "python" / "pt2ir.pyi"


def stub_names():
    tree = ast.parse(STUBS.read_text())
    top, members = set(), {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            top.add(node.name)
            names = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, ast.AnnAssign):
                    names.add(item.target.id)
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets)
            members[node.name] = names
        elif isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets)
    return top, members


def public(names):
    return {n for n in names if not n.startswith("_") or n in ("__version__", "__init__", "__len__", "__iter__",
                                                                "__enter__", "__exit__")}


def test_module_level_names_match():
    top, _ = stub_names()
    helpers = {"Size", "Operand"}  # type aliases of the stubs only
    assert public(dir(pt2ir)) - {"__doc__", "__file__", "__loader__", "__name__", "__package__", "__spec__"} \
        == top - helpers


def test_class_members_match():
    _, members = stub_names()
    for cls, names in members.items():
        obj = getattr(pt2ir, cls)
        if issubclass(obj, BaseException):
            continue
        actual = {n for n in public(vars(obj)) if n not in ("__init__",) or "__init__" in names}
        if hasattr(obj, "__members__"):  # enums: the members
            assert set(obj.__members__) == names, cls
            continue
        actual -= {"__eq__", "__hash__", "__repr__", "__str__", "__module__", "__doc__"}
        assert actual == names, cls
