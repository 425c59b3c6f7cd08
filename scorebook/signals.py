"""What other parts of Scorebook may listen to.

`hands_changed` (and first `hands_changed_in_step`, where the league and the tournaments
listen) is sent inside the transaction of a change to a session's hands — a hand recorded,
edited or voided, or a sheet imported — so that the league's ratings and a tournament's tables
follow without the hand services knowing about either. Receivers get `session`; a player's
word on a hand (scorebook.confirmations) is sent too, with `words=True`: the league's
ratings, which no word changes, leave it. What a receiver writes commits with the change, or
not at all: the league's stale mark can never be lost between the two. A receiver with work
for after the commit (a
tournament's table) hands it to `transaction.on_commit`.
"""

import logging

from django.db import transaction
from django.dispatch import Signal

hands_changed = Signal()

# The same news for receivers whose work is part of the change itself and cannot fail on its
# own (the league's stale mark: one UPDATE; a tournament's table: a check after the commit).
# They run in the caller's transaction with no savepoint: what they write commits with the
# change or fails it, and every save is spared a SAVEPOINT and a RELEASE (issue 25).
hands_changed_in_step = Signal()

# Sent by record_hand before a new hand is stored, inside its transaction, with `session`
# (read under its lock, with its tournament table) and `may_change_closed` (the recorder is a
# club admin). A receiver refuses the hand by raising a ServiceError, which the hand's form
# shows: a tournament table whose time and grace are over takes no more hands (RULES.md §8.2).
hand_recording = Signal()

log = logging.getLogger(__name__)


class _ListenerFailed(Exception):
    pass


def announce_hands_changed(session, **more) -> None:
    """Send `hands_changed` now, inside the caller's transaction; `more` goes to the
    receivers (`words=True`: only what the players said of the hands changed, issue 27).

    The listeners of `hands_changed` run in a savepoint: one that fails is logged, what it
    wrote is rolled back, and the hand that was saved is neither undone nor failed by it.
    Those of `hands_changed_in_step` run first, in the change's own transaction.
    """
    hands_changed_in_step.send(sender=type(session), session=session, **more)
    if not hands_changed.has_listeners(type(session)):
        return  # no savepoint for nobody
    try:
        with transaction.atomic():
            for receiver, outcome in hands_changed.send_robust(
                sender=type(session), session=session, **more
            ):
                if isinstance(outcome, Exception):
                    raise _ListenerFailed(receiver) from outcome
    except _ListenerFailed as failed:
        log.error("hands_changed: %s failed", failed.args[0], exc_info=failed.__cause__)
