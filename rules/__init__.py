"""Scorebook's scoring engine: pure Python, no Django.

It reads hands and sheets in the format of HANDS.md, checks them, and scores them exactly as
RULES.md says. Public API (``__all__``)::

    score_hand(data) -> Result          score_sheet(data) -> SheetResult
    evaluate(variant, rules, players, hands, closed) -> SheetResult   (hands already read)
    variants(), get_variant(id)         resolve_rules(variant_id, rules_json) -> dict
    register(variant), unregister(id)   note(result) -> words (a sheet row's note), note_text
    settle(totals) -> Settlement        RulesError (with .problems), RULES_VERSION, VARIANTS
    and the values they take and give: Hand, Bonus, Declaration, Adjustment, Result, Line,
    Contract, Rules, Variant, Running, SheetRow, SheetResult, Settlement, Transfer, Problem

From its modules::

    rules.counting.count(variant_id, cards) -> Count   (a Variant's own: variant.count(cards))
    rules.ratings.rate(results) -> ratings (Elo, RULES.md §6)
    rules.fields.FIELDS, field_range     the hand's fields, their kinds and ranges (HANDS.md)
    rules.jsontext.loads(text, max_bytes=None, decimals=True): JSON text, bounded (HANDS.md)

A ``Variant`` answers every question about its game (names, words, deck, table sizes, which
rows are no deal, radelci): see ``rules.variant``.

Reading and scoring take ``entered=False`` for a hand already stored: it is rescored without
the checks added since it was recorded (``rules.reader.read_hand``).
"""

from rules import czech, french, slovenian, zwanzigerrufen
from rules.model import Adjustment, Bonus, Declaration, Hand, Line, Result
from rules.notes import note, note_text
from rules.problems import Problem, RulesError
from rules.scoring import Running, SheetResult, SheetRow, evaluate, score_hand, score_sheet
from rules.settlement import Settlement, Transfer, settle
from rules.variant import (
    Contract,
    Rules,
    Variant,
    get_variant,
    register,
    resolve_rules,
    unregister,
    variants,
)

# Every variant the engine scores, in the order of HANDS.md: the one list, registered here.
VARIANTS = (*slovenian.VARIANTS, *czech.VARIANTS, *zwanzigerrufen.VARIANTS, *french.VARIANTS)
for _variant in VARIANTS:
    register(_variant)

# Changes whenever a rule or a preset changes, so that a stored hand knows what scored it;
# tests/rules/test_tools.py (test_the_rules_version_changes_with_the_presets) fails when the
# presets change and this does not.
RULES_VERSION = "2026.11.2"

__all__ = [
    "RULES_VERSION",
    "VARIANTS",
    "Adjustment",
    "Bonus",
    "Contract",
    "Declaration",
    "Hand",
    "Line",
    "Problem",
    "Result",
    "Rules",
    "Running",
    "RulesError",
    "Settlement",
    "SheetResult",
    "SheetRow",
    "Transfer",
    "Variant",
    "evaluate",
    "get_variant",
    "note",
    "note_text",
    "register",
    "resolve_rules",
    "score_hand",
    "score_sheet",
    "settle",
    "unregister",
    "variants",
]
