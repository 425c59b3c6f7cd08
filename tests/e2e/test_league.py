"""The league pages on a phone (Pixel 7): readable without sideways scrolling of the page,
charts drawn, sorting by a tap, no browser errors or CSP violations; the standings print on
one A4 page."""

import datetime
import os
import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorebook.league import services
from scorebook.models import Player
from tests.league.conftest import add_hand, add_session, history  # noqa: F401  (fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", tempfile.gettempdir()))


def log_in(page, username="vida"):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My clubs")).to_be_visible()


def fits_the_screen(page):
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], width


def test_standings_ledger_and_player_on_a_phone(phone, club, history, members):  # noqa: F811
    services.rebuild_ratings(club)
    page = phone
    log_in(page)
    page.get_by_role("link", name="Ljubljana Tarock").click()
    page.get_by_role("button", name="Standings").click()
    expect(page.get_by_role("heading", name="Standings")).to_be_visible()
    rows = page.locator("table.standings tbody th")
    expect(rows).to_have_text(["Eva", "Cene", "Ana", "Dani", "Bor"])
    fits_the_screen(page)
    page.screenshot(path=str(SCREENSHOTS / "league-standings.png"), full_page=True)

    # Sorting is a link: a tap on "Player" sorts by name.
    page.locator("table.standings thead").get_by_role("link", name="Player").click()
    expect(rows).to_have_text(["Ana", "Bor", "Cene", "Dani", "Eva"])
    # The season and the game are chosen from a plain GET form.
    page.get_by_label("Season").select_option(label="Autumn")
    page.get_by_role("button", name="Show").click()
    expect(rows).to_have_text(["Ana", "Bor", "Cene", "Dani"])

    page.get_by_role("link", name="Ledger").click()
    expect(page.get_by_role("heading", name="Ledger")).to_be_visible()
    expect(page.get_by_text("Bor pays Cene 160")).to_be_visible()
    fits_the_screen(page)
    page.screenshot(path=str(SCREENSHOTS / "league-ledger.png"), full_page=True)

    page.locator("table.ledger").get_by_role("link", name="Ana").click()
    expect(page.get_by_role("heading", name="Ana", exact=True)).to_be_visible()
    charts = page.locator("figure.league-chart > svg")
    expect(charts).to_have_count(2)
    for i in range(2):
        box = charts.nth(i).bounding_box()
        assert 300 < box["width"] <= page.viewport_size["width"]
        assert box["height"] > 100
    # Both charts draw a line per family: units of different games are never added together.
    expect(page.locator("figure.league-chart > svg polyline")).to_have_count(4)
    fits_the_screen(page)
    page.screenshot(path=str(SCREENSHOTS / "league-player.png"), full_page=True)
    assert page.console_errors == []


def test_standings_print_on_one_a4_page(phone, club, members):
    """Thirty players, the wall chart: one A4 sheet, without the site's header."""
    people = [Player.objects.create(club=club, name=f"Player {i:02}") for i in range(30)]
    for s in range(10):
        seated = [people[(s * 4 + k) % 30] for k in range(4)]
        session = add_session(club, "slovenian-4", datetime.date(2026, 1, 1 + s), seated)
        for h in range(1, 9):
            amounts = {p.name: 0 for p in seated}
            amounts[seated[h % 4].name] = 10 * h
            add_hand(session, h, amounts, declarer=seated[h % 4].name)
    services.rebuild_ratings(club)
    page = phone
    log_in(page)
    page.goto(f"/c/{club.slug}/league/standings/")
    expect(page.locator("table.standings tbody tr")).to_have_count(30)
    page.emulate_media(media="print")
    expect(page.locator("body > header")).to_be_hidden()
    pdf = page.pdf(format="A4", print_background=False)
    (SCREENSHOTS / "league-standings.pdf").write_bytes(pdf)
    pages = len(re.findall(rb"/Type\s*/Page[^s]", pdf))
    assert pages == 1, pages
    assert page.console_errors == []
