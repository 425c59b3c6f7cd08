"""Everything the series read of a tournament, in one place: the integrator of the tournament
day (issue 28) points these at what it brings, and nothing else in the series app changes.

- `final_ranking`: the tournament's final places. Today tournaments.services' `standings`
  (placement points, units, best place) and `knockout_ranking`; issue 28's own ranking (its
  modes and tie-breaks, a changed table recomputed) goes here.
- `rated_rounds`: each round's tables with every seat's sheet sum, read from the tables'
  sheets, so a corrected hand is seen at once (RULES.md §8.2, §8.7).
- `tournament_preset` and `draws_two_player_tables`: what a rated series asks of a
  tournament that today's tournament has no field for (its own preset; a draw that gives byes
  rather than a table of two). Until issue 28, every table plays the variant's default preset
  and a three-player tournament may seat two at its last table.
"""

from __future__ import annotations

import hashlib
from decimal import Decimal
from fractions import Fraction

from django.db.models import Count, Max, Q

import rules
from scorebook import services as core
from scorebook.models import Player, Session
from scorebook.series import tarzs
from scorebook.tournaments import services as tournament_services
from scorebook.tournaments.models import Status, Table, Tournament


def is_finished(tournament: Tournament) -> bool:
    return tournament.status == Status.FINISHED


def has_started(tournament: Tournament) -> bool:
    return tournament_services.has_started(tournament)


def final_ranking(tournament: Tournament) -> list[tuple[int, Player]]:
    """(place, roster player) of every player ranked, best first; tied players share the best
    place they cover (1, 2, 2, 4). Empty until the tournament is finished."""
    if not is_finished(tournament):
        return []
    if tournament.is_knockout:
        return [
            (rank, registration.player)
            for rank, registration, _reached in tournament_services.knockout_ranking(tournament)
        ]
    return [(s.rank, s.registration.player) for s in tournament_services.standings(tournament)]


def rated_rounds(tournament: Tournament) -> tuple[tuple[tarzs.Table, ...], ...]:
    """Each round's finished tables, each seat (roster player id, sheet sum): radelc penalties
    included, contras too (RULES.md §8.4's sheet sum). Empty until the tournament is finished."""
    if not is_finished(tournament):
        return ()
    rounds: dict[int, list[tarzs.Table]] = {}
    tables = (
        Table.objects.filter(round__tournament=tournament, finished_at__isnull=False)
        .select_related("round", "session")
        .order_by("round__number", "number")
    )
    for table in tables:
        totals = core.session_totals(table.session)
        seated = table.session.seat_names.values()
        seats = tuple((pid, Fraction(totals.get(pid, Decimal(0)))) for pid in seated)
        rounds.setdefault(table.round.number, []).append(seats)
    return tuple(tuple(tables) for _number, tables in sorted(rounds.items()))


def tournament_preset(tournament: Tournament) -> str:
    """The preset its tables play: the tournament's own once it has one (issue 28), else the
    variant's default, which is what tournaments.services starts every table with today."""
    own = getattr(tournament, "preset", "")
    return own or rules.get_variant(tournament.variant).default_preset


def draws_two_player_tables(tournament: Tournament) -> bool:
    """Whether the tournament seats two at a table: one of its tables did, or its draw may
    (a smaller last table of two, where the family has a two-player game)."""
    if tournament.is_knockout:
        return True
    seated = Table.objects.filter(round__tournament=tournament).annotate(n=Count("placements"))
    if seated.filter(n=2).exists():
        return True
    return 2 in tournament_services.possible_table_sizes(tournament)


def facts(tournament: Tournament) -> tarzs.Facts:
    """What a rated series asks of the tournament (RULES.md §8.7)."""
    points = tournament_services.points_for(tournament, tournament.table_size)
    return tarzs.Facts(
        table_size=tournament.table_size,
        ranking="knockout"
        if tournament.is_knockout
        else getattr(tournament, "ranking", "placement"),
        placement_points=tuple(Fraction(p) for p in points),
        preset=tournament_preset(tournament),
        two_player_tables=draws_two_player_tables(tournament),
    )


def tournament_of(session: Session) -> int | None:
    """The id of the tournament whose table `session` is, if any."""
    return (
        Table.objects.filter(session=session).values_list("round__tournament_id", flat=True).first()
    )


def results_fingerprints(tournament_ids) -> dict[int, str]:
    """{tournament id: a digest of what its results are made of} (its status, finished tables,
    their hands and closings), in one query: when a digest changes, the results may have."""
    finished = Q(round_set__tables__finished_at__isnull=False)
    rows = (
        Tournament.objects.filter(pk__in=list(tournament_ids))
        .annotate(
            tables=Count("round_set__tables", filter=finished, distinct=True),
            hands=Count("round_set__tables__session__hands", distinct=True),
            changed=Max("round_set__tables__session__hands__changed_at"),
            closed=Max("round_set__tables__session__closed_at"),
        )
        .values_list("pk", "status", "finished_at", "tables", "hands", "changed", "closed")
    )
    return {row[0]: hashlib.sha256(repr(row).encode()).hexdigest()[:32] for row in rows}
