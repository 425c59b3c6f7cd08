from http import HTTPStatus

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from scorebook import house_rules, services
from scorebook.access import club_view, get_for_club
from scorebook.forms import SessionStartForm
from scorebook.models import Role, Session
from scorebook.views.confirm import ASK, confirm_page
from scorebook.views.hands import sheet_context
from scorebook.views.seasons import season_of_the_day


@club_view(role=Role.SCOREKEEPER, methods=("GET", "HEAD", "POST"))
def session_start(request):
    form = SessionStartForm(request.POST or None, club=request.club)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            session = services.start_session(
                club=request.club,
                variant_id=data["variant"],
                preset=data["rules"].preset,
                overrides=data["rules"].overrides,
                house_rules_name=data["rules"].name,
                players=data["players"],
                user=request.user,
                date=data["date"],
                table_label=data["table_label"],
                notes=data["notes"],
            )
        except services.ServiceError as exc:
            for problem in exc.problems:  # the seats' refusals go above the form's seats
                field = None if problem.path in ("", "seats") else problem.path
                form.add_error(field, problem.message)
        else:
            return redirect("scorebook:session", club=request.club.slug, session=session.pk)
    refused = request.method == "POST"  # a valid form has redirected by now
    return render(
        request,
        "scorebook/session_start.html",
        {
            "club": request.club,
            "form": form,
            "variants": house_rules.by_variant(request.club),
            **season_of_the_day(form),  # the season follows the date: shown, not asked
        },
        status=HTTPStatus.UNPROCESSABLE_ENTITY if refused else HTTPStatus.OK,
    )


@club_view(role=Role.VIEWER)
def session_detail(request, session):
    """The session: the sheet itself (the same table the sheet page shows and polls) with the
    session's actions around it: one way to read a session."""
    session = get_for_club(Session, request.club, pk=session)
    context = sheet_context(request, session)
    context["hand_count"] = context["rows"].played
    context["rule_differences"] = house_rules.session_differences(session)
    return render(request, "scorebook/session.html", context)


@club_view(role=Role.SCOREKEEPER, methods=ASK)
def session_close(request, session):
    session = get_for_club(Session, request.club, pk=session)
    if request.method != "POST":
        return confirm_page(
            request,
            _("Close this session?"),
            _("Close"),
            _session_url(session),
            detail=_("Its sheet is then final; an admin can reopen it."),
        )
    if not session.is_closed:
        try:
            services.close_session(session=session)
        except services.ServiceError as exc:  # a hand not confirmed yet (scorebook.confirmations)
            messages.error(request, exc.message)
        else:
            messages.success(request, _("The session is closed."))
    return redirect("scorebook:session", club=request.club.slug, session=session.pk)


def _session_url(session: Session) -> str:
    return reverse("scorebook:session", kwargs={"club": session.club.slug, "session": session.pk})


@club_view(role=Role.ADMIN, methods=ASK)
def session_reopen(request, session):
    session = get_for_club(Session, request.club, pk=session)
    if request.method != "POST":
        return confirm_page(request, _("Reopen this session?"), _("Reopen"), _session_url(session))
    if session.is_closed:
        services.reopen_session(session=session)
        messages.success(request, _("The session is open again."))
    return redirect("scorebook:session", club=request.club.slug, session=session.pk)
