"""The demo club reads the same, byte for byte, whatever the code behind it is reorganised into.

`golden/demo_club.txt` was written by the code before the one-home redesign (issue 12): every
demo session's JSON export (its keys sorted, as PostgreSQL's jsonb orders them its own way)
and CSV export, as the pages serve them, and every stored hand's row of the sheet. A change of
behaviour shows here as a diff; a deliberate one rewrites the file with
`SCOREBOOK_WRITE_GOLDEN=1`, and the diff is reviewed in the commit.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

from scorebook.hands import line_text, stored_note_text
from scorebook.models import Club, Hand

GOLDEN = Path(__file__).parent / "golden" / "demo_club.txt"


def demo_club_text(client) -> str:
    club = Club.objects.get(slug="demo")
    parts = []
    for session in club.sessions.order_by("variant"):
        kwargs = {"club": club.slug, "session": session.pk}
        for name in ("session_export_json", "session_export_csv"):
            body = client.get(reverse(f"scorebook:{name}", kwargs=kwargs)).content.decode()
            if name.endswith("json"):  # PostgreSQL's jsonb keeps its own order of keys
                body = json.dumps(json.loads(body), sort_keys=True, ensure_ascii=False, indent=1)
            parts.append(f"== {session.variant} {name}\n{body}")
        for hand in Hand.objects.filter(session=session).order_by("number"):
            row = json.dumps(said_in_english(hand.score), sort_keys=True, ensure_ascii=False)
            parts.append(f"== {session.variant} hand {hand.number}\n{row}")
    text = "\n".join(parts) + "\n"
    # The demo plays its sessions a week before today; the golden file has a fixed day.
    played = datetime.date.today() - datetime.timedelta(days=7)
    return text.replace(played.isoformat(), "PLAYED").replace(f"{played:%Y%m%d}", "PLAYED")


def said_in_english(score: dict) -> dict:
    """A stored row with its words (ids and values since issue 14) said in English: the
    golden file holds the English the rows held as text before."""
    if "lines" not in score:
        return score
    return {
        **score,
        "lines": [[line_text(line), line[1]] for line in score["lines"]],
        "note": stored_note_text(score["note"]),
    }


@pytest.mark.django_db
def test_the_demo_club_exports_and_rows_are_unchanged(client, django_user_model):
    call_command("demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    client.force_login(django_user_model.objects.get(username="demo-admin"))
    # Read in English, as the golden file was written: the demo club itself speaks Slovenian.
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = demo_club_text(client)
    if os.environ.get("SCOREBOOK_WRITE_GOLDEN"):
        GOLDEN.write_bytes(text.encode("utf-8"))
    # Bytes, not text: the CSV's line ends are part of what a spreadsheet reads.
    assert text == GOLDEN.read_bytes().decode("utf-8")
