"""Series pages: thin views over scorebook.series' services (RULES.md §8.6, §8.7)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scorebook.access import club_view
from scorebook.errors import ServiceError
from scorebook.models import Role
from scorebook.series import compute, exports, forms, people, ratings, reading, services, tarzs
from scorebook.series.access import is_series_admin, player_of, season_of, series_view
from scorebook.series.models import EntryState, Series, SeriesSeason, SeriesTournament
from scorebook.tournaments.models import Status, Tournament
from scorebook.views.confirm import ASK, confirm_page

POST = ("POST",)
FORM = ("GET", "HEAD", "POST")


def _posted(request):
    return request.POST if request.method == "POST" else None


def _refuse(form, exc: ServiceError) -> None:
    """Each reason at its field (a field the form lacks: at the form)."""
    for problem in exc.problems:
        field = problem.path.partition("[")[0] or None
        form.add_error(field if field in form.fields else None, problem.message)


def _series_url(series: Series, name: str = "detail", **kwargs) -> str:
    return reverse(
        f"scorebook:series:{name}", kwargs={"club": series.club.slug, "series": series.pk, **kwargs}
    )


def _season_url(request, season: SeriesSeason) -> str:
    return reverse(
        "scorebook:series:season",
        kwargs={"club": request.club.slug, "series": season.series_id, "series_season": season.pk},
    )


def _context(request, **extra) -> dict:
    series = request.series
    return {
        "club": request.club,
        "series": series,
        "seasons": list(series.seasons.all()),
        "is_admin": is_series_admin(request, series),
        "is_club_admin": request.membership.has_role(Role.ADMIN),
        **extra,
    }


# --- Lists and forms of the club ----------------------------------------------------------------


@club_view(role=Role.VIEWER)
def series_list(request):
    club = request.club
    visible = services.visible_to(club)
    pending = SeriesTournament.objects.exclude(state=EntryState.JOINED).select_related(
        "season__series__club", "tournament__club"
    )
    is_admin = request.membership.has_role(Role.ADMIN)
    waiting = list(
        pending.filter(season__series__club=club) | pending.filter(tournament__club=club)
    )
    return render(
        request,
        "series/list.html",
        {
            "club": club,
            "own": [s for s in visible if s.club_id == club.pk],
            "elsewhere": [s for s in visible if s.club_id != club.pk],
            "is_admin": is_admin,
            "waiting": [(e, services.decides(e, club)) for e in waiting] if is_admin else [],
        },
    )


@club_view(role=Role.ADMIN, methods=FORM)
def series_create(request):
    form = forms.SeriesForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            series = services.create_series(
                club=request.club,
                user=request.user,
                rated=form.cleaned_data["kind"] == forms.KIND_RATED,
                plan=_series_plan(form),
            )
        except ServiceError as exc:
            _refuse(form, exc)
        else:
            messages.success(request, _("The series is made: add its first season."))
            return redirect(_series_url(series, "season_add"))
    return render(request, "series/series_form.html", {"club": request.club, "form": form})


def _series_plan(form) -> services.SeriesPlan:
    data = form.cleaned_data
    return services.SeriesPlan(
        name=data["name"],
        points_preset=data["points_preset"] or forms.PointsPreset.CUP,
        own_points=data["own_points"],
        open_to_other_clubs=data["open_to_other_clubs"],
    )


def _scheduled(club):
    return club.tournaments.filter(status=Status.SCHEDULED).select_related("club")


@club_view(role=Role.ADMIN, methods=FORM)
def series_ask(request):
    """The club's admins ask another club's series to take one of their tournaments."""
    seasons = (
        SeriesSeason.objects.filter(series__open_to_other_clubs=True, closed_at=None)
        .exclude(series__club=request.club)
        .select_related("series__club")
    )
    form = forms.AskForm(_posted(request), tournaments=_scheduled(request.club), seasons=seasons)
    if request.method == "POST" and form.is_valid():
        tournament = get_object_or_404(_scheduled(request.club), pk=form.cleaned_data["tournament"])
        season = get_object_or_404(seasons, pk=form.cleaned_data["season"])
        try:
            services.ask_to_join(season, tournament, request.user)
        except ServiceError as exc:
            _refuse(form, exc)
        else:
            messages.success(request, _("Asked: the series' admins answer."))
            return redirect("scorebook:series:list", club=request.club.slug)
    return render(request, "series/ask.html", {"club": request.club, "form": form})


# --- A series and its seasons -------------------------------------------------------------------


@series_view()
def series_detail(request):
    season = services.current_season(request.series)
    if season is None:
        return render(request, "series/season.html", _context(request, season=None))
    return _season_page(request, season)


@series_view()
def season(request, series_season):
    return _season_page(request, season_of(request, series_season))


def _season_page(request, season: SeriesSeason):
    compute.sync(request.series)
    entries = list(
        season.entries.select_related("tournament__club").order_by("tournament__starts_at")
    )
    context = _context(
        request,
        season=season,
        entries=[e for e in entries if e.is_joined],
        changes=reading.recent_changes(season),
    )
    if request.series.rated:
        context["lines"] = reading.rating_lines(season)
    else:
        context["columns"], context["lines"] = reading.standing_lines(season)
    return render(request, "series/season.html", context)


@series_view(role=Role.ADMIN, methods=FORM, own=True)
def series_edit(request):
    series = request.series
    initial = {
        "name": series.name,
        "points_preset": series.points_preset,
        "own_points": ", ".join(series.own_points),
        "open_to_other_clubs": series.open_to_other_clubs,
    }
    form = forms.SeriesForm(_posted(request), initial=initial, editing=True)
    if request.method == "POST" and form.is_valid():
        try:
            services.edit_series(series, _series_plan(form))
        except ServiceError as exc:
            _refuse(form, exc)
        else:
            messages.success(request, _("The series is saved."))
            return redirect(_series_url(series))
    return render(request, "series/series_form.html", _context(request, form=form))


def _season_plan(form) -> services.SeasonPlan:
    data = form.cleaned_data
    return services.SeasonPlan(
        data["name"], data["starts_on"], data["ends_on"], services.parse_best_n(data["best_n"])
    )


@series_view(role=Role.ADMIN, methods=FORM, own=True)
def season_add(request):
    form = forms.SeasonForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            season = services.add_season(request.series, _season_plan(form))
        except ServiceError as exc:
            _refuse(form, exc)
        else:
            messages.success(request, _("Season %(name)s added.") % {"name": season.name})
            return redirect(_season_url(request, season))
    return render(request, "series/season_form.html", _context(request, form=form))


@series_view(role=Role.ADMIN, methods=FORM, own=True)
def season_edit(request, series_season):
    season = season_of(request, series_season)
    entries = season.entries.filter(state=EntryState.JOINED).select_related("tournament__club")
    initial = {
        "name": season.name,
        "starts_on": season.starts_on,
        "ends_on": season.ends_on,
        "best_n": season.best_n or "",
    }
    form = forms.SeasonForm(_posted(request), initial=initial, entries=entries)
    if request.method == "POST" and form.is_valid():
        try:
            factors = {
                e.pk: services.parse_factor(form.cleaned_data[f"factor_{e.pk}"], f"factor_{e.pk}")
                for e in form.entries
            }
            services.edit_season(season, _season_plan(form), factors)
        except ServiceError as exc:
            _refuse(form, exc)
        else:
            messages.success(request, _("Season %(name)s saved.") % {"name": season.name})
            return redirect(_season_url(request, season))
    return render(request, "series/season_form.html", _context(request, form=form, season=season))


@series_view()
def season_csv(request, series_season):
    season = season_of(request, series_season)
    compute.sync(request.series)
    return exports.csv_response(season)


@series_view()
def season_json(request, series_season):
    season = season_of(request, series_season)
    compute.sync(request.series)
    return exports.json_response(season)


@series_view()
def all_time(request):
    if request.series.rated:
        raise Http404  # a rating carries over: its list is the season's
    compute.sync(request.series)
    lines = reading.all_time_lines(request.series)
    return render(request, "series/all_time.html", _context(request, lines=lines))


# --- Tournaments in a season --------------------------------------------------------------------


def _candidates(request, season: SeriesSeason):
    """What the series' admins may add: their club's tournaments, and other clubs' open to all
    (those every account sees), not started, within the season's days."""
    ours = Tournament.objects.filter(club=request.club)
    theirs = Tournament.objects.filter(open_to_all=True).exclude(club=request.club)
    return (
        (ours | theirs)
        .filter(
            status=Status.SCHEDULED,
            starts_at__date__gte=season.starts_on,
            starts_at__date__lte=season.ends_on,
        )
        .exclude(series_entries__rated=season.series.rated)
        .select_related("club")
        .order_by("starts_at")
    )


@series_view(role=Role.ADMIN, methods=FORM, own=True)
def entry_add(request, series_season):
    season = season_of(request, series_season)
    candidates = _candidates(request, season)
    form = forms.TournamentChoiceForm(_posted(request), tournaments=candidates)
    if request.method == "POST" and form.is_valid():
        tournament = get_object_or_404(candidates, pk=form.cleaned_data["tournament"])
        try:
            entry = services.add_tournament(season, tournament, request.user)
        except ServiceError as exc:
            _refuse(form, exc)
        else:
            if entry.is_joined:
                messages.success(
                    request, _("%(name)s is in the season.") % {"name": tournament.name}
                )
            else:
                messages.success(request, _("Invited: the tournament's club answers."))
            return redirect(_season_url(request, season))
    return render(request, "series/entry_add.html", _context(request, season=season, form=form))


def _entry_of(request, series: int, entry: int) -> SeriesTournament:
    """An entry of the URL's series that the club is a side of: the series' or the
    tournament's club. Anybody else's is no entry at all."""
    found = get_object_or_404(
        SeriesTournament.objects.select_related("season__series__club", "tournament__club"),
        pk=entry,
        season__series_id=series,
    )
    if request.club.pk not in (found.season.series.club_id, found.tournament.club_id):
        raise Http404
    return found


def _back(request, entry: SeriesTournament) -> str:
    if entry.season.series.club_id == request.club.pk or entry.is_joined:
        return _season_url(request, entry.season)
    return reverse("scorebook:series:list", kwargs={"club": request.club.slug})


@club_view(role=Role.ADMIN, methods=POST)
def entry_accept(request, series, entry):
    found = _entry_of(request, series, entry)
    try:
        found = services.accept(found, request.club)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s is in the series.") % {"name": found.tournament.name})
    return redirect(_back(request, found))


@club_view(role=Role.ADMIN, methods=ASK)
def entry_remove(request, series, entry):
    found = _entry_of(request, series, entry)
    back = _back(request, found)
    if request.method != "POST":
        question = (
            _("Take %(name)s out of %(series)s?")
            if found.is_joined
            else _("Decline or withdraw: %(name)s in %(series)s?")
        )
        return confirm_page(
            request,
            question % {"name": found.tournament.name, "series": found.season.series.name},
            _("Take it out") if found.is_joined else _("Decline"),
            back,
        )
    try:
        services.remove(found)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("%(name)s is not in the series.") % {"name": found.tournament.name}
        )
    return redirect(back)


@series_view()
def entry(request, entry):
    found = get_object_or_404(
        SeriesTournament.objects.select_related("season", "tournament__club"),
        pk=entry,
        season__series=request.series,
        state=EntryState.JOINED,
    )
    compute.sync(request.series)
    found.refresh_from_db()
    context = _context(request, entry=found, season=found.season)
    if request.series.rated:
        context["ratings"] = reading.tournament_ratings(found)
    else:
        context["results"] = reading.entry_results(found)
    return render(request, "series/entry.html", context)


# --- One person across clubs ---------------------------------------------------------------------


@series_view(role=Role.ADMIN, own=True)
def players(request):
    found = people.universe(request.series)
    return render(request, "series/players.html", _players_context(request, found))


def _players_context(request, found, form=None) -> dict:
    series = request.series
    listed = sorted(found.players.values(), key=lambda p: (p.name.casefold(), p.club.name))
    return _context(
        request,
        form=form or forms.MatchForm(players=listed),
        offered=people.possible_matches(series),
        matches=series.matches.select_related("player__club", "other__club"),
    )


@series_view(role=Role.ADMIN, methods=POST, own=True)
def match_add(request):
    found = people.universe(request.series)
    listed = sorted(found.players.values(), key=lambda p: (p.name.casefold(), p.club.name))
    form = forms.MatchForm(request.POST, players=listed)
    if form.is_valid():
        one, other = (found.players[form.cleaned_data[k]] for k in ("player", "other"))
        try:
            people.match(request.series, one, other, request.user)
        except ServiceError as exc:
            _refuse(form, exc)
        else:
            messages.success(
                request,
                _("%(one)s and %(other)s are one person in the series.")
                % {
                    "one": f"{one.name} ({one.club.name})",
                    "other": f"{other.name} ({other.club.name})",
                },
            )
            return redirect(_series_url(request.series, "players"))
    return render(
        request,
        "series/players.html",
        _players_context(request, found, form),
        status=422,
    )


@series_view(role=Role.ADMIN, methods=ASK, own=True)
def match_remove(request, match):
    found = get_object_or_404(
        request.series.matches.select_related("player__club", "other__club"), pk=match
    )
    back = _series_url(request.series, "players")
    names = {
        "one": f"{found.player.name} ({found.player.club.name})",
        "other": f"{found.other.name} ({found.other.club.name})",
    }
    if request.method != "POST":
        return confirm_page(
            request,
            _("Undo the match of %(one)s and %(other)s?") % names,
            _("Undo the match"),
            back,
            detail=_("Each keeps his results; they count apart again."),
        )
    people.unmatch(found)
    messages.success(request, _("%(one)s and %(other)s count apart again.") % names)
    return redirect(back)


@series_view()
def player(request, player):
    found = player_of(request, player)
    compute.sync(request.series)
    return render(
        request,
        "series/player.html",
        _context(request, player=found, history=reading.history(request.series, found)),
    )


# --- The rating's admin work ----------------------------------------------------------------------


def _rated(request) -> None:
    if not request.series.rated:
        raise Http404


@series_view(role=Role.ADMIN, methods=FORM, own=True)
def ratings_import(request):
    _rated(request)
    form = forms.ImportForm(_posted(request), request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            count = ratings.import_ratings(request.series, form.cleaned_data["text"])
        except ServiceError as exc:
            for problem in exc.problems:
                form.add_error("csv", problem.message)
        else:
            messages.success(request, _("%(n)d ratings imported.") % {"n": count})
            return redirect(_series_url(request.series))
    imported = request.series.imported.select_related("player__club").order_by("-rating")
    return render(request, "series/import.html", _context(request, form=form, imported=imported))


@series_view(role=Role.ADMIN, methods=FORM, own=True)
def season_close(request, series_season):
    """The season's end: GET previews every rating's end, POST closes the season."""
    _rated(request)
    season = season_of(request, series_season)
    if request.method == "POST":
        try:
            ratings.close_season(season, request.user)
        except ServiceError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The season is closed: its ratings are frozen."))
        return redirect(_season_url(request, season))
    if not season.is_closed:
        compute.sync(request.series)
    preview = ratings.preview_end(season) if not season.is_closed else []
    cap = ratings.cap_for(season)
    return render(
        request,
        "series/season_close.html",
        _context(
            request,
            season=season,
            preview=preview,
            tournaments=ratings.rated_tournaments(season),
            cap=cap,
            cap_shown=tarzs.shown(cap) if cap is not None else None,
        ),
    )


@series_view(role=Role.ADMIN, methods=ASK, own=True)
def season_reopen(request, series_season):
    _rated(request)
    season = season_of(request, series_season)
    back = _season_url(request, season)
    if not season.is_closed:
        messages.info(request, _("This season is open."))
        return redirect(back)
    if request.method != "POST":
        return confirm_page(
            request,
            _("Reopen %(name)s?") % {"name": season.name},
            _("Reopen"),
            back,
            detail=_(
                "Its ratings are computed again from its tournaments, and every later season's."
            ),
        )
    try:
        ratings.reopen_season(season)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The season is open again."))
    return redirect(back)
