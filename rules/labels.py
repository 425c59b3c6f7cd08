"""The engine's words by stable id, as ``Say`` values read from ``glossary.csv``.

The glossary (term id × language) is the one home of every word the engine shows a player;
these tables only name its groups, so that a family module writes ``CONTRACTS["three"]``.
A ``Say`` is said in the reader's language when it is shown (rules.words). The ids are those
of HANDS.md. Problem texts are ``str.format`` templates over the problem's ``params``.
"""

from rules.words import ENTRIES, Say, terms

VARIANTS = terms("variant")
FAMILIES = terms("family")
PRESETS = terms("preset")
CONTRACTS = terms("contract")
BONUSES = terms("bonus")
# Short forms for a paper-style note on the sheet ("+44 two tr.(K)").
BONUS_ABBREVIATIONS = terms("bonus-abbr")
DECLARATIONS = terms("declaration")
SWITCHES = terms("switch")
# A house-rules switch's value in words, keyed (switch, value).
SWITCH_CHOICES = {tuple(key.split(".", 1)): say for key, say in terms("choice").items()}
# French poignée levels.
POIGNEE_LEVELS = terms("poignee-level")

_sides = terms("side")
_roles = terms("role")
SIDES = {key: _sides[key] for key in ("declarer", "defenders")}
# The roles of a hand as a form names them (a family may name them its own way: French taker).
# "alone": the declarer of a contract without a partner (Austrian "Alleinspieler").
ROLES = {key: _roles[key] for key in ("declarer", "alone", "partner", "defenders")}
# French: the taker (with a called partner in five) plays the attack against the defence.
FRENCH_ROLES = {
    **{key: _roles[f"french.{key}"] for key in ("declarer", "partner", "defenders")},
    "alone": _roles["french.declarer"],
}
FRENCH_SIDES = {key: _sides[f"french.{key}"] for key in ("declarer", "defenders")}

_contras = terms("contra")
# Contra levels: 1 contra ×2, 2 re ×4, 3 sub ×8, 4 mort ×16.
CONTRA_WORDS = {int(key): say for key, say in _contras.items() if key.isdigit()}
# Zwanzigerrufen names the levels its own way (its variant's ``contra_words``).
ZWANZIGERRUFEN_CONTRA_WORDS = {
    int(key.rsplit(".", 1)[1]): say
    for key, say in _contras.items()
    if key.startswith("zwanzigerrufen.")
}

# The problem codes the engine knows (rules.problems says them).
PROBLEMS = frozenset(key.split(".", 1)[1] for key in ENTRIES if key.startswith("problem."))


def word(key: str) -> Say:
    """A form's word of the engine: "made", "level"."""
    return Say(f"word.{key}")
