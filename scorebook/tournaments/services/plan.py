"""The organiser's plan of a tournament: creating it, and changing it until the start."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db import transaction
from django.utils.translation import gettext as _

import rules
from scorebook.errors import ServiceError
from scorebook.models import Confirmation
from scorebook.tournaments import orders
from scorebook.tournaments.models import DrawMode, RankingMode, SamePhone, Status, Tournament
from scorebook.tournaments.services.common import clock, locked
from scorebook.tournaments.services.variants import choose_rules, tournament_table


@dataclass
class Plan:
    """What the organiser decides about a tournament, and may change until it starts."""

    name: str
    variant: str
    starts_at: datetime.datetime
    hands_per_table: int
    rounds: int
    capacity: int
    open_to_all: bool = False
    placement_points: Sequence[int | float] = ()
    # None: registration closes at the start.
    registration_closes_at: datetime.datetime | None = None
    # "": the club's default for the game; "house-<id>" one of its sets; else a preset.
    rules_choice: str = ""
    # Another number of hands for tables of another size: {5: 20}.
    hands_by_size: dict[int, int] = field(default_factory=dict)
    round_minutes: int | None = None
    grace_minutes: int = 5
    draw_mode: str = DrawMode.SWISS
    # The ranking `groups` and a knockout's seeds follow: "" the order of registration, else
    # a name of scorebook.tournaments.orders (the series' standing or rating).
    draw_order: str = ""
    ranking_mode: str = RankingMode.PLACEMENT
    rank_points: Sequence[int | float] = ()
    contras_count: bool = True
    team_size: int | None = None
    # Each table's hands confirmed by the other side (scorebook.confirmations).
    confirmation: str = Confirmation.REQUIRED
    same_phone: str = SamePhone.ALLOWED


def _apply(tournament: Tournament, plan: Plan, now: datetime.datetime) -> None:
    """Write `plan` into `tournament`, refusing what cannot be played, each at its field."""
    table_size = tournament_table(rules.get_variant(plan.variant))
    if table_size is None:
        raise ServiceError(_("Pick a game that a tournament table can play."), "variant")
    tournament.name = " ".join(plan.name.split())
    tournament.variant = plan.variant
    tournament.table_size = table_size
    tournament.starts_at = plan.starts_at
    tournament.registration_closes_at = plan.registration_closes_at
    tournament.hands_per_table = plan.hands_per_table
    tournament.rounds = 1 if table_size == 2 else plan.rounds
    tournament.capacity = plan.capacity
    tournament.open_to_all = plan.open_to_all
    tournament.placement_points = list(plan.placement_points)
    _apply_modes(tournament, plan)
    choose_rules(tournament, plan.rules_choice)
    tournament.confirmation, tournament.same_phone = plan.confirmation, plan.same_phone
    if not tournament.name:
        raise ServiceError(_("Enter a name."), "name")
    if plan.capacity < table_size:
        raise ServiceError(
            _("There must be places for at least one table (%(n)d).") % {"n": table_size},
            "capacity",
        )
    if plan.starts_at <= now:
        raise ServiceError(_("The start must be ahead: pick a later time."), "starts_at")
    if plan.registration_closes_at and plan.registration_closes_at > plan.starts_at:
        raise ServiceError(
            _("Registration closes at the start at the latest."), "registration_closes_at"
        )


def _apply_modes(tournament: Tournament, plan: Plan) -> None:
    """The day's modes (RULES.md §8.2–8.4), each refused at its field when it cannot be."""
    tournament.hands_by_size = {str(size): n for size, n in plan.hands_by_size.items()}
    tournament.round_minutes = plan.round_minutes or None
    tournament.grace_minutes = plan.grace_minutes
    tournament.draw_mode = plan.draw_mode
    tournament.draw_order = _draw_order(tournament, plan.draw_order)
    tournament.ranking_mode = plan.ranking_mode
    tournament.rank_points = list(plan.rank_points)
    tournament.contras_count = plan.contras_count
    tournament.team_size = plan.team_size or None
    if plan.ranking_mode == RankingMode.SHEET_RANK and not plan.rank_points:
        raise ServiceError(_("Enter the rank points of each place."), "rank_points")
    if plan.team_size and not 2 <= plan.team_size <= 4:
        raise ServiceError(_("A team has 2, 3 or 4 players."), "team_size")
    if plan.team_size and tournament.table_size == 2:
        raise ServiceError(_("A knockout is played by single players."), "team_size")


def _draw_order(tournament: Tournament, name: str) -> str:
    """The ranking the draw follows, refused unless the tournament is in its series."""
    if not name:
        return ""
    order = orders.named(name)
    if order is None:
        raise ServiceError(_("Pick one of the rankings offered."), "draw_order")
    if not order.applies(tournament):
        raise ServiceError(str(order.missing), "draw_order")
    return name


def create_tournament(
    *,
    club,
    user,
    seed: int | None = None,
    now: datetime.datetime | None = None,
    **plan,
) -> Tournament:
    """A new tournament, open for registration; `plan` holds the fields of `Plan`."""
    tournament = Tournament(club=club, created_by=user)
    if seed is not None:
        tournament.seed = seed
    _apply(tournament, Plan(**plan), clock(now))
    tournament.save()
    return tournament


def has_started(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """At its start time, or earlier when the organiser started it, the tournament is what it
    is: no more changes, walk-ins or cancellations."""
    return tournament.status != Status.SCHEDULED or clock(now) >= tournament.starts_at


def edit_tournament(
    tournament: Tournament, plan: Plan, now: datetime.datetime | None = None
) -> Tournament:
    """Change the plan until the start. New places go to those waiting, in order; fewer
    places send the last to have registered back to the waiting list."""
    now = clock(now)
    with transaction.atomic():
        tournament = locked(tournament)
        if has_started(tournament, now):
            raise ServiceError(_("The tournament has started: it can no longer be changed."))
        _apply(tournament, plan, now)
        tournament.save()
        _seat_in_order(tournament)
    return tournament


def _seat_in_order(tournament: Tournament) -> None:
    """Places to the first `capacity` in order of registration, the rest waiting (locked).
    Registering and cancelling keep this order, so only a change of capacity moves anybody."""
    active = tournament.registrations.filter(cancelled_at=None, absent=False).order_by(
        "registered_at", "id"
    )
    placed = [r.pk for r in active[: tournament.capacity]]
    active.exclude(pk__in=placed).filter(has_place=True).update(has_place=False)
    active.filter(pk__in=placed, has_place=False).update(has_place=True)
