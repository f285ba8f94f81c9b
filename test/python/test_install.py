"""`cmake --install` puts the module where the interpreter finds it."""

import os
import pathlib
import subprocess
import sys

import pytest

BUILD = os.environ.get("PT2IR_BUILD_DIR")
SITE = os.environ.get("PT2IR_PYTHON_INSTALL_DIR")


@pytest.mark.skipif(not BUILD or not SITE, reason="run by ctest, which says where the build is")
def test_install_into_a_prefix_and_import(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", BUILD, "--prefix", str(prefix)],
                   check=True, stdout=subprocess.DEVNULL)
    site = prefix / SITE
    modules = list(site.glob("pt2ir*.so"))
    assert len(modules) == 1, list(site.iterdir())
    assert (site / "pt2ir.pyi").exists()
    env = dict(os.environ, PYTHONPATH=str(site))
    code = "import pt2ir, sys; print(pt2ir.__file__); print(len(pt2ir.loads(sys.stdin.read()).graph))"
    corpus = pathlib.Path(os.environ.get("PT2IR_TEST_DIR", pathlib.Path(__file__).parent.parent)) / "corpus"
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, text=True,
                         input=(corpus / "mlp.json").read_text(), stdout=subprocess.PIPE).stdout
    assert out.splitlines() == [str(modules[0]), "12"]


def test_default_install_dir_is_on_the_interpreters_path():
    """With the default prefix, the install dir is a site-packages folder of this interpreter."""
    if not SITE:
        pytest.skip("run by ctest")
    assert os.path.join("/usr/local", SITE) in sys.path or os.path.join(sys.prefix, SITE) in sys.path
