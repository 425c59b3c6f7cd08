"""The engine's docstring is its map: every name it gives is one the engine answers."""

import importlib
import re

import rules


def _block(title: str) -> str:
    """The indented lines under `title` in the package's docstring."""
    after = rules.__doc__.split(title, 1)[1].split("::", 1)[1]
    lines = []
    for line in after.splitlines()[1:]:
        if line and not line.startswith("    "):
            break
        lines.append(line)
    return "\n".join(lines)


def test_the_docstring_names_exactly_what_the_package_exports():
    block = _block("Public API")
    words = set(re.findall(r"[A-Za-z_][A-Za-z_0-9]*", block))
    called = set(re.findall(r"([A-Za-z_][A-Za-z_0-9]*)\(", block))
    types = {word for word in words if word[0].isupper()}
    assert set(rules.__all__) <= words, "exported, not in the docstring"
    assert called | types <= set(rules.__all__), "in the docstring, not exported"


def test_the_names_of_its_modules_are_there():
    block = _block("From its modules")
    named = re.findall(r"\brules\.([a-z]+)\.([A-Za-z_]+)", block)
    assert len(named) == 4
    for module, name in named:
        assert hasattr(importlib.import_module(f"rules.{module}"), name), f"rules.{module}.{name}"
