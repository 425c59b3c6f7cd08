"""The words the server and the phone's outbox say to each other, in one place.

The server answers a hand the outbox sends (header X-Scorebook-Outbox: 1), and a player's
word on a hand (a confirmation or a dispute, issue 27: the hand's confirm page), with JSON whose
`status` is one of these words; the outbox (static/scorebook/outbox/) keeps a hand with the
word it was answered and decides by it what to do next. The views answer with these members,
and the same list is written into every page (the sender's script tag, `{% outbox_status %}`)
and into the service worker (/sw.js): the scripts spell none of the words themselves.

The words are stored with a kept hand in the phone's IndexedDB: changing one leaves the hands
kept before the change with the old word.
"""

from __future__ import annotations

import json
from enum import StrEnum


class Status(StrEnum):
    """What became of a hand the outbox sent."""

    RECORDED = "recorded"  # stored (or stored before: `repeat`); it leaves the outbox
    # Refused: the scorekeeper opens, resends or discards it.
    INVALID = "invalid"  # a problem of the hand, each at its field (422)
    CLOSED = "closed"  # the session is closed
    DIFFERS = "differs"  # its client id was recorded with other content: entered anew
    DUPLICATE = "duplicate"  # the same hand just came from another phone: record it again?
    # Refused as a whole for another reason; a word on a hand changed meanwhile comes with
    # the hand as it is now (`version`, `line`), and the phone asks again of it.
    CONFLICT = "conflict"
    # Waiting, refused by nobody: sent again once the right login is back.
    LOGIN = "login"  # logged out (401)
    CSRF = "csrf"  # the page's token had expired (403)
    OTHER_USER = "other-user"  # the browser is logged in as someone else than who saved it


def status_words() -> dict[str, str]:
    """The words as the scripts read them, by the member's name: {"RECORDED": "recorded", …}."""
    return {status.name: status.value for status in Status}


def status_json() -> str:
    """`status_words` as JSON, for a page's data attribute and the worker's script."""
    return json.dumps(status_words(), separators=(",", ":"))
