"""Seasons group a club's sessions for the standings: members read them, admins manage them."""

from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scorebook import services
from scorebook.access import club_view, get_for_club
from scorebook.forms import SeasonForm
from scorebook.models import Role, Season
from scorebook.views.listing import ListPage

PAGE = ListPage(
    "scorebook/seasons.html", "scorebook:seasons", lambda club: {"seasons": club.seasons.all()}
)


@club_view(role=Role.VIEWER)
def seasons(request):
    return PAGE.show(request, SeasonForm())


@club_view(role=Role.ADMIN, methods=("POST",))
def season_add(request):
    form = SeasonForm(request.POST, instance=Season(club=request.club))
    return PAGE.add(
        request,
        form,
        lambda _data: services.save_season(form.save(commit=False)),
        _("Season %(name)s added."),
    )


@club_view(role=Role.ADMIN, methods=("GET", "HEAD", "POST"))
def season_edit(request, season):
    season = get_for_club(Season, request.club, pk=season)
    form = SeasonForm(request.POST or None, instance=season)
    if request.method == "POST" and form.is_valid():
        services.save_season(form.save(commit=False))
        return redirect("scorebook:seasons", club=request.club.slug)
    return render(
        request,
        "scorebook/season_edit.html",
        {"club": request.club, "season": season, "form": form},
    )
