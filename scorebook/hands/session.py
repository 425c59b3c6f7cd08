"""The session a hand belongs to, as the pipeline reads and locks it: the engine's view of
its table, what a page says of its game, its seated players in one statement, and the locks a
write takes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from django.db import connection
from django.db.models import F

import rules
from rules.reader import Sheet
from rules.variant import Carried
from scorebook.models import WITH_TABLE, Membership, Player, Session, SessionSeat


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


def _seats(**lookup: Any):
    """The seats of the session matching `lookup`, each with its player's name, the session
    and its tournament table if it is one (its name)."""
    return (
        SessionSeat.objects.filter(**{f"session__{key}": value for key, value in lookup.items()})
        .select_related(f"session__{WITH_TABLE}")  # the session, and its name if a table
        .annotate(name=F("player__name"))
        .order_by("position")
    )


def _seated(seated: list[SessionSeat]) -> Session:
    session = seated[0].session
    # What Session.seat_names would read with a query of its own.
    session.__dict__["seat_names"] = {seat.name: seat.player_id for seat in seated}
    return session


def seated_session(**lookup: Any) -> Session | None:
    """The session matching `lookup` (a Session lookup: pk=…, club=…) with its seated
    players' names (`seat_names`) and its tournament table if it is one (its name), in one
    statement; None when there is none."""
    seated = list(_seats(**lookup))
    return _seated(seated) if seated else None


MEMBER = "session__club__memberships__"


def member_and_seated_session(user, club: str, pk: int) -> tuple[Membership, Session] | None:
    """The user's membership of the club with slug `club` (the club loaded) and its session
    `pk` with its seats, in one statement: what a club page reads first and a session's page
    next, read together on the pages of every hand (issue 25). None when the user is no
    member, or the club has no such session with seats (the caller reads them apart then)."""
    seats = (
        _seats(pk=pk, club__slug=club)
        .filter(**{f"{MEMBER}user": user})  # the annotations below read this very join
        .select_related("session__club")
        .annotate(
            member_pk=F(f"{MEMBER}pk"),
            member_role=F(f"{MEMBER}role"),
            member_since=F(f"{MEMBER}created_at"),
        )
    )
    seated = list(seats)
    if not seated:
        return None
    session, seat = _seated(seated), seated[0]
    membership = Membership(
        pk=seat.member_pk,
        user=user,
        club=session.club,
        role=seat.member_role,
        created_at=seat.member_since,
    )
    return membership, session


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


def lock_for_save(user, club: str, pk: int) -> None:
    """Take the lock a save of a new hand holds before it reads anything of its session, in
    the caller's transaction: the membership, the seats and the hands it reads next are then
    as no other write can change them before it commits, and need no second reading
    (issue 25). On PostgreSQL: the row of session `pk`, only of the club with slug `club` and
    only for a member of it; on SQLite, whose IMMEDIATE transaction already holds the whole
    database, nothing is sent."""
    if not connection.features.has_select_for_update:
        return
    mine = Session.objects.filter(pk=pk, club__slug=club, club__memberships__user=user)
    list(mine.select_for_update(of=("self",)).values_list("pk"))


def lock_players(players: Sequence[Player]) -> dict[int, Player]:
    """Lock roster players about to be seated (in pk order), so that a rename of one of them
    either finished before or waits and then sees the new session's seat."""
    return {
        player.pk: player
        for player in Player.objects.select_for_update(no_key=True)
        .filter(pk__in=[player.pk for player in players])
        .order_by("pk")
    }
