"""Tournament pages: thin views over tournaments.services."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from scorebook.access import club_view, get_for_club
from scorebook.collation import alphabetical
from scorebook.models import Role
from scorebook.public import choices as public_choices
from scorebook.services import ServiceError
from scorebook.tournaments import services
from scorebook.tournaments.access import tournament_view
from scorebook.tournaments.forms import (
    MessageForm,
    MoreMinutesForm,
    SubstituteForm,
    TournamentForm,
    WalkInForm,
)
from scorebook.tournaments.models import Answer, Event, Status, Tournament
from scorebook.views.confirm import ASK, confirm_page

POST = ("POST",)
FORM = ("GET", "HEAD", "POST")


def _detail_url(tournament: Tournament) -> str:
    return reverse(
        "scorebook:tournaments:detail",
        kwargs={"club": tournament.club.slug, "tournament": tournament.pk},
    )


def _to_detail(tournament: Tournament):
    return redirect(_detail_url(tournament))


def _sync(tournament: Tournament) -> None:
    """Finish tables whose hands are in (should a hand have bypassed the save signal)."""
    if services.sync_tournament(tournament):
        tournament.refresh_from_db()


def _context(request, **extra) -> dict:
    tournament = request.tournament
    membership = getattr(request, "membership", None)
    context = {
        "is_scorekeeper": membership is not None and membership.has_role(Role.SCOREKEEPER),
        "tournament": tournament,
        "variant_label": tournament.variant_label,
        "tclub": tournament.club,
        "is_member": membership is not None,
        "is_admin": membership is not None and membership.has_role(Role.ADMIN),
        "points_scheme": services.points_scheme(tournament),
        "banners": services.banners(tournament, request.user),
        "rules_label": services.rules_label(tournament),
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


def _posted(request):
    """The posted data, or None for a GET: an empty POST still binds the form, and is refused."""
    return request.POST if request.method == "POST" else None


# The form's field for each field of the plan the services name in a refusal.
FORM_FIELDS = {"starts_at": "start_date", "registration_closes_at": "registration_closes"}


def _plan(form: TournamentForm, club) -> services.Plan:
    """The organiser's form as a plan; its points refused at their field (ServiceError)."""
    data = form.cleaned_data
    size = services.table_size_of(data["variant"])
    return services.Plan(
        **_modes(data, size),
        name=data["name"],
        variant=data["variant"],
        starts_at=form.starts_at(club.time_zone),
        registration_closes_at=form.registration_closes_at(club.time_zone),
        hands_per_table=data["hands_per_table"],
        rounds=data["rounds"],
        capacity=data["capacity"],
        open_to_all=data["open_to_all"],
        placement_points=services.chosen_points(
            data["points_preset"],
            data["placement_points"],
            services.table_size_of(data["variant"]),
        ),
        confirmation=data["confirmation"] or services.Plan.confirmation,
        same_phone=data["same_phone"] or services.Plan.same_phone,
    )


def _modes(data: dict, size: int) -> dict:
    """The day's modes of the form, as the plan takes them (blank: the defaults)."""
    ranking = data.get("ranking_mode") or "placement"
    rank_text = data.get("rank_points") or ""
    return {
        "rules_choice": data.get("rules") or "",
        "hands_by_size": services.parse_hands_by_size(
            data.get("hands_by_size", ""), services.possible_sizes_of(data["variant"])
        ),
        "round_minutes": data.get("round_minutes"),
        "grace_minutes": 5 if data.get("grace_minutes") is None else data["grace_minutes"],
        "draw_mode": data.get("draw_mode") or "swiss",
        "draw_order": data.get("draw_order") or "",
        "ranking_mode": ranking,
        "rank_points": services.parse_rank_points(rank_text, size) if rank_text.strip() else [],
        "contras_count": not data.get("contras_not_counted"),
        "team_size": int(data["team_size"]) if data.get("team_size") else None,
    }


def _refuse_at_field(form, exc: ServiceError) -> None:
    form.add_error(FORM_FIELDS.get(exc.field, exc.field), exc.message)


@club_view(role=Role.ADMIN, methods=FORM)
def tournament_create(request):
    form = TournamentForm(_posted(request), club=request.club)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = services.create_tournament(
                club=request.club, user=request.user, **vars(_plan(form, request.club))
            )
        except ServiceError as exc:
            _refuse_at_field(form, exc)
        else:
            messages.success(request, _("The tournament is open for registration."))
            return _to_detail(tournament)
    return render(request, "tournaments/form.html", {"club": request.club, "form": form})


@club_view(role=Role.ADMIN, methods=FORM)
def tournament_edit(request, tournament):
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    started = services.has_started(tournament)
    form = TournamentForm.for_tournament(tournament, _posted(request))
    if request.method == "POST" and not started and form.is_valid():
        try:
            services.edit_tournament(tournament, _plan(form, request.club))
        except ServiceError as exc:
            _refuse_at_field(form, exc)
        else:
            messages.success(request, _("The tournament is changed."))
            return _to_detail(tournament)
    status = 409 if request.method == "POST" and started else 200
    return render(
        request,
        "tournaments/form.html",
        {"club": request.club, "form": form, "tournament": tournament, "started": started},
        status=status,
    )


@club_view(role=Role.ADMIN, methods=FORM)
def walk_in(request, tournament):
    """At the door: the organiser adds players until the start."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    started = services.has_started(tournament)
    form = WalkInForm(_posted(request), tournament=tournament)
    if request.method == "POST" and not started and form.is_valid():
        try:
            registration = services.add_walk_in(
                tournament,
                form.cleaned_data["player"],
                form.cleaned_data["name"],
                team_name=form.cleaned_data.get("team", ""),
            )
        except ServiceError as exc:
            form.add_error(exc.field or None, exc.message)
        else:
            messages.success(request, _walk_in_message(registration))
            return redirect(request.path)
    walk_ins = tournament.registrations.filter(cancelled_at=None, user=None)
    return render(
        request,
        "tournaments/walk_in.html",
        {
            "club": request.club,
            "tclub": request.club,
            "tournament": tournament,
            "form": form,
            "started": started,
            "walk_ins": alphabetical(walk_ins.select_related("player"), key=lambda r: r.name),
        },
        status=409 if request.method == "POST" and started else 200,
    )


@club_view(role=Role.ADMIN, methods=ASK)
def walk_in_remove(request, tournament, registration):
    """A walk-in added by mistake, or gone home, leaves before the start; his place goes to the
    first one waiting. Only those added at the door: a member cancels his own registration."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    registration = get_object_or_404(
        tournament.registrations.select_related("player"), pk=registration, user=None
    )
    back = reverse(
        "scorebook:tournaments:walk_in",
        kwargs={"club": request.club.slug, "tournament": tournament.pk},
    )
    if request.method != "POST":
        return confirm_page(
            request,
            _("Remove %(name)s from the tournament?") % {"name": registration.name},
            _("Remove"),
            back,
            detail=_("A freed place goes to the first on the waiting list."),
        )
    try:
        services.cancel_registration(registration)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, _("%(name)s is no longer registered.") % {"name": registration.name}
        )
    return redirect(back)


def _walk_in_message(registration) -> str:
    if registration.has_place:
        return _("%(name)s has a place.") % {"name": registration.name}
    return _("All places are taken: %(name)s is on the waiting list.") % {"name": registration.name}


@tournament_view()
def tournament_detail(request):
    return _detail_page(request)


def _detail_page(request, status: int = 200, **extra):
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
            # Who has a place, in the reader's alphabet; the waiting list keeps its turns.
            placed=alphabetical(placed, key=lambda r: r.name),
            waiting=waiting,
            waiting_position=next(
                (i for i, r in enumerate(waiting, start=1) if r.user_id == request.user.pk), None
            ),
            may_register=services.registration_is_open(tournament, now)
            and services.may_register(tournament, request.user),
            public_names=public_choices.Shown.choices,
            registration_closes_at=services.registration_closes_at(tournament),
            confirmation_opens_at=services.confirmation_opens_at(tournament),
            confirmation_open=services.confirmation_is_open(tournament, now),
            started=services.has_started(tournament, now),
            may_cancel=not services.has_started(tournament, now),
            may_start=tournament.status == Status.SCHEDULED
            and now >= services.confirmation_opens_at(tournament),
            current_round=services.current_round(tournament),
            seat=services.my_seat(tournament, request.user),
            **extra,
        ),
        status=status,
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
        registration = services.register(
            request.tournament, request.user, team_name=request.POST.get("team", "")
        )
    except ServiceError as exc:
        if exc.field == "team":  # said at the field, the name typed kept
            return _detail_page(
                request, team_error=exc.message, team_typed=request.POST.get("team", "")
            )
        messages.error(request, exc.message)
    else:
        # How his results are published, chosen with the registration (issue 30).
        public_choices.registration_choice(
            registration, request.user, request.POST.get("public_name")
        )
        if registration.has_place:
            messages.success(request, _("You are registered and have a place."))
        else:
            messages.info(request, _("All places are taken: you are on the waiting list."))
    return _to_detail(request.tournament)


@tournament_view(methods=ASK)
def cancel(request):
    if request.method != "POST":
        return confirm_page(
            request,
            _("Cancel your registration?"),
            _("Cancel my registration"),
            _detail_url(request.tournament),
            detail=_("A freed place goes to the first on the waiting list."),
            context=_context(request),
        )
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


@club_view(role=Role.ADMIN, methods=ASK)
def start(request, tournament):
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    if request.method != "POST":
        return confirm_page(
            request,
            _("Start the tournament now?"),
            _("Start"),
            _detail_url(tournament),
            detail=_("Whoever has a place and has not confirmed loses it, and round 1 is drawn."),
        )
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
            **_standing_rows(tournament),
            current_round=services.current_round(tournament),
            live=tournament.status == Status.RUNNING,
        ),
    )


@tournament_view()
def ranking(request):
    tournament = request.tournament
    _sync(tournament)
    if tournament.is_knockout:
        rows = {"rows": services.knockout_ranking(tournament)}
    else:
        rows = _standing_rows(tournament)
    return render(request, "tournaments/ranking.html", _context(request, **rows))


def _standing_rows(tournament: Tournament) -> dict:
    rows = services.standings(tournament)
    return {"rows": rows, "team_rows": services.team_standings(tournament, rows)}


@tournament_view()
def bracket(request):
    tournament = request.tournament
    _sync(tournament)
    return render(
        request,
        "tournaments/bracket.html",
        _context(request, rounds=services.bracket(tournament) if tournament.is_knockout else []),
    )


# --- The director's screen and his taps (RULES.md §8.2) ---------------------------------------


def _director_url(tournament: Tournament) -> str:
    return reverse(
        "scorebook:tournaments:director",
        kwargs={"club": tournament.club.slug, "tournament": tournament.pk},
    )


@club_view(role=Role.ADMIN)
def director(request, tournament):
    """Every table of the round: hands in and due, minutes left, open hands; one tap each to
    end a table, give it minutes, or reseat it before its first hand. Before the start: who
    is here. Refreshes itself every 10 seconds (htmx); a reload shows the same."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    request.tournament = tournament
    _sync(tournament)
    rnd, tables = services.director_tables(tournament)
    unseen = services.unseen_events(tournament)
    if not request.htmx:
        services.mark_seen(tournament)
    active = tournament.registrations.filter(cancelled_at=None).select_related("user", "player")
    template = "tournaments/_director.html" if request.htmx else "tournaments/director.html"
    return render(
        request,
        template,
        _context(
            request,
            club=request.club,
            round=rnd,
            tables=tables,
            unseen={e.pk for e in unseen},
            history=services.history(tournament),
            decisions=[(e, services.event_text(e)) for e in services.open_decisions(tournament)],
            players=alphabetical([r for r in active if not r.absent], key=lambda r: r.name),
            started=services.has_started(tournament),
            minutes_form=MoreMinutesForm(),
        ),
    )


def _table_tap(request, tournament, action, success: str):
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    try:
        action(tournament)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, success)
    return redirect(_director_url(tournament))


@club_view(role=Role.ADMIN, methods=ASK)
def table_end(request, tournament, table):
    if request.method != "POST":
        found = get_object_or_404(
            services.tables_of(get_for_club(Tournament, request.club, pk=tournament)), pk=table
        )
        return confirm_page(
            request,
            _("End %(table)s now?") % {"table": found.name},
            _("End the table"),
            _director_url(found.round.tournament),
            detail=_("Its hands so far count; the table plays no more hands this round."),
        )
    return _table_tap(
        request,
        tournament,
        lambda t: services.end_table(t, table, request.user),
        _("The table's round is over."),
    )


@club_view(role=Role.ADMIN, methods=POST)
def table_minutes(request, tournament, table):
    form = MoreMinutesForm(request.POST)
    minutes = form.cleaned_data["minutes"] if form.is_valid() else 0
    return _table_tap(
        request,
        tournament,
        lambda t: services.more_minutes(t, table, minutes, request.user),
        _("The table has more minutes."),
    )


@club_view(role=Role.ADMIN, methods=ASK)
def table_reseat(request, tournament, table):
    if request.method != "POST":
        found = get_object_or_404(
            services.tables_of(get_for_club(Tournament, request.club, pk=tournament)), pk=table
        )
        return confirm_page(
            request,
            _("Reseat %(table)s?") % {"table": found.name},
            _("Reseat"),
            _director_url(found.round.tournament),
            detail=_("The same players sit in a new order; the table has no hand yet."),
        )
    return _table_tap(
        request,
        tournament,
        lambda t: services.reseat_table(t, table, request.user),
        _("The table is reseated."),
    )


@club_view(role=Role.ADMIN, methods=POST)
def match_decide(request, tournament, event):
    """A knockout match whose match before it has another winner after it began (RULES.md
    §8.2): the organiser replays it or keeps it; a second answer is refused."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    found = get_object_or_404(tournament.events, pk=event, kind=Event.Kind.KNOCKOUT_DECIDE)
    answer = request.POST.get("answer", "")
    try:
        services.decide_match(tournament, found, answer, request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        replayed = answer == Answer.REPLAY
        messages.success(
            request,
            _("The match is played again.") if replayed else _("The match is kept as played."),
        )
    return redirect(_director_url(tournament))


@club_view(role=Role.ADMIN, methods=POST)
def presence(request, tournament, registration):
    """The organiser confirms a registered player's presence for him, or undoes it."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    found = get_object_or_404(tournament.registrations, pk=registration)
    present = request.POST.get("present") == "1"
    try:
        services.set_presence(found, present, request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        text = _("%(name)s is here.") if present else _("%(name)s is no longer marked present.")
        messages.success(request, text % {"name": found.name})
    return redirect(_director_url(tournament))


@club_view(role=Role.ADMIN, methods=FORM)
def withdraw(request, tournament, registration):
    """Withdraw a player between rounds, and seat a substitute in his place."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    found = get_object_or_404(
        tournament.registrations.select_related("player", "user"), pk=registration
    )
    form = SubstituteForm(_posted(request), choices=services.substitute_choices(tournament))
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sub = services.withdraw(found, data["player"], data["name"], request.user)
        except ServiceError as exc:
            form.add_error(FORM_FIELDS.get(exc.field, exc.field) or None, exc.message)
        else:
            messages.success(request, _withdrawn_message(found, sub))
            return redirect(_director_url(tournament))
    return render(
        request,
        "tournaments/withdraw.html",
        {
            "club": request.club,
            "tclub": request.club,
            "tournament": tournament,
            "registration": found,
            "form": form,
        },
    )


def _withdrawn_message(withdrawn, sub) -> str:
    if sub is None:
        return _("%(name)s is withdrawn.") % {"name": withdrawn.name}
    return _("%(name)s is withdrawn; %(sub)s plays in his place.") % {
        "name": withdrawn.name,
        "sub": sub.name,
    }


@club_view(role=Role.ADMIN, methods=FORM)
def message(request, tournament):
    """A message to every player: a banner on their pages, an e-mail to those with one."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    form = MessageForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            services.send_message(tournament, form.cleaned_data["text"], request.user)
        except ServiceError as exc:
            _refuse_at_field(form, exc)
        else:
            messages.success(request, _("The message is sent to every player."))
            return redirect(_director_url(tournament))
    return render(
        request,
        "tournaments/message.html",
        {"club": request.club, "tclub": request.club, "tournament": tournament, "form": form},
    )


@tournament_view(methods=POST)
def message_dismiss(request, message):
    services.dismiss(request.tournament, message, request.user)
    return _to_detail(request.tournament)


@tournament_view()
def where(request):
    """The player's "where do I go", as the tournament page shows it first (htmx polls it);
    a browser that opens it as a page is sent to the tournament's page, which shows it."""
    if not request.htmx:
        return _to_detail(request.tournament)
    return render(
        request,
        "tournaments/_where.html",
        _context(request, seat=services.my_seat(request.tournament, request.user)),
    )


@club_view(role=Role.SCOREKEEPER, methods=POST)
def round_over(request, tournament, table):
    """A timed table's scorer: the time is up, the hand in play is in, the round is over."""
    tournament = get_for_club(Tournament, request.club, pk=tournament)
    try:
        services.round_over(tournament, table, request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("The table's round is over."))
    return _to_detail(tournament)
