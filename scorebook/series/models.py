"""Series (cups) and the TARZS rating (RULES.md §8.6, §8.7): what the series' admins decide,
which tournaments joined, who was matched, and what the last computation found.

Entered by people: Series, SeriesSeason, SeriesTournament, PlayerMatch, ImportedRating.
Computed (scorebook.series.services.recompute, thrown away and written again): StandingRow,
SeasonRating of an open season, TournamentRating, SeriesTournament.rating, SeriesChange. A
closed season's SeasonRating rows are frozen: the next season starts from them.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _

from scorebook.models import Club, Player
from scorebook.series import standing, tarzs
from scorebook.series.exact import exact
from scorebook.tournaments.models import Tournament

# Ratings as stored: ten decimals (RULES.md §8.7), room for any rating a cap allows.
RATING = {"max_digits": 20, "decimal_places": 10}


def shown(rating):
    """A stored rating as the pages show it: one decimal, half up; None stays None."""
    return None if rating is None else tarzs.shown(exact(rating))


class PointsPreset(models.TextChoices):
    CUP = standing.CUP, _("25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1")
    N_MINUS_PLACE = standing.N_MINUS_PLACE, _("players ranked − place + 1")
    OWN = standing.OWN, _("our own points")


class Series(models.Model):
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="series")
    name = models.CharField(_("name"), max_length=100)
    # Fixed when the series is made: a tournament is in one standing and one rated series.
    rated = models.BooleanField(_("TARZS rating"), default=False)
    points_preset = models.CharField(
        _("points table"), max_length=20, choices=PointsPreset.choices, default=PointsPreset.CUP
    )
    # The club's own list, 1st place first, each a decimal number as text (exact).
    own_points = models.JSONField(_("own points"), default=list, blank=True)
    open_to_other_clubs = models.BooleanField(
        _("other clubs may ask to add their tournaments"), default=False
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = [Lower("name"), "id"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "club", name="series_unique_name_per_club_ci")
        ]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self) -> str:
        return self.name


class SeriesSeason(models.Model):
    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=100)
    starts_on = models.DateField(_("starts on"))
    ends_on = models.DateField(_("ends on"))
    best_n = models.PositiveSmallIntegerField(
        _("results counted"),
        null=True,
        blank=True,
        help_text=_("Each player's best results count; leave empty to count them all."),
    )
    closed_at = models.DateTimeField(_("closed"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        ordering = ["starts_on", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_on__gte=models.F("starts_on")),
                name="series_season_ends_after_start",
            ),
            models.CheckConstraint(
                condition=models.Q(best_n__isnull=True) | models.Q(best_n__gte=1),
                name="series_season_best_n_from_1",
            ),
            models.UniqueConstraint(Lower("name"), "series", name="series_season_unique_name_ci"),
        ]
        verbose_name = _("series season")
        verbose_name_plural = _("series seasons")

    def __str__(self) -> str:
        return f"{self.series} {self.name}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None


class EntryState(models.TextChoices):
    ASKED = "asked", _("asked by the tournament's club")
    INVITED = "invited", _("invited by the series")
    JOINED = "joined", _("in the series")


class SeriesTournament(models.Model):
    """A tournament in a season of a series: asked for, invited, or in."""

    season = models.ForeignKey(SeriesSeason, on_delete=models.CASCADE, related_name="entries")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="series_entries"
    )
    # The series' `rated`, kept here for the rule below: one standing and one rated series.
    rated = models.BooleanField()
    state = models.CharField(max_length=10, choices=EntryState.choices)
    factor = models.DecimalField(_("factor"), max_digits=6, decimal_places=2, default=1)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    asked_at = models.DateTimeField(auto_now_add=True)
    joined_at = models.DateTimeField(null=True, blank=True)
    # The stored inputs (RULES.md §8.7) read from the tournament once it is finished:
    # {"ranking": [[place, player id], …], "rounds": [[[[player id, "sheet sum"], …] a table,
    # …] a round, …]}, and the digest of the results they were read from (adapter).
    inputs = models.JSONField(default=dict, blank=True)
    fingerprint = models.CharField(max_length=32, blank=True, default="")
    # Computed: the tournament's rating, the mean rating before it of its strongest third.
    rating = models.DecimalField(**RATING, null=True, blank=True)

    class Meta:
        ordering = ["season", "tournament__starts_at", "tournament_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "rated"], name="series_tournament_one_of_each_kind"
            ),
            models.CheckConstraint(
                condition=models.Q(factor__gt=0), name="series_tournament_factor_positive"
            ),
        ]
        verbose_name = _("series tournament")
        verbose_name_plural = _("series tournaments")

    def __str__(self) -> str:
        return f"{self.season}: {self.tournament}"

    @property
    def is_joined(self) -> bool:
        return self.state == EntryState.JOINED

    @property
    def rating_shown(self):
        return shown(self.rating)

    @property
    def factor_shown(self):
        """2 for 2.00, 1.5 for 1.50: as an admin writes a factor."""
        whole = self.factor.to_integral_value()
        return int(whole) if self.factor == whole else self.factor.normalize()


class PlayerMatch(models.Model):
    """The series' admins say two roster players (of two clubs) are one person: a link, not a
    merge. Stored with the lower player id first, so that a pair is stored once."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="matches")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    made_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-made_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["series", "player", "other"], name="player_match_unique_pair"
            ),
            models.CheckConstraint(
                condition=models.Q(player__lt=models.F("other")), name="player_match_ordered"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} = {self.other}"


class ImportedRating(models.Model):
    """A rating from before the series' first season (the import of a CSV)."""

    series = models.ForeignKey(Series, on_delete=models.CASCADE, related_name="imported")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    rating = models.DecimalField(_("rating"), **RATING)
    imported_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["series", "player"], name="imported_rating_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.rating}"

    @property
    def rating_shown(self):
        return shown(self.rating)


class StandingRow(models.Model):
    """One person in a season's standing. `results` by SeriesTournament id: place, points
    (exact, as "49/3"), counted; `players` the person's roster player ids."""

    season = models.ForeignKey(SeriesSeason, on_delete=models.CASCADE, related_name="rows")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    players = models.JSONField(default=list)
    place = models.PositiveIntegerField()
    total = models.CharField(max_length=100)
    counted = models.PositiveIntegerField()
    results = models.JSONField(default=dict)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")

    class Meta:
        ordering = ["place", "id"]

    def __str__(self) -> str:
        return f"{self.place}. {self.player_id}"


class SeasonRating(models.Model):
    """One person's rating in a season: at its start (None: new), as it runs, and once the
    season is closed its end (halved, floored or capped: `steps`)."""

    season = models.ForeignKey(SeriesSeason, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    players = models.JSONField(default=list)
    start = models.DecimalField(**RATING, null=True, blank=True)
    running = models.DecimalField(**RATING)
    end = models.DecimalField(**RATING, null=True, blank=True)
    steps = models.CharField(max_length=40, blank=True, default="")
    played = models.PositiveIntegerField(default=0)
    rounds = models.PositiveIntegerField(default=0)
    # Place in the season's rating list (shared by equal ratings): at its end once closed.
    rank = models.PositiveIntegerField(default=0)
    last_played_at = models.DateTimeField(null=True, blank=True)
    last_club = models.ForeignKey(
        Club, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["season", "rank", "id"]

    def __str__(self) -> str:
        return f"{self.rank}. {self.player_id} {self.rating}"

    @property
    def rating(self):
        return self.end if self.end is not None else self.running


class TournamentRating(models.Model):
    """One participant of a rated tournament: his rating before and after it."""

    entry = models.ForeignKey(SeriesTournament, on_delete=models.CASCADE, related_name="ratings")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    before = models.DecimalField(**RATING)
    after = models.DecimalField(**RATING)
    rounds = models.PositiveSmallIntegerField()
    strongest = models.BooleanField(default=False)

    class Meta:
        ordering = ["entry", "-before", "id"]
        constraints = [
            models.UniqueConstraint(fields=["entry", "player"], name="tournament_rating_unique")
        ]

    def __str__(self) -> str:
        return f"{self.player_id} {self.before} → {self.after}"

    @property
    def before_shown(self):
        return shown(self.before)

    @property
    def after_shown(self):
        return shown(self.after)


class ChangeCause(models.TextChoices):
    RESULT = "result", _("a tournament's result changed")
    TOURNAMENTS = "tournaments", _("the season's tournaments changed")
    SETTINGS = "settings", _("the series' settings changed")
    MATCH = "match", _("players were matched or unmatched")
    IMPORT = "import", _("ratings were imported")
    SEASON = "season", _("a season was closed or reopened")


class SeriesChange(models.Model):
    """What one computation changed in a season: each line a person's place and points (or
    rating) before and after, as {"player", "was", "now"} with [place, value] or null."""

    season = models.ForeignKey(SeriesSeason, on_delete=models.CASCADE, related_name="changes")
    at = models.DateTimeField(auto_now_add=True)
    cause = models.CharField(max_length=20, choices=ChangeCause.choices)
    entry = models.ForeignKey(
        SeriesTournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    lines = models.JSONField(default=list)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.season} {self.at:%Y-%m-%d %H:%M} {self.cause}"
