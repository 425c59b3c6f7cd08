"""Seasons group a club's sessions for the standings: members read them, admins manage them.
A session is filed in the season whose days cover its date (services.file_sessions)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count
from django.shortcuts import redirect, render
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from scorebook import services
from scorebook.access import club_view, get_for_club
from scorebook.forms import SeasonForm
from scorebook.models import Role, Season, season_on
from scorebook.views.listing import ListPage

PAGE = ListPage(
    "scorebook/seasons.html",
    "scorebook:seasons",
    lambda club: {"seasons": club.seasons.annotate(session_count=Count("sessions"))},
)


@club_view(role=Role.VIEWER)
def seasons(request):
    return PAGE.show(request, SeasonForm())


@club_view(role=Role.ADMIN, methods=("POST",))
def season_add(request):
    form = SeasonForm(request.POST, instance=Season(club=request.club))
    return PAGE.add(request, form, lambda _data: _save(request, form), _("Season %(name)s added."))


@club_view(role=Role.ADMIN, methods=("GET", "HEAD", "POST"))
def season_edit(request, season):
    season = get_for_club(Season, request.club, pk=season)
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        try:
            _save(request, form)
        except services.ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, _("Season %(name)s saved.") % {"name": season.name})
            return redirect("scorebook:seasons", club=request.club.slug)
    return render(
        request,
        "scorebook/season_edit.html",
        {"club": request.club, "season": season, "form": form},
    )


def _save(request, form: SeasonForm) -> Season:
    """Save the season (the sessions of its days follow it) and say which open seasons now end
    because a later one starts."""
    season = form.save(commit=False)
    for ended in services.save_season(season):
        messages.info(
            request,
            _("%(name)s now ends on %(day)s, the day before the next season starts.")
            % {"name": ended.name, "day": date_format(ended.ends_on)},
        )
    return season


def season_of_the_day(form) -> dict:
    """For the start page: the form's date (as posted, or its first value) and the season a
    session of that day goes into; no date when what was posted is not one."""
    try:
        day = form.fields["date"].to_python(form["date"].value())
    except ValidationError:
        day = None
    return {"day": day, "day_season": season_on(form.club, day) if day else None}
