"""Data flows one way (DESIGN.md, "Layers"): pages and forms call the services, and only the
services call the engine. A view, a form or a template tag that imports `rules` reaches past
them, so its page would change with the engine's inside."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _web_modules() -> list[Path]:
    app = ROOT / "scorebook"
    return sorted(
        {
            *(app / "views").rglob("*.py"),
            *(app / "templatetags").rglob("*.py"),
            *app.rglob("views.py"),
            *app.rglob("forms.py"),
        }
    )


def _imports_rules(path: Path) -> list[int]:
    """The lines of `path` that import the engine."""
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            continue
        if any(name == "rules" or name.startswith("rules.") for name in names):
            lines.append(node.lineno)
    return lines


def test_the_walk_finds_the_pages_and_forms():
    names = {path.relative_to(ROOT).as_posix() for path in _web_modules()}
    assert {
        "scorebook/views/sessions.py",
        "scorebook/forms.py",
        "scorebook/tournaments/views.py",
        "scorebook/tournaments/forms.py",
        "scorebook/templatetags/join.py",
    } <= names


def test_no_view_form_or_tag_imports_the_engine():
    reaching = {
        f"{path.relative_to(ROOT).as_posix()}:{line}"
        for path in _web_modules()
        for line in _imports_rules(path)
    }
    assert not reaching, "import from a service instead: " + ", ".join(sorted(reaching))
