"""Paper: a 60-hand sheet printed on A4, and the settlement shared from a 360 px phone."""

import os
import re
import tempfile
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorebook import hands, services
from tests.e2e.test_league import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

THUMB = 44  # px: the least height of what a thumb taps
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", tempfile.gettempdir()))

# Three hands over and over: a beggar gives everybody a radelc, Ana's two uses one of hers.
CYCLE = [
    {"contract": "beggar", "declarer": "Ana", "made": True},
    {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38},
    {"contract": "two", "declarer": "Bor", "partner": "Dani", "points": 30},
]


def sixty_hands(club, players, scorekeeper):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=None
    )
    for number in range(60):
        hands.record_hand(session, CYCLE[number % 3], uuid.uuid4(), None)
    services.close_session(session, scorekeeper)
    return session


def pdf_pages(pdf: bytes) -> int:
    """The page objects of a PDF (`/Type /Page`, not the `/Type /Pages` tree above them)."""
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", pdf))


def test_sixty_hands_print_on_two_a4_pages(phone, club, players, members):
    session = sixty_hands(club, players, members["scorekeeper"])
    page = phone
    log_in(page)
    page.goto(f"/c/{club.slug}/sessions/{session.pk}/")
    page.get_by_role("button", name="Printable sheet").click()
    expect(page.locator(".paper-sheet tbody tr")).to_have_count(60)

    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF")
    (SCREENSHOTS / "paper.pdf").write_bytes(pdf)
    assert pdf_pages(pdf) == 2

    page.emulate_media(media="print")
    # Radelci are drawn: a circle for each one gained, crossed when used, and those held.
    assert page.locator(".paper-sheet tbody .circle.used").count() == 20
    assert page.locator(".paper-sheet tbody .circle:not(.used)").count() == 80
    assert page.locator(".paper-sheet tfoot .circle").count() == 60
    circle = page.locator(".paper-sheet tbody .circle").first.bounding_box()
    assert circle["width"] > 4 and circle["height"] > 4
    # No menus and no buttons on paper.
    expect(page.locator("body > header")).to_be_hidden()
    expect(page.get_by_role("link", name="Back to the session")).to_be_hidden()
    expect(page.get_by_role("button", name="Print")).to_be_hidden()
    expect(page.get_by_text("Bor pays Ana")).to_be_visible()
    # Forty hands on the first page, the rest with the foot on the second.
    sections = page.locator(".paper-page")
    expect(sections).to_have_count(2)
    expect(sections.nth(0).locator("tbody tr")).to_have_count(40)
    assert page.console_errors == []


def test_share_the_settlement_from_a_small_phone(browser, live_server, club, players, members):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=None
    )
    for hand in CYCLE:
        hands.record_hand(session, hand, uuid.uuid4(), None)
    services.close_session(session, members["scorekeeper"])
    context = browser.new_context(
        viewport={"width": 360, "height": 780},
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        log_in(page)
        page.goto(f"/c/{club.slug}/sessions/{session.pk}/settlement/")
        text = page.locator("#share-text")
        expect(text).to_have_attribute("readonly", "")
        assert "Dani pays Cene 130" in text.input_value()
        # share.js shows the button: the Web Share API where the browser has it, else a copy.
        button = page.locator("button[data-share]")
        expect(button).to_be_visible()
        has_share = page.evaluate("typeof navigator.share === 'function'")
        expect(button).to_have_text("Share" if has_share else "Copy the text")
        if not has_share:
            button.click()
            expect(page.get_by_role("status")).to_have_text("Copied: paste it into the chat.")
            assert page.evaluate("navigator.clipboard.readText()") == text.input_value()
        # The page fits the phone, and what a thumb taps is big enough.
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        page.screenshot(path=str(SCREENSHOTS / "settlement-share.png"), full_page=True)
        for target in [button, page.get_by_role("button", name="Printable sheet")]:
            assert target.bounding_box()["height"] >= THUMB - 0.5
        # The printable sheet fits too, and prints from its button.
        page.get_by_role("button", name="Printable sheet").click()
        expect(page.get_by_role("button", name="Print")).to_be_visible()
        page.screenshot(path=str(SCREENSHOTS / "paper-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.get_by_role("button", name="Print").bounding_box()["height"] >= THUMB - 0.5
        assert errors == []
    finally:
        context.close()
