"""The standings (RULES.md §8): a Swiss tournament's ranking by placement points, a
knockout's by the rounds reached, and its bracket."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Count, Min, Q, Sum

from scorebook.amounts import cents
from scorebook.collation import sort_key
from scorebook.models import Entry
from scorebook.tournaments.models import (
    Placement,
    RankingMode,
    Registration,
    Round,
    Table,
    Team,
    Tournament,
)


@dataclass
class Standing:
    rank: int
    registration: Registration
    points: Decimal  # what the mode ranks, shown to the hundredth (`score` is exact)
    units: Decimal  # the sheet sums over the rounds
    best_place: int | None
    played: int
    # The running total at a table still in play, for the live standings; None elsewhere.
    at_table: Decimal | None = None
    score: Fraction = Fraction(0)
    rank_points: Decimal | None = None  # sheet+rank: the rank points of his tables

    @property
    def withdrawn(self) -> bool:
        return self.registration.is_withdrawn


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


@dataclass
class Record:
    """A player's rounds as the ranking reads them (RULES.md §8.4)."""

    registration: Registration
    rounds: list[Placement] = field(default_factory=list)

    @property
    def score(self) -> Fraction:
        return sum((_exact(p.score) for p in self.rounds), Fraction(0))

    @property
    def total(self) -> Fraction:
        return sum((_exact(p.ranked_sum) for p in self.rounds), Fraction(0))

    @property
    def seated(self) -> list[Placement]:
        return [p for p in self.rounds if p.place is not None]  # a bye has no place

    def places(self, size: int) -> tuple[int, ...]:
        """How many 1st places, 2nd places, … (a bye is no table placing)."""
        return tuple(sum(1 for p in self.seated if p.place == k) for k in range(1, size + 1))

    def best_rounds(self) -> tuple[Fraction, ...]:
        """His round scores, highest first (a bye is never his highest single round)."""
        return tuple(sorted((_exact(p.score) for p in self.seated), reverse=True))

    @property
    def rank_points(self) -> Fraction:
        return sum((_exact(p.score) - _exact(p.ranked_sum) for p in self.seated), Fraction(0))


def _exact(value) -> Fraction:
    return Fraction(str(value)) if value not in (None, "") else Fraction(0)


def tie_key(tournament: Tournament, record: Record) -> tuple:
    """The mode's order (RULES.md §8.4), best first: players equal on all of it share."""
    if tournament.ranking_mode == RankingMode.SHEET:
        wins = sum(1 for p in record.seated if p.place == 1)
        return (-record.score, -wins, tuple(-x for x in record.best_rounds()))
    if tournament.ranking_mode == RankingMode.SHEET_RANK:
        return (-record.score, -record.rank_points, tuple(-x for x in record.best_rounds()))
    size = tournament.table_size + 1
    return (-record.score, -record.total, tuple(-n for n in record.places(size)))


def records(tournament: Tournament) -> list[Record]:
    """Every player who plays or played, with his finished rounds."""
    found = {
        r.pk: Record(r)
        for r in tournament.registrations.filter(cancelled_at=None, has_place=True)
        .exclude(player=None)
        .select_related("player", "user", "team")
    }
    done = Placement.objects.filter(round__tournament=tournament).exclude(score="")
    for placement in done.order_by("round__number"):
        if placement.registration_id in found:
            found[placement.registration_id].rounds.append(placement)
    return list(found.values())


def standings(tournament: Tournament) -> list[Standing]:
    """The standing by the tournament's ranking mode from the finished tables, every
    tie-break of RULES.md §8.4 in turn; players equal on all of them share the rank. Players at
    a table still in play also get its running total (`at_table`), which does not count yet."""
    live = dict(
        Entry.objects.filter(
            hand__session__tournament_table__round__tournament=tournament,
            hand__session__tournament_table__finished_at=None,
            hand__voided=False,
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    keyed = [(tie_key(tournament, r), r) for r in records(tournament)]
    keyed.sort(key=lambda kr: (kr[0], sort_key(kr[1].registration.player.name)))
    result: list[Standing] = []
    for i, (key, record) in enumerate(keyed):
        rank = result[-1].rank if result and keyed[i - 1][0] == key else i + 1
        result.append(_standing(tournament, rank, record, live))
    return result


def _standing(tournament, rank: int, record: Record, live: dict) -> Standing:
    places = [p.place for p in record.seated]
    registration = record.registration
    sheet_rank = tournament.ranking_mode == RankingMode.SHEET_RANK
    return Standing(
        rank,
        registration,
        shown(record.score),
        shown(record.total),
        min(places) if places else None,
        len(places),
        live.get(registration.player_id),
        record.score,
        shown(record.rank_points) if sheet_rank else None,
    )


def shown(value: Fraction) -> Decimal:
    """An exact score to the hundredth, half up, as it is shown."""
    return cents(Decimal(value.numerator) / Decimal(value.denominator), ROUND_HALF_UP)


@dataclass
class TeamStanding:
    rank: int
    team: Team
    points: Decimal
    members: list[str]


def team_standings(tournament: Tournament, rows: list[Standing]) -> list[TeamStanding]:
    """A team's score is the sum of its members' scores in the mode (a substitute counts for
    the team he came into); ties by the team's best member, then shared."""
    if not tournament.team_size:
        return []
    by_team: dict[int, list[Standing]] = {}
    for row in rows:
        if row.registration.team_id:
            by_team.setdefault(row.registration.team_id, []).append(row)
    teams = {t.pk: t for t in tournament.teams.all()}
    keyed = sorted(
        (
            (-sum((r.score for r in members), Fraction(0)), min(r.rank for r in members)),
            teams[pk],
            members,
        )
        for pk, members in by_team.items()
    )
    result: list[TeamStanding] = []
    for i, (key, team, members) in enumerate(keyed):
        rank = result[-1].rank if result and keyed[i - 1][0] == key else i + 1
        names = [r.registration.name for r in members]
        result.append(TeamStanding(rank, team, shown(-key[0]), names))
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
