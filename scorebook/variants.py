"""The engine's games as the club's pages ask for them: which there are, one by its id, and
its name in the reader's words. Views, forms and models ask here, never `rules` itself, so the
web side meets the engine in its services (DESIGN.md, "Layers").
"""

from __future__ import annotations

import rules
from rules import Variant

__all__ = ["Variant", "all_variants", "most_seats", "variant_label", "variant_of"]


def all_variants() -> tuple[Variant, ...]:
    """Every game the engine scores, in the order of HANDS.md (the order lists show them)."""
    return rules.variants()


def variant_of(variant_id: str) -> Variant | None:
    """The game of this id; None for one the engine does not have (any more)."""
    try:
        return rules.get_variant(variant_id)
    except rules.RulesError:
        return None


def variant_label(variant_id: str) -> str:
    """The game in the reader's words: "Slovenski tarok, 3 igralci". A game the engine no
    longer has keeps its id: a stored session still says what it was."""
    variant = variant_of(variant_id)
    return variant.label if variant is not None else variant_id


def most_seats() -> int:
    """The most players any game's table seats: the start form offers that many seats."""
    return max(max(variant.table_sizes()) for variant in rules.variants())
