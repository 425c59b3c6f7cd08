"""Tables and rounds: when a table has played its hands, finishing it, and completing its
round; and the rounds as the draw page lists them.

When a table has played its hands (`table_is_done`), `finish_table` closes its session and
records the placements from the session totals. The last table of a round to finish
completes the round: byes get their points and the next round is drawn (or the tournament
ends).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.db import transaction
from django.db.models import Count, Max, Prefetch, Sum

from rules.variant import NOT_DEALS
from scorebook import confirmations
from scorebook import services as core
from scorebook.amounts import cents
from scorebook.models import Hand, Session
from scorebook.tournaments.models import Placement, Round, Status, Table, Tournament
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.drawing import draw_next_round
from scorebook.tournaments.services.points import points_for, share_places


def hands_played(session: Session) -> int:
    """The table's deals: a redeal or an adjustment is no deal and does not count."""
    return (
        Hand.objects.filter(session=session, voided=False)
        .exclude(data__contract__in=NOT_DEALS)
        .count()
    )


def table_is_done(table: Table) -> bool:
    """The table has played the agreed number of hands; a knockout match also needs a winner,
    so a tie plays one more hand until it breaks."""
    if table.finished_at is not None:
        return True
    tournament = table.round.tournament
    if hands_played(table.session) < tournament.hands_per_table:
        return False
    if not confirmations.all_confirmed(table.session):  # required: the other side's word
        return False
    if tournament.is_knockout:
        totals = core.session_totals(table.session)
        seated = [seat.player_id for seat in table.session.seats.all()]
        values = [totals.get(pid, Decimal(0)) for pid in seated]
        return len(set(values)) == len(values)
    return True


def finish_table(table: Table, now: datetime.datetime | None = None, user=None) -> bool:
    """Record the table's placements from its session totals, close its session, and if it
    was the round's last table, complete the round. False when the table is not done yet."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(table.round.tournament)
        table = Table.objects.select_related("round", "session").get(pk=table.pk)
        table.round.tournament = tournament
        if table.finished_at is not None or not table_is_done(table):
            return False
        session = table.session
        if not session.is_closed:
            core.close_session(session, user)
            session.refresh_from_db()
        totals = core.session_totals(session)
        placements = list(table.placements.select_related("registration"))
        by_player = {p.registration.player_id: p for p in placements}
        ranked = share_places(
            [(pid, totals.get(pid, Decimal(0))) for pid in by_player],
            points_for(tournament, len(placements)),
        )
        for pid, place, points in ranked:
            placement = by_player[pid]
            placement.place = place
            placement.units = cents(totals.get(pid, Decimal(0)), ROUND_HALF_UP)
            if tournament.is_knockout:
                placement.points = None
                placement.advanced = place == 1
            else:
                placement.points = points
            placement.save(update_fields=["place", "units", "points", "advanced"])
        table.finished_at = now
        table.save(update_fields=["finished_at"])
        _complete_round(tournament, table.round, now, user)
    return True


def _complete_round(tournament: Tournament, rnd: Round, now, user) -> None:
    if rnd.tables.filter(finished_at=None).exists():
        return
    seated = rnd.placements.exclude(table=None)
    if not tournament.is_knockout:
        agg = seated.aggregate(total=Sum("points"), n=Count("id"))
        rnd.bye_points = cents(agg["total"] / agg["n"], ROUND_HALF_UP) if agg["n"] else Decimal(0)
        rnd.placements.filter(table=None).update(points=rnd.bye_points, units=Decimal(0))
    rnd.finished_at = now
    rnd.save(update_fields=["bye_points", "finished_at"])
    if draw_next_round(tournament, rnd, now, user) is None:
        tournament.status = Status.FINISHED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])


def sync_tournament(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """Finish every table of a running tournament that has played its hands. True if any."""
    if tournament.status != Status.RUNNING:
        return False
    finished = False
    open_tables = Table.objects.filter(round__tournament=tournament, finished_at=None)
    for table in open_tables.select_related("round__tournament", "session"):
        if table_is_done(table):
            finished = finish_table(table, now) or finished
    return finished


def check_session(session_id: int) -> None:
    """After a hand is saved: if the session is a tournament table that is now done, finish it."""
    tables = Table.objects.filter(session_id=session_id, finished_at=None)
    if not tables.exists():  # most sessions are no tournament's: the cheapest query says so
        return
    table = tables.select_related("round__tournament", "session").first()
    if (
        table is not None
        and table.round.tournament.status == Status.RUNNING
        and table_is_done(table)
    ):
        finish_table(table)


@dataclass
class DrawnTable:
    table: Table
    placements: list[Placement]
    hands_played: int


def draw(tournament: Tournament) -> list[tuple[Round, list[DrawnTable], list[Placement]]]:
    """Every round, latest first: its tables with their players and hands so far, and byes."""
    played = dict(
        Hand.objects.filter(session__tournament_table__round__tournament=tournament, voided=False)
        .exclude(data__contract__in=NOT_DEALS)
        .values_list("session_id")
        .annotate(n=Count("id"))
    )
    placements = Prefetch(
        "placements",
        queryset=Placement.objects.select_related("registration__player").order_by("seat"),
    )
    rounds = tournament.round_set.order_by("-number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.prefetch_related(placements)), placements
    )
    return [
        (
            rnd,
            [
                DrawnTable(t, list(t.placements.all()), played.get(t.session_id, 0))
                for t in rnd.tables.all()
            ],
            [p for p in rnd.placements.all() if p.table_id is None],
        )
        for rnd in rounds
    ]


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def last_round_number(tournament: Tournament) -> int:
    return tournament.round_set.aggregate(n=Max("number"))["n"] or 0
