"""A club's tournaments at real tables (RULES.md §8). Every table is a scorebook Session.

The rules live in services/ (a module per job); these models only hold what happened: who
registered, who got a place and confirmed, the rounds as drawn, and each player's placement at
each table.
"""

from __future__ import annotations

import random
import zoneinfo
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.conf import settings
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scorebook.models import Club, Confirmation, HouseRules, Player, Session, account_name
from scorebook.variants import variant_label


def new_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)


class Status(models.TextChoices):
    SCHEDULED = "scheduled", _("open for registration")
    RUNNING = "running", _("in play")
    FINISHED = "finished", _("finished")
    CANCELLED = "cancelled", _("cancelled")


class DrawMode(models.TextChoices):
    """How later rounds are seated (RULES.md §8.3); round 1 of `swiss` is drawn at random."""

    SWISS = "swiss", _("Swiss: best with best")
    RANDOM = "random", _("at random every round")
    GROUPS = "groups", _("groups by a ranking, then Swiss")


class RankingMode(models.TextChoices):
    """What a tournament ranks by (RULES.md §8.4)."""

    PLACEMENT = "placement", _("placement points")
    SHEET = "sheet", _("sheet sum")
    SHEET_RANK = "sheet+rank", _("sheet sum plus rank points")


class SamePhone(models.TextChoices):
    """Whether a player may confirm a hand on the phone that recorded it (issue 27)."""

    ALLOWED = "allowed", _("allowed")
    PIN = "pin", _("with the player's four-digit PIN")
    REFUSED = "refused", _("refused: each player confirms on his own phone")


class Tournament(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(_("name"), max_length=100)
    # The variant of a full table; a smaller last table plays the same family's smaller form.
    variant = models.CharField(_("game"), max_length=40)
    table_size = models.PositiveSmallIntegerField(_("players per table"))
    starts_at = models.DateTimeField(_("starts at"))
    hands_per_table = models.PositiveSmallIntegerField(_("hands per table in a round"), default=8)
    rounds = models.PositiveSmallIntegerField(_("rounds"), default=3)
    capacity = models.PositiveSmallIntegerField(_("places"))
    # When members can no longer register; None: at the start. Walk-ins are added until the start.
    registration_closes_at = models.DateTimeField(_("registration closes"), null=True, blank=True)
    open_to_all = models.BooleanField(
        _("open to any registered user"),
        default=False,
        help_text=_("Otherwise only members of the club can register."),
    )
    # Points for 1st, 2nd, … at a full table (halves allowed); a smaller table takes the first
    # places' points. Empty means "n − place": n−1, …, 0 at a table of n (RULES.md §8).
    placement_points = models.JSONField(_("placement points"), default=list, blank=True)
    # The rules every table plays (RULES.md §8.1): a preset, or one of the club's house-rules
    # sets (its preset and overrides are copied into `rules` at the start, so a set changed
    # during the day changes no table). Empty preset and no set: the variant's default preset.
    preset = models.CharField(_("rules"), max_length=40, blank=True, default="")
    house_rules = models.ForeignKey(
        HouseRules, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # Frozen at the start: {"preset": …, "overrides": {…}, "name": …}.
    rules = models.JSONField(default=dict, blank=True)
    # Another number of hands for tables of another size: {"5": 20} (RULES.md §8.2).
    hands_by_size = models.JSONField(default=dict, blank=True)
    # A round by the clock instead of by hands; None: by hands.
    round_minutes = models.PositiveSmallIntegerField(_("minutes per round"), null=True, blank=True)
    grace_minutes = models.PositiveSmallIntegerField(_("minutes of grace"), default=5)
    draw_mode = models.CharField(
        _("draw"), max_length=10, choices=DrawMode.choices, default=DrawMode.SWISS
    )
    # The ranking `groups` and a knockout's seeds follow (RULES.md §8.3, §8.5): "" the order
    # of registration, else an order another app registers (scorebook.tournaments.orders:
    # the series' standing or rating), so no choices here.
    draw_order = models.CharField(_("ranked by"), max_length=20, blank=True, default="")
    ranking_mode = models.CharField(
        _("ranking"), max_length=12, choices=RankingMode.choices, default=RankingMode.PLACEMENT
    )
    # sheet+rank: rank points of 1st … last at a full table, shared on ties.
    rank_points = models.JSONField(_("rank points"), default=list, blank=True)
    # Off (Austrian cups): the ranking reads each sheet re-scored with every contra at 0.
    contras_count = models.BooleanField(_("contras count in the ranking"), default=True)
    # Players per team (2, 3 or 4); None: no teams.
    team_size = models.PositiveSmallIntegerField(_("players per team"), null=True, blank=True)
    # Every table's hands confirmed by the other side before its round ends (issue 27);
    # tournaments made before it were created without, and keep off (migration 0004).
    confirmation = models.CharField(
        _("confirmation of hands"),
        max_length=10,
        choices=Confirmation.choices,
        default=Confirmation.REQUIRED,
    )
    same_phone = models.CharField(
        _("confirming on the recording phone"),
        max_length=10,
        choices=SamePhone.choices,
        default=SamePhone.ALLOWED,
    )
    seed = models.BigIntegerField(_("draw seed"), default=new_seed)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.SCHEDULED)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at", "-id"]
        constraints = [
            # Any game's one table size (French 5 seats five); rules/ knows which exist.
            models.CheckConstraint(
                condition=models.Q(table_size__gte=2), name="tournament_table_size_at_least_2"
            ),
            models.CheckConstraint(condition=models.Q(capacity__gte=2), name="tournament_capacity"),
        ]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    @property
    def is_knockout(self) -> bool:
        return self.table_size == 2

    @property
    def is_timed(self) -> bool:
        return self.round_minutes is not None

    def hands_for(self, size: int) -> int:
        """The hands a table of `size` plays in a round (RULES.md §8.2)."""
        return int(self.hands_by_size.get(str(size), self.hands_per_table))

    @property
    def variant_label(self) -> str:
        """The game of a full table in the reader's words (scorebook.variants)."""
        return variant_label(self.variant)

    @property
    def tz(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.club.time_zone)

    def local_start(self):
        return self.starts_at.astimezone(self.tz)


class Team(models.Model):
    """Teammates registered together under a team name (RULES.md §8.1); seated apart."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=60)

    class Meta:
        ordering = ["tournament", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_unique_name")
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="registrations"
    )
    # None for a walk-in: the organiser added a roster player at the door, no account needed.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="tournament_entries",
    )
    # The roster player who sits at the tables: a walk-in's from the start, a member's found or
    # added when the tournament starts.
    player = models.ForeignKey(
        Player, on_delete=models.RESTRICT, null=True, blank=True, related_name="+"
    )
    registered_at = models.DateTimeField()
    has_place = models.BooleanField(default=False)
    confirmed_at = models.DateTimeField(null=True, blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    # Set at the start for a player with a place who had not confirmed.
    absent = models.BooleanField(default=False)
    team = models.ForeignKey(
        Team, on_delete=models.SET_NULL, null=True, blank=True, related_name="members"
    )
    # Between rounds (RULES.md §8.2): not seated again after `withdrawn_after` (the round
    # number he played last); he ranks on the rounds he played, marked withdrawn.
    withdrawn_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after = models.PositiveSmallIntegerField(null=True, blank=True)
    # A substitute seated in the withdrawn player's place: in a team tournament his results
    # count for that player's team.
    substitute_for = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="substitute"
    )

    class Meta:
        ordering = ["registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="registration_unique_tournament_user"
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"], name="registration_unique_tournament_player"
            ),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | models.Q(player__isnull=False),
                name="registration_user_or_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} @ {self.tournament}"

    @property
    def is_walk_in(self) -> bool:
        return self.user_id is None

    @property
    def is_active(self) -> bool:
        return self.cancelled_at is None

    @property
    def is_withdrawn(self) -> bool:
        return self.withdrawn_at is not None

    @property
    def name(self) -> str:
        if self.player_id:
            return self.player.name
        return account_name(self.user)


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="round_set")
    number = models.PositiveSmallIntegerField()
    drawn_at = models.DateTimeField()
    finished_at = models.DateTimeField(null=True, blank=True)
    # What a bye is worth: the round's average placement points, known once it finishes.
    bye_points = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.tournament} R{self.number}"


class Table(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField()
    # RESTRICT: a table's sheet cannot be deleted alone, but deleting the club takes both.
    session = models.OneToOneField(
        Session, on_delete=models.RESTRICT, related_name="tournament_table"
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    # A timed round: when the table's minutes are up (more minutes move it on).
    ends_at = models.DateTimeField(null=True, blank=True)
    # Ended by a tap: the director's (early, or after its time) or, once its time is up, its
    # scorer's "round over"; its hands so far count.
    ended_by_tap = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.round} T{self.number}"

    @property
    def name(self) -> str:
        """ "Advent cup · round 2 · table 3" in the reader's language: kept as numbers, said
        when read, so a French member reads the table of a Slovenian organiser in French."""
        where = gettext(" · round %(round)d · table %(table)d") % {
            "round": self.round.number,
            "table": self.number,
        }
        return self.round.tournament.name + where


class Placement(models.Model):
    """One player in one round: his seat at a table (or a bye), and once it ends his result."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="placements")
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="placements"
    )
    registration = models.ForeignKey(
        Registration, on_delete=models.CASCADE, related_name="placements"
    )
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Knockout: the match's place in the bracket (0, 1, …); winners of 2k and 2k+1 meet next.
    slot = models.PositiveSmallIntegerField(null=True, blank=True)
    # 1 = best; tied players all get the best place they cover. None for a bye.
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    units = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    # Knockout: this player goes on to the next round.
    advanced = models.BooleanField(default=False)
    # His sum on the table's sheet, with every contra at 0 when the tournament's contras do
    # not count (RULES.md §8.4); the session's own sheet keeps them. None for a bye.
    ranked_sum = models.DecimalField(max_digits=12, decimal_places=2, null=True, blank=True)
    # What the ranking mode scores for this round, exact ("7/6"): placement points, the sum,
    # or the sum plus rank points; a bye's mean of the round's seated players.
    score = models.CharField(max_length=40, blank=True, default="")

    class Meta:
        ordering = ["round", "table", "seat"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "registration"], name="placement_unique_round_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.round} {self.registration}"

    @property
    def is_bye(self) -> bool:
        return self.table_id is None

    @property
    def shown_score(self) -> Decimal | None:
        """The exact score to the hundredth, half up, as the pages show it."""
        if not self.score:
            return None
        exact = Fraction(self.score)
        return (Decimal(exact.numerator) / Decimal(exact.denominator)).quantize(
            Decimal("0.01"), ROUND_HALF_UP
        )


class Answer(models.TextChoices):
    """The organiser's answer to a knockout match whose previous match changed its winner
    after it began (RULES.md §8.2)."""

    REPLAY = "replay", _("replay the match")
    KEEP = "keep", _("keep the result")


class Event(models.Model):
    """The tournament's history: what the organiser did and what changed after a round
    (RULES.md §8.2). Stored as a kind and numbers, said in each reader's language."""

    class Kind(models.TextChoices):
        CORRECTED = "corrected", _("a table's result corrected")
        KNOCKOUT_REDRAWN = "redrawn", _("a match redrawn")
        KNOCKOUT_DECIDE = "decide", _("a match to decide")
        KNOCKOUT_REPLAYED = "replayed", _("a match replayed")
        KNOCKOUT_KEPT = "kept", _("a match kept as played")
        ENDED = "ended", _("a table ended by the organiser")
        MORE_MINUTES = "minutes", _("more minutes for a table")
        RESEATED = "reseated", _("a table reseated")
        WITHDRAWN = "withdrawn", _("a player withdrawn")
        SUBSTITUTE = "substitute", _("a substitute seated")
        PRESENCE = "presence", _("presence confirmed by the organiser")
        PRESENCE_UNDONE = "presence_undone", _("presence undone by the organiser")
        LATE_HAND = "late", _("a hand after the time refused")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")
    at = models.DateTimeField()
    kind = models.CharField(max_length=20, choices=Kind.choices)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    table_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # The players it concerns (their registrations), named when read.
    registrations = models.ManyToManyField(Registration, blank=True, related_name="+")
    minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    # Shown on the organiser's screen until he has seen it (corrections, matches to decide).
    seen = models.BooleanField(default=True)
    # A match to decide: the organiser's answer; blank while it waits on his screen.
    answer = models.CharField(max_length=10, choices=Answer.choices, blank=True, default="")
    # A replayed match: its sheet as first played (closed, its hands voided), linked from the
    # history line, as it is no table's any more.
    sheet = models.ForeignKey(
        "scorebook.Session", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.tournament} {self.kind} {self.at:%Y-%m-%d %H:%M}"


class Message(models.Model):
    """The organiser's message to every player: a banner on each player's tournament pages
    until he dismisses it, and an e-mail to those with an address."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="messages")
    text = models.TextField(_("message"), max_length=500)
    sent_at = models.DateTimeField()
    sent_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    dismissed_by = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="+")

    class Meta:
        ordering = ["-sent_at", "-id"]

    def __str__(self) -> str:
        return self.text[:40]
