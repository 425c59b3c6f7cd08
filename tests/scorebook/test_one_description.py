"""A hand's fields are described once, in rules/fields.py (issue 24): no other module of the
engine or the web spells a field's JSON name or one of its form keys again.

Every string literal of every product module is read (an f-string's fixed parts too, so that
f"pbp-{seat}" counts) and compared with the names fields.py itself declares: each field's name
and the fixed parts of its form keys. The fields a sheet has too (HANDS.md, "A sheet": format,
variant, rules, players: rules.scoring.SHEET_KEYS) are left out: they are a session's words
everywhere, its model's and its forms'. A module may spell them only for a reason of its own,
listed below; a module the list names that no longer does is taken off it.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import rules
from rules.fields import FIELDS
from rules.scoring import SHEET_KEYS

ROOT = Path(__file__).resolve().parents[2]
HOME = "rules/fields.py"

# Modules (or folders) that may spell a field's name, each for its reason.
ALLOWED = {
    # The reader's checks between fields (a partner who may be null, radelci a sheet counts
    # itself) and the keys of a bonus object, which share fields' names (made, contra, level).
    "rules/reader.py": "reads the hand format itself",
    # A side is called as the role is (declarer); a scored result's JSON names its radelci.
    "rules/model.py": "the sides, and a result's JSON",
    # The base Variant's fields any contract may carry, and the adjustment row's field.
    "rules/variant.py": "what a Variant declares",
    # The glossary's groups and keys (roles, contra words) share the fields' names.
    "rules/labels.py": "glossary keys",
    "rules/words.py": "glossary groups",
    # A scored row's JSON (the engine's and the stored row's) names who dealt it.
    "rules/scoring.py": "a scored row's JSON",
    "scorebook/hands/scoring.py": "a stored row's JSON",
    # A bonus object's own keys (made, contra, level) share fields' names.
    "scorebook/handform/bonuses.py": "a bonus object's keys",
    # The change history's few words of a stored hand of any age, read as it was stored.
    "scorebook/sheets.py": "the history's summary of a hand",
    # The demo club's hands, written out in HANDS.md's format: data, not code.
    "scorebook/management/commands/demo.py": "demo hands",
    # Words of their own that a field shares: the league's per-contract tallies (a column
    # named contract) and its radelci columns, a tournament placement's points, logging's
    # level.
    "scorebook/league/": "league columns",
    # A series' points (a cup's points table, a standing's points column), not card points.
    "scorebook/series/": "series points",
    "scorebook/tournaments/": "tournament points",
    "scorebook/settings.py": "logging's level",
}


def field_words() -> set[str]:
    """Each field's name, and the fixed parts of its form keys ("pbp-{seat}": "pbp-"), from
    rules/fields.py (and the registered games' own fields)."""
    fields = [*FIELDS.values(), *(f for v in rules.variants() for f in v.own_fields)]
    words = {f.name for f in fields if f.name not in SHEET_KEYS}
    for field in fields:
        for key in field.form:
            words |= {part for part in re.split(r"\{\w+\}", key) if re.search("[a-z]", part)}
    return words


def family_modules() -> set[str]:
    """A game's own module names the fields its contracts use and checks them: the Variant
    is the one home of its game."""
    modules = set()
    for variant in rules.variants():
        path = Path(sys.modules[type(variant).__module__].__file__).resolve()
        if path.is_relative_to(ROOT):
            modules.add(path.relative_to(ROOT).as_posix())
    return modules


def product_modules() -> list[str]:
    paths = [*(ROOT / "rules").rglob("*.py"), *(ROOT / "scorebook").rglob("*.py")]
    return sorted(p.relative_to(ROOT).as_posix() for p in paths if "migrations" not in p.parts)


def spelt(module: str, words: set[str]) -> list[str]:
    """Each literal of `module` that spells one of `words`, with its line."""
    tree = ast.parse((ROOT / module).read_text(encoding="utf-8"))
    return [
        f"{module}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in words
    ]


def allowed(module: str) -> str | None:
    return next((entry for entry in ALLOWED if module.startswith(entry)), None)


def test_no_module_spells_a_field_again():
    words = field_words()
    free = {HOME} | family_modules()
    found = [
        line
        for module in product_modules()
        if module not in free and allowed(module) is None
        for line in spelt(module, words)
    ]
    assert found == []


def test_the_names_come_from_the_description():
    """The test reads what it looks for from rules/fields.py: the names of its fields and
    the keys of the hand form, the sheet's own keys left out."""
    words = field_words()
    assert {"tricks_by_player", "points_by_player", "declarer", "contract"} <= words
    assert {"pbp", "pbp-", "sits_out", "adj_reason", "bonus-", "-contra", "decl-"} <= words
    assert not words & {"format", "variant", "rules", "players"}
    assert "rules/slovenian.py" in family_modules()


def test_each_module_allowed_still_needs_to_be():
    words = field_words()
    modules = product_modules()
    unneeded = [
        entry
        for entry in ALLOWED
        if not any(spelt(module, words) for module in modules if module.startswith(entry))
    ]
    assert unneeded == []
