"""An admin on a 360 px phone defines the club's house rules for slovenian-4 (radelci on, −100
per unused radelc), starts a session with them, records a klop (everyone gets a radelc) and
closes the session: the closing line takes 100 per unused radelc."""

import re

import pytest
from playwright.sync_api import expect

from scorebook.models import HouseRules, Session
from tests.e2e.test_record_hand import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH = 360
THUMB = 44  # px: the least height of what a thumb taps

# Every visible control of the page's content a thumb taps: buttons, inputs, selects.
SMALL_TARGETS = """(min) => [...document.querySelectorAll(
    'main button, main [role=button], main input:not([type=hidden]), main select, main textarea')]
  .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().height < min)
  .map((e) => `${e.tagName} ${e.name || e.textContent.trim()}: ${e.getBoundingClientRect().height}`)
"""


@pytest.fixture
def narrow(browser, live_server):
    """A phone 360 px wide (the narrowest common Android screen)."""
    device = {**browser.pixel_7, "viewport": {"width": WIDTH, "height": 780}}
    context = browser.new_context(**device, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.console_errors = []
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    yield page
    context.close()


def fits(page) -> None:
    """Nothing scrolls sideways, and every control is tall enough for a thumb."""
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, page.url
    assert page.evaluate(SMALL_TARGETS, THUMB) == [], page.url


def test_an_admin_plays_a_session_with_the_clubs_radelc_penalty(narrow, club, players, members):
    page = narrow
    log_in(page, "alma")
    page.get_by_role("link", name="Ljubljana Tarock").click()
    page.get_by_role("button", name="House rules").click()
    expect(page.get_by_role("heading", name="House rules", exact=True)).to_be_visible()
    fits(page)

    page.get_by_label("Variant").select_option("slovenian-4")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("heading", name="Add house rules")).to_be_visible()
    page.get_by_label("Name").fill("Radelci −100")
    page.get_by_label("Preset").select_option("seed")
    page.get_by_label("New sessions of the variant start with these").select_option(label="yes")
    page.get_by_label("Radelci", exact=True).select_option(label="on")
    # A penalty above 0 is refused by the engine, at its field; nothing typed is lost.
    page.get_by_label("Penalty per unused radelc").fill("100")
    page.get_by_role("button", name="Save the house rules").click()
    expect(page.locator("#id_switch_radelc_penalty_error")).to_have_text("must be at most 0")
    expect(page.get_by_label("Name")).to_have_value("Radelci −100")
    fits(page)
    assert not HouseRules.objects.exists()

    page.get_by_label("Penalty per unused radelc").fill("−100")
    page.get_by_role("button", name="Save the house rules").click()
    expect(page.get_by_text("House rules Radelci −100 added.")).to_be_visible()
    expect(page.locator("main")).to_contain_text("penalty per unused radelc: −100 (preset: 0)")
    fits(page)

    page.get_by_role("link", name="Ljubljana Tarock").click()
    page.get_by_role("button", name="Start a session").click()
    page.get_by_label("Variant").select_option("slovenian-4")
    # The club's default is chosen already; the set is named in the list too.
    expect(page.get_by_label("House rules")).to_have_value("")
    page.get_by_label("House rules").select_option(label="Radelci −100 (default)")
    for seat, name in enumerate(["Ana", "Bor", "Cene", "Dani"], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=name)
    page.get_by_label("Table").fill("Window")
    page.get_by_role("button", name="Start the session").click()
    expect(page.get_by_role("heading", name=re.compile("Window"))).to_be_visible()
    header = page.locator("hgroup")
    expect(header).to_contain_text("house rules: Radelci −100 (preset standard rules)")
    expect(page.locator("main")).to_contain_text("radelci: on (preset: off)")
    fits(page)

    page.get_by_role("button", name="Record a hand").click()
    page.locator("#id_contract > label", has_text=re.compile("^klop$")).click()
    for seat, points in enumerate(["20", "20", "20", "10"], start=1):
        page.locator(f"input[name='pbp-{seat}']").fill(points)
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#hand-1")).to_be_visible()

    session = Session.objects.get(club=club)
    page.goto(f"/c/{club.slug}/sessions/{session.pk}/")
    page.get_by_role("button", name="Close the session").click()
    page.get_by_role("button", name="Close", exact=True).click()
    expect(page.get_by_text("The session is closed.")).to_be_visible()
    # Everyone holds the radelc of the klop, unused: 1 × −100 each.
    notes = page.locator("tr.note", has_text="unused radelci 1 × −100")
    expect(notes).to_have_count(4)
    amounts = page.locator("tr.closing td").all_inner_texts()
    assert [a for a in amounts if a] == ["−100"] * 4
    fits(page)
    session.refresh_from_db()
    assert [amounts for _words, amounts in session.closing["lines"]] == [
        {name: -100} for name in ("Ana", "Bor", "Cene", "Dani")
    ]
    assert session.rules["radelc_penalty"] == -100
    assert page.console_errors == [], page.console_errors
