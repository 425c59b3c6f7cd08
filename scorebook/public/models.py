"""How a roster player is named on the club's public pages (issue 30, GDPR).

Nobody is shown until somebody chose: the player himself (a member linked to him), or an
admin who records that the player agreed. Switching to hidden needs no agreement.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scorebook.models import Player


class Shown(models.TextChoices):
    # From the most private to the least: a person is shown by the most private of his choices.
    HIDDEN = "hidden", _("not shown (“Player 3”)")
    INITIALS = "initials", _("initials (“A. K.”)")
    FULL = "full", _("full name")


PRIVACY = {Shown.HIDDEN: 0, Shown.INITIALS: 1, Shown.FULL: 2}


class Agreed(models.TextChoices):
    PLAYER = "player", _("the player's own choice")
    ADMIN = "admin", _("an admin's record that the player agreed")


class PublicName(models.Model):
    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="public_name")
    shown = models.CharField(
        _("name on public pages"), max_length=10, choices=Shown.choices, default=Shown.HIDDEN
    )
    agreed = models.CharField(_("agreed by"), max_length=10, choices=Agreed.choices)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    changed_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("name on public pages")
        verbose_name_plural = _("names on public pages")

    def __str__(self) -> str:
        return f"{self.player_id}: {self.shown}"


class RegistrationName(models.Model):
    """What a member chose when he registered for a tournament before the club had a player
    of his: his player, found or made at the start, takes it (scorebook.public.signals)."""

    registration = models.OneToOneField(
        "tournaments.Registration", on_delete=models.CASCADE, related_name="public_name"
    )
    shown = models.CharField(max_length=10, choices=Shown.choices, default=Shown.HIDDEN)

    def __str__(self) -> str:
        return f"{self.registration_id}: {self.shown}"
