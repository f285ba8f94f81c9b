"""Shared fixtures of the pt2ir Python tests.

Run by ctest (`ctest -R python`), which puts the build's python/ folder on
PYTHONPATH and says where the build and the test data are; by hand:
PYTHONPATH=build/python /usr/bin/python3 -m pytest test/python
"""

import os
import pathlib

import pytest

TEST_DIR = pathlib.Path(os.environ.get("PT2IR_TEST_DIR", pathlib.Path(__file__).parent.parent))
CORPUS = TEST_DIR / "corpus"
MALFORMED = TEST_DIR / "malformed"
EXAMPLES = TEST_DIR.parent / "examples"


@pytest.fixture
def corpus():
    return CORPUS


@pytest.fixture
def malformed():
    return MALFORMED


@pytest.fixture
def examples():
    return EXAMPLES


@pytest.fixture
def mlp():
    import pt2ir

    return pt2ir.load(str(CORPUS / "mlp.json"))


@pytest.fixture
def dyn_mlp():
    import pt2ir

    return pt2ir.load(str(CORPUS / "dyn_mlp.json"))
