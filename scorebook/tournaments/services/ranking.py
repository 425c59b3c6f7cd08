"""The standings (RULES.md §8): a Swiss tournament's ranking by placement points, a
knockout's by the rounds reached, and its bracket."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.db.models import Sum

from scorebook.amounts import cents
from scorebook.collation import sort_key
from scorebook.models import Entry
from scorebook.tournaments import knockout
from scorebook.tournaments import ranking as pure
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


def ranking_points(tournament: Tournament):
    """The list the pure ranking takes: placement points (None: n − place), rank points."""
    if tournament.ranking_mode == RankingMode.PLACEMENT:
        return [Fraction(str(p)) for p in tournament.placement_points] or None
    if tournament.ranking_mode == RankingMode.SHEET_RANK:
        return [Fraction(str(p)) for p in tournament.rank_points]
    return None


def ranked_rounds(tournament: Tournament) -> list[pure.Round]:
    """The finished tables of every round as the pure ranking reads them: registration id ->
    the sum the ranking uses; a round's byes once the round is over."""
    tables: dict[int, dict[int, dict]] = {}
    byes: dict[int, list[int]] = {}
    done = Placement.objects.filter(round__tournament=tournament).select_related("round")
    for p in done.exclude(ranked_sum=None).order_by("round__number", "table_id", "seat"):
        number = p.round.number
        if p.table_id is None:
            if p.round.finished_at is not None:
                byes.setdefault(number, []).append(p.registration_id)
        else:
            sums = tables.setdefault(number, {}).setdefault(p.table_id, {})
            sums[p.registration_id] = Fraction(str(p.ranked_sum))
    numbers = sorted(set(tables) | set(byes))
    return [pure.Round(list(tables.get(n, {}).values()), byes.get(n, [])) for n in numbers]


def playing(tournament: Tournament) -> list[Registration]:
    """Everybody who plays or played (withdrawn players too), in the reader's alphabet."""
    found = (
        tournament.registrations.filter(cancelled_at=None, has_place=True)
        .exclude(player=None)
        .select_related("player", "user", "team")
    )
    return sorted(found, key=lambda r: sort_key(r.player.name))


def pure_standings(tournament: Tournament, registrations: list[Registration]):
    return pure.standings(
        tournament.ranking_mode,
        ranked_rounds(tournament),
        ranking_points(tournament),
        [r.pk for r in registrations],
    )


def standings(tournament: Tournament) -> list[Standing]:
    """The standing by the tournament's ranking mode from the finished tables, every
    tie-break of RULES.md §8.4 in turn (scorebook.tournaments.ranking); players equal on all
    of them share the rank. Players at a table still in play also get its running total
    (`at_table`), which does not count yet."""
    live = dict(
        Entry.objects.filter(
            hand__session__tournament_table__round__tournament=tournament,
            hand__session__tournament_table__finished_at=None,
            hand__voided=False,
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    registrations = playing(tournament)
    by_id = {r.pk: r for r in registrations}
    return [
        _standing(tournament, row, by_id[row.player], live)
        for row in pure_standings(tournament, registrations)
    ]


def _standing(tournament, row: pure.Standing, registration, live: dict) -> Standing:
    best = next((i for i, n in enumerate(row.places, start=1) if n), None)
    sheet_rank = tournament.ranking_mode == RankingMode.SHEET_RANK
    return Standing(
        row.rank,
        registration,
        shown(row.score),
        shown(row.sheet_sum),
        best,
        sum(row.places),
        live.get(registration.player_id),
        row.score,
        shown(row.points) if sheet_rank else None,
    )


def swiss_tiers(tournament: Tournament, registrations) -> list[list[int]]:
    """The standing as tiers of equal players (registration ids), best first."""
    return pure.tiers(pure_standings(tournament, list(registrations)))


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
    ranked = [
        pure.Standing(r.rank, r.registration.pk, r.score, Fraction(0), Fraction(0), 0, (), (), 0)
        for r in rows
    ]
    team_of = {r.registration.pk: r.registration.team_id for r in rows if r.registration.team_id}
    teams = {t.pk: t for t in tournament.teams.all()}
    names = {r.registration.pk: r.registration.name for r in rows}
    return [
        TeamStanding(t.rank, teams[t.team], shown(t.score), [names[m] for m in t.members])
        for t in pure.team_standings(ranked, team_of)
    ]


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
    """(rank, registration, rounds reached): the winner 1st, the final's loser 2nd, the
    semi-final losers share 3rd, … (RULES.md §8.5, scorebook.tournaments.knockout)."""
    reached: dict[int, int] = {}
    registrations: dict[int, Registration] = {}
    placements = Placement.objects.filter(round__tournament=tournament).select_related(
        "round", "registration__player"
    )
    for p in placements.order_by("round__number"):
        reached[p.registration_id] = p.round.number + (1 if p.advanced else 0)
        registrations[p.registration_id] = p.registration
    places = knockout.final_places(reached)
    ordered = sorted(places, key=lambda pk: (places[pk], sort_key(registrations[pk].player.name)))
    return [(places[pk], registrations[pk], reached[pk]) for pk in ordered]
