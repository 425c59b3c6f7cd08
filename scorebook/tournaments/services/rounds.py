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
from fractions import Fraction

from django.db import transaction
from django.db.models import Count, IntegerField, Max, OuterRef, Prefetch, Q, Subquery
from django.db.models.functions import Coalesce

from rules.variant import NOT_DEALS
from scorebook import confirmations
from scorebook import services as core
from scorebook.amounts import cents
from scorebook.models import Hand, Session, SessionSeat
from scorebook.sheets import export_json
from scorebook.tournaments import knockout
from scorebook.tournaments import ranking as pure
from scorebook.tournaments.contras import totals_without_contras
from scorebook.tournaments.models import (
    Placement,
    RankingMode,
    Round,
    Status,
    Table,
    Tournament,
)
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.drawing import draw_next_round
from scorebook.tournaments.services.points import points_for, share_places
from scorebook.tournaments.services.ranking import ranking_points, shown


def _deals(prefix: str = "") -> Q:
    """The hands that are deals: a voided hand, a redeal or an adjustment is none."""
    return Q(**{f"{prefix}voided": False}) & ~Q(**{f"{prefix}data__contract__in": NOT_DEALS})


def hands_played(session: Session) -> int:
    """The table's deals: a redeal or an adjustment is no deal and does not count."""
    return Hand.objects.filter(_deals(), session=session).count()


def per_session(rows) -> Coalesce:
    """How many of `rows` (hands, seats) the outer table's session has, as a subquery of the
    table's statement. Counted through joins instead, a round of 100 tables grouped its hands
    × seats rows with every column read (6,476 rows sorted on disk in PostgreSQL)."""
    counted = (
        rows.filter(session=OuterRef("session"))
        .order_by()
        .values("session")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(counted, output_field=IntegerField()), 0)


def with_hands_played(tables):
    """`tables` (a queryset), each annotated with `hands_in`, its deals, in the same statement."""
    return tables.annotate(hands_in=per_session(Hand.objects.filter(_deals())))


def table_is_done(table: Table) -> bool:
    """The table's round is over (RULES.md §8.2): by hands, it has played its size's number of
    hands (a knockout match also needs a winner: a tie plays one more hand until it breaks);
    by the clock, its scorer or the organiser ended it. Either way, where confirmation is
    required, every hand is confirmed."""
    if table.finished_at is not None:
        return True
    tournament = table.round.tournament
    if not (table.ended_by_tap or _hands_are_in(tournament, table)):
        return False
    return hands_confirmed(table)


def _hands_are_in(tournament: Tournament, table: Table) -> bool:
    if tournament.is_timed:
        return False  # a timed round ends when it is ended, not by a count
    if not _enough_hands(tournament, hands_played(table.session), table.session.seats.count()):
        return False
    return not (tournament.is_knockout and _tied(table))


def _enough_hands(tournament: Tournament, hands_in: int, size: int) -> bool:
    """Whether a table of `size` players has played its number of deals (RULES.md §8.2)."""
    return hands_in >= tournament.hands_for(size)


def _tied(table: Table) -> bool:
    """A knockout match with no winner yet plays one more hand (RULES.md §8.5)."""
    totals = core.session_totals(table.session)
    seated = {seat.player_id: totals.get(seat.player_id, 0) for seat in table.session.seats.all()}
    return knockout.match_winner(seated) is None


def hands_confirmed(table: Table) -> bool:
    """Where the tournament requires it, every hand of the table is confirmed by the other
    side (issue 27, scorebook.confirmations)."""
    return confirmations.all_confirmed(table.session)


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
        record_results(tournament, table)
        table.finished_at = now
        table.save(update_fields=["finished_at"])
        _complete_round(tournament, table.round, now, user)
    return True


RESULT_FIELDS = ["place", "units", "points", "advanced", "ranked_sum", "score"]


def record_results(tournament: Tournament, table: Table) -> bool:
    """Write each seated player's place, sum and score from the table's sheet; True when any
    of them changed (a corrected hand after the round)."""
    totals = core.session_totals(table.session)
    placements = list(table.placements.select_related("registration"))
    by_player = {p.registration.player_id: p for p in placements}
    session_sums = {pid: totals.get(pid, Decimal(0)) for pid in by_player}
    sums = {**dict.fromkeys(by_player, Decimal(0)), **ranked_sums(tournament, table, session_sums)}
    # Places and placement points from the sums the ranking reads (RULES.md §8.4).
    ranked = share_places(list(sums.items()), points_for(tournament, len(placements)))
    scores = mode_scores(tournament, sums)
    changed = False
    for pid, place, points in ranked:
        placement = by_player[pid]
        before = [getattr(placement, f) for f in RESULT_FIELDS]
        placement.place = place
        placement.units = cents(session_sums[pid], ROUND_HALF_UP)
        placement.ranked_sum = sums[pid]
        placement.advanced = tournament.is_knockout and place == 1
        placement.points = None if tournament.is_knockout else shown(points)
        placement.score = str(scores[pid])
        if [getattr(placement, f) for f in RESULT_FIELDS] != before:
            changed = True
            placement.save(update_fields=RESULT_FIELDS)
    return changed


def mode_scores(tournament: Tournament, sums: dict) -> dict[object, Fraction]:
    """What the ranking mode scores at one table (RULES.md §8.4), exact: placement points
    shared on ties; the sheet sum; or the sum plus rank points shared on ties."""
    exact = {key: Fraction(str(total)) for key, total in sums.items()}
    if tournament.ranking_mode == RankingMode.SHEET:
        return exact
    points = pure.points_for_table(len(sums), ranking_points(tournament))
    seats = pure.table_places(exact, points)
    if tournament.ranking_mode == RankingMode.PLACEMENT:
        return {key: seat.points for key, seat in seats.items()}
    return {key: exact[key] + seat.points for key, seat in seats.items()}


def ranked_sums(tournament: Tournament, table: Table, totals: dict) -> dict[int, Decimal]:
    """Each player's sum as the ranking reads it: his sheet total; with contras_count off the
    table's sheet re-scored in one engine call with every contra at 0 (the session keeps its
    own sheet and settlement with them)."""
    if tournament.contras_count:
        return {pid: cents(total, ROUND_HALF_UP) for pid, total in totals.items()}
    by_name = {
        seat.player.name: seat.player_id for seat in table.session.seats.select_related("player")
    }
    without = totals_without_contras(export_json(table.session), closed=True)
    return {
        by_name[name]: cents(Decimal(str(total)), ROUND_HALF_UP) for name, total in without.items()
    }


def _complete_round(tournament: Tournament, rnd: Round, now, user) -> None:
    if rnd.tables.filter(finished_at=None).exists():
        return
    score_byes(tournament, rnd)
    rnd.finished_at = now
    rnd.save(update_fields=["bye_points", "finished_at"])
    if draw_next_round(tournament, rnd, now, user) is None:
        tournament.status = Status.FINISHED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])


def score_byes(tournament: Tournament, rnd: Round) -> None:
    """A bye scores the mean over the round's seated players of what the mode ranks, exact
    (RULES.md §8.4), shown to the hundredth; for the tie-breaks the same mean sheet sum."""
    if tournament.is_knockout:
        return
    seated = list(rnd.placements.exclude(table=None).exclude(score=""))
    if not seated:
        rnd.bye_points = Decimal(0)
        return
    mean = sum((Fraction(p.score) for p in seated), Fraction(0)) / len(seated)
    mean_sum = sum((Fraction(str(p.ranked_sum)) for p in seated), Fraction(0)) / len(seated)
    rnd.bye_points = cents(Decimal(mean.numerator) / Decimal(mean.denominator), ROUND_HALF_UP)
    shown_sum = cents(Decimal(mean_sum.numerator) / Decimal(mean_sum.denominator), ROUND_HALF_UP)
    placement_points = rnd.bye_points if tournament.ranking_mode == RankingMode.PLACEMENT else None
    rnd.placements.filter(table=None).update(
        points=placement_points, units=Decimal(0), ranked_sum=shown_sum, score=str(mean)
    )


def sync_tournament(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """Finish every table of a running tournament that has played its hands. True if any."""
    if tournament.status != Status.RUNNING:
        return False
    finished = False
    open_tables = with_hands_played(
        Table.objects.filter(round__tournament=tournament, finished_at=None)
    ).annotate(size=per_session(SessionSeat.objects.all()))
    for table in open_tables.select_related("round__tournament", "session"):
        if not (table.ended_by_tap or _enough_hands(tournament, table.hands_in, table.size)):
            continue  # the counts of one statement say so: no table asks the database again
        if table_is_done(table):
            finished = finish_table(table, now) or finished
    return finished


def check_session(session_id: int) -> None:
    """After a hand is saved, edited or voided: a tournament table now done is finished; a
    table finished before has its result recomputed (a correction, RULES.md §8.2)."""
    from scorebook.tournaments.services.corrections import recompute_table

    tables = Table.objects.filter(session_id=session_id)
    if not tables.exists():  # most sessions are no tournament's: the cheapest query says so
        return
    table = tables.select_related("round__tournament", "session").first()
    if table is None or table.round.tournament.status not in (Status.RUNNING, Status.FINISHED):
        return
    if table.finished_at is not None:
        recompute_table(table)
    elif table.round.tournament.status == Status.RUNNING and table_is_done(table):
        finish_table(table)


@dataclass
class DrawnTable:
    table: Table
    placements: list[Placement]
    hands_played: int
    hands_due: int | None = None  # None: a timed round


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
            [_drawn(tournament, t, played.get(t.session_id, 0)) for t in rnd.tables.all()],
            [p for p in rnd.placements.all() if p.table_id is None],
        )
        for rnd in rounds
    ]


def _drawn(tournament: Tournament, table: Table, played: int) -> DrawnTable:
    placements = list(table.placements.all())
    due = None if tournament.is_timed else tournament.hands_for(len(placements))
    return DrawnTable(table, placements, played, due)


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def last_round_number(tournament: Tournament) -> int:
    return tournament.round_set.aggregate(n=Max("number"))["n"] or 0
