"""Recording how a player is named on public pages: his own choice, an admin's record that he
agreed, or the choice he made when he registered for a tournament.

Full name or initials need the player's agreement; hidden needs nobody's, and anybody who may
record a choice may record it at any time.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorebook.errors import ServiceError
from scorebook.models import Player
from scorebook.public.models import Agreed, PublicName, RegistrationName, Shown


def shown_of(value: str | None) -> Shown:
    try:
        return Shown(value)
    except ValueError:
        raise ServiceError(_("Choose how the name is shown."), "shown") from None


def own_choice(player: Player, user, shown: str) -> PublicName:
    """A member chooses for the player linked to his account."""
    if player.user_id != user.pk:
        raise ServiceError(_("Only the player himself chooses here."), "shown")
    found, _created = PublicName.objects.update_or_create(
        player=player,
        defaults={"shown": shown_of(shown), "agreed": Agreed.PLAYER, "recorded_by": user},
    )
    return found


def admins_record(player: Player, admin, shown: str, agreed: bool) -> PublicName:
    """An admin records the player's choice: a name shown needs the player's agreement."""
    chosen = shown_of(shown)
    if chosen != Shown.HIDDEN and not agreed:
        raise ServiceError(
            _("A name is shown only when the player agreed: tick that he did."), "agreed"
        )
    found, _created = PublicName.objects.update_or_create(
        player=player,
        defaults={"shown": chosen, "agreed": Agreed.ADMIN, "recorded_by": admin},
    )
    return found


def registration_choice(registration, user, shown: str | None) -> None:
    """What a member chose as he registered: his player's choice now, or, without a player
    yet, kept for the player the start finds or makes (scorebook.public.signals)."""
    if shown not in Shown.values:  # no choice (or a forged one): nobody is shown unasked
        return
    chosen = Shown(shown)
    player = Player.objects.filter(club_id=registration.tournament.club_id, user=user).first()
    if player is not None:
        own_choice(player, user, chosen)
        return
    RegistrationName.objects.update_or_create(registration=registration, defaults={"shown": chosen})


def choice_of(player: Player) -> PublicName | None:
    return PublicName.objects.filter(player=player).first()
