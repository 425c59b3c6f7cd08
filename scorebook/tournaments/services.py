"""Tournament services (RULES.md §8): registration, presence, the start, the draw, the results.

Every function that depends on the time takes `now` (default: timezone.now()), so the
scheduling rules are tested with a clock the test controls. The draw uses random.Random seeded
from the tournament's `seed` and the round number, so a draw can be replayed.

Each table is a scorebook Session made with `scorebook.services.start_session`; its hands are
recorded with the ordinary hand form. When a table has played its hands (`table_is_done`),
`finish_table` closes its session and records the placements from the session totals. The
last table of a round to finish completes the round: byes get their points and the next
round is drawn (or the tournament ends). All changes to one tournament's state take a lock on
the tournament row first, so two phones finishing two tables at once cannot draw twice.
"""

from __future__ import annotations

import datetime
import logging
import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Count, Max, Min, Prefetch, Q, Sum
from django.utils import timezone
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import rules
from rules.variant import NOT_DEALS
from scorebook import confirmations, textinput
from scorebook import services as core
from scorebook.amounts import cents
from scorebook.collation import sort_key
from scorebook.models import Confirmation, Entry, Hand, Membership, Player, Session, account_name
from scorebook.services import ServiceError
from scorebook.tournaments.models import (
    Placement,
    Registration,
    Round,
    SamePhone,
    Status,
    Table,
    Tournament,
)

log = logging.getLogger(__name__)

CONFIRMATION_WINDOW = datetime.timedelta(minutes=15)


def _now(now: datetime.datetime | None) -> datetime.datetime:
    return now if now is not None else timezone.now()


def _lock(tournament: Tournament) -> Tournament:
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club")
        .get(pk=tournament.pk)
    )


# --- Variants and points --------------------------------------------------------------------


def family_variant(variant_id: str, size: int) -> str | None:
    """The variant of the same family for a table of `size`, if the family has one: a
    tournament's smaller last table plays it (a tournament table seats no one who sits out)."""
    family = rules.get_variant(variant_id).family
    for variant in rules.variants():
        if variant.family == family and variant.player_counts == (size,):
            return variant.id
    return None


def tournament_variants() -> list:
    """Every game a tournament table can play: one that seats one number of players."""
    return [v for v in rules.variants() if _tournament_table(v)]


def _tournament_table(variant) -> int | None:
    """The players at a tournament table of `variant`: its one player count. A game for
    several counts has no one size to draw tables of; the sit-out seat is never used."""
    counts = variant.player_counts
    return counts[0] if len(counts) == 1 and counts[0] >= 2 else None


def table_size_of(variant_id: str) -> int:
    counts = rules.get_variant(variant_id).player_counts
    return counts[0] if len(counts) == 1 else 0


def table_sizes(tournament: Tournament, players: int) -> tuple[list[int], int]:
    """The sizes of a round's tables for `players`, and how many sit the round out (byes).

    Full tables first; the remainder forms a last, smaller table when the variant's family has
    a form for that many (Slovenian 3 or 2, French 4 or 3); otherwise the remainder has byes.
    """
    full, rest = divmod(players, tournament.table_size)
    sizes = [tournament.table_size] * full
    if rest >= 2 and family_variant(tournament.variant, rest):
        return sizes + [rest], 0
    return sizes, rest


def possible_table_sizes(tournament: Tournament) -> list[int]:
    """The full table's size, then every smaller size a last table may have."""
    smaller = range(tournament.table_size - 1, 1, -1)
    return [tournament.table_size] + [n for n in smaller if family_variant(tournament.variant, n)]


def points_for(tournament: Tournament, size: int) -> list[Decimal]:
    """Placement points for 1st … last at a table of `size`.

    The default, "n − place", is size−1, …, 0 at every table. The tournament's own points are
    for a full table; a smaller table gets the points of its first places.
    """
    own = [Decimal(str(p)) for p in tournament.placement_points or []]
    if not own:
        return [Decimal(size - 1 - i) for i in range(size)]
    return (own + [Decimal(0)] * size)[:size]


def points_text(points: Decimal) -> str:
    """2 -> "2", 0.5 -> "½", 2.5 -> "2½": placement points as clubs write them."""
    whole = int(points)
    if points == whole:
        return str(whole)
    return f"{whole or ''}½" if points - whole == Decimal("0.5") else str(points)


def points_scheme(tournament: Tournament) -> list[tuple[int, list[str]]]:
    """[(table size, points of 1st … last as written)] for every table the tournament can have."""
    return [
        (size, [points_text(p) for p in points_for(tournament, size)])
        for size in possible_table_sizes(tournament)
    ]


def share_places(totals: Sequence[tuple[object, Decimal]], points: Sequence[Decimal]):
    """[(key, total)] -> [(key, place, points)], best total first.

    Tied players share the points of the places they cover, and all get the best of those
    places: totals 30, 10, 10, −5 with 3/2/1/0 points give places 1, 2, 2, 4 and 3, 1.5, 1.5, 0.
    """
    ordered = sorted(totals, key=lambda kv: kv[1], reverse=True)
    result = []
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1][1] == ordered[i][1]:
            j += 1
        covered = points[i : j + 1]
        shared = cents(sum(covered, Decimal(0)) / len(covered), ROUND_HALF_UP)
        for key, _total in ordered[i : j + 1]:
            result.append((key, i + 1, shared))
        i = j + 1
    return result


# --- Placement points: presets and the organiser's own ----------------------------------------


@dataclass(frozen=True)
class PointsPreset:
    """A convention clubs use: the points of 1st, 2nd, … for each table size it is made for.
    `by_size` None is "n − place", which fits every table (stored as no points at all)."""

    label: str
    by_size: dict[int, tuple[str, ...]] | None


N_MINUS_PLACE = "n-place"
OWN_POINTS = "own"
POINTS_PRESETS = {
    N_MINUS_PLACE: PointsPreset(gettext_lazy("n − place (3, 2, 1, 0 at four)"), None),
    "three-player-championship": PointsPreset(
        gettext_lazy("three-player championship 2 / 1 / ½"), {3: ("2", "1", "0.5")}
    ),
    "four-player-league": PointsPreset(
        gettext_lazy("four-player league 4 / 3 / 2 / 1"), {4: ("4", "3", "2", "1")}
    ),
}

MAX_PLACEMENT_POINTS = 1000  # far above any club's convention; a ranking's sums stay small
# Points are typed "2, 1, ½" or "2/1/0.5": a comma separates, a point or ½ makes a half. Where
# a semicolon or a slash separates ("2; 1; 0,5"), a comma is the decimal comma of sl/cs/de/fr.
POINTS_SEPARATORS = re.compile(r"[\s,;/]+")
POINTS_SEPARATORS_BESIDE_DECIMAL_COMMAS = re.compile(r"[\s;/]+")


def _stored(value: Decimal) -> int | float:
    """A point value for the JSON field: whole numbers as ints, halves as floats (exact)."""
    return int(value) if value == int(value) else float(value)


def preset_points(preset_id: str, table_size: int) -> list[int | float]:
    """The points a preset gives a full table of `table_size`; [] for "n − place"."""
    preset = POINTS_PRESETS[preset_id]
    if preset.by_size is None:
        return []
    points = preset.by_size.get(table_size)
    if points is None:
        sizes = ", ".join(str(n) for n in sorted(preset.by_size))
        raise ServiceError(
            _("These points are for tables of %(sizes)s players: pick other points.")
            % {"sizes": sizes},
            "points_preset",
        )
    return [_stored(Decimal(p)) for p in points]


def chosen_points(preset_id: str, text: str, table_size: int) -> list[int | float]:
    """The points of the form's choice: a preset, or the organiser's own list in `text`."""
    if preset_id == OWN_POINTS:
        if not (text or "").strip():
            raise ServiceError(_("Enter the points of each place."), "placement_points")
        return parse_points(text, table_size)
    if (text or "").strip():
        raise ServiceError(
            _("To use these points choose “our own points” above, or clear them."),
            "placement_points",
        )
    return preset_points(preset_id, table_size)


def choice_of(tournament: Tournament) -> tuple[str, str]:
    """(preset id, own points as text) that give the tournament's points: the edit form's start."""
    stored = [Decimal(str(p)) for p in tournament.placement_points or []]
    if not stored:
        return N_MINUS_PLACE, ""
    for preset_id, preset in POINTS_PRESETS.items():
        if preset.by_size and [Decimal(p) for p in preset.by_size.get(len(stored), ())] == stored:
            return preset_id, ""
    return OWN_POINTS, ", ".join(points_text(p) for p in stored)


def parse_points(text: str, table_size: int) -> list[int | float]:
    """'3, 2, 1, 0' -> [3, 2, 1, 0]; '2 / 1 / ½' and '2; 1; 0,5' -> [2, 1, 0.5]; empty -> []
    (n − place)."""
    text = (text or "").replace("½", ".5")
    separators = POINTS_SEPARATORS
    if ";" in text or "/" in text:
        separators = POINTS_SEPARATORS_BESIDE_DECIMAL_COMMAS
    parts = [p for p in separators.split(text) if p]
    if not parts:
        return []
    try:
        values = [textinput.number(part) for part in parts]
    except textinput.InputError:
        values = []
    if not values or any(v * 2 != int(v * 2) or v > MAX_PLACEMENT_POINTS for v in values):
        raise ServiceError(
            _("Enter whole or half points (2.5 or 2½) up to %(max)d, separated by commas.")
            % {"max": MAX_PLACEMENT_POINTS},
            "placement_points",
        )
    if len(values) != table_size:
        raise ServiceError(
            _("Give points for each of the %(n)d places at a table.") % {"n": table_size},
            "placement_points",
        )
    if any(a < b for a, b in zip(values, values[1:], strict=False)) or min(values) < 0:
        raise ServiceError(
            _("Points go down from first place to last and are not negative."),
            "placement_points",
        )
    return [_stored(Decimal(v)) for v in values]


# --- Creating and editing -----------------------------------------------------------------


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
    # Each table's hands confirmed by the other side (scorebook.confirmations).
    confirmation: str = Confirmation.REQUIRED
    same_phone: str = SamePhone.ALLOWED


def _apply(tournament: Tournament, plan: Plan, now: datetime.datetime) -> None:
    """Write `plan` into `tournament`, refusing what cannot be played, each at its field."""
    table_size = _tournament_table(rules.get_variant(plan.variant))
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
    _apply(tournament, Plan(**plan), _now(now))
    tournament.save()
    return tournament


def has_started(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """At its start time, or earlier when the organiser started it, the tournament is what it
    is: no more changes, walk-ins or cancellations."""
    return tournament.status != Status.SCHEDULED or _now(now) >= tournament.starts_at


def edit_tournament(
    tournament: Tournament, plan: Plan, now: datetime.datetime | None = None
) -> Tournament:
    """Change the plan until the start. New places go to those waiting, in order; fewer
    places send the last to have registered back to the waiting list."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(tournament)
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


# --- Registration -------------------------------------------------------------------------


def registration_closes_at(tournament: Tournament) -> datetime.datetime:
    """When the organiser closes registration; by default at the start."""
    return tournament.registration_closes_at or tournament.starts_at


def confirmation_opens_at(tournament: Tournament) -> datetime.datetime:
    return tournament.starts_at - CONFIRMATION_WINDOW


def registration_is_open(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    return tournament.status == Status.SCHEDULED and _now(now) < registration_closes_at(tournament)


def confirmation_is_open(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    now = _now(now)
    return (
        tournament.status == Status.SCHEDULED
        and confirmation_opens_at(tournament) <= now < tournament.starts_at
    )


def may_register(tournament: Tournament, user) -> bool:
    """Members of the club; anybody with an account when the tournament is open to all."""
    if not user.is_authenticated:
        return False
    return (
        tournament.open_to_all
        or Membership.objects.filter(club_id=tournament.club_id, user=user).exists()
    )


def register(tournament: Tournament, user, now: datetime.datetime | None = None) -> Registration:
    """Sign `user` up: a place while there are places, otherwise the waiting list."""
    now = _now(now)
    if not may_register(tournament, user):
        raise ServiceError(_("This tournament is for the club's members."))
    with transaction.atomic():
        tournament = _lock(tournament)
        if not registration_is_open(tournament, now):
            raise ServiceError(_("Registration for this tournament is closed."))
        registration = tournament.registrations.filter(user=user).first()
        at_the_door = tournament.registrations.filter(cancelled_at=None, player__user=user)
        if (registration is not None and registration.is_active) or at_the_door.exists():
            raise ServiceError(_("You are already registered."))
        placed = tournament.registrations.filter(cancelled_at=None, has_place=True).count()
        if registration is None:
            registration = Registration(tournament=tournament, user=user)
        # Signing up again after cancelling goes to the back of the queue.
        registration.registered_at = now
        registration.cancelled_at = None
        registration.confirmed_at = None
        registration.absent = False
        registration.has_place = placed < tournament.capacity
        registration.save()
    return registration


def _promote(tournament: Tournament) -> list[Registration]:
    """Give free places to the waiting list in order of registration (tournament locked)."""
    active = tournament.registrations.filter(cancelled_at=None)
    free = tournament.capacity - active.filter(has_place=True).count()
    promoted = list(active.filter(has_place=False, absent=False)[: max(free, 0)])
    for registration in promoted:
        registration.has_place = True
        registration.save(update_fields=["has_place"])
    return promoted


def cancel_registration(
    registration: Registration, now: datetime.datetime | None = None
) -> Registration:
    """Withdraw before the start; a freed place goes at once to the first one waiting, who
    still has to confirm like everybody else."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(registration.tournament)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if has_started(tournament, now):
            raise ServiceError(_("The tournament has started; it is too late to cancel."))
        if not registration.is_active:
            raise ServiceError(_("This registration is already cancelled."))
        registration.cancelled_at = now
        registration.has_place = False
        registration.confirmed_at = None
        registration.save(update_fields=["cancelled_at", "has_place", "confirmed_at"])
        _promote(tournament)
    return registration


def add_walk_in(
    tournament: Tournament,
    player: Player | None = None,
    name: str = "",
    now: datetime.datetime | None = None,
) -> Registration:
    """At the door, until the start: the organiser adds a roster player, or a new name to the
    roster; no account needed. He is here, so his presence is confirmed; he gets a free place,
    or waits like anybody registered after the places ran out."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(tournament)
        if has_started(tournament, now):
            raise ServiceError(_("The tournament has started: nobody more can join."))
        if player is None:
            player = core.add_player(club=tournament.club, name=name)
        elif player.club_id != tournament.club_id:
            raise ServiceError(_("Pick a player of the club's roster."), "player")
        active = tournament.registrations.filter(cancelled_at=None)
        if active.filter(Q(player=player) | Q(user__isnull=False, user_id=player.user_id)).exists():
            raise ServiceError(
                _("%(name)s is already registered.") % {"name": player.name}, "player"
            )
        placed = active.filter(has_place=True).count()
        registration, _created = Registration.objects.update_or_create(
            tournament=tournament,
            player=player,
            defaults={
                "user": None,
                "registered_at": now,
                "confirmed_at": now,
                "cancelled_at": None,
                "absent": False,
                "has_place": placed < tournament.capacity,
            },
        )
    return registration


def confirm_presence(
    registration: Registration, now: datetime.datetime | None = None
) -> Registration:
    """'I am here': from 15 minutes before the start until the start, placed or waiting."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(registration.tournament)
        registration = Registration.objects.select_for_update().get(pk=registration.pk)
        if not registration.is_active:
            raise ServiceError(_("This registration is cancelled."))
        if not confirmation_is_open(tournament, now):
            raise ServiceError(
                _("Presence can be confirmed from %(time)s until the start.")
                % {
                    "time": time_format(
                        timezone.localtime(confirmation_opens_at(tournament), tournament.tz)
                    )
                }
            )
        if registration.confirmed_at is None:
            registration.confirmed_at = now
            registration.save(update_fields=["confirmed_at"])
    return registration


def status_of(registration: Registration | None) -> str:
    """What the sign-up page tells a player about himself."""
    if registration is None or not registration.is_active:
        return "none"
    if registration.absent:
        return "absent"
    return "place" if registration.has_place else "waiting"


# --- The start ----------------------------------------------------------------------------


def start_tournament(
    tournament: Tournament, now: datetime.datetime | None = None, user=None
) -> Tournament:
    """What happens at the start (RULES.md §8): the unconfirmed lose their places, confirmed
    waiting players take the freed places in order of confirmation, and either round 1 is
    drawn or, with too few for one table, the tournament is cancelled and everybody emailed.

    An admin may start once the confirmation window is open; starting early moves the start
    to now, so the window closes for everyone at the same moment.
    """
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(tournament)
        if tournament.status != Status.SCHEDULED:
            raise ServiceError(_("This tournament has already started or was cancelled."))
        if now < confirmation_opens_at(tournament):
            raise ServiceError(_("The tournament can start once presence confirmation opens."))
        active = tournament.registrations.filter(cancelled_at=None)
        active.filter(has_place=True, confirmed_at=None).update(has_place=False, absent=True)
        free = tournament.capacity - active.filter(has_place=True).count()
        waiting = active.filter(has_place=False, absent=False).exclude(confirmed_at=None)
        for registration in waiting.order_by("confirmed_at", "id")[: max(free, 0)]:
            registration.has_place = True
            registration.save(update_fields=["has_place"])
        playing = list(active.filter(has_place=True).select_related("user"))
        tournament.started_at = now
        if len(playing) < tournament.table_size:
            _cancel(tournament, now)  # the email names the start the players were told
            return tournament
        tournament.starts_at = min(tournament.starts_at, now)
        for registration in playing:
            if registration.player_id is None:  # a walk-in has his player already
                registration.player = _player_for(tournament.club, registration.user)
                registration.save(update_fields=["player"])
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["starts_at", "started_at", "status"])
        if tournament.is_knockout:
            _draw_knockout_first(tournament, playing, now, user)
        else:
            _draw_swiss(tournament, 1, _random_order(tournament, 1, playing), now, user)
    return tournament


def _cancel(tournament: Tournament, now: datetime.datetime) -> None:
    tournament.status = Status.CANCELLED
    tournament.cancelled_at = now
    tournament.save(update_fields=["started_at", "status", "cancelled_at"])
    # A walk-in has no account and no address: he hears it at the door.
    registered = tournament.registrations.filter(cancelled_at=None).exclude(user=None)
    recipients = [r.user.email for r in registered.select_related("user") if r.user.email]
    start = tournament.local_start()
    subject = _("%(name)s is cancelled") % {"name": tournament.name}
    body = _(
        "The tournament %(name)s of %(club)s, due to start on %(date)s at %(time)s, is "
        "cancelled: too few players confirmed their presence to make up one table."
    ) % {
        "name": tournament.name,
        "club": tournament.club.name,
        "date": date_format(start, "SHORT_DATE_FORMAT"),
        "time": time_format(start),
    }

    # After the commit: a mail server that is down must not undo the cancellation.
    def send() -> None:
        for address in recipients:
            send_mail(subject, body, settings.DEFAULT_FROM_EMAIL, [address])

    transaction.on_commit(send, robust=True)


def _player_for(club, user) -> Player:
    """The user's linked player on the club's roster (restored when archived); a registrant
    without one gets a new player named after his account, linked to it. A roster name that
    is taken makes "Name 2", "Name 3", …: never a second player beside the linked one."""
    player = club.players.filter(user=user).first()
    if player is not None:
        if player.archived:
            player.archived = False
            player.save(update_fields=["archived"])
        return player
    name = " ".join(account_name(user).split())
    # Each candidate is fitted before it is checked: cut after the check, a long name that
    # starts like a roster name would become that name, and break the club's unique names.
    for suffix in _name_suffixes():
        candidate = _fit_player_name(name, suffix)
        if not club.players.filter(name__iexact=candidate).exists():
            return Player.objects.create(club=club, name=candidate, user=user)
    raise AssertionError("unreachable: the numbered suffixes never run out")


PLAYER_NAME_LENGTH = Player._meta.get_field("name").max_length


def _name_suffixes() -> Iterable[str]:
    """None, then 2, 3, …"""
    yield ""
    n = 2
    while True:
        yield f" {n}"
        n += 1


def _fit_player_name(name: str, suffix: str) -> str:
    """`name` + `suffix` in a roster name's length: the name gives way to the suffix."""
    return name[: PLAYER_NAME_LENGTH - len(suffix)].rstrip() + suffix


def process_due(now: datetime.datetime | None = None) -> list[tuple[Tournament, str]]:
    """The tick: start every tournament whose start has passed, and move every running one on
    (finish tables that have played their hands, draw the next rounds)."""
    now = _now(now)
    done = []
    for tournament in Tournament.objects.filter(status=Status.SCHEDULED, starts_at__lte=now):
        try:
            tournament = start_tournament(tournament, now)
        except ServiceError as exc:
            done.append((tournament, exc.message))
        else:
            done.append((tournament, tournament.get_status_display()))
    for tournament in Tournament.objects.filter(status=Status.RUNNING):
        if sync_tournament(tournament, now):
            done.append((tournament, _("tables finished")))
    return done


# --- The draw -----------------------------------------------------------------------------


def _rng(tournament: Tournament, number: int) -> random.Random:
    return random.Random(tournament.seed * 1000 + number)


def _random_order(tournament: Tournament, number: int, players: Iterable[Registration]):
    players = sorted(players, key=lambda r: r.pk)
    _rng(tournament, number).shuffle(players)
    return players


def _open_table(tournament, rnd, number, group, now, user, slot=None) -> Table:
    variant_id = family_variant(tournament.variant, len(group))
    session = core.start_session(
        club=tournament.club,
        variant_id=variant_id,
        preset=rules.get_variant(variant_id).default_preset,
        players=[r.player for r in group],
        user=user,
        date=timezone.localtime(now, tournament.tz).date(),
        confirmation=tournament.confirmation,
    )
    table = Table.objects.create(round=rnd, number=number, session=session)
    Placement.objects.bulk_create(
        Placement(round=rnd, table=table, registration=r, seat=seat, slot=slot)
        for seat, r in enumerate(group, start=1)
    )
    return table


def _draw_swiss(tournament, number: int, order: list[Registration], now, user) -> Round:
    """Seat `order` (best first) at tables in that order; the remainder either forms the last,
    smaller table or sits out with a bye. Byes go to the lowest who have not had one yet."""
    rnd = Round.objects.create(tournament=tournament, number=number, drawn_at=now)
    sizes, byes = table_sizes(tournament, len(order))
    order = list(order)
    sitting_out: list[Registration] = []
    if byes:
        had_bye = set(
            Placement.objects.filter(round__tournament=tournament, table=None).values_list(
                "registration_id", flat=True
            )
        )
        for registration in reversed(order):
            if len(sitting_out) < byes and registration.pk not in had_bye:
                sitting_out.append(registration)
        for registration in reversed(order):
            if len(sitting_out) < byes and registration not in sitting_out:
                sitting_out.append(registration)
        order = [r for r in order if r not in sitting_out]
    start = 0
    for table_number, size in enumerate(sizes, start=1):
        _open_table(tournament, rnd, table_number, order[start : start + size], now, user)
        start += size
    Placement.objects.bulk_create(
        Placement(round=rnd, table=None, registration=r) for r in sitting_out
    )
    return rnd


def swiss_order(tournament: Tournament, number: int) -> list[Registration]:
    """Players for round `number` > 1, best first: placement points, then total units, then a
    seeded random order (RULES.md §8)."""
    players = list(_players_with_totals(tournament))
    rng = _rng(tournament, number)
    draw = {r.pk: rng.random() for r in players}
    return sorted(players, key=lambda r: (-r.total_points, -r.total_units, draw[r.pk]))


def bracket_positions(size: int) -> list[int]:
    """Seeds in bracket order for a bracket of `size` (a power of two): 1, 8, 4, 5, 2, 7, 3, 6
    for 8, so seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) + 1 - seed)]
    return order


def _draw_knockout_first(tournament, players, now, user) -> Round:
    """Seeds in a seeded random order; when the count is not a power of two the first seeds
    have a bye (they go straight to round 2)."""
    seeds = _random_order(tournament, 1, players)
    size = 1
    while size < len(seeds):
        size *= 2
    positions = bracket_positions(size)
    rnd = Round.objects.create(tournament=tournament, number=1, drawn_at=now)
    table_number = 0
    for slot in range(size // 2):
        a, b = positions[2 * slot], positions[2 * slot + 1]
        group = [seeds[s - 1] for s in (a, b) if s <= len(seeds)]
        if len(group) == 2:
            table_number += 1
            _open_table(tournament, rnd, table_number, group, now, user, slot=slot)
        else:
            Placement.objects.create(
                round=rnd, table=None, registration=group[0], slot=slot, advanced=True
            )
    return rnd


def _draw_knockout_next(tournament, previous: Round, now, user) -> Round | None:
    winners = list(
        previous.placements.filter(advanced=True)
        .select_related("registration__player")
        .order_by("slot")
    )
    if len(winners) < 2:
        return None
    rnd = Round.objects.create(tournament=tournament, number=previous.number + 1, drawn_at=now)
    for slot in range(len(winners) // 2):
        group = [winners[2 * slot].registration, winners[2 * slot + 1].registration]
        _open_table(tournament, rnd, slot + 1, group, now, user, slot=slot)
    return rnd


# --- Tables and rounds --------------------------------------------------------------------


def hands_played(session: Session) -> int:
    """The table's deals: a redeal or an adjustment is no deal and does not count."""
    return (
        Hand.objects.filter(session=session, voided=False)
        .exclude(data__contract__in=NOT_DEALS)
        .count()
    )


def table_is_done(table: Table) -> bool:
    """The table has played the agreed number of hands; a knockout match also needs a winner,
    so a tie plays one more hand until it breaks."""
    if table.finished_at is not None:
        return True
    tournament = table.round.tournament
    if hands_played(table.session) < tournament.hands_per_table:
        return False
    if not confirmations.all_confirmed(table.session):  # required: the other side's word
        return False
    if tournament.is_knockout:
        totals = core.session_totals(table.session)
        seated = [seat.player_id for seat in table.session.seats.all()]
        values = [totals.get(pid, Decimal(0)) for pid in seated]
        return len(set(values)) == len(values)
    return True


def finish_table(table: Table, now: datetime.datetime | None = None, user=None) -> bool:
    """Record the table's placements from its session totals, close its session, and if it
    was the round's last table, complete the round. False when the table is not done yet."""
    now = _now(now)
    with transaction.atomic():
        tournament = _lock(table.round.tournament)
        table = Table.objects.select_related("round", "session").get(pk=table.pk)
        table.round.tournament = tournament
        if table.finished_at is not None or not table_is_done(table):
            return False
        session = table.session
        if not session.is_closed:
            core.close_session(session, user)
            session.refresh_from_db()
        totals = core.session_totals(session)
        placements = list(table.placements.select_related("registration"))
        by_player = {p.registration.player_id: p for p in placements}
        ranked = share_places(
            [(pid, totals.get(pid, Decimal(0))) for pid in by_player],
            points_for(tournament, len(placements)),
        )
        for pid, place, points in ranked:
            placement = by_player[pid]
            placement.place = place
            placement.units = cents(totals.get(pid, Decimal(0)), ROUND_HALF_UP)
            if tournament.is_knockout:
                placement.points = None
                placement.advanced = place == 1
            else:
                placement.points = points
            placement.save(update_fields=["place", "units", "points", "advanced"])
        table.finished_at = now
        table.save(update_fields=["finished_at"])
        _complete_round(tournament, table.round, now, user)
    return True


def _complete_round(tournament: Tournament, rnd: Round, now, user) -> None:
    if rnd.tables.filter(finished_at=None).exists():
        return
    seated = rnd.placements.exclude(table=None)
    if not tournament.is_knockout:
        agg = seated.aggregate(total=Sum("points"), n=Count("id"))
        rnd.bye_points = cents(agg["total"] / agg["n"], ROUND_HALF_UP) if agg["n"] else Decimal(0)
        rnd.placements.filter(table=None).update(points=rnd.bye_points, units=Decimal(0))
    rnd.finished_at = now
    rnd.save(update_fields=["bye_points", "finished_at"])
    if tournament.is_knockout:
        nxt = _draw_knockout_next(tournament, rnd, now, user)
    elif rnd.number < tournament.rounds:
        nxt = _draw_swiss(
            tournament, rnd.number + 1, swiss_order(tournament, rnd.number + 1), now, user
        )
    else:
        nxt = None
    if nxt is None:
        tournament.status = Status.FINISHED
        tournament.finished_at = now
        tournament.save(update_fields=["status", "finished_at"])


def sync_tournament(tournament: Tournament, now: datetime.datetime | None = None) -> bool:
    """Finish every table of a running tournament that has played its hands. True if any."""
    if tournament.status != Status.RUNNING:
        return False
    finished = False
    open_tables = Table.objects.filter(round__tournament=tournament, finished_at=None)
    for table in open_tables.select_related("round__tournament", "session"):
        if table_is_done(table):
            finished = finish_table(table, now) or finished
    return finished


def check_session(session_id: int) -> None:
    """After a hand is saved: if the session is a tournament table that is now done, finish it."""
    tables = Table.objects.filter(session_id=session_id, finished_at=None)
    if not tables.exists():  # most sessions are no tournament's: the cheapest query says so
        return
    table = tables.select_related("round__tournament", "session").first()
    if (
        table is not None
        and table.round.tournament.status == Status.RUNNING
        and table_is_done(table)
    ):
        finish_table(table)


# --- Standings ----------------------------------------------------------------------------


@dataclass
class Standing:
    rank: int
    registration: Registration
    points: Decimal
    units: Decimal
    best_place: int | None
    played: int
    # The running total at a table still in play, for the live standings; None elsewhere.
    at_table: Decimal | None = None


def _players_with_totals(tournament: Tournament):
    """The players who play, each with his placement points, units and best place so far."""
    return (
        tournament.registrations.filter(cancelled_at=None, has_place=True)
        .exclude(player=None)
        .select_related("player", "user")
        .annotate(
            total_points=Sum("placements__points", default=Decimal(0)),
            total_units=Sum("placements__units", default=Decimal(0)),
            best=Min("placements__place"),
            played=Count("placements", filter=Q(placements__place__isnull=False)),
        )
        .order_by("pk")
    )


def standings(tournament: Tournament) -> list[Standing]:
    """Swiss standing from the finished tables: placement points, then total units, then the
    best table placing. Players equal on all three share the rank. Players at a table still
    in play also get its running total (`at_table`), which does not count yet."""
    live = dict(
        Entry.objects.filter(
            hand__session__tournament_table__round__tournament=tournament,
            hand__session__tournament_table__finished_at=None,
            hand__voided=False,
        )
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    big = 10**6
    key = lambda r: (-r.total_points, -r.total_units, r.best or big)  # noqa: E731
    ordered = sorted(
        _players_with_totals(tournament), key=lambda r: (*key(r), r.player.name.lower())
    )
    result: list[Standing] = []
    for i, r in enumerate(ordered):
        rank = result[-1].rank if result and key(ordered[i - 1]) == key(r) else i + 1
        result.append(
            Standing(
                rank,
                r,
                r.total_points,
                r.total_units,
                r.best,
                r.played,
                live.get(r.player_id),
            )
        )
    return result


@dataclass
class Match:
    slot: int
    placements: list[Placement]
    table: Table | None

    @property
    def is_bye(self) -> bool:
        return self.table is None

    @property
    def winner(self) -> Placement | None:
        return next((p for p in self.placements if p.advanced), None)


def bracket(tournament: Tournament) -> list[tuple[Round, list[Match]]]:
    result = []
    for rnd in tournament.round_set.all():
        matches: dict[int, Match] = {}
        for p in rnd.placements.select_related("registration__player", "table__session").order_by(
            "slot", "seat"
        ):
            match = matches.setdefault(p.slot, Match(p.slot, [], p.table))
            match.placements.append(p)
        result.append((rnd, [matches[k] for k in sorted(matches)]))
    return result


def knockout_ranking(tournament: Tournament) -> list[tuple[int, Registration, int]]:
    """(rank, registration, rounds reached): the winner first; the losers of each round share
    the rank after everybody who went further."""
    last_round = {}
    placements = Placement.objects.filter(round__tournament=tournament).select_related(
        "round", "registration__player"
    )
    for p in placements.order_by("round__number"):
        reached = p.round.number + (1 if p.advanced else 0)
        last_round[p.registration.pk] = (reached, p.registration)
    ordered = sorted(last_round.values(), key=lambda v: (-v[0], sort_key(v[1].player.name)))
    result = []
    for i, (reached, registration) in enumerate(ordered):
        rank = result[-1][0] if result and result[-1][2] == reached else i + 1
        result.append((rank, registration, reached))
    return result


@dataclass
class DrawnTable:
    table: Table
    placements: list[Placement]
    hands_played: int


def draw(tournament: Tournament) -> list[tuple[Round, list[DrawnTable], list[Placement]]]:
    """Every round, latest first: its tables with their players and hands so far, and byes."""
    played = dict(
        Hand.objects.filter(session__tournament_table__round__tournament=tournament, voided=False)
        .exclude(data__contract__in=NOT_DEALS)
        .values_list("session_id")
        .annotate(n=Count("id"))
    )
    placements = Prefetch(
        "placements",
        queryset=Placement.objects.select_related("registration__player").order_by("seat"),
    )
    rounds = tournament.round_set.order_by("-number").prefetch_related(
        Prefetch("tables", queryset=Table.objects.prefetch_related(placements)), placements
    )
    return [
        (
            rnd,
            [
                DrawnTable(t, list(t.placements.all()), played.get(t.session_id, 0))
                for t in rnd.tables.all()
            ],
            [p for p in rnd.placements.all() if p.table_id is None],
        )
        for rnd in rounds
    ]


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def last_round_number(tournament: Tournament) -> int:
    return tournament.round_set.aggregate(n=Max("number"))["n"] or 0
