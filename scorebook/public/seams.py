"""Where the public pages meet work that is not in yet (issue 30).

- Confirmed hands (issue 27): "with confirmation asked or required, live standings mark
  unconfirmed hands as provisional": `is_provisional` asks scorebook.confirmations, and the
  live page marks a table (and its players' running totals) provisional where it answers True.
- Series and rating lists (issue 29, scorebook.series): the club's `publish_series` switch
  opens them; `series_pages` is what the club's page and the sitemap list of them
  (scorebook.public.series).
"""

from __future__ import annotations

from scorebook import confirmations
from scorebook.models import Club, Session


def is_provisional(session_id: int) -> bool:
    """Whether the session holds a hand still waiting for its confirmation (or disputed)."""
    session = Session.objects.filter(pk=session_id).first()
    return session is not None and bool(confirmations.open_hands(session))


def series_pages(club: Club, lang: str) -> list[tuple[str, str]]:
    """(title, address) of each of the club's published series standings and rating lists."""
    from scorebook.public import series  # its pages are built with scorebook.public.pages

    return series.series_pages(club, lang)
