"""No product function is longer than a screen: 60 lines, from its `def` to its last line.

Product code is the Django app (scorebook/) and the engine (rules/), migrations excepted
(generated, and never changed once shipped). Methods and nested functions count alone, and
also as lines of the function around them.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("scorebook", "rules")
LONGEST = 60


def _product_files() -> list[Path]:
    return sorted(
        path
        for package in PRODUCT
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.relative_to(ROOT).parts
    )


def _long_functions() -> dict[str, int]:
    """'path:function' -> its length in lines, for every function over LONGEST."""
    found = {}
    for path in _product_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > LONGEST:
                    found[f"{path.relative_to(ROOT).as_posix()}:{node.name}"] = length
    return found


def test_the_walk_reads_the_product():
    files = {path.relative_to(ROOT).as_posix() for path in _product_files()}
    assert {"scorebook/services.py", "rules/scoring.py", "scorebook/views/sessions.py"} <= files
    assert not [name for name in files if "/migrations/" in name]


def test_no_product_function_is_over_60_lines():
    too_long = _long_functions()
    assert not too_long, "split these: " + ", ".join(
        f"{name}:{length}" for name, length in sorted(too_long.items())
    )
