"""A series computed again from its stored inputs (RULES.md §8.6, §8.7).

Each joined tournament's inputs (its final ranking; a rated one's tables and sheet sums) are
read from the tournament once it is finished, and again whenever the digest of its results
changes (adapter.results_fingerprints). From them, exactly:
- a standing series writes every season's StandingRow;
- a rated series plays its seasons in order, each open one from where the one before left
  (a closed season is frozen: its end ratings are its successor's start), and writes
  TournamentRating, SeasonRating and each tournament's rating.
What moved on the pages (a place, points, a rating) is kept as a SeriesChange.

Callers hold the series row locked (select_for_update) in their transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction

from scorebook.series import adapter, tarzs
from scorebook.series.exact import exact
from scorebook.series.models import (
    ChangeCause,
    EntryState,
    ImportedRating,
    SeasonRating,
    Series,
    SeriesChange,
    SeriesSeason,
    SeriesTournament,
    StandingRow,
    TournamentRating,
)
from scorebook.series.people import Universe, universe
from scorebook.series.standing import Result, place_points, points_table, standing, two_decimals


def joined(season: SeriesSeason) -> list[SeriesTournament]:
    """The season's tournaments, in the order they started."""
    return list(
        season.entries.filter(state=EntryState.JOINED)
        .select_related("tournament__club")
        .order_by("tournament__starts_at", "tournament_id")
    )


def read_inputs(entry: SeriesTournament) -> dict:
    tournament = entry.tournament
    inputs = {"ranking": [[place, p.pk] for place, p in adapter.final_ranking(tournament)]}
    if entry.rated:
        inputs["rounds"] = [
            [[[pid, str(total)] for pid, total in table] for table in tables]
            for tables in adapter.rated_rounds(tournament)
        ]
    return inputs


def refresh_inputs(series: Series) -> list[SeriesTournament]:
    """Read again the tournaments of open seasons whose results' digest changed; the entries
    whose inputs changed with it (a hand at a table still in play changes no input)."""
    entries = list(
        SeriesTournament.objects.filter(
            season__series=series, state=EntryState.JOINED, season__closed_at=None
        ).select_related("tournament__club")
    )
    prints = adapter.results_fingerprints(e.tournament_id for e in entries)
    changed = []
    for entry in entries:
        digest = prints.get(entry.tournament_id, "")
        if digest == entry.fingerprint:
            continue
        inputs = read_inputs(entry)
        if inputs != entry.inputs:
            changed.append(entry)
        entry.inputs, entry.fingerprint = inputs, digest
        entry.save(update_fields=["inputs", "fingerprint"])
    return changed


def sync(series: Series) -> bool:
    """Compute the series again if one of its tournaments' results changed. True if so.

    A page calls this on every view: the digests are read first, in one query, and the series
    is locked only when one differs from what was read last."""
    entries = SeriesTournament.objects.filter(
        season__series=series, state=EntryState.JOINED, season__closed_at=None
    )
    stored = dict(entries.values_list("tournament_id", "fingerprint"))
    prints = adapter.results_fingerprints(stored)
    if all(prints.get(pk, "") == digest for pk, digest in stored.items()):
        return False
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        changed = refresh_inputs(series)
        if changed:
            _compute(series, ChangeCause.RESULT, changed[0] if len(changed) == 1 else None)
    return bool(changed)


def recompute(series: Series, cause: str, entry: SeriesTournament | None = None) -> None:
    """Compute the whole series again (its row locked by the caller)."""
    refresh_inputs(series)
    _compute(series, cause, entry)


def _compute(series: Series, cause: str, entry: SeriesTournament | None) -> None:
    found = universe(series)
    if series.rated:
        _rate_series(series, found, cause, entry)
    else:
        for season in series.seasons.all():
            _write_standing(season, found, cause, entry)


def _note(season: SeriesSeason, cause: str, entry, lines: list[dict]) -> None:
    if lines:
        mine = entry if entry is not None and entry.season_id == season.pk else None
        SeriesChange.objects.create(season=season, cause=cause, entry=mine, lines=lines)


@dataclass(frozen=True)
class Shown:
    """One person as a page shows him: his players, the one he is shown as, place, value."""

    players: frozenset
    player: int
    place: int
    value: str


def changes(before: Sequence[Shown], after: Sequence[Shown]) -> list[dict]:
    """The persons whose shown place or value moved, came or went; a person is the same one
    before and after when they share a roster player (a match may have joined two)."""
    lines = []
    for now in after:
        was = next((b for b in before if b.players & now.players), None)
        if was is None or (was.place, was.value) != (now.place, now.value):
            lines.append(_line(now.player, was, now))
    for was in before:
        if not any(was.players & now.players for now in after):
            lines.append(_line(was.player, was, None))
    return lines


def _line(player: int, was: Shown | None, now: Shown | None) -> dict:
    return {
        "player": player,
        "was": [was.place, str(was.value)] if was else None,
        "now": [now.place, str(now.value)] if now else None,
    }


# --- The standing ----------------------------------------------------------------------------


def season_results(season: SeriesSeason, entries: Sequence[SeriesTournament], found: Universe):
    """{person: [Result]} and {person: roster player of his latest tournament} of a season."""
    series = season.series
    own = [exact(p) for p in series.own_points]
    results: dict[frozenset, dict[int, Result]] = {}
    latest: dict[frozenset, int] = {}
    for order, entry in enumerate(entries):
        ranking = [(pid, place) for place, pid in entry.inputs.get("ranking", [])]
        table = points_table(series.points_preset, own, ranked=len(ranking))
        points = place_points(ranking, table)
        for pid, place in ranking:
            person = found.person(pid)
            result = Result(order, place, points[pid] * Fraction(entry.factor))
            mine = results.setdefault(person, {})
            # Two matched players of one person in one tournament: his better result counts.
            if order not in mine or mine[order].points < result.points:
                mine[order] = result
            latest[person] = pid
    return {person: list(own.values()) for person, own in results.items()}, latest


def _write_standing(season: SeriesSeason, found: Universe, cause: str, entry) -> None:
    before = [
        Shown(frozenset(r.players), r.player_id, r.place, two_decimals(Fraction(r.total)))
        for r in season.rows.all()
    ]
    entries = joined(season)
    results, latest = season_results(season, entries, found)
    rows = standing(results, season.best_n)
    ids = [e.pk for e in entries]
    new = []
    for row in rows:
        shown = found.shown(row.person, latest.get(row.person))
        new.append(
            StandingRow(
                season=season,
                player_id=shown,
                players=sorted(row.person),
                place=row.place,
                total=str(row.total),
                counted=len(row.counted),
                results={
                    str(ids[order]): {
                        "place": r.place,
                        "points": str(r.points),
                        "counted": order in row.counted,
                    }
                    for order, r in row.results.items()
                },
                club_id=found.players[latest[row.person]].club_id,
            )
        )
    season.rows.all().delete()
    StandingRow.objects.bulk_create(new)
    after = [
        Shown(frozenset(r.players), r.player_id, r.place, two_decimals(Fraction(r.total)))
        for r in new
    ]
    _note(season, cause, entry, changes(before, after))


# --- The rating ------------------------------------------------------------------------------


@dataclass
class Carry:
    """What a season hands the next: every person's rating, where he last played (when and
    for which club), and how many played a rated round in it (the next season's cap)."""

    ratings: dict[frozenset, Fraction]
    last: dict[frozenset, tuple]  # (when, club id, roster player id or None)
    players: int | None = None


def _imported(series: Series, found: Universe) -> Carry:
    ratings: dict[frozenset, Fraction] = {}
    for pid, rating in ImportedRating.objects.filter(series=series).values_list(
        "player_id", "rating"
    ):
        person = found.person(pid)
        ratings[person] = max(ratings.get(person, Fraction(0)), exact(rating))
    return Carry(ratings, {})


def _frozen(season: SeriesSeason, found: Universe) -> Carry:
    """A closed season's end ratings, for the persons as they are now: of two rows of one
    person (matched since), the one who played last counts."""
    carry = Carry({}, {}, season.ratings.filter(rounds__gt=0).count())
    rows = sorted(
        season.ratings.all(),
        key=lambda r: (r.last_played_at is not None, r.last_played_at or 0, r.end),
    )
    for row in rows:  # the latest last: it wins
        for person in {found.person(pid) for pid in row.players}:
            carry.ratings[person] = exact(row.end)
            carry.last[person] = (row.last_played_at, row.last_club_id, None)
    return carry


def _rate_series(series: Series, found: Universe, cause: str, entry) -> None:
    carry = _imported(series, found)
    for season in series.seasons.all():
        if season.is_closed:
            carry = _frozen(season, found)
        else:
            carry = _rate_season(season, found, carry, cause, entry)


def _rated_tournaments(entries, found: Universe):
    """The season's tournaments for tarzs.play_season, with persons at the seats, and for
    each the roster player each person sat as."""
    tournaments, sat_as = [], {}
    for entry in entries:
        rounds = entry.inputs.get("rounds", [])
        tournaments.append(
            tarzs.Tournament(
                entry.pk,
                tuple(
                    tuple(tuple((found.person(pid), Fraction(s)) for pid, s in t) for t in tables)
                    for tables in rounds
                ),
            )
        )
        sat_as[entry.pk] = {
            found.person(pid): pid for tables in rounds for t in tables for pid, _s in t
        }
    return tournaments, sat_as


def _rate_season(season: SeriesSeason, found: Universe, carry: Carry, cause, entry) -> Carry:
    before = _shown_ratings(season)
    entries = joined(season)
    tournaments, sat_as = _rated_tournaments(entries, found)
    outcomes = tarzs.play_season(carry.ratings, tournaments)
    last = dict(carry.last)
    TournamentRating.objects.filter(entry__season=season).delete()
    for one, outcome in zip(entries, outcomes, strict=True):
        _write_tournament(one, outcome, sat_as[one.pk])
        for person in outcome.after:
            last[person] = (
                one.tournament.starts_at,
                one.tournament.club_id,
                sat_as[one.pk][person],
            )
    running = tarzs.ratings_after(carry.ratings, outcomes)
    played = tarzs.tournaments_played(outcomes)
    rounds = {p: sum(o.rounds.get(p, 0) for o in outcomes) for p in running}
    nowhere = (None, None, None)
    rows = [
        SeasonRating(
            season=season,
            player_id=found.shown(person, last.get(person, nowhere)[2]),
            players=sorted(person),
            start=tarzs.stored(carry.ratings[person]) if person in carry.ratings else None,
            running=tarzs.stored(rating),
            played=played.get(person, 0),
            rounds=rounds[person],
            last_played_at=last.get(person, nowhere)[0],
            last_club_id=last.get(person, nowhere)[1],
        )
        for person, rating in running.items()
    ]
    rank_rows(rows, lambda r: r.running, found.names())
    season.ratings.all().delete()
    SeasonRating.objects.bulk_create(rows)
    _note(season, cause, entry, changes(before, [_shown_rating(r, r.running) for r in rows]))
    return Carry(running, last, sum(1 for r in rows if r.rounds))


def rank_rows(rows: list[SeasonRating], rating, names: dict[int, str]) -> None:
    """Order a season's rows by rating, best first (equal ones by name), and give each its
    rank, shared by equal ratings."""
    rows.sort(key=lambda r: (-rating(r), names.get(r.player_id, ())))
    for i, row in enumerate(rows):
        tied = i and rating(rows[i - 1]) == rating(row)
        row.rank = rows[i - 1].rank if tied else i + 1


def _shown_rating(row: SeasonRating, rating) -> Shown:
    return Shown(frozenset(row.players), row.player_id, row.rank, tarzs.shown(exact(rating)))


def _shown_ratings(season: SeriesSeason) -> list[Shown]:
    return [_shown_rating(r, r.rating) for r in season.ratings.all()]


def _write_tournament(entry: SeriesTournament, outcome: tarzs.Outcome, sat_as: dict) -> None:
    TournamentRating.objects.bulk_create(
        TournamentRating(
            entry=entry,
            player_id=sat_as[person],
            before=tarzs.stored(outcome.before[person]),
            after=tarzs.stored(outcome.after[person]),
            rounds=outcome.rounds[person],
            strongest=person in outcome.strongest,
        )
        for person in outcome.after
    )
    entry.rating = tarzs.stored(outcome.rating) if outcome.rating is not None else None
    entry.save(update_fields=["rating"])
