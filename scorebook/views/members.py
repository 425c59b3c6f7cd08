from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scorebook import invitations, services
from scorebook.access import club_view, get_for_club
from scorebook.collation import alphabetical
from scorebook.forms import MemberAddForm, MemberRoleForm
from scorebook.models import Membership, Role
from scorebook.views.confirm import ASK, confirm_page
from scorebook.views.listing import ListPage

POST = ("POST",)


class MembersPage(ListPage):
    """The list page, each invited member with a fresh link: a link needs the request's host."""

    def show(self, request, form):
        club = request.club
        invited = invitations.open_by_user(club)
        memberships = alphabetical(
            club.memberships.select_related("user"), key=lambda m: m.user.get_username()
        )
        for membership in memberships:
            invitation = invited.get(membership.user_id)
            membership.invitation_link = invitation and invitations.link(request, invitation)
        context = {"club": club, "form": form, "memberships": memberships, **self.items(club)}
        return render(request, self.template, context)


PAGE = MembersPage(
    "scorebook/members.html",
    "scorebook:members",
    lambda club: {"roles": Role.choices, "links_valid_for": invitations.valid_for()},
)


@club_view(role=Role.ADMIN)
def members(request):
    return PAGE.show(request, MemberAddForm())


@club_view(role=Role.ADMIN, methods=POST)
def member_add(request):
    added = []

    def add(data):
        membership = services.add_member(club=request.club, invited_by=request.user, **data)
        added.append(membership)
        return membership.user

    response = PAGE.add(request, MemberAddForm(request.POST), add, _("%(name)s is a member."))
    # After "… is a member.": the mail goes once the membership is stored.
    invitation = added and invitations.open_for_member(added[0])
    if invitation:
        _mail_invitation(request, invitation)
    return response


@club_view(role=Role.ADMIN, methods=POST)
def member_invite(request, membership):
    """Send the invitation mail again (the first went astray, or its link expired)."""
    membership = get_for_club(Membership, request.club, pk=membership)
    invitation = invitations.open_for_member(membership)
    if invitation is None:
        messages.error(request, _("%(name)s has no open invitation.") % {"name": membership.user})
    else:
        _mail_invitation(request, invitation)
    return redirect("scorebook:members", club=request.club.slug)


def _mail_invitation(request, invitation) -> None:
    """Mail the link if the account has an address, and tell the admin what happened."""
    user = invitation.user
    if not user.email:
        messages.info(
            request,
            _("%(name)s has no email address: give them the invitation link below.")
            % {"name": user},
        )
    elif invitations.send(request, invitation):
        messages.info(
            request,
            _("An invitation mail went to %(email)s.") % {"email": user.email},
        )
    else:
        messages.error(
            request,
            _("The mail to %(email)s could not be sent: give them the invitation link below.")
            % {"email": user.email},
        )


@club_view(role=Role.ADMIN, methods=POST)
def member_role(request, membership):
    membership = get_for_club(Membership, request.club, pk=membership)
    form = MemberRoleForm(request.POST)
    if form.is_valid():
        try:
            services.change_role(membership=membership, role=form.cleaned_data["role"])
        except services.ServiceError as exc:
            messages.error(request, exc.message)
    else:
        messages.error(request, _("Choose a role."))
    return redirect("scorebook:members", club=request.club.slug)


@club_view(role=Role.ADMIN, methods=ASK)
def member_remove(request, membership):
    membership = get_for_club(Membership, request.club, pk=membership)
    name = {"name": membership.user.get_username()}
    back = reverse("scorebook:members", kwargs={"club": request.club.slug})
    if request.method != "POST":
        return confirm_page(
            request,
            _("Remove %(name)s from the club?") % name,
            _("Remove %(name)s") % name,
            back,
            detail=_("The players and hands recorded stay. An admin can add %(name)s again.")
            % name,
        )
    done = _("%(name)s is no longer a member.") % name
    return _end(request, services.remove_member, membership, done, back)


@club_view(role=Role.VIEWER, methods=ASK)
def club_leave(request):
    membership = request.membership
    name = {"name": request.club.name}
    back = reverse("scorebook:club_home", kwargs={"club": request.club.slug})
    if request.method != "POST":
        refusal = services.leaving_refusal(membership)
        if refusal:  # said before the tap, where the button was
            messages.error(request, refusal)
            return redirect(back)
        return confirm_page(
            request,
            _("Leave %(name)s?") % name,
            _("Leave the club"),
            back,
            detail=_("The players and hands recorded stay. An admin can add you again."),
        )
    return _end(request, services.leave_club, membership, _("You left %(name)s.") % name, back)


def _end(request, end, membership, done: str, back: str):
    """End the membership with `end` (remove or leave); a refusal shows on the page before."""
    own = membership.pk == request.membership.pk  # read first: a deleted row has no pk
    try:
        end(membership=membership)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(back)
    messages.success(request, done)
    if own:  # out of the club: its pages are closed to him now
        return redirect("scorebook:my_clubs")
    return redirect(back)
