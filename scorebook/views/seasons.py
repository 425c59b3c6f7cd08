"""Seasons group a club's sessions for the standings: members read them, admins manage them."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scorebook import services
from scorebook.access import club_view, get_for_club
from scorebook.forms import SeasonForm
from scorebook.models import Role, Season


def _seasons_page(request, form):
    return render(
        request,
        "scorebook/seasons.html",
        {"club": request.club, "seasons": request.club.seasons.all(), "form": form},
    )


@club_view(role=Role.VIEWER)
def seasons(request):
    return _seasons_page(request, SeasonForm())


@club_view(role=Role.ADMIN, methods=("POST",))
def season_add(request):
    form = SeasonForm(request.POST, instance=Season(club=request.club))
    if form.is_valid():
        season = services.save_season(form.save(commit=False))
        messages.success(request, _("Season %(name)s added.") % {"name": season})
        return redirect("scorebook:seasons", club=request.club.slug)
    return _seasons_page(request, form)


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
