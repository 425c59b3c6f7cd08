"""The club's data. Totals are database sums over Entry; see services.py for who writes what."""

import datetime
import uuid
import zoneinfo
from collections.abc import Iterable
from functools import cached_property

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist, ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from rules import labels
from scorebook.variants import variant_label


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(_("%(value)s is not a known time zone."), params={"value": value})


# Room for a code with its region ("de-at"), should LANGUAGES ever list one.
LANGUAGE_MAX_LENGTH = 10


class Confirmation(models.TextChoices):
    """Whether the other side says "yes" to each hand (scorebook.confirmations): a club's
    choice for its sessions, a tournament's for its tables, frozen by a session as it starts."""

    OFF = "off", _("off: a hand counts as it is recorded")
    ASKED = "asked", _("asked: a hand shows as unconfirmed until the other side confirms it")
    REQUIRED = (
        "required",
        _("required: a session closes only when the other side has confirmed every hand"),
    )


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(_("short name in addresses"), max_length=50, unique=True)
    time_zone = models.CharField(
        _("time zone"), max_length=64, default="Europe/Ljubljana", validators=[validate_time_zone]
    )
    # What its pages speak to a member who chose no language of his own (scorebook.language).
    language = models.CharField(
        _("language"), max_length=LANGUAGE_MAX_LENGTH, choices=settings.LANGUAGES, default="en"
    )
    confirmation = models.CharField(
        _("confirmation of hands"),
        max_length=10,
        choices=Confirmation.choices,
        default=Confirmation.OFF,
        help_text=_("For the sessions started from now on; a tournament has its own."),
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # What the club shows the world (scorebook.public): off until its admins switch it on,
    # each part on its own.
    publish_club = models.BooleanField(_("publish the club's page"), default=False)
    publish_sessions = models.BooleanField(_("publish closed sessions"), default=False)
    publish_league = models.BooleanField(_("publish the league"), default=False)
    publish_tournaments = models.BooleanField(_("publish tournaments"), default=False)
    publish_series = models.BooleanField(_("publish series and rating lists"), default=False)
    plays_where = models.CharField(_("where the club plays"), max_length=200, blank=True)
    plays_when = models.CharField(_("when the club plays"), max_length=200, blank=True)
    description = models.CharField(_("short description"), max_length=500, blank=True)
    # The sites allowed to frame the embeddable standings, one origin a line (CSP
    # frame-ancestors); empty: none.
    frame_sites = models.TextField(_("sites allowed to embed the standings"), blank=True)
    # When anything its public pages show last changed: saved here, and moved on by
    # scorebook.public.signals, so that a public page's revalidation costs one query.
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")

    def __str__(self) -> str:
        return self.name


class Role(models.TextChoices):
    # Ordered from least to most: a role may do everything the roles before it may.
    VIEWER = "viewer", _("viewer")
    SCOREKEEPER = "scorekeeper", _("scorekeeper")
    ADMIN = "admin", _("admin")


ROLE_RANK = {Role.VIEWER: 1, Role.SCOREKEEPER: 2, Role.ADMIN: 3}


class Membership(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(_("role"), max_length=20, choices=Role.choices, default=Role.VIEWER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "club"], name="membership_unique_user_club")
        ]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")

    def __str__(self) -> str:
        return f"{self.user} @ {self.club} ({self.role})"

    def has_role(self, role: str) -> bool:
        return ROLE_RANK[Role(self.role)] >= ROLE_RANK[Role(role)]


def account_name(user) -> str:
    """How an account is named on the club's pages: its full name, else its username."""
    return user.get_full_name() or user.get_username()


class Profile(models.Model):
    """What a person chose for himself, whatever club's page he is on."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    # Blank: no choice made; the language cookie, the club's or the browser's speaks instead.
    language = models.CharField(
        _("language"), max_length=LANGUAGE_MAX_LENGTH, choices=settings.LANGUAGES, blank=True
    )
    # The four digits that confirm a hand on another player's phone where a tournament asks
    # for them, hashed as a password is (blank: none set).
    confirmation_pin = models.CharField(max_length=128, blank=True)
    # Wrong PINs in a row, and until when the PIN is refused after too many: four digits
    # are 10,000 guesses, so a phone at the table gets a few (scorebook.confirmations).
    wrong_pins = models.PositiveSmallIntegerField(_("wrong PINs in a row"), default=0)
    pin_refused_until = models.DateTimeField(_("PIN refused until"), null=True, blank=True)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)


class Invitation(models.Model):
    """The record that a club's invitation created this account (scorebook.invitations).

    Only such an account, while it has never had a usable password, gets an invitation link:
    a club admin never sets the password of an account somebody else made.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitation"
    )
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="invitations")
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when the link set the password: from then on the link is spent for good.
    accepted_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.user} @ {self.club}"


class PlayerQuerySet(models.QuerySet):
    def with_played(self) -> "PlayerQuerySet":
        """Each player with `played`: whether he ever sat at a table or has an entry, in the
        one query (a player who has played is archived, never deleted)."""
        return self.annotate(played=_played())


def _played() -> models.Expression:
    played = models.Exists(Entry.objects.filter(player=models.OuterRef("pk"))) | models.Exists(
        SessionSeat.objects.filter(player=models.OuterRef("pk"))
    )
    return models.ExpressionWrapper(played, output_field=models.BooleanField())


class Player(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=60)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    # A member who said "this is me": an admin confirms (it becomes `user`) or refuses.
    claimed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="player_claims",
    )
    archived = models.BooleanField(_("archived"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Who renamed a player and when: his hands follow the new name without a change of their own.
    history = HistoricalRecords()

    objects = PlayerQuerySet.as_manager()

    class Meta:
        ordering = ["archived", Lower("name")]
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="player_unique_name_per_club_ci"),
            # One account plays as one player of a club: his tables and ratings stay together.
            models.UniqueConstraint(
                fields=["club", "user"],
                condition=models.Q(user__isnull=False),
                name="player_unique_user_per_club",
            ),
        ]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.name

    def has_hands(self) -> bool:
        return Player.objects.with_played().filter(pk=self.pk, played=True).exists()


class Season(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"), null=True, blank=True)

    class Meta:
        ordering = ["-starts_on"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__isnull=True)
                | models.Q(ends_on__gte=models.F("starts_on")),
                name="season_ends_after_start",
            )
        ]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")

    def __str__(self) -> str:
        return self.name


def covering_season(seasons: Iterable[Season], date: datetime.date) -> Season | None:
    """The season of `seasons` whose days cover `date` (the latest to start, should seasons
    saved before overlaps were refused still overlap)."""
    covering = [
        s for s in seasons if s.starts_on <= date and (s.ends_on is None or date <= s.ends_on)
    ]
    return max(covering, key=lambda s: s.starts_on, default=None)


def season_on(club: Club, date: datetime.date) -> Season | None:
    """The club's season that covers `date`: the one a session of that day is filed in."""
    return covering_season(club.seasons.all(), date)


MAX_HOUSE_RULES_NAME = 60  # a sheet's `house_rules` (rules.reader.MAX_HOUSE_RULES)


def preset_label(preset: str) -> str:
    """A preset in the reader's words: "Tarok zveza Slovenije (TARZS)", "standard rules"."""
    return str(labels.PRESETS.get(preset, preset))


class HouseRules(models.Model):
    """A club's own rules for a variant: a preset and the switches it overrides (RULES.md §10).

    A session freezes the rules they resolve to when it starts, and keeps their name: changing
    or deleting a set never changes a session (scorebook.house_rules)."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="house_rules")
    variant = models.CharField(_("variant"), max_length=40)
    name = models.CharField(_("name"), max_length=MAX_HOUSE_RULES_NAME)
    preset = models.CharField(_("preset"), max_length=40)
    overrides = models.JSONField(_("overrides"), default=dict, blank=True)
    is_default = models.BooleanField(_("the club's default"), default=False)
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["variant", Lower("name")]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "club", "variant", name="house_rules_unique_name_ci"
            ),
            models.UniqueConstraint(
                fields=["club", "variant"],
                condition=models.Q(is_default=True),
                name="house_rules_one_default",
            ),
        ]
        verbose_name = _("house rules")
        verbose_name_plural = _("house rules")

    def __str__(self) -> str:
        return self.name

    @property
    def preset_label(self) -> str:
        return preset_label(self.preset)


# The largest id a row of ours can have: a bigger number in an address or a form is no row,
# and would overflow the lookup (an integer column on PostgreSQL).
LARGEST_ID = 2**31 - 1

# What a session's name needs when it is a tournament's table: select_related with it.
WITH_TABLE = "tournament_table__round__tournament"


class Session(models.Model):
    """One table on one evening. `rules` is frozen from rules.resolve_rules when it starts."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="sessions")
    season = models.ForeignKey(
        Season, on_delete=models.SET_NULL, null=True, blank=True, related_name="sessions"
    )
    variant = models.CharField(_("variant"), max_length=40)
    rules = models.JSONField(_("rules"), default=dict)
    # The name of the club's house rules it started with (or an imported sheet's): shown with
    # the rules, never read to score them.
    house_rules_name = models.CharField(
        _("house rules"), max_length=MAX_HOUSE_RULES_NAME, blank=True, default=""
    )
    date = models.DateField(_("date"))
    table_label = models.CharField(_("table"), max_length=40, blank=True)
    notes = models.TextField(_("notes"), blank=True)
    is_closed = models.BooleanField(_("closed"), default=False)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    # The club's (a tournament's) choice when the session started: a later change of the
    # club's setting asks nothing new of the hands already at a table.
    confirmation = models.CharField(
        _("confirmation of hands"),
        max_length=10,
        choices=Confirmation.choices,
        default=Confirmation.OFF,
    )
    # Set when the session closes: the closing lines (radelc penalties), totals and settlement.
    closing = models.JSONField(_("closing"), default=dict, blank=True, encoder=DjangoJSONEncoder)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    history = HistoricalRecords()

    class Meta:
        ordering = ["-date", "-id"]
        verbose_name = _("session")
        verbose_name_plural = _("sessions")

    def __str__(self) -> str:
        return f"{self.date} {self.variant} {self.table_label}".strip()

    @property
    def preset(self) -> str:
        return str(self.rules.get("preset", ""))

    @property
    def table_name(self) -> str:
        """The table in the reader's words: a tournament's table is said from its numbers
        ("Advent cup · round 2 · table 3", in each reader's language), another as typed. Lists
        read the tournament with the session (`WITH_TABLE`)."""
        try:
            return self.tournament_table.name
        except ObjectDoesNotExist:
            return self.table_label

    @property
    def variant_label(self) -> str:
        """The game in the reader's words: "Slovenski tarok, 3 igralci", never its id."""
        return variant_label(self.variant)

    @property
    def preset_label(self) -> str:
        return preset_label(self.preset)

    def seated_players(self) -> list["Player"]:
        return [seat.player for seat in self.seats.select_related("player").order_by("position")]

    @cached_property
    def seat_names(self) -> dict[str, int]:
        """The seated players' names in seat order, each with his player id: one light query,
        kept with the instance (seats never change once a session has started)."""
        return dict(self.seats.order_by("position").values_list("player__name", "player_id"))


# RESTRICT, not PROTECT: a player with hands cannot be deleted alone (archive him instead),
# but deleting a whole club or session takes its seats and entries with it.
class SessionSeat(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="seats")
    position = models.PositiveSmallIntegerField(_("seat"))

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "position"], name="seat_unique_session_position"
            ),
            models.UniqueConstraint(
                fields=["session", "player"], name="seat_unique_session_player"
            ),
            models.CheckConstraint(
                condition=models.Q(position__gte=1), name="seat_position_from_1"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.position}: {self.player}"


class Hand(models.Model):
    """One hand as entered (HANDS.md format) plus the rules version that scored it."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField(_("number"))
    data = models.JSONField(_("hand"))
    rules_version = models.CharField(_("rules version"), max_length=40)
    client_id = models.UUIDField(_("client id"), unique=True, default=uuid.uuid4)
    # The phone that recorded it (an id its browser keeps; blank without JavaScript): a hand
    # just recorded by another phone with the same score is asked about before it is stored.
    device = models.CharField(_("device"), max_length=36, blank=True)
    version = models.PositiveIntegerField(default=1)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now=True)
    voided = models.BooleanField(_("voided"), default=False)
    void_reason = models.CharField(_("reason"), max_length=200, blank=True)
    # The hand's row of the sheet as the engine scored it, and the running state after it
    # (scorebook.sheets.row_score): derived from `data` and the rows before, so kept out of
    # the history, like the entries.
    score = models.JSONField(_("score"), default=dict, blank=True)
    history = HistoricalRecords(excluded_fields=["score"])
    # Set by record_hand on the stored hand it answers a repeat of a client_id with; never stored.
    repeat = False

    class Meta:
        ordering = ["session", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["session", "number"], name="hand_unique_session_number"
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="hand_number_from_1"),
        ]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return f"{self.session} #{self.number}"


class Entry(models.Model):
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.RESTRICT, related_name="entries")
    amount = models.DecimalField(_("amount"), max_digits=12, decimal_places=2)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="entry_unique_hand_player")
        ]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")

    def __str__(self) -> str:
        return f"{self.hand}: {self.player} {self.amount}"


class HandConfirmation(models.Model):
    """One player's word on one version of a hand: confirmed, disputed, or (an admin) accepted
    as recorded. Never changed: a newer version of the hand (an edit, a void) simply has no
    word yet, so the rows of older versions are the history of who said what and when."""

    class State(models.TextChoices):
        CONFIRMED = "confirmed", _("confirmed")
        DISPUTED = "disputed", _("disputed")
        RESOLVED = "resolved", _("accepted as recorded")

    class How(models.TextChoices):
        SAME_PHONE = "same-phone", _("at the table")
        OWN_PHONE = "own-phone", _("own phone")
        ADMIN = "admin", _("admin")

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="confirmations")
    hand_version = models.PositiveIntegerField()
    state = models.CharField(max_length=10, choices=State.choices)
    # The player whose word it is; None for an admin's who plays at no seat of the table.
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The account that tapped it: the player's own, or the phone's at the table.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    how = models.CharField(max_length=10, choices=How.choices)
    device = models.CharField(max_length=36, blank=True)
    # The id the phone gave the word as it was said (a word kept in its outbox, sent later):
    # a second send of it finds this row and stores nothing new. None for a plain form's.
    client_id = models.UUIDField(null=True, blank=True, unique=True)
    # Set by confirmations.say on the stored word it answers a repeat of a client_id with.
    repeat = False
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    at = models.DateTimeField(default=timezone.now)
    history = HistoricalRecords()

    class Meta:
        ordering = ["hand", "pk"]
        indexes = [models.Index(fields=["hand", "hand_version"], name="confirmation_hand_version")]
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")

    def __str__(self) -> str:
        return f"{self.hand} v{self.hand_version}: {self.state}"
