"""The refusals of a write: each a ServiceError (scorebook.errors), told apart by a phone's
outbox and by the form."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorebook.errors import ServiceError
from scorebook.models import Hand, Session


class HandChanged(ServiceError):
    """The hand was changed by somebody else since the form was opened; `current` is the
    newer version."""

    def __init__(self, current: Hand):
        super().__init__(
            _(
                "Somebody changed this hand meanwhile (now version %(version)d). "
                "Check the newer version below and make your change again."
            )
            % {"version": current.version}
        )
        self.current = current


class HandVoided(ServiceError):
    """The hand was voided (on another phone, most likely) since its edit form was opened."""

    def __init__(self):
        super().__init__(_("This hand was voided on another phone."))


class Refused(ServiceError):
    """A new hand refused as a whole, for nothing wrong with its fields: a phone sending its
    outbox tells each kind apart (and the form says it above the fields)."""


class SessionClosed(Refused):
    pass


class OtherSession(Refused):
    """The hand's client id was stored with a hand of another session."""


class RepeatDiffers(Refused):
    """A hand's client id came again with other content: a form reopened from a cache, or an
    outbox entry changed after it was sent. Never mapped silently to the first hand."""

    def __init__(self, stored: Hand):
        super().__init__(
            _(
                "This hand was already sent as hand %(number)d with other content; "
                "check the sheet and enter it again."
            )
            % {"number": stored.number}
        )
        self.hand = stored


class JustRecorded(Refused):
    """Another phone recorded a hand with the same score a moment ago: likely the same hand
    entered twice at the table; stored again only when the scorekeeper confirms it."""

    def __init__(self, stored: Hand, user):
        recorder = stored.created_by
        if recorder is None:
            phone = _("another phone")
        elif recorder == user:
            phone = _("your other phone")
        else:
            name = recorder.get_full_name() or recorder.get_username()
            phone = _("%(name)s's phone") % {"name": name}
        super().__init__(
            _(
                "Hand %(number)d was just recorded by %(phone)s with the same score "
                "— record it again?"
            )
            % {"number": stored.number, "phone": phone}
        )
        self.hand = stored


def check_writable(session: Session, change_closed: bool) -> None:
    if session.is_closed and not change_closed:
        raise SessionClosed(_("This session is closed; only a club admin can change it."))
