"""The session a hand belongs to, as the pipeline reads and locks it: the engine's view of
its table, what a page says of its game, its seated players in one statement, and the locks a
write takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db.models import F

import rules
from rules.reader import Sheet
from rules.variant import Carried
from scorebook.models import WITH_TABLE, Player, Session, SessionSeat


def engine_sheet(session: Session) -> Sheet:
    """The engine's view of a session: variant, frozen rules and the seated players."""
    variant = rules.get_variant(session.variant)
    return Sheet(variant, variant.rules(session.rules), tuple(session.seat_names))


class Game(NamedTuple):
    """What a page says of a session's game: its name in the reader's words, and what its
    sheet shows of the state the game carries from hand to hand (None: nothing)."""

    label: str
    carried: Carried | None


def game(session: Session) -> Game:
    """The session's game as its pages show it (the variant says; no page asks it itself)."""
    variant = rules.get_variant(session.variant)
    return Game(variant.label, variant.carried(session.rules))


def seated_session(**lookup: Any) -> Session | None:
    """The session matching `lookup` (a Session lookup: pk=…, club=…) with its seated
    players' names (`seat_names`) and its tournament table if it is one (its name), in one
    statement; None when there is none."""
    seats = (
        SessionSeat.objects.filter(**{f"session__{key}": value for key, value in lookup.items()})
        .select_related(f"session__{WITH_TABLE}")  # the session, and its name if a table
        .annotate(name=F("player__name"))
        .order_by("position")
    )
    seated = list(seats)
    if not seated:
        return None
    session = seated[0].session
    # What Session.seat_names would read with a query of its own.
    session.__dict__["seat_names"] = {seat.name: seat.player_id for seat in seated}
    return session


def locked_session(session: Session) -> Session:
    """The session read afresh and locked until the transaction ends (PostgreSQL; SQLite's
    IMMEDIATE transaction holds the whole database), with whether it is a tournament's table:
    the listeners of hands_changed ask no tournament about a session that is none's. Its
    seats are read after it, by a statement of their own: one that waited for the lock
    (a rename) would see the rows it joins as they were when it began."""
    return (
        Session.objects.select_for_update(of=("self",))
        .select_related("tournament_table")
        .get(pk=session.pk)
    )


def lock_players(players: Sequence[Player]) -> dict[int, Player]:
    """Lock roster players about to be seated (in pk order), so that a rename of one of them
    either finished before or waits and then sees the new session's seat."""
    return {
        player.pk: player
        for player in Player.objects.select_for_update(no_key=True)
        .filter(pk__in=[player.pk for player in players])
        .order_by("pk")
    }
