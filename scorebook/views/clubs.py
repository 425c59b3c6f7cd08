from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scorebook import services
from scorebook.access import club_view
from scorebook.collation import alphabetical
from scorebook.forms import ClubForm, ClubSettingsForm
from scorebook.models import WITH_TABLE, Club, Role

RECENT_SESSIONS = 10


@login_required
@require_http_methods(["GET", "HEAD"])
def my_clubs(request):
    memberships = alphabetical(
        request.user.memberships.select_related("club"), key=lambda m: m.club.name
    )
    return render(request, "scorebook/my_clubs.html", {"memberships": memberships})


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_create(request):
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.create_club(admin=request.user, **form.cleaned_data)
        except IntegrityError:
            form.add_error("slug", _("This short name is taken."))
        else:
            return redirect("scorebook:club_home", club=club.slug)
    return render(request, "scorebook/club_form.html", {"form": form})


@club_view(role=Role.ADMIN, methods=("GET", "HEAD", "POST"))
def club_settings(request):
    """The club's name, time zone and language, for its admins. The form works on a copy read
    afresh: a refused name never shows in the page's header as if it were the club's."""
    club = Club.objects.get(pk=request.club.pk)
    form = ClubSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("The club's settings are saved."))
        return redirect("scorebook:club_home", club=club.slug)
    return render(request, "scorebook/club_settings.html", {"form": form})


@club_view(role=Role.VIEWER)
def club_home(request):
    club = request.club
    sessions = club.sessions.select_related(WITH_TABLE).prefetch_related("seats__player")
    return render(
        request,
        "scorebook/club_home.html",
        {
            "club": club,
            "open_sessions": sessions.filter(is_closed=False),
            "recent_sessions": sessions.filter(is_closed=True)[:RECENT_SESSIONS],
            "players": alphabetical(club.players.filter(archived=False), key=lambda p: p.name),
        },
    )
