"""Where the public pages meet work that is not in yet (issue 30).

- Confirmed hands: "with confirmation asked or required, live standings mark unconfirmed hands
  as provisional". Until a hand can wait for its confirmation, none does: `is_provisional`
  answers False, and the live page already marks a table (and its players' running totals)
  provisional wherever it answers True.
- Series and rating lists (issue 29, scorebook.series): the club's `publish_series` switch is
  here; `series_pages` is what the club's page and the sitemap list of them, none until the
  series app publishes its standings.
"""

from __future__ import annotations

from scorebook.models import Club


def is_provisional(session_id: int) -> bool:
    """Whether the session holds a hand still waiting for its confirmation."""
    return False


def series_pages(club: Club, lang: str) -> list[tuple[str, str]]:
    """(title, address) of each of the club's published series standings and rating lists."""
    return []
