from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scorebook import services
from scorebook.access import club_view, get_for_club
from scorebook.forms import MemberAddForm, MemberRoleForm
from scorebook.models import Membership, Role

POST = ("POST",)


def _members_page(request, form, status=200):
    memberships = request.club.memberships.select_related("user").order_by("user__username")
    return render(
        request,
        "scorebook/members.html",
        {"club": request.club, "memberships": memberships, "form": form, "roles": Role.choices},
        status=status,
    )


@club_view(role=Role.ADMIN)
def members(request):
    return _members_page(request, MemberAddForm())


@club_view(role=Role.ADMIN, methods=POST)
def member_add(request):
    form = MemberAddForm(request.POST)
    if form.is_valid():
        try:
            membership = services.add_member(club=request.club, **form.cleaned_data)
        except services.ServiceError as exc:
            form.add_error(exc.field, exc.message)
        else:
            messages.success(request, _("%(name)s is a member.") % {"name": membership.user})
            return redirect("scorebook:members", club=request.club.slug)
    return _members_page(
        request,
        form,
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
