"""The TARZS rating's admin work (RULES.md §8.7): importing the ratings from before the first
season, and the season's end — previewed, then closed (frozen) or reopened (computed again).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorebook.collation import sort_key
from scorebook.errors import Refusal, ServiceError
from scorebook.models import Club, Player
from scorebook.series import compute, tarzs
from scorebook.series.exact import exact
from scorebook.series.models import (
    ChangeCause,
    ImportedRating,
    SeasonRating,
    Series,
    SeriesChange,
    SeriesSeason,
)
from scorebook.series.services import clubs_of

MAX_IMPORT_ROWS = 5000
MAX_IMPORTED_RATING = Decimal(100000)
RATING_TEXT = re.compile(r"[0-9]{1,6}(?:[.,][0-9]{1,10})?", re.ASCII)


# --- The import ------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportRow:
    number: int
    player: Player
    rating: Decimal


def read_csv(series: Series, text: str) -> list[ImportRow]:
    """The rows of a CSV of "player, rating" (a third column may name the club by its short
    name: the series' club otherwise). Every bad row is refused at once, each by its number."""
    rows, problems = [], []
    # A spreadsheet of a decimal-comma language (sl, cs, de, fr) writes "Ana;24,5".
    delimiter = ";" if ";" in text else ","
    lines = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    if len(lines) > MAX_IMPORT_ROWS:
        raise ServiceError(
            _("Import at most %(n)d rows at a time.") % {"n": MAX_IMPORT_ROWS}, "csv"
        )
    clubs = {c.slug: c for c in _series_clubs(series)}
    for number, cells in enumerate(lines, start=1):
        cells = [c.strip() for c in cells]
        if not any(cells) or (number == 1 and not RATING_TEXT.fullmatch(_cell(cells, 1))):
            continue  # a blank line, or the header
        try:
            rows.append(_row(series, clubs, number, cells))
        except ValueError as problem:
            problems.append(Refusal(f"csv[{number}]", str(problem)))
    if problems:
        error = ServiceError("\n".join(p.message for p in problems), "csv")
        error.problems = problems
        raise error
    if not rows:
        raise ServiceError(_("The file holds no rating: one row a player, name and rating."), "csv")
    return rows


def _cell(cells: list[str], index: int) -> str:
    return cells[index] if len(cells) > index else ""


def _series_clubs(series: Series):
    return Club.objects.filter(pk__in=clubs_of(series))


def _row(series: Series, clubs: dict, number: int, cells: list[str]) -> ImportRow:
    name, rating, slug = _cell(cells, 0), _cell(cells, 1), _cell(cells, 2)
    club = clubs.get(slug) if slug else series.club
    if club is None:
        raise ValueError(
            _("Row %(row)d: %(club)s is no club of this series.") % {"row": number, "club": slug}
        )
    player = club.players.filter(name__iexact=name).first() if name else None
    if player is None:
        raise ValueError(
            _("Row %(row)d: %(club)s has no player named “%(name)s”.")
            % {"row": number, "club": club.name, "name": name[:60]}
        )
    if (
        not RATING_TEXT.fullmatch(rating)
        or not 0 < Decimal(rating.replace(",", ".")) <= MAX_IMPORTED_RATING
    ):
        raise ValueError(
            _("Row %(row)d: the rating of %(name)s is not a number above 0 (such as 24.5).")
            % {"row": number, "name": player.name}
        )
    return ImportRow(number, player, Decimal(rating.replace(",", ".")))


def import_ratings(series: Series, text: str) -> int:
    """Replace the imported ratings with the CSV's; refused once the first season is closed."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        if not series.rated:
            raise ServiceError(_("Only a rated series has ratings."))
        if series.seasons.filter(closed_at__isnull=False).exists():
            raise ServiceError(_("A season is closed: the ratings before it stay as they were."))
        rows = read_csv(series, text)
        ImportedRating.objects.filter(series=series).delete()
        by_player = {row.player.pk: row for row in rows}  # a player twice: his last row
        ImportedRating.objects.bulk_create(
            ImportedRating(series=series, player=row.player, rating=tarzs.stored(exact(row.rating)))
            for row in by_player.values()
        )
        compute.recompute(series, ChangeCause.IMPORT)
    return len(by_player)


# --- The season's end ------------------------------------------------------------------------


@dataclass(frozen=True)
class EndRow:
    row: SeasonRating
    end: tarzs.End
    rank: int

    @property
    def now(self) -> Decimal:
        return tarzs.shown(self.end.running)

    @property
    def then(self) -> Decimal:
        return tarzs.shown(self.end.rating)


def _season_before(season: SeriesSeason) -> SeriesSeason | None:
    return season.series.seasons.filter(starts_on__lt=season.starts_on).order_by("starts_on").last()


def rated_tournaments(season: SeriesSeason) -> int:
    """The season's rated tournaments: those in it that were played (finished, with a table)."""
    return sum(1 for entry in compute.joined(season) if entry.inputs.get("rounds"))


def preview_end(season: SeriesSeason) -> list[EndRow]:
    """What closing the season would make of every rating, best first."""
    cap = cap_for(season)
    rows = list(season.ratings.select_related("player"))
    start = {r.pk: exact(r.start) for r in rows if r.start is not None}
    ends = tarzs.season_end(
        start,
        {r.pk: exact(r.running) for r in rows},
        {r.pk: r.played for r in rows},
        rated_tournaments(season),
        cap,
    )
    for row in rows:
        row.end = tarzs.stored(ends[row.pk].rating)
    names = {r.pk: sort_key(r.player.name) for r in rows}
    compute.rank_rows(rows, lambda r: r.end, {r.player_id: names[r.pk] for r in rows})
    return [EndRow(r, ends[r.pk], r.rank) for r in rows]


def cap_for(season: SeriesSeason) -> Fraction | None:
    """1.5 × the persons who played a rated round in the season before; None for the first."""
    before = _season_before(season)
    return tarzs.cap_of(before.ratings.filter(rounds__gt=0).count() if before else None)


def close_season(season: SeriesSeason, user) -> None:
    """Run the season's end and freeze it: its end ratings are where the next season starts."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=season.series_id)
        season = SeriesSeason.objects.select_related("series").get(pk=season.pk)
        if not series.rated:
            raise ServiceError(_("Only a rated series' seasons are closed."))
        if season.is_closed:
            raise ServiceError(_("This season is closed already."))
        if series.seasons.filter(starts_on__lt=season.starts_on, closed_at=None).exists():
            raise ServiceError(_("Close the seasons before this one first."))
        compute.recompute(series, ChangeCause.SEASON)
        ends = preview_end(season)
        lines = []
        for found in ends:
            row = found.row
            row.steps = ",".join(found.end.steps)
            was = tarzs.shown(exact(row.running))
            now = tarzs.shown(found.end.rating)
            if was != now:
                lines.append(
                    {"player": row.player_id, "was": [None, str(was)], "now": [row.rank, str(now)]}
                )
        SeasonRating.objects.bulk_update([f.row for f in ends], ["end", "steps", "rank"])
        season.closed_at, season.closed_by = timezone.now(), user
        season.save(update_fields=["closed_at", "closed_by"])
        if lines:
            SeriesChange.objects.create(season=season, cause=ChangeCause.SEASON, lines=lines)
        compute.recompute(series, ChangeCause.SEASON)


def reopen_season(season: SeriesSeason) -> None:
    """Open a closed season again: its ratings are computed again from its tournaments."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=season.series_id)
        season = SeriesSeason.objects.get(pk=season.pk)
        if not season.is_closed:
            raise ServiceError(_("This season is open."))
        if series.seasons.filter(starts_on__gt=season.starts_on, closed_at__isnull=False).exists():
            raise ServiceError(_("Reopen the later seasons first."))
        season.closed_at, season.closed_by = None, None
        # Its rows keep their end until computed again: the change shows end → running.
        season.save(update_fields=["closed_at", "closed_by"])
        compute.recompute(series, ChangeCause.SEASON)
