"""The games a tournament table plays and the sizes of a round's tables (RULES.md §8).

A tournament table seats one number of players; a table of another size (§8.3's table sizes)
plays the form of the same family for that many.
"""

from __future__ import annotations

import rules
from scorebook import house_rules
from scorebook.errors import ServiceError
from scorebook.models import preset_label
from scorebook.tournaments import seating
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
    """The sizes of a round's tables for `players`, and how many sit the round out (byes),
    as RULES.md §8.3 seats them (scorebook.tournaments.seating): the most players seated,
    then the most tables of the tournament's size, then the fewest others, each as large as
    possible; a two-player table only in a two-player tournament."""
    return seating.table_sizes(players, tournament.table_size, family_sizes(tournament.variant))


def family_sizes(variant_id: str) -> list[int]:
    """Every table size the game's family plays as a one-size game (Slovenian 4, 3, 2)."""
    family = rules.get_variant(variant_id).family
    counts = {
        v.player_counts[0]
        for v in rules.variants()
        if v.family == family and len(v.player_counts) == 1
    }
    return sorted(counts, reverse=True)


def possible_sizes_of(variant_id: str) -> list[int]:
    """Every table size a tournament of `variant_id` may have: its own first, then the
    family's others that §8.3 may draw (no two-player table beside larger ones)."""
    size = table_size_of(variant_id)
    least = 2 if size == 2 else 3
    return [size, *(n for n in family_sizes(variant_id) if n != size and n >= least)]


def possible_table_sizes(tournament: Tournament) -> list[int]:
    """The full table's size, then every other size a table of the round may have."""
    return possible_sizes_of(tournament.variant)


# --- The tournament's rules (RULES.md §8.1) ---------------------------------------------------


def rules_choice(tournament: Tournament) -> str:
    """The rules as the form names them: "house-<id>", a preset, or "" (the club's default)."""
    if tournament.house_rules_id:
        return f"{house_rules.CHOICE_PREFIX}{tournament.house_rules_id}"
    return tournament.preset


def choose_rules(tournament: Tournament, choice: str) -> None:
    """Name the tournament's rules: one of the club's sets or a preset of its game ("": the
    club's default set for the game, else its default preset); refused at the form's field
    "rules" when the game has no such rules."""
    variant = rules.get_variant(tournament.variant)
    try:
        chosen = house_rules.choose(tournament.club, variant, choice or "")
    except ServiceError as exc:
        raise ServiceError(exc.message, "rules") from None
    found = None
    if chosen.name:  # a set: the one named, or the club's default for the game
        sets = tournament.club.house_rules.filter(variant=variant.id)
        found = sets.filter(name=chosen.name).first()
    tournament.house_rules = found
    tournament.preset = "" if found else chosen.preset
    tournament.rules = frozen_rules(chosen)


def frozen_rules(chosen: house_rules.Chosen) -> dict:
    return {"preset": chosen.preset, "overrides": dict(chosen.overrides), "name": chosen.name}


def freeze_rules(tournament: Tournament) -> None:
    """At the start: the rules the choice resolves to now, kept for the whole day. A set
    deleted since leaves the copy made when it was chosen."""
    if tournament.house_rules_id is None and (tournament.rules or {}).get("name"):
        return
    variant = rules.get_variant(tournament.variant)
    choice = rules_choice(tournament) or variant.default_preset
    tournament.rules = frozen_rules(house_rules.choose(tournament.club, variant, choice))


def table_rules(tournament: Tournament, variant_id: str) -> tuple[str, dict, str]:
    """(preset, overrides, name) a table of `variant_id` starts with: the tournament's frozen
    rules; a smaller table of the family takes them where its game reads them, else its own
    default preset (a house-rules set belongs to one variant)."""
    frozen = tournament.rules or {}
    preset = frozen.get("preset") or rules.get_variant(tournament.variant).default_preset
    overrides = dict(frozen.get("overrides") or {})
    if variant_id == tournament.variant:
        return preset, overrides, frozen.get("name", "")
    try:
        rules.resolve_rules(variant_id, {"preset": preset, **overrides})
    except rules.RulesError:
        return rules.get_variant(variant_id).default_preset, {}, ""
    return preset, overrides, frozen.get("name", "")


def rules_label(tournament: Tournament) -> str:
    """The tournament's rules in the reader's words: the set's name or the preset's."""
    frozen = tournament.rules or {}
    if frozen.get("name"):
        return frozen["name"]
    return preset_label(
        frozen.get("preset") or rules.get_variant(tournament.variant).default_preset
    )
