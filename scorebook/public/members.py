"""The members' side of the public pages: how a member is named on them (his own choice), and
the admins' record of what the roster's players agreed to. Ordinary club pages, behind a login."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.access import club_view, get_for_club
from scorebook.collation import alphabetical
from scorebook.errors import ServiceError
from scorebook.models import Player, Role
from scorebook.public import choices
from scorebook.public.models import PublicName, Shown
from scorebook.textinput import PlainTextForm

GET_OR_POST = ("GET", "HEAD", "POST")


class OwnChoiceForm(PlainTextForm, forms.Form):
    shown = forms.ChoiceField(
        label=gettext_lazy("My name on the club's public pages"),
        choices=Shown.choices,
        widget=forms.RadioSelect,
    )


class RecordForm(PlainTextForm, forms.Form):
    shown = forms.ChoiceField(
        label=gettext_lazy("name on public pages"), choices=Shown.choices, widget=forms.Select
    )
    agreed = forms.BooleanField(label=gettext_lazy("The player agreed to this"), required=False)


def _public_address(club) -> str:
    return reverse("public:club_root", kwargs={"club": club.slug})


@club_view(role=Role.VIEWER, methods=GET_OR_POST)
def my_name(request):
    """A member chooses how the player linked to his account is named in public."""
    club = request.club
    player = club.players.filter(user=request.user).first()
    current = choices.choice_of(player) if player else None
    form = OwnChoiceForm(
        request.POST or None, initial={"shown": current.shown if current else Shown.HIDDEN}
    )
    if request.method == "POST" and player is not None and form.is_valid():
        choices.own_choice(player, request.user, form.cleaned_data["shown"])
        messages.success(request, _("Your choice is saved."))
        return redirect("scorebook:public_members:my_name", club=club.slug)
    return render(
        request,
        "public_members/my_name.html",
        {"club": club, "player": player, "form": form, "public_address": _public_address(club)},
    )


@club_view(role=Role.ADMIN)
def names(request):
    """The roster with how each player is named in public, for the admins."""
    club = request.club
    chosen = {c.player_id: c for c in PublicName.objects.filter(player__club=club)}
    rows = [
        {"player": p, "choice": chosen.get(p.pk)}
        for p in alphabetical(club.players.filter(archived=False), key=lambda p: p.name)
    ]
    return render(request, "public_members/names.html", {"club": club, "rows": rows})


@club_view(role=Role.ADMIN, methods=GET_OR_POST)
def record(request, player):
    club = request.club
    player = get_for_club(Player, club, pk=player)
    current = choices.choice_of(player)
    form = RecordForm(
        request.POST or None, initial={"shown": current.shown if current else Shown.HIDDEN}
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            choices.admins_record(player, request.user, data["shown"], data["agreed"])
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, _("%(name)s: saved.") % {"name": player.name})
            return redirect("scorebook:public_members:names", club=club.slug)
    return render(
        request,
        "public_members/record.html",
        {"club": club, "player": player, "form": form, "current": current},
    )
