"""What a person must never read on a page: the engine's ids and JSON (issue 26).

The ids are the glossary's (rules/glossary.csv: a variant's, a preset's, a contract's, …) and
the hand's field names (rules/fields.py). A whole token of the page's visible text is wrong:
- a hyphenated or underscored id (`slovenian-3`, `solo-three`, `points_by_player`) in any
  language: no game word is written so;
- a plain id (`seed`, `tarzs`, `three`) where the language's own word for it differs (in
  English `three` is the word, in Slovenian it is `tri`);
- a JSON object (`{"three": 10}`).
"""

from __future__ import annotations

import csv
import re
from functools import cache
from pathlib import Path

from rules.fields import FIELDS

GLOSSARY = Path(__file__).resolve().parents[2] / "rules" / "glossary.csv"
# The glossary's kinds that name a thing of the game by an id; the others are sentences.
ID_KINDS = {
    "variant",
    "family",
    "preset",
    "contract",
    "bonus",
    "declaration",
    "switch",
    "side",
    "role",
    "contra",
}
JSON_OBJECT = re.compile(r'\{\s*"[^"]*"\s*:')

# A token allowed where the rule above would refuse it, each with its reason.
ALLOWED = {
    # The Czech contract "solo" is the Czech word itself ("sólo" is not what Czech clubs write).
    ("solo", "cs"): "the Czech contract is written solo",
    # English words that are also ids: the hand form says who "plays alone", the French form
    # of a contract "alone" or with a called partner.
    ("alone", "en"): "an English word: the hand form says a declarer plays alone",
}


@cache
def _ids() -> dict[str, dict[str, str]]:
    """id -> {language: its word}, for every id a page might leak."""
    out: dict[str, dict[str, str]] = {}
    with GLOSSARY.open(encoding="utf-8", newline="") as source:
        for row in csv.DictReader(source):
            kind, _dot, name = row["id"].partition(".")
            if kind in ID_KINDS and name and not name.isdigit():  # a contra's level is 1, 2 …
                out[name] = {lang: row[lang] for lang in ("en", "sl", "cs", "de", "fr")}
    for name in FIELDS:
        out.setdefault(name, {})
    return out


def _token(name: str) -> re.Pattern:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def ids_in(text: str, language: str) -> list[str]:
    """The engine ids and JSON objects in a page's visible text, as problems to report."""
    problems = []
    for name, words in _ids().items():
        joined = "-" in name or "_" in name
        own = words.get(language, "")
        # A plain id is its language's word, or a word of it ("values": "contract values").
        if not joined and (not own or _token(name).search(own) or (name, language) in ALLOWED):
            continue
        if _token(name).search(text):
            problems.append(f"the engine's id {name!r} is shown")
    if found := JSON_OBJECT.search(text):
        problems.append(f"JSON is shown: {text[found.start() : found.start() + 40]!r}")
    return problems
