"""The stored hand: what a hand stores (the full hand of HANDS.md), a hand as it appears inside
a sheet, and renames of the players it names."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scorebook.models import Session

# What a stored hand repeats from its session; a hand inside a sheet leaves it out (HANDS.md).
SESSION_KEYS = ("format", "variant", "rules")


def stored_hand(
    variant: str, frozen: Mapping[str, Any], players: Iterable[str], own: Mapping[str, Any]
) -> dict[str, Any]:
    """What a hand stores: its own fields with its session's variant id, frozen rules and
    seated players, the full hand of HANDS.md."""
    return {"format": 1, "variant": variant, "rules": dict(frozen), "players": list(players), **own}


def stored_in(session: Session, own: Mapping[str, Any]) -> dict[str, Any]:
    return stored_hand(session.variant, session.rules, session.seat_names, own)


def sheet_hand(data: Mapping[str, Any], players: Iterable[str]) -> dict[str, Any]:
    """A hand (stored, or its own fields) as it appears inside a sheet: no format, variant or
    rules, and no players when all of the sheet's players were dealt in."""
    hand = {key: value for key, value in data.items() if key not in SESSION_KEYS}
    if list(hand.get("players", ())) == list(players):
        del hand["players"]
    return hand


# Where a hand names a player (HANDS.md): as a value, as the keys of a map, inside list items.
_NAME_FIELDS = ("dealer", "declarer", "partner", "announcer")


_NAME_MAPS = ("points_by_player", "tricks_by_player", "radelci")


_NAME_ITEMS = ("bonuses", "declarations", "adjustments")


def rename_in_hand(data: Mapping[str, Any], names: Mapping[str, str]) -> dict[str, Any]:
    """A hand with players renamed (old name -> new name) wherever they appear: hands keep
    names, so a renamed roster player's hands must follow him or they no longer match his
    seat. The names change all at once, so two players may swap names."""

    def swap(value: Any) -> Any:
        return names.get(value, value) if isinstance(value, str) else value

    hand = dict(data)
    if isinstance(hand.get("players"), list):
        hand["players"] = [swap(name) for name in hand["players"]]
    for key in _NAME_FIELDS:
        if key in hand:
            hand[key] = swap(hand[key])
    for key in _NAME_MAPS:
        if isinstance(hand.get(key), dict):
            hand[key] = {swap(name): value for name, value in hand[key].items()}
    for key in _NAME_ITEMS:
        if isinstance(hand.get(key), list):
            hand[key] = [
                {**item, "player": swap(item["player"])}
                if isinstance(item, dict) and "player" in item
                else item
                for item in hand[key]
            ]
    return hand


def as_seated(
    data: Mapping[str, Any], named: Sequence[str], seated: Sequence[str]
) -> Mapping[str, Any]:
    """The form's hand with the names of the seats now. The form named the seats as `named`
    (read before the session's lock); a player renamed since keeps his seat, so his old name
    becomes his new one. Any other name is the engine's to refuse, at its field."""
    if list(named) == list(seated) or len(named) != len(seated):
        return data
    return rename_in_hand(data, dict(zip(named, seated, strict=True)))
