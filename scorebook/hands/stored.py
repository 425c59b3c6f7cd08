"""The stored hand: what a hand stores (the full hand of HANDS.md, as JSON), a hand as it appears
inside a sheet, and renames of the players it names. What a hand's fields are, and which of
them name players, is rules.fields'."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import rules
from rules.fields import FROM_SHEET, fields_of, hand_json, in_sheet, rename, whole_hand
from scorebook.models import Session

# What a stored hand repeats from its session; a hand inside a sheet leaves it out (HANDS.md).
SESSION_KEYS = FROM_SHEET


def stored_hand(
    variant: str, frozen: Mapping[str, Any], players: Iterable[str], own: Mapping[str, Any]
) -> dict[str, Any]:
    """What a hand stores: its own fields with its session's variant id, frozen rules and
    seated players, the full hand of HANDS.md, as JSON (a Decimal as a JSON number)."""
    return hand_json(whole_hand(variant, frozen, players, own))


def stored_in(session: Session, own: Mapping[str, Any]) -> dict[str, Any]:
    return stored_hand(session.variant, session.rules, session.seat_names, own)


def sheet_hand(data: Mapping[str, Any], players: Iterable[str]) -> dict[str, Any]:
    """A hand (stored, or its own fields) as it appears inside a sheet: no format, variant or
    rules, and no players when all of the sheet's players were dealt in."""
    return in_sheet(data, players)


def rename_in_hand(
    data: Mapping[str, Any], names: Mapping[str, str], variant: str | None = None
) -> dict[str, Any]:
    """A hand with players renamed (old name -> new name) wherever its fields name them (its
    game's own fields too, given the `variant` id): hands keep names, so a renamed roster
    player's hands must follow him or they no longer match his seat. The names change all at
    once, so two players may swap names."""
    fields = fields_of(rules.get_variant(variant)) if variant is not None else None
    return rename(data, names) if fields is None else rename(data, names, fields)


def as_seated(
    session: Session, data: Mapping[str, Any], named: Sequence[str], seated: Sequence[str]
) -> Mapping[str, Any]:
    """The form's hand with the names of the seats now. The form named the seats as `named`
    (read before the session's lock); a player renamed since keeps his seat, so his old name
    becomes his new one. Any other name is the engine's to refuse, at its field."""
    if list(named) == list(seated) or len(named) != len(seated):
        return data
    return rename_in_hand(data, dict(zip(named, seated, strict=True)), session.variant)
