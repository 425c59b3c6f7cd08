"""A scorekeeper on a phone: log in, add a player, start a session."""

import os
import re
import tempfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorebook.models import Player, Session

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", tempfile.gettempdir()))


def test_log_in_add_a_player_and_start_a_session(phone, club, players, members):
    page = phone
    viewport = page.viewport_size
    # Pixel 7: a 412x915 screen (839 of it for the page) at 2.625 device pixels per CSS pixel.
    assert viewport["width"] == 412
    page.goto("/accounts/login/")
    assert page.evaluate("[screen.width, screen.height, devicePixelRatio]") == [412, 915, 2.625]
    assert page.evaluate("navigator.maxTouchPoints") > 0

    page.goto("/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_label("Username").fill("alma")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My clubs")).to_be_visible()

    page.get_by_role("link", name="Ljubljana Tarock").click()
    page.get_by_role("button", name="Roster").click()
    page.get_by_label("Name").fill("Zala")
    page.get_by_role("button", name="Add player").click()
    expect(page.get_by_text("Zala is on the roster.")).to_be_visible()
    assert Player.objects.filter(club=club, name="Zala").exists()

    # The same name again is refused at the field, and nothing is lost.
    page.get_by_label("Name").fill("zala")
    page.get_by_role("button", name="Add player").click()
    expect(page.get_by_text("zala is already on the roster.")).to_be_visible()

    page.get_by_role("link", name="Ljubljana Tarock").click()
    page.get_by_role("button", name="Start a session").click()
    page.get_by_label("Variant").select_option("slovenian-4")
    for seat, name in enumerate(["Zala", "Ana", "Bor", "Cene"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    page.get_by_label("Table").fill("Window table")
    page.get_by_role("button", name="Start the session").click()

    expect(page.get_by_role("heading", name=re.compile("Window table"))).to_be_visible()
    page.screenshot(path=str(SCREENSHOTS / "session.png"), full_page=True)
    session = Session.objects.get(club=club, table_label="Window table")
    assert [p.name for p in session.seated_players()] == ["Zala", "Ana", "Bor", "Cene"]
    headers = page.locator("table.sheet thead th").all_inner_texts()
    assert headers[1:] == ["Zala", "Ana", "Bor", "Cene"]
    # The page fits the phone: nothing scrolls sideways.
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    assert page.console_errors == []
