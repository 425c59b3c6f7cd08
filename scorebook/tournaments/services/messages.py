"""The organiser's message to every player: a banner on each player's tournament pages until
he dismisses it, and an e-mail to those with an address (no push service)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.utils.translation import gettext as _

from scorebook.errors import ServiceError
from scorebook.tournaments.models import Message, Tournament
from scorebook.tournaments.services.common import clock

MAX_MESSAGE = 500


def send_message(tournament: Tournament, text: str, user=None, now=None) -> Message:
    text = (text or "").strip()
    if not text:
        raise ServiceError(_("Write the message."), "text")
    if len(text) > MAX_MESSAGE:
        raise ServiceError(
            _("Keep the message under %(n)d characters.") % {"n": MAX_MESSAGE + 1}, "text"
        )
    message = Message.objects.create(
        tournament=tournament, text=text, sent_at=clock(now), sent_by=user
    )
    players = tournament.registrations.filter(cancelled_at=None, has_place=True, withdrawn_at=None)
    recipients = sorted(
        {r.user.email for r in players.exclude(user=None).select_related("user") if r.user.email}
    )
    subject = tournament.name

    def send() -> None:  # after the commit: a mail server that is down loses no message
        for address in recipients:
            send_mail(subject, text, settings.DEFAULT_FROM_EMAIL, [address])

    transaction.on_commit(send, robust=True)
    return message


def banners(tournament: Tournament, user) -> list[Message]:
    """The messages `user` has not dismissed, latest first."""
    if not user.is_authenticated:
        return []
    return list(tournament.messages.exclude(dismissed_by=user))


def dismiss(tournament: Tournament, message_id: int, user) -> None:
    message = tournament.messages.filter(pk=message_id).first()
    if message is not None:
        message.dismissed_by.add(user)
