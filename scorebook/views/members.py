from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scorebook import services
from scorebook.access import club_view, get_for_club
from scorebook.forms import MemberAddForm, MemberRoleForm
from scorebook.models import Membership, Role
from scorebook.views.listing import ListPage

POST = ("POST",)


PAGE = ListPage(
    "scorebook/members.html",
    "scorebook:members",
    lambda club: {
        "memberships": club.memberships.select_related("user").order_by("user__username"),
        "roles": Role.choices,
    },
)


@club_view(role=Role.ADMIN)
def members(request):
    return PAGE.show(request, MemberAddForm())


@club_view(role=Role.ADMIN, methods=POST)
def member_add(request):
    return PAGE.add(
        request,
        MemberAddForm(request.POST),
        lambda data: services.add_member(club=request.club, **data).user,
        _("%(name)s is a member."),
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


@club_view(role=Role.ADMIN, methods=POST)
def member_remove(request, membership):
    membership = get_for_club(Membership, request.club, pk=membership)
    try:
        services.remove_member(membership=membership)
    except services.ServiceError as exc:
        messages.error(request, exc.message)
    return redirect("scorebook:members", club=request.club.slug)
