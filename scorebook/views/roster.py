from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scorebook import services
from scorebook.access import club_view, get_for_club
from scorebook.forms import PlayerForm
from scorebook.models import Player, Role
from scorebook.views.listing import ListPage

POST = ("POST",)


PAGE = ListPage(
    "scorebook/roster.html",
    "scorebook:roster",
    # The page offers Delete only to players without hands: known in the page's one query.
    lambda club: {"players": club.players.with_played()},
)


@club_view(role=Role.VIEWER)
def roster(request):
    return PAGE.show(request, PlayerForm())


@club_view(role=Role.ADMIN, methods=POST)
def player_add(request):
    return PAGE.add(
        request,
        PlayerForm(request.POST),
        lambda data: services.add_player(club=request.club, name=data["name"]),
        _("%(name)s is on the roster."),
    )


@club_view(role=Role.ADMIN, methods=("GET", "HEAD", "POST"))
def player_edit(request, player):
    player = get_for_club(Player, request.club, pk=player)
    form = PlayerForm(request.POST or None, initial={"name": player.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.rename_player(player=player, name=form.cleaned_data["name"], user=request.user)
        except services.ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            return redirect("scorebook:roster", club=request.club.slug)
    return render(
        request,
        "scorebook/player_edit.html",
        {"club": request.club, "player": player, "form": form},
    )


@club_view(role=Role.ADMIN, methods=POST)
def player_archive(request, player):
    player = get_for_club(Player, request.club, pk=player)
    archived = request.POST.get("archived", "1") == "1"
    services.set_player_archived(player=player, archived=archived)
    if archived:
        messages.success(request, _("%(name)s is archived.") % {"name": player})
    else:
        messages.success(request, _("%(name)s is back on the roster.") % {"name": player})
    return redirect("scorebook:roster", club=request.club.slug)


@club_view(role=Role.ADMIN, methods=POST)
def player_delete(request, player):
    player = get_for_club(Player, request.club, pk=player)
    try:
        services.delete_player(player=player)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s is deleted.") % {"name": player})
    return redirect("scorebook:roster", club=request.club.slug)
