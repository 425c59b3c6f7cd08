"""The printable sheet and the settlement as text to share."""

from __future__ import annotations

import datetime
import re
import uuid

from django.urls import reverse
from django.utils.formats import date_format

from scorebook import hands, services
from scorebook.models import Session
from scorebook.views.paper import HANDS_PER_PAGE

HANDS = [
    {"contract": "beggar", "declarer": "Ana", "made": True},  # a radelc to everybody
    {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38},  # Ana uses hers
    {"contract": "two", "declarer": "Bor", "partner": "Dani", "points": 30},
]


def start(club, players, preset):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset=preset, players=players[:4], user=None
    )
    for hand in HANDS:
        hands.record_hand(session, hand, uuid.uuid4(), None)
    return session


def url(name, club, session):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, "session": session.pk})


def test_a_viewer_prints_the_sheet_with_its_radelci(club, players, members, client_as):
    session = start(club, players, "tarzs")
    services.close_session(session, members["scorekeeper"])
    response = client_as(members["viewer"]).get(url("sheet_print", club, session))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'media="print"' in page  # base.html: no page prints its menus
    assert "scorebook/print.css" in page
    assert page.count("paper-page") == 1
    # Four radelci gained at the beggar, Ana's crossed when she wins the two, three held.
    assert len(re.findall(r'class="circle"', page)) == 4 + 3
    assert len(re.findall(r'class="circle used"', page)) == 1
    assert "Radelci" in page
    # The foot: the totals after the close and who pays whom (as the settlement page).
    assert "Bor pays Ana 270" in page
    assert "Dani pays Cene 130" in page
    assert "410" in page
    for name in ("Ana", "Bor", "Cene", "Dani"):
        assert f'<th scope="col" class="num player">{name}</th>' in page


def test_a_sheet_without_radelci_draws_no_circles(club, players, members, client_as):
    session = start(club, players, "seed")
    page = client_as(members["viewer"]).get(url("sheet_print", club, session)).content.decode()
    assert 'class="circle' not in page
    assert "Radelci" not in page
    assert "if the session closed now" in page  # an open session's foot says so


def test_a_long_sheet_prints_forty_hands_a_page(club, players, members, client_as):
    session = start(club, players, "seed")
    for _ in range(HANDS_PER_PAGE):
        hands.record_hand(session, HANDS[2], uuid.uuid4(), None)
    page = client_as(members["viewer"]).get(url("sheet_print", club, session)).content.decode()
    assert page.count('<section class="paper-page">') == 2
    assert "page 2 of 2" in page


def test_another_clubs_sheet_does_not_print(club, other_club, members, client_as):
    theirs = Session.objects.create(
        club=other_club, variant="slovenian-4", rules={}, date=datetime.date(2026, 11, 1)
    )
    assert client_as(members["admin"]).get(url("sheet_print", club, theirs)).status_code == 404


def test_the_sheet_and_the_settlement_link_to_the_print(club, players, members, client_as):
    session = start(club, players, "tarzs")
    client = client_as(members["viewer"])
    target = url("sheet_print", club, session)
    for name in ("session", "sheet", "session_settlement"):
        assert f'href="{target}"' in client.get(url(name, club, session)).content.decode(), name


def test_the_settlement_as_text_to_share(club, players, members, client_as):
    session = start(club, players, "tarzs")
    services.close_session(session, members["scorekeeper"])
    page = client_as(members["viewer"]).get(url("session_settlement", club, session))
    text = page.context["share_text"]
    date = date_format(session.date, "SHORT_DATE_FORMAT")
    assert text.splitlines()[0] == f"Slovenian tarok, 4 players · {date}"
    body = text.split("\n", 2)[2]
    assert body == (
        "Totals\n"
        "Ana 120 (net 410)\n"
        "Bor −50 (net −270)\n"  # as the settlement page writes it
        "Cene 50 (net 130)\n"
        "Dani −50 (net −270)\n"
        "\n"
        "Who pays whom\n"
        "Bor pays Ana 270\n"
        "Dani pays Ana 140\n"
        "Dani pays Cene 130"
    )
    html = page.content.decode()
    # Without JavaScript the same text, ready to select; the button waits for share.js.
    assert '<textarea id="share-text" readonly' in html
    assert "Dani pays Cene 130</textarea>" in html
    assert re.search(r"<button [^>]*hidden data-share=\"share-text\"", html)
    assert "scorebook/share.js" in html
    assert "<script>" not in html  # the CSP allows no inline script
