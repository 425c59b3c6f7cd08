"""The standings (RULES.md §8): a Swiss tournament's ranking by placement points, a
knockout's by the rounds reached, and its bracket."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, Min, Q, Sum

from scorebook.collation import sort_key
from scorebook.models import Entry
from scorebook.tournaments.models import Placement, Registration, Round, Table, Tournament


@dataclass
class Standing:
    rank: int
    registration: Registration
    points: Decimal
    units: Decimal
    best_place: int | None
    played: int
    # The running total at a table still in play, for the live standings; None elsewhere.
    at_table: Decimal | None = None


def players_with_totals(tournament: Tournament):
    """The players who play, each with his placement points, units and best place so far."""
    return (
        tournament.registrations.filter(cancelled_at=None, has_place=True)
        .exclude(player=None)
        .select_related("player", "user")
        .annotate(
            total_points=Sum("placements__points", default=Decimal(0)),
            total_units=Sum("placements__units", default=Decimal(0)),
            best=Min("placements__place"),
            played=Count("placements", filter=Q(placements__place__isnull=False)),
        )
        .order_by("pk")
    )


def standings(tournament: Tournament) -> list[Standing]:
    """Swiss standing from the finished tables: placement points, then total units, then the
    best table placing. Players equal on all three share the rank. Players at a table still
    in play also get its running total (`at_table`), which does not count yet."""
    live = dict(
        Entry.objects.filter(
            hand__session__tournament_table__round__tournament=tournament,
            hand__session__tournament_table__finished_at=None,
            hand__voided=False,
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    big = 10**6
    key = lambda r: (-r.total_points, -r.total_units, r.best or big)  # noqa: E731
    ordered = sorted(
        players_with_totals(tournament), key=lambda r: (*key(r), r.player.name.lower())
    )
    result: list[Standing] = []
    for i, r in enumerate(ordered):
        rank = result[-1].rank if result and key(ordered[i - 1]) == key(r) else i + 1
        result.append(
            Standing(
                rank,
                r,
                r.total_points,
                r.total_units,
                r.best,
                r.played,
                live.get(r.player_id),
            )
        )
    return result


@dataclass
class Match:
    slot: int
    placements: list[Placement]
    table: Table | None

    @property
    def is_bye(self) -> bool:
        return self.table is None

    @property
    def winner(self) -> Placement | None:
        return next((p for p in self.placements if p.advanced), None)


def bracket(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    result = []
    for rnd in tournament.round_set.all():
        matches: dict[int, Match] = {}
        for p in rnd.placements.select_related("registration__player", "table__session").order_by(
            "slot", "seat"
        ):
            match = matches.setdefault(p.slot, Match(p.slot, [], p.table))
            match.placements.append(p)
        result.append((rnd, [matches[k] for k in sorted(matches)]))
    return result


def knockout_ranking(tournament: Tournament) -> list[tuple[int, Registration, int]]:
    """(rank, registration, rounds reached): the winner first; the losers of each round share
    the rank after everybody who went further."""
    last_round = {}
    placements = Placement.objects.filter(round__tournament=tournament).select_related(
        "round", "registration__player"
    )
    for p in placements.order_by("round__number"):
        reached = p.round.number + (1 if p.advanced else 0)
        last_round[p.registration.pk] = (reached, p.registration)
    ordered = sorted(last_round.values(), key=lambda v: (-v[0], sort_key(v[1].player.name)))
    result = []
    for i, (reached, registration) in enumerate(ordered):
        rank = result[-1][0] if result and result[-1][2] == reached else i + 1
        result.append((rank, registration, reached))
    return result
