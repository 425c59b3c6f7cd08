"""The games a tournament table plays and the sizes of a round's tables (RULES.md §8).

A tournament table seats one number of players; a smaller last table plays the form of the
same family for that many, where the family has one.
"""

from __future__ import annotations

import rules
from scorebook.tournaments.models import Tournament


def family_variant(variant_id: str, size: int) -> str | None:
    """The variant of the same family for a table of `size`, if the family has one: a
    tournament's smaller last table plays it (a tournament table seats no one who sits out)."""
    family = rules.get_variant(variant_id).family
    for variant in rules.variants():
        if variant.family == family and variant.player_counts == (size,):
            return variant.id
    return None


def tournament_variants() -> list:
    """Every game a tournament table can play: one that seats one number of players."""
    return [v for v in rules.variants() if tournament_table(v)]


def tournament_table(variant) -> int | None:
    """The players at a tournament table of `variant`: its one player count. A game for
    several counts has no one size to draw tables of; the sit-out seat is never used."""
    counts = variant.player_counts
    return counts[0] if len(counts) == 1 and counts[0] >= 2 else None


def table_size_of(variant_id: str) -> int:
    counts = rules.get_variant(variant_id).player_counts
    return counts[0] if len(counts) == 1 else 0


def table_sizes(tournament: Tournament, players: int) -> tuple[list[int], int]:
    """The sizes of a round's tables for `players`, and how many sit the round out (byes).

    Full tables first; the remainder forms a last, smaller table when the variant's family has
    a form for that many (Slovenian 3 or 2, French 4 or 3); otherwise the remainder has byes.
    """
    full, rest = divmod(players, tournament.table_size)
    sizes = [tournament.table_size] * full
    if rest >= 2 and family_variant(tournament.variant, rest):
        return sizes + [rest], 0
    return sizes, rest


def possible_table_sizes(tournament: Tournament) -> list[int]:
    """The full table's size, then every smaller size a last table may have."""
    smaller = range(tournament.table_size - 1, 1, -1)
    return [tournament.table_size] + [n for n in smaller if family_variant(tournament.variant, n)]
