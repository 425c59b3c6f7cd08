"""A long evening's sheet on a phone (issue 17): it opens on its latest rows, the older ones come
when scrolled up to (with JavaScript) or from a link (without), and a phone watching it gets
another phone's hand without losing the rows it shows."""

import itertools
import uuid

import pytest
from playwright.sync_api import expect

from scorebook import hands
from tests.e2e.test_record_hand import log_in, sheet_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

EVENING = [
    {"contract": "three", "declarer": "Ana", "partner": "Cene", "points": 40},
    {"contract": "two", "declarer": "Bor", "partner": "Dani", "points": 30},
    {"contract": "one", "declarer": "Cene", "partner": "Ana", "points": 45},
]
HANDS = 25


def play(session, user, count: int) -> None:
    for data in itertools.islice(itertools.cycle(EVENING), count):
        hands.record_hand(session, data, uuid.uuid4(), user)


def shown(page) -> list[str]:
    return page.locator("tbody.hand").evaluate_all("bodies => bodies.map(b => b.id)")


def test_a_watching_phone_gets_a_new_hand_and_keeps_the_older_rows(phone, session, members):
    play(session, members["scorekeeper"], HANDS)
    page = phone
    log_in(page, "vida")
    page.goto(sheet_url(session))
    # Opened at its top, the older rows are in view at once: they come in above the latest.
    expect(page.locator("tbody.hand")).to_have_count(HANDS)
    assert shown(page) == [f"hand-{n}" for n in range(1, HANDS + 1)]

    play(session, members["scorekeeper"], 1)  # another phone at the table
    expect(page.locator(f"#hand-{HANDS + 1}")).to_be_attached(timeout=12_000)  # polled: 5 s
    assert shown(page) == [f"hand-{n}" for n in range(1, HANDS + 2)]
    # The foot follows: the totals are the new hand's running totals.
    running = page.locator(f"#hand-{HANDS + 1} small.total").all_inner_texts()
    expect(page.locator("table.hands tfoot strong")).to_have_text(running)

    # Another phone voids the hand before: both rows change in place, nothing else moves.
    voided = session.hands.get(number=HANDS)
    hands.void_hand(voided, "misdeal", voided.version, members["scorekeeper"])
    expect(page.locator(f"#hand-{HANDS}.voided")).to_be_attached(timeout=12_000)
    assert shown(page) == [f"hand-{n}" for n in range(1, HANDS + 2)]
    expect(page.locator(f"#hand-{HANDS} summary")).to_contain_text("misdeal")
    running = page.locator(f"#hand-{HANDS + 1} small.total").all_inner_texts()
    expect(page.locator("table.hands tfoot strong")).to_have_text(running)
    assert page.console_errors == [], page.console_errors


def test_without_javascript_older_opens_the_whole_sheet(browser, live_server, session, members):
    play(session, members["scorekeeper"], HANDS)
    context = browser.new_context(
        **{**browser.pixel_7, "viewport": {"width": 360, "height": 740}},
        base_url=live_server.url,
        java_script_enabled=False,
    )
    page = context.new_page()
    log_in(page, "vida")
    page.goto(sheet_url(session))
    expect(page.locator("tbody.hand")).to_have_count(10)
    assert shown(page)[0] == f"hand-{HANDS - 9}"
    older = page.get_by_role("button", name="Earlier hands")
    assert older.bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    older.click()
    expect(page.locator("tbody.hand")).to_have_count(HANDS)
    assert "all=1" in page.url
    context.close()
