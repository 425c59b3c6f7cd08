"""The pages a hand goes through read the same, byte for byte, whatever the code behind them
is reorganised into: the hand form (opened, and refilled after a refused save) of an open
session of each variant, and the sheet and printed sheet of every demo session.

What changes from run to run, and so is no behaviour, is masked: the CSRF token, the ids the
phone is given for a new hand, database ids in addresses (PostgreSQL's sequences are not reset
between tests), the login's key and end, the sheet's version token and the demo's days. A
deliberate change rewrites `golden/demo_pages.html` with `SCOREBOOK_WRITE_GOLDEN=1`, and the
diff is reviewed in the commit.
"""

from __future__ import annotations

import datetime
import os
import re
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

import rules
from scorebook import services
from scorebook.models import Club, Session

GOLDEN = Path(__file__).parent / "golden" / "demo_pages.html"
OPENED = datetime.date(2026, 12, 5)
REFUSED_CONTRACT = {"slovenian-4": "three", "slovenian-3": "three", "slovenian-2": "game"}
REFUSED_CONTRACT |= {f"french-{n}": "garde" for n in (3, 4, 5)}

MASKS = [
    (re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]+'), r"\1CSRF"),
    (re.compile(r'("X-CSRFToken": ")[^"]+'), r"\1CSRF"),
    (re.compile(r'(name="(?:client_id|device_id)" value=")[^"]*'), r"\1UUID"),
    (re.compile(r'(data-user(?:-expires)?=")[^"]*'), r"\1USER"),
    (re.compile(r"/(c/demo/[a-z-]+(?:/[a-z-]+)?)/\d+/"), r"/\1/ID/"),
    (
        re.compile(r"/(sessions|roster|players|tournaments|members|seasons|house-rules)/\d+"),
        r"/\1/ID",
    ),
    (re.compile(r"([?&](?:since|version|v)=)[^&\"']+"), r"\1VERSION"),
    (re.compile(r'(data-version=")[^"]*'), r"\1VERSION"),
]


def masked(html: str, days: list[datetime.date]) -> str:
    for pattern, replacement in MASKS:
        html = pattern.sub(replacement, html)
    for day in days:
        for shown in (
            day.isoformat(),
            f"{day:%Y%m%d}",
            f"{day.day}. {day.month}. {day.year}",
            f"{day:%m/%d/%Y}",
            f"{day.day}/{day.month}/{day.year}",
            f"{day.day}\u00a0{day:%b}\u00a0{day.year}",  # English, as the sheet's heading has it
        ):
            html = html.replace(shown, "DAY")
    return html


def page(client, name: str, **kwargs) -> str:
    response = client.get(reverse(name, kwargs=kwargs))
    assert response.status_code == 200, (name, kwargs)
    return response.content.decode()


def demo_pages(client, club: Club, admin) -> str:
    parts = []
    for session in club.sessions.order_by("variant", "date"):
        for name in ("scorebook:sheet", "scorebook:sheet_print"):
            html = page(client, name, club=club.slug, session=session.pk)
            parts.append(f"<!-- == {session.variant} {name} -->\n{html}")
    for variant in rules.variants():
        players = list(club.players.order_by("pk"))[: min(variant.player_counts)]
        session = services.start_session(
            club=club,
            variant_id=variant.id,
            preset=variant.default_preset,
            players=players,
            user=admin,
            date=OPENED,
            table_label="Window table",
        )
        kwargs = {"club": club.slug, "session": session.pk}
        parts.append(
            f"<!-- == {variant.id} hand form -->\n{page(client, 'scorebook:hand_new', **kwargs)}"
        )
        # A contract of the game, its declarer typed and its points not a number: refused
        # at the points, every typed field back in its place.
        contract = REFUSED_CONTRACT.get(variant.id, "solo")
        refused = client.post(
            reverse("scorebook:hand_new", kwargs=kwargs),
            {"client_id": str(uuid.uuid4()), "contract": contract, "declarer": "1", "points": "x"},
        )
        assert refused.status_code == 422, variant.id
        parts.append(f"<!-- == {variant.id} hand form refused -->\n{refused.content.decode()}")
    return "\n".join(parts) + "\n"


@pytest.mark.django_db
def test_the_pages_of_a_hand_are_unchanged(client, django_user_model):
    call_command("demo", stdout=open(os.devnull, "w"))  # noqa: SIM115
    admin = django_user_model.objects.get(username="demo-admin")
    client.force_login(admin)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    club = Club.objects.get(slug="demo")
    days = sorted(set(Session.objects.filter(club=club).values_list("date", flat=True)))
    text = masked(demo_pages(client, club, admin), [*days, datetime.date.today()])
    if os.environ.get("SCOREBOOK_WRITE_GOLDEN"):
        GOLDEN.write_bytes(text.encode("utf-8"))
    assert text == GOLDEN.read_bytes().decode("utf-8")
