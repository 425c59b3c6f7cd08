"""Scorebook's scoring engine: pure Python, no Django.

It reads hands and sheets in the format of HANDS.md, checks them, and scores them exactly as
RULES.md says. Public API::

    score_hand(data) -> Result          score_sheet(data) -> SheetResult
    variants(), get_variant(id)         resolve_rules(variant_id, rules_json) -> dict
    count(variant_id, cards) -> Count   rate(hands) -> ratings (Elo, RULES.md §6)
    RulesError (with .problems), RULES_VERSION
    rules.jsontext.loads(text, max_bytes=None, decimals=True): JSON text, bounded (HANDS.md)

Reading and scoring take ``entered=False`` for a hand already stored: it is rescored without
the checks added since it was recorded (``rules.reader.read_hand``).
"""

from rules.model import Adjustment, Bonus, Declaration, Hand, Line, Result
from rules.problems import Problem, RulesError
from rules.scoring import Running, SheetResult, SheetRow, evaluate, score_hand, score_sheet
from rules.settlement import Settlement, Transfer, settle
from rules.variant import Contract, Rules, Variant, get_variant, resolve_rules, variants

# Importing a family module registers its variants.
from rules import slovenian  # noqa: E402,F401  isort: skip
from rules import french  # noqa: E402,F401  isort: skip
from rules import czech  # noqa: E402,F401  isort: skip
from rules import zwanzigerrufen  # noqa: E402,F401  isort: skip

# Changes whenever a rule or a preset changes, so that a stored hand knows what scored it;
# tests/rules/test_version.py fails when the presets change and this does not.
RULES_VERSION = "2026.11.2"

__all__ = [
    "RULES_VERSION",
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
    "resolve_rules",
    "score_hand",
    "score_sheet",
    "settle",
    "variants",
]
