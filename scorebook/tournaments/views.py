"""Tournament pages: thin views over tournaments.services."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from scorebook.access import club_view, get_for_club
from scorebook.models import Role
from scorebook.services import ServiceError
from scorebook.tournaments import services
from scorebook.tournaments.access import tournament_view
from scorebook.tournaments.forms import TournamentForm
from scorebook.tournaments.models import Status, Tournament

POST = ("POST",)


def _to_detail(tournament: Tournament):
    return redirect(
        "scorebook:tournaments:detail", club=tournament.club.slug, tournament=tournament.pk
    )


def _sync(tournament: Tournament) -> None:
    """Finish tables whose hands are in (should a hand have bypassed the save signal)."""
    if services.sync_tournament(tournament):
        tournament.refresh_from_db()


def _context(request, **extra) -> dict:
    tournament = request.tournament
    membership = getattr(request, "membership", None)
    context = {
        "tournament": tournament,
        "variant_label": rules.get_variant(tournament.variant).label,
        "tclub": tournament.club,
        "is_member": membership is not None,
        "is_admin": membership is not None and membership.has_role(Role.ADMIN),
    }
    context.update(extra)
    return context


@club_view(role=Role.VIEWER)
def tournament_list(request):
    tournaments = request.club.tournaments.all()
    return render(
        request,
        "tournaments/list.html",
        {
            "club": request.club,
            "upcoming": tournaments.filter(status__in=[Status.SCHEDULED, Status.RUNNING]).order_by(
                "starts_at"
            ),
            "past": tournaments.filter(status__in=[Status.FINISHED, Status.CANCELLED]),
        },
    )


@club_view(role=Role.ADMIN, methods=("GET", "HEAD", "POST"))
def tournament_create(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            points = services.parse_points(
                data["placement_points"], services.table_size_of(data["variant"])
            )
            tournament = services.create_tournament(
                club=request.club,
                user=request.user,
                name=data["name"],
                variant=data["variant"],
                starts_at=form.starts_at(request.club.time_zone),
                hands_per_table=data["hands_per_table"],
                rounds=data["rounds"],
                capacity=data["capacity"],
                open_to_all=data["open_to_all"],
                placement_points=points,
            )
        except ServiceError as exc:
            field = "start_date" if exc.field == "starts_at" else exc.field
            form.add_error(field, exc.message)
        else:
            messages.success(request, _("The tournament is open for registration."))
            return _to_detail(tournament)
    return render(request, "tournaments/form.html", {"club": request.club, "form": form})


@tournament_view()
def tournament_detail(request):
    tournament = request.tournament
    _sync(tournament)
    now = timezone.now()
    registration = tournament.registrations.filter(user=request.user).first()
    active = tournament.registrations.filter(cancelled_at=None).select_related("user", "player")
    placed = [r for r in active if r.has_place]
    waiting = [r for r in active if not r.has_place and not r.absent]
    return render(
        request,
        "tournaments/detail.html",
        _context(
            request,
            registration=registration,
            my_status=services.status_of(registration),
            placed=placed,
            waiting=waiting,
            waiting_position=next(
                (i for i, r in enumerate(waiting, start=1) if r.user_id == request.user.pk), None
            ),
            points=services.points_for(tournament, tournament.table_size),
            may_register=services.registration_is_open(tournament, now)
            and services.may_register(tournament, request.user),
            registration_closes_at=services.registration_closes_at(tournament),
            confirmation_opens_at=services.confirmation_opens_at(tournament),
            confirmation_open=services.confirmation_is_open(tournament, now),
            may_cancel=tournament.status == Status.SCHEDULED and now < tournament.starts_at,
            may_start=tournament.status == Status.SCHEDULED
            and now >= services.confirmation_opens_at(tournament),
            current_round=services.current_round(tournament),
        ),
    )


def _act(request, action, success: str):
    try:
        action()
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return _to_detail(request.tournament)


def _my_registration(request):
    registration = request.tournament.registrations.filter(user=request.user).first()
    if registration is None or not registration.is_active:
        raise ServiceError(_("You are not registered."))
    return registration


@tournament_view(methods=POST)
def register(request):
    try:
        registration = services.register(request.tournament, request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        if registration.has_place:
            messages.success(request, _("You are registered and have a place."))
        else:
            messages.info(request, _("All places are taken: you are on the waiting list."))
    return _to_detail(request.tournament)


@tournament_view(methods=POST)
def cancel(request):
    return _act(
        request,
        lambda: services.cancel_registration(_my_registration(request)),
        _("Your registration is cancelled."),
    )


@tournament_view(methods=POST)
def confirm(request):
    return _act(
        request,
        lambda: services.confirm_presence(_my_registration(request)),
        _("Your presence is confirmed."),
    )


@club_view(role=Role.ADMIN, methods=POST)
def start(request, tournament):
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    try:
        tournament = services.start_tournament(tournament, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return _to_detail(tournament)
    if tournament.status == Status.CANCELLED:
        messages.warning(
            request,
            _(
                "Too few players confirmed for one table: the tournament is cancelled and "
                "everybody registered has been emailed."
            ),
        )
        return _to_detail(tournament)
    messages.success(request, _("The tournament has started: round 1 is drawn."))
    return redirect("scorebook:tournaments:draw", club=request.club.slug, tournament=tournament.pk)


@tournament_view()
def draw(request):
    tournament = request.tournament
    _sync(tournament)
    return render(
        request, "tournaments/draw.html", _context(request, rounds=services.draw(tournament))
    )


@tournament_view()
def standings(request):
    tournament = request.tournament
    _sync(tournament)
    template = "tournaments/_standings.html" if request.htmx else "tournaments/standings.html"
    return render(
        request,
        template,
        _context(
            request,
            rows=services.standings(tournament),
            current_round=services.current_round(tournament),
            live=tournament.status == Status.RUNNING,
        ),
    )


@tournament_view()
def ranking(request):
    tournament = request.tournament
    _sync(tournament)
    if tournament.is_knockout:
        rows = services.knockout_ranking(tournament)
    else:
        rows = services.standings(tournament)
    return render(request, "tournaments/ranking.html", _context(request, rows=rows))


@tournament_view()
def bracket(request):
    tournament = request.tournament
    _sync(tournament)
    return render(
        request,
        "tournaments/bracket.html",
        _context(request, rounds=services.bracket(tournament) if tournament.is_knockout else []),
    )
