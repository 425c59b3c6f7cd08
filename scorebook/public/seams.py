"""Where the public pages meet work that is not in yet (issue 30).

- Confirmed hands (issue 27): "with confirmation asked or required, live standings mark
  unconfirmed hands as provisional": `is_provisional` asks scorebook.confirmations, and the
  live page marks a table (and its players' running totals) provisional where it answers True.
"""

from __future__ import annotations

from scorebook import confirmations
from scorebook.models import Session


def is_provisional(session_id: int) -> bool:
    """Whether the session holds a hand still waiting for its confirmation (or disputed)."""
    session = Session.objects.filter(pk=session_id).first()
    return session is not None and bool(confirmations.open_hands(session))
