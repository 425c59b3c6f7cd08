"""The organiser's day (RULES.md §8.2): the director's screen, ending a table, more minutes,
reseating a table before its first hand, a hand after the time, presence at the door,
withdrawals and substitutes, and a message to every player."""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from scorebook import confirmations
from scorebook.errors import ServiceError
from scorebook.tournaments.models import (
    Event,
    Placement,
    Registration,
    Status,
    Table,
    Tournament,
)
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.drawing import replace_table, reseated_order
from scorebook.tournaments.services.plan import has_started
from scorebook.tournaments.services.rounds import (
    current_round,
    finish_table,
    hands_played,
    with_hands_played,
)

# --- The director's screen --------------------------------------------------------------------


@dataclass
class TableState:
    """One table of the round as the director sees it."""

    table: Table
    names: list[str]
    hands_in: int
    hands_due: int | None  # None: a timed round
    seconds_left: int | None  # None: no time limit, or finished
    unconfirmed: int
    disputed: int

    @property
    def finished(self) -> bool:
        return self.table.finished_at is not None

    @property
    def minutes_left(self) -> int | None:
        return None if self.seconds_left is None else -(-self.seconds_left // 60)

    @property
    def may_reseat(self) -> bool:
        return not self.finished and self.hands_in == 0


def seconds_left(table: Table, now: datetime.datetime) -> int | None:
    """Seconds until the table's minutes are up (negative once they are); None untimed."""
    if table.ends_at is None or table.finished_at is not None:
        return None
    return int((table.ends_at - now).total_seconds())


def unconfirmed_and_disputed(table: Table) -> tuple[int, int]:
    """The table's hands still waiting for the other side's word, and those disputed (issue
    27, scorebook.confirmations); none where the tournament does not ask for them."""
    return confirmations.open_counts([table.session]).get(table.session_id, (0, 0))


def director_tables(tournament: Tournament, now: datetime.datetime | None = None):
    """(round, [TableState]) of the current round; (None, []) before the first draw. A few
    statements however many tables the round has: the screen refreshes every 10 seconds."""
    now = clock(now)
    rnd = current_round(tournament)
    if rnd is None:
        return None, []
    tables = list(with_hands_played(rnd.tables.select_related("session")))
    words = confirmations.open_counts(table.session for table in tables)
    seated = _names_at_tables(rnd)
    states = []
    for table in tables:
        names = seated.get(table.pk, [])
        unconfirmed, disputed = words.get(table.session_id, (0, 0))
        states.append(
            TableState(
                table,
                names,
                table.hands_in,
                None if tournament.is_timed else tournament.hands_for(len(names)),
                seconds_left(table, now),
                unconfirmed,
                disputed,
            )
        )
    return rnd, states


def _names_at_tables(rnd) -> dict[int, list[str]]:
    """Each table's players by seat, read as names alone: a round of 100 tables is 400 of
    them, and building their placements, registrations and players was most of a refresh.
    Every seated registration has its player from the start on (start.py)."""
    seated: dict[int, list[str]] = {}
    rows = (
        Placement.objects.filter(round=rnd)
        .order_by("table_id", "seat")
        .values_list("table_id", "registration__player__name")
    )
    for table_id, name in rows:
        seated.setdefault(table_id, []).append(name)
    return seated


# --- The organiser's taps on a table ----------------------------------------------------------


def _open_table(tournament: Tournament, table_id: int) -> Table:
    """The table of the tournament's current round, not finished yet (tournament locked)."""
    table = (
        Table.objects.select_related("round", "session")
        .filter(round__tournament=tournament, pk=table_id)
        .first()
    )
    if table is None or tournament.status != Status.RUNNING:
        raise ServiceError(_("This table is not in play."))
    if table.finished_at is not None:
        raise ServiceError(_("This table has finished its round."))
    table.round.tournament = tournament
    return table


def _record(tournament, kind, table=None, now=None, user=None, registrations=(), minutes=None):
    event = Event.objects.create(
        tournament=tournament,
        at=clock(now),
        kind=kind,
        round_number=table.round.number if table else None,
        table_number=table.number if table else None,
        minutes=minutes,
        by=user if getattr(user, "is_authenticated", False) else None,
    )
    if registrations:
        event.registrations.set(registrations)
    return event


def end_table(tournament: Tournament, table_id: int, user=None, now=None) -> Table:
    """End a table's round now (early, or after its time): its hands so far count. Its
    unconfirmed hands are confirmed or voided by the organiser first."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(tournament)
        table = _open_table(tournament, table_id)
        unconfirmed, disputed = unconfirmed_and_disputed(table)
        if unconfirmed or disputed:
            raise ServiceError(_("Confirm or void this table's open hands first."))
        if tournament.is_knockout and _knockout_tied(table):
            raise ServiceError(_("The match is tied: it plays one more hand until it breaks."))
        table.ended_by_tap = True
        table.save(update_fields=["ended_by_tap"])
        _record(tournament, Event.Kind.ENDED, table, now, user)
        finish_table(table, now, user)
    return table


def round_over(tournament: Tournament, table_id: int, user=None, now=None) -> Table:
    """The scorer's "round over" at a timed table whose minutes are up (RULES.md §8.2);
    before the time only the director ends a table."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(tournament)
        table = _open_table(tournament, table_id)
        if table.ends_at is None or now < table.ends_at:
            raise ServiceError(_("The round's time is not up: only the director ends it now."))
    return end_table(tournament, table_id, user, now)


def _knockout_tied(table: Table) -> bool:
    from scorebook.tournaments.services.rounds import _tied

    return _tied(table)


MAX_MORE_MINUTES = 120


def more_minutes(tournament: Tournament, table_id: int, minutes: int, user=None, now=None):
    """Give a timed table more minutes, counted from now when its time is already up."""
    now = clock(now)
    if not 1 <= minutes <= MAX_MORE_MINUTES:
        raise ServiceError(
            _("Give between 1 and %(n)d minutes.") % {"n": MAX_MORE_MINUTES}, "minutes"
        )
    with transaction.atomic():
        tournament = locked(tournament)
        table = _open_table(tournament, table_id)
        if table.ends_at is None:
            raise ServiceError(_("This round is played by hands, not by the clock."))
        table.ends_at = max(table.ends_at, now) + datetime.timedelta(minutes=minutes)
        table.save(update_fields=["ends_at"])
        _record(tournament, Event.Kind.MORE_MINUTES, table, now, user, minutes=minutes)
    return table


def reseat_table(tournament: Tournament, table_id: int, user=None, now=None) -> Table:
    """Seat a table's players afresh before its first hand (a new seeded order)."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(tournament)
        table = _open_table(tournament, table_id)
        if hands_played(table.session) or table.session.hands.exists():
            raise ServiceError(_("This table has played a hand: it can no longer be reseated."))
        new = replace_table(tournament, table, reseated_order(tournament, table), now, user)
        _record(tournament, Event.Kind.RESEATED, new, now, user)
    return new


def check_late_hand(session, by_admin: bool, now=None) -> None:
    """A timed table after its minutes and grace: a hand needs the organiser (RULES.md §8.2)."""
    table = session.tournament_table
    if table.ends_at is None or table.finished_at is not None or by_admin:
        return
    grace = datetime.timedelta(minutes=table.round.tournament.grace_minutes)
    if clock(now) > table.ends_at + grace:
        raise ServiceError(
            _(
                "The round's time and its grace are over: a later hand is saved only by the "
                "tournament director."
            )
        )


# --- Presence at the door ---------------------------------------------------------------------


def set_presence(registration: Registration, present: bool, user=None, now=None):
    """The organiser confirms (or undoes) a registered player's presence for him, until the
    start (RULES.md §8.1)."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(registration.tournament)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if has_started(tournament, now):
            raise ServiceError(_("The tournament has started: presence is settled."))
        if not registration.is_active:
            raise ServiceError(_("This registration is cancelled."))
        registration.confirmed_at = now if present else None
        registration.save(update_fields=["confirmed_at"])
        kind = Event.Kind.PRESENCE if present else Event.Kind.PRESENCE_UNDONE
        _record(tournament, kind, None, now, user, [registration])
    return registration


# --- Where a player goes ------------------------------------------------------------------


@dataclass
class MySeat:
    """Where the player sits in the current round: a table and who with, or a bye."""

    round_number: int
    table: Table | None
    others: list[str]
    seconds_left: int | None

    @property
    def minutes_left(self) -> int | None:
        return None if self.seconds_left is None else max(0, -(-self.seconds_left // 60))


def my_seat(tournament: Tournament, user, now=None) -> MySeat | None:
    """The player's seat in the latest round, for the first lines of his tournament page."""
    if not user.is_authenticated or tournament.status != Status.RUNNING:
        return None
    rnd = current_round(tournament)
    if rnd is None:
        return None
    mine = (
        rnd.placements.filter(registration__player__user=user)
        .select_related("table__session")
        .first()
    )
    if mine is None:
        return None
    if mine.table is None:
        return MySeat(rnd.number, None, [], None)
    others = [
        p.registration.player.name
        for p in mine.table.placements.select_related("registration__player").order_by("seat")
        if p.pk != mine.pk
    ]
    return MySeat(rnd.number, mine.table, others, seconds_left(mine.table, clock(now)))


def tables_of(tournament: Tournament):
    return Table.objects.select_related("round__tournament").filter(round__tournament=tournament)
