"""Series services (RULES.md §8.6, §8.7): a club's admins make a series and its seasons, and
tournaments join them. Every change that moves a standing or a rating list computes the
series again (scorebook.series.compute) in the same transaction.

Refusals are ServiceError with the form field they concern, in words.
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from scorebook.errors import ServiceError
from scorebook.models import Club
from scorebook.series import adapter, compute, tarzs
from scorebook.series.models import (
    ChangeCause,
    EntryState,
    PointsPreset,
    Series,
    SeriesSeason,
    SeriesTournament,
)
from scorebook.tournaments.models import Status, Tournament

MAX_OWN_PLACES = 200
MAX_POINTS = Decimal(10000)
MAX_FACTOR = Decimal(100)
DECIMAL = re.compile(r"[0-9]{1,6}(?:[.,][0-9]{1,2})?", re.ASCII)


# --- Numbers the admins type ---------------------------------------------------------------


def parse_own_points(text: str) -> list[str]:
    """'25, 20, 16.5' (or '25; 20; 16,5') -> ["25", "20", "16.5"]: points of 1st, 2nd, …,
    going down, none negative; places past the list get 0."""
    text = (text or "").strip()
    separators = re.compile(r"[\s;/]+") if ";" in text or "/" in text else re.compile(r"[\s,]+")
    parts = [p for p in separators.split(text) if p]
    if not parts:
        raise ServiceError(_("Enter the points of 1st, 2nd, 3rd … place."), "own_points")
    if len(parts) > MAX_OWN_PLACES or not all(DECIMAL.fullmatch(p) for p in parts):
        raise ServiceError(
            _("Enter numbers only (such as 25, 20, 16.5), separated by commas."), "own_points"
        )
    values = [Decimal(p.replace(",", ".")) for p in parts]
    if any(a < b for a, b in zip(values, values[1:], strict=False)) or max(values) > MAX_POINTS:
        raise ServiceError(
            _("Points go down from 1st place to the last, up to %(max)s.") % {"max": MAX_POINTS},
            "own_points",
        )
    return [str(v.normalize()) if v != v.to_integral_value() else str(int(v)) for v in values]


def parse_factor(text: str, field: str) -> Decimal:
    """A tournament's factor: a number above 0 with at most two decimals (1, 1.5, 2)."""
    text = (text or "").strip().replace(",", ".").replace("−", "-")
    try:
        value = Decimal(text) if re.fullmatch(r"-?[0-9]{1,3}(?:\.[0-9]{1,2})?", text) else None
    except InvalidOperation:
        value = None
    if value is None or value <= 0 or value > MAX_FACTOR:
        raise ServiceError(
            _("A factor is a number above 0 and up to %(max)s, such as 1, 1.5 or 2.")
            % {"max": MAX_FACTOR},
            field,
        )
    return value


def parse_best_n(text: str) -> int | None:
    """How many results count: empty for all, else a whole number from 1."""
    text = (text or "").strip()
    if not text:
        return None
    if not re.fullmatch(r"[0-9]{1,4}", text, re.ASCII) or int(text) < 1:
        raise ServiceError(
            _("Count at least 1 result, or leave this empty to count them all."), "best_n"
        )
    return int(text)


# --- Series and seasons --------------------------------------------------------------------


@dataclass
class SeriesPlan:
    name: str
    points_preset: str = PointsPreset.CUP
    own_points: str = ""
    open_to_other_clubs: bool = False


def _apply_series(series: Series, plan: SeriesPlan) -> None:
    series.name = " ".join(plan.name.split())
    if not series.name:
        raise ServiceError(_("Enter a name."), "name")
    if plan.points_preset not in PointsPreset.values:
        raise ServiceError(_("Pick a points table."), "points_preset")
    series.points_preset = plan.points_preset
    own = plan.own_points.strip()
    series.own_points = parse_own_points(own) if plan.points_preset == PointsPreset.OWN else []
    if own and plan.points_preset != PointsPreset.OWN:
        raise ServiceError(
            _("To use these points choose “our own points” above, or clear them."), "own_points"
        )
    series.open_to_other_clubs = plan.open_to_other_clubs


def _save_named(obj, message: str) -> None:
    try:
        with transaction.atomic():
            obj.save()
    except IntegrityError:
        raise ServiceError(message, "name") from None


def create_series(*, club: Club, user, rated: bool, plan: SeriesPlan) -> Series:
    series = Series(club=club, created_by=user, rated=rated)
    _apply_series(series, plan)
    _save_named(series, _("The club has a series of this name already."))
    return series


def edit_series(series: Series, plan: SeriesPlan) -> Series:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        _apply_series(series, plan)
        _save_named(series, _("The club has a series of this name already."))
        compute.recompute(series, ChangeCause.SETTINGS)
    return series


@dataclass
class SeasonPlan:
    name: str
    starts_on: datetime.date
    ends_on: datetime.date
    best_n: int | None = None


def _apply_season(season: SeriesSeason, plan: SeasonPlan) -> None:
    season.name = " ".join(plan.name.split())
    if not season.name:
        raise ServiceError(_("Enter a name."), "name")
    if plan.ends_on < plan.starts_on:
        raise ServiceError(_("A season ends on or after the day it starts."), "ends_on")
    season.starts_on, season.ends_on, season.best_n = plan.starts_on, plan.ends_on, plan.best_n
    _refuse_days(season, plan)


def _refuse_days(season: SeriesSeason, plan: SeasonPlan) -> None:
    """No two seasons of a series on one day, none before a closed one of a rating, and no
    tournament of the season left outside its days."""
    overlapping = season.series.seasons.filter(
        starts_on__lte=plan.ends_on, ends_on__gte=plan.starts_on
    ).exclude(pk=season.pk)
    if overlapping.exists():
        raise ServiceError(_("The series has a season on these days already."), "starts_on")
    later_closed = season.series.seasons.filter(
        closed_at__isnull=False, starts_on__gt=plan.starts_on
    ).exclude(pk=season.pk)
    if season.series.rated and later_closed.exists():
        # A rating carries from season to season: a closed one was computed from those before.
        raise ServiceError(
            _("A later season is closed: a new season starts after it."), "starts_on"
        )
    outside = []
    if season.pk:
        outside = [
            entry.tournament.name
            for entry in season.entries.select_related("tournament")
            if not plan.starts_on <= _day(entry.tournament) <= plan.ends_on
        ]
    if outside:
        raise ServiceError(
            _("%(names)s would fall outside the season's days.") % {"names": ", ".join(outside)},
            "ends_on",
        )


def _day(tournament: Tournament) -> datetime.date:
    return tournament.local_start().date()


def add_season(series: Series, plan: SeasonPlan) -> SeriesSeason:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        season = SeriesSeason(series=series)
        _apply_season(season, plan)
        _save_named(season, _("The series has a season of this name already."))
        compute.recompute(series, ChangeCause.SETTINGS)
    return season


def edit_season(season: SeriesSeason, plan: SeasonPlan, factors: dict[int, Decimal]) -> None:
    """New days, best N and the factor of each of its tournaments (by entry id)."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=season.series_id)
        season = SeriesSeason.objects.select_related("series").get(pk=season.pk)
        _refuse_closed(season)
        _apply_season(season, plan)
        _save_named(season, _("The series has a season of this name already."))
        for entry in season.entries.all():
            if entry.pk in factors and factors[entry.pk] != entry.factor:
                entry.factor = factors[entry.pk]
                entry.save(update_fields=["factor"])
        compute.recompute(series, ChangeCause.SETTINGS)


def _refuse_closed(season: SeriesSeason) -> None:
    if season.is_closed:
        raise ServiceError(_("This season is closed: reopen it to change it."))


# --- Tournaments joining a season ----------------------------------------------------------


def misfit_words(tournament: Tournament) -> list[str]:
    """Why a rated series refuses the tournament, in words (RULES.md §8.7); [] if it fits."""
    words = {
        "table_size": _("A rated tournament plays at tables of three."),
        "placement_points": _("A rated tournament ranks by placement points 2, 1 and ½."),
        "preset": _("A rated tournament plays the rules of Tarok zveza Slovenije (TARZS)."),
        "two_player_tables": _(
            "A rated tournament never seats two at a table: it gives byes instead."
        ),
    }
    return [words[code] for code in tarzs.misfits(adapter.facts(tournament))]


def _check_may_join(season: SeriesSeason, tournament: Tournament) -> None:
    """Refuse, at the tournament field, what cannot join this season now."""
    _refuse_closed(season)
    if tournament.status == Status.CANCELLED:
        raise ServiceError(_("This tournament was cancelled."), "tournament")
    if adapter.has_started(tournament):
        raise ServiceError(_("A tournament joins a series before it starts."), "tournament")
    if not season.starts_on <= _day(tournament) <= season.ends_on:
        raise ServiceError(_("The tournament is not within the season's days."), "tournament")
    if season.series.rated:
        reasons = misfit_words(tournament)
        if reasons:
            raise ServiceError(" ".join(reasons), "tournament")
    taken = SeriesTournament.objects.filter(tournament=tournament, rated=season.series.rated)
    other = taken.select_related("season__series").first()
    if other is not None:
        kind = _("a rated series") if season.series.rated else _("a standing series")
        raise ServiceError(
            _("The tournament is in %(kind)s already (%(series)s): it may be in one.")
            % {"kind": kind, "series": other.season.series.name},
            "tournament",
        )


def add_tournament(season: SeriesSeason, tournament: Tournament, user) -> SeriesTournament:
    """Put a tournament in the season: the series' own club's joins at once; another club's is
    invited, and joins when its club's admins accept."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=season.series_id)
        season = SeriesSeason.objects.select_related("series").get(pk=season.pk)
        _check_may_join(season, tournament)
        own = tournament.club_id == series.club_id
        if not own and not tournament.open_to_all:
            raise ServiceError(
                _("Pick a tournament of the club, or one open to all."), "tournament"
            )
        entry = _entry(season, tournament, user, EntryState.JOINED if own else EntryState.INVITED)
        if own:
            compute.recompute(series, ChangeCause.TOURNAMENTS, entry)
    return entry


def ask_to_join(season: SeriesSeason, tournament: Tournament, user) -> SeriesTournament:
    """The tournament's club asks another club's series to take its tournament."""
    with transaction.atomic():
        Series.objects.select_for_update().get(pk=season.series_id)
        season = SeriesSeason.objects.select_related("series").get(pk=season.pk)
        if not season.series.open_to_other_clubs:
            raise ServiceError(_("This series takes no other club's tournaments."), "season")
        _check_may_join(season, tournament)
        return _entry(season, tournament, user, EntryState.ASKED)


def _entry(season, tournament, user, state) -> SeriesTournament:
    now = timezone.now()
    return SeriesTournament.objects.create(
        season=season,
        tournament=tournament,
        rated=season.series.rated,
        state=state,
        asked_by=user,
        joined_at=now if state == EntryState.JOINED else None,
    )


def decides(entry: SeriesTournament, club: Club) -> bool:
    """Whether `club`'s admins answer the entry: the series' club a request, the tournament's
    club an invitation."""
    if entry.state == EntryState.ASKED:
        return club.pk == entry.season.series.club_id
    if entry.state == EntryState.INVITED:
        return club.pk == entry.tournament.club_id
    return False


def accept(entry: SeriesTournament, club: Club) -> SeriesTournament:
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=entry.season.series_id)
        entry = SeriesTournament.objects.select_related("season__series", "tournament").get(
            pk=entry.pk
        )
        if entry.is_joined:
            raise ServiceError(_("The tournament is in the series already."))
        if not decides(entry, club):
            raise ServiceError(_("The other club answers this."))
        _refuse_closed(entry.season)
        entry.state, entry.joined_at = EntryState.JOINED, timezone.now()
        entry.save(update_fields=["state", "joined_at"])
        compute.recompute(series, ChangeCause.TOURNAMENTS, entry)
    return entry


def remove(entry: SeriesTournament) -> None:
    """Leave the season, decline or withdraw: until the tournament starts (a request or an
    invitation may be declined any time)."""
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=entry.season.series_id)
        entry = SeriesTournament.objects.select_related("season", "tournament").get(pk=entry.pk)
        if entry.is_joined:
            _refuse_closed(entry.season)
            if adapter.has_started(entry.tournament):
                raise ServiceError(_("The tournament has started: it stays in the series."))
        joined = entry.is_joined
        entry.delete()
        if joined:
            compute.recompute(series, ChangeCause.TOURNAMENTS)


# --- Who sees what -------------------------------------------------------------------------


def visible_to(club: Club):
    """The series a club's members see: its own, and those with one of its tournaments in."""
    joined = SeriesTournament.objects.filter(state=EntryState.JOINED, tournament__club=club).values(
        "season__series_id"
    )
    return Series.objects.filter(Q(club=club) | Q(pk__in=joined)).select_related("club")


def clubs_of(series: Series) -> set[int]:
    """The clubs of a series: its own, and every club with a tournament in it."""
    joined = SeriesTournament.objects.filter(season__series=series, state=EntryState.JOINED)
    return {series.club_id, *joined.values_list("tournament__club_id", flat=True)}


def current_season(series: Series, today: datetime.date | None = None) -> SeriesSeason | None:
    """The season of today, else the latest that started, else the first."""
    today = today or timezone.localdate()
    seasons = list(series.seasons.all())
    started = [s for s in seasons if s.starts_on <= today]
    return started[-1] if started else (seasons[0] if seasons else None)
