"""What other parts of Scorebook may listen to.

`hands_changed` is sent once a change to a session's hands is committed — a hand recorded,
edited or voided, or a sheet imported — so that the league's ratings and a tournament's tables
follow without the hand services knowing about either. Receivers get `session`.
"""

import logging

from django.db import transaction
from django.dispatch import Signal

hands_changed = Signal()

log = logging.getLogger(__name__)


def announce_hands_changed(session) -> None:
    """Send `hands_changed` after the current transaction commits (at once outside one).

    A listener that fails is logged and never undoes or fails the hand that was saved.
    """

    def send() -> None:
        for receiver, outcome in hands_changed.send_robust(sender=type(session), session=session):
            if isinstance(outcome, Exception):
                log.error("hands_changed: %s failed", receiver, exc_info=outcome)

    transaction.on_commit(send)
