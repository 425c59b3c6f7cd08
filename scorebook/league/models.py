"""League summaries: what rebuild_ratings (services.py) derives from the hands and entries.

Nothing here is entered by hand. Every row can be thrown away and rebuilt from Hand and Entry
(`manage.py rebuild_ratings CLUB`), and the pages read only these small per-session rows so
their speed does not depend on how many hands a club has played.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from scorebook.models import Club, Player, Season, Session


class Rating(models.Model):
    """A player's Elo rating (RULES.md §6) in one variant family of one club."""

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(_("family"), max_length=20)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    rating = models.DecimalField(_("rating"), max_digits=7, decimal_places=2)
    hands = models.PositiveIntegerField(_("hands rated"))

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["club", "family", "player"], name="rating_unique_club_family_player"
            )
        ]

    def __str__(self) -> str:
        return f"{self.family} {self.player} {self.rating}"


class LeagueSession(models.Model):
    """What the last rebuild saw of a session: a session whose hands changed since (a newer
    `changed_at`, a different count) or whose date moved is rebuilt, and every later one."""

    # Not a foreign key: the row outlives a deleted session, so the next rebuild sees that
    # the sessions after it need their ratings again.
    session_id = models.BigIntegerField(primary_key=True)
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=20)
    date = models.DateField()
    hand_count = models.PositiveIntegerField()
    last_changed = models.DateTimeField(null=True)

    class Meta:
        indexes = [models.Index(fields=["club", "family", "date", "session_id"])]

    def __str__(self) -> str:
        return f"{self.family} session {self.session_id} ({self.hand_count} hands)"


class PlayerSession(models.Model):
    """One player's evening: his totals from the entries of the session's hands that are not
    voided, what he declared and won, and his rating in the family after the session."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="league_lines")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="league_lines")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=20)
    season = models.ForeignKey(Season, on_delete=models.SET_NULL, null=True, related_name="+")
    date = models.DateField()
    hands = models.PositiveIntegerField(default=0)  # rated hands: not redeals, not adjustments
    total = models.DecimalField(max_digits=14, decimal_places=2, default=0)  # sum of entries
    declared = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    # Slovenian with the radelci switch on: radelci spent on won games, and held at the end.
    radelci_used = models.PositiveIntegerField(default=0)
    radelci_left = models.PositiveIntegerField(default=0)
    rating_after = models.FloatField()
    rated_after = models.PositiveIntegerField()  # hands rated in the family up to here
    # From Session.closing once the session is closed: radelc penalties included, and the net
    # of the settlement (RULES.md §7); kept current by signals.py when a session closes.
    closed_total = models.DecimalField(max_digits=14, decimal_places=2, null=True)
    net = models.DecimalField(max_digits=14, decimal_places=2, null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "player"], name="playersession_unique")
        ]
        indexes = [
            models.Index(fields=["club", "family", "date", "session"]),
            models.Index(fields=["player", "date", "session"]),
            # Covers the standings' sums, so they are read from the index alone.
            models.Index(
                fields=[
                    "club",
                    "family",
                    "player",
                    "hands",
                    "total",
                    "declared",
                    "won",
                    "radelci_used",
                    "radelci_left",
                ],
                name="league_playersession_standing",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}: {self.player_id} {self.total}"


class ContractTally(models.Model):
    """How often a player declared one contract in a session, and how often he won it (his
    amount for the hand above zero)."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=20)
    season = models.ForeignKey(Season, on_delete=models.SET_NULL, null=True, related_name="+")
    contract = models.CharField(max_length=40)
    declared = models.PositiveIntegerField()
    won = models.PositiveIntegerField()

    class Meta:
        indexes = [
            models.Index(
                fields=["club", "family", "contract", "declared", "won"],
                name="league_contracttally_club",
            ),
            models.Index(
                fields=["player", "family", "contract", "declared", "won"],
                name="league_contracttally_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.session_id}: {self.player_id} {self.contract} {self.won}/{self.declared}"


class StaleFamily(models.Model):
    """A family of a club whose hands changed since its ratings were last rebuilt.

    Saving a hand only marks it (one row, whatever the club's history); the league pages
    rebuild before they read, so a save does not wait for the ratings of a long history.
    """

    club = models.ForeignKey(Club, on_delete=models.CASCADE, related_name="+")
    family = models.CharField(max_length=20)
    marked_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["club", "family"], name="stalefamily_unique")
        ]

    def __str__(self) -> str:
        return f"{self.family} of club {self.club_id} since {self.marked_at}"
