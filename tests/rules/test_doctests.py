"""The examples in the engine's docstrings are documentation: they must stay true."""

import doctest
import importlib

import pytest

MODULES = [
    "rules.scoring",
    "rules.counting",
    "rules.ratings",
    "rules.reader",
    "rules.variant",
    "rules.fields",
    "rules.notes",
    "rules.slovenian",
    "rules.czech",
    "rules.zwanzigerrufen",
    "rules.french",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0
    assert result.failed == 0
