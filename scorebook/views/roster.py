from operator import attrgetter, itemgetter

from django import forms
from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorebook import roster as club_roster
from scorebook.access import club_view, get_for_club
from scorebook.collation import alphabetical
from scorebook.errors import ServiceError
from scorebook.forms import PlayerForm
from scorebook.models import LARGEST_ID, Player, Role, account_name
from scorebook.textinput import PlainTextForm
from scorebook.views.confirm import ASK, confirm_page
from scorebook.views.listing import ListPage

POST = ("POST",)
GET_OR_POST = ("GET", "HEAD", "POST")


def id_choice(label, *, required: bool = True) -> forms.IntegerField:
    """One of the club's rows, chosen from a list: the view looks the id up in the club (404
    for any other), so the list is only what the page offers."""
    return forms.IntegerField(
        label=label, required=required, min_value=1, max_value=LARGEST_ID, widget=forms.Select
    )


def offer(form: forms.Form, name: str, options, blank: str) -> forms.Form:
    form.fields[name].widget.choices = [("", blank), *options]
    return form


class ClaimForm(PlainTextForm, forms.Form):
    player = id_choice(gettext_lazy("I am"))


class LinkForm(PlainTextForm, forms.Form):
    user = id_choice(gettext_lazy("member's account"), required=False)


class MergeForm(PlainTextForm, forms.Form):
    into = id_choice(gettext_lazy("player to keep"))


class RosterPage(ListPage):
    def show(self, request, form, claim_form=None):
        """The roster; a member without a player of his own may claim one."""
        club = request.club
        # The reader's alphabet (not the database's), the archived at the end.
        players = alphabetical(self.items(club)["players"], key=attrgetter("name"))
        players.sort(key=attrgetter("archived"))
        mine = next((p for p in players if p.user_id == request.user.pk), None)
        claimed = next((p for p in players if p.claimed_by_id == request.user.pk), None)
        claimable = [p for p in players if not (p.user_id or p.claimed_by_id or p.archived)]
        claim_form = offer(
            claim_form or ClaimForm(), "player", [(p.pk, p.name) for p in claimable], "—"
        )
        return render(
            request,
            self.template,
            {
                "club": club,
                "form": form,
                "players": players,
                "mine": mine,
                "claimed": claimed,
                "claim_form": claim_form if claimable and not (mine or claimed) else None,
            },
        )


PAGE = RosterPage(
    "scorebook/roster.html",
    "scorebook:roster",
    # The page offers Delete only to players without hands: known in the page's one query.
    lambda club: {"players": club.players.with_played().select_related("user", "claimed_by")},
)


@club_view(role=Role.VIEWER)
def roster(request):
    return PAGE.show(request, PlayerForm())


@club_view(role=Role.ADMIN, methods=POST)
def player_add(request):
    return PAGE.add(
        request,
        PlayerForm(request.POST),
        lambda data: club_roster.add_player(club=request.club, name=data["name"]),
        _("%(name)s is on the roster."),
    )


def _player_page(request, player, *, rename=None, link=None, merge=None):
    """The player's page: rename, link to an account (or settle a claim), merge."""
    club = request.club
    members = club_roster.linkable_members(club, player)
    link = offer(
        link or LinkForm(initial={"user": player.user_id}),
        "user",
        [(user.pk, account_name(user)) for user in members],
        _("nobody"),
    )
    others = alphabetical(
        club.players.exclude(pk=player.pk).values_list("pk", "name"), key=itemgetter(1)
    )
    return render(
        request,
        "scorebook/player_edit.html",
        {
            "club": club,
            "player": player,
            "form": rename or PlayerForm(initial={"name": player.name}),
            "link_form": link,
            "merge_form": offer(merge or MergeForm(), "into", others, "—"),
        },
    )


@club_view(role=Role.ADMIN, methods=GET_OR_POST)
def player_edit(request, player):
    player = get_for_club(Player, request.club, pk=player)
    if request.method != "POST":
        return _player_page(request, player)
    form = PlayerForm(request.POST)
    if form.is_valid():
        try:
            club_roster.rename_player(
                player=player, name=form.cleaned_data["name"], user=request.user
            )
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            return redirect("scorebook:roster", club=request.club.slug)
    return _player_page(request, player, rename=form)


@club_view(role=Role.ADMIN, methods=POST)
def player_link(request, player):
    player = get_for_club(Player, request.club, pk=player)
    form = LinkForm(request.POST)
    if form.is_valid():
        chosen = form.cleaned_data["user"]
        membership = request.club.memberships.filter(user_id=chosen).select_related("user").first()
        try:
            if chosen is not None and membership is None:
                raise ServiceError(_("Choose a member of the club."), "user")
            club_roster.link(player=player, user=membership.user if membership else None)
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            if membership is None:
                done = _("%(name)s is linked to no account.") % {"name": player.name}
            else:
                done = _("%(name)s is %(account)s's player.") % {
                    "name": player.name,
                    "account": account_name(membership.user),
                }
            messages.success(request, done)
            return redirect("scorebook:player_edit", club=request.club.slug, player=player.pk)
    return _player_page(request, player, link=form)


@club_view(role=Role.VIEWER, methods=POST)
def player_claim(request):
    """A member says which roster player he is; an admin confirms it on the player's page."""
    form = ClaimForm(request.POST)
    if form.is_valid():
        player = get_for_club(Player, request.club, pk=form.cleaned_data["player"])
        try:
            club_roster.claim(club=request.club, player=player, user=request.user)
        except ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(
                request,
                _("You said you are %(name)s: an admin will confirm it.") % {"name": player.name},
            )
            return redirect("scorebook:roster", club=request.club.slug)
    return PAGE.show(request, PlayerForm(), form)


@club_view(role=Role.ADMIN, methods=POST)
def player_claim_decide(request, player):
    player = get_for_club(Player, request.club, pk=player)
    claimant = player.claimed_by
    try:
        if request.POST.get("accept") == "1":
            club_roster.confirm_claim(player=player)
            done = _("%(name)s is %(account)s's player.")
        else:
            club_roster.refuse_claim(player=player)
            done = _("%(account)s's claim of %(name)s is refused.")
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if claimant is not None:
            names = {"name": player.name, "account": account_name(claimant)}
            messages.success(request, done % names)
    return redirect("scorebook:player_edit", club=request.club.slug, player=player.pk)


@club_view(role=Role.ADMIN, methods=ASK)
def player_merge(request, player):
    """Merge a player into the one kept (`into`, in the address): GET asks to confirm, or
    shows the refusal at the field on the player's page; POST merges."""
    merged = get_for_club(Player, request.club, pk=player)
    form = MergeForm(request.GET if "into" in request.GET else None)
    if not form.is_valid():
        return _player_page(request, merged, merge=form)
    kept = get_for_club(Player, request.club, pk=form.cleaned_data["into"])
    try:
        if request.method == "POST":
            club_roster.merge(merged=merged, kept=kept, user=request.user)
        else:
            club_roster.check_merge(merged, kept)
    except ServiceError as exc:
        form.add_error(exc.field, exc.message)
        return _player_page(request, merged, merge=form)
    names = {"merged": merged.name, "kept": kept.name}
    if request.method == "POST":
        messages.success(request, _("%(merged)s is merged into %(kept)s.") % names)
        return redirect("scorebook:player_edit", club=request.club.slug, player=kept.pk)
    return confirm_page(
        request,
        _("Merge %(merged)s into %(kept)s?") % names,
        _("Merge"),
        reverse("scorebook:player_edit", kwargs={"club": request.club.slug, "player": merged.pk}),
        detail=_merge_detail(merged, kept),
    )


def _merge_detail(merged: Player, kept: Player) -> str:
    moves = club_roster.merge_counts(merged)
    sessions, hands = moves["sessions"], moves["hands"]
    detail = _(
        "%(sessions)s and %(hands)s move to %(kept)s; %(merged)s leaves the roster and the "
        "ratings are rebuilt. A merge cannot be undone."
    ) % {
        "sessions": ngettext("%(n)d session", "%(n)d sessions", sessions) % {"n": sessions},
        "hands": ngettext("%(n)d hand", "%(n)d hands", hands) % {"n": hands},
        "kept": kept.name,
        "merged": merged.name,
    }
    if moves["registrations"]:
        detail += " " + ngettext(
            "%(n)d tournament registration moves too.",
            "%(n)d tournament registrations move too.",
            moves["registrations"],
        ) % {"n": moves["registrations"]}
    return detail


@club_view(role=Role.ADMIN, methods=POST)
def player_archive(request, player):
    player = get_for_club(Player, request.club, pk=player)
    archived = request.POST.get("archived", "1") == "1"
    club_roster.set_player_archived(player=player, archived=archived)
    if archived:
        messages.success(request, _("%(name)s is archived.") % {"name": player})
    else:
        messages.success(request, _("%(name)s is back on the roster.") % {"name": player})
    return redirect("scorebook:roster", club=request.club.slug)


@club_view(role=Role.ADMIN, methods=ASK)
def player_delete(request, player):
    player = get_for_club(Player, request.club, pk=player)
    if request.method != "POST":
        return confirm_page(
            request,
            _("Delete %(name)s from the roster?") % {"name": player},
            _("Delete"),
            reverse("scorebook:roster", kwargs={"club": request.club.slug}),
        )
    try:
        club_roster.delete_player(player=player)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("%(name)s is deleted.") % {"name": player})
    return redirect("scorebook:roster", club=request.club.slug)
