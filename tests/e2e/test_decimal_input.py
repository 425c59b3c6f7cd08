"""A French scorekeeper on a 360 px phone types a half point with a decimal comma: "40,5" is
40.5 card points, not the 405 that Chromium makes of it in an <input type=number>."""

import datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

from scorebook.models import Hand, Session, SessionSeat
from tests.e2e.test_record_hand import log_in, sheet_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH = 360
THUMB = 44  # px: the least height of what a thumb taps


@pytest.fixture
def narrow(browser, live_server):
    device = {**browser.pixel_7, "viewport": {"width": WIDTH, "height": 780}}
    context = browser.new_context(**device, base_url=live_server.url)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.console_errors = []
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    yield page
    context.close()


@pytest.fixture
def french(club, players, members):
    """French tarot for three (piles may end in a half): Ana, Bor and Cene."""
    session = Session.objects.create(
        club=club,
        variant="french-3",
        rules={"preset": "fft"},
        date=datetime.date(2026, 11, 27),
        created_by=members["scorekeeper"],
    )
    for position, player in enumerate(players[:3], start=1):
        SessionSeat.objects.create(session=session, player=player, position=position)
    return session


def fits(page) -> None:
    """Nothing scrolls sideways at 360 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH, page.url


def tap_option(page, field: str, value: str) -> None:
    """Tap the chip of `value` in the chips of `field` (whatever its words in French)."""
    chip_id = page.locator(f"#id_{field} input[value='{value}']").get_attribute("id")
    page.locator(f"label[for='{chip_id}']").click()


def test_a_decimal_comma_records_a_half_point(narrow, live_server, french):
    page = narrow
    log_in(page)  # in English: the page speaks French once the scorekeeper chooses it
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": "fr", "url": live_server.url}]
    )
    page.goto(sheet_url(french))
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.locator("a[href$='/hands/new/']").first.click()
    expect(page.locator("#id_points")).to_be_visible()

    tap_option(page, "contract", "garde")
    tap_option(page, "declarer", "1")
    points = page.locator("#id_points")
    expect(points).to_have_attribute("inputmode", "decimal")
    assert points.bounding_box()["height"] >= THUMB
    points.click()
    page.keyboard.type("40,5")
    expect(points).to_have_value("40,5")  # an <input type=number> would hold 405
    tap_option(page, "oudlers", "2")

    # The live score reads the half point (the engine's line, in French) before any save:
    # 40,5 of the 41 two oudlers need is a garde lost by 1, (25 + 1) × 2 from Ana to each.
    result = page.locator("#hand-result")
    expect(result).to_contain_text("40,5")
    expect(result.locator("table.amounts")).to_contain_text("−104")
    fits(page)
    page.locator(".save button[name=save]").click()

    expect(page.locator("#hand-1")).to_be_visible()
    assert page.locator("#hand-1 .amount").all_inner_texts() == ["−104", "52", "52"]
    hand = Hand.objects.get(session=french)
    assert hand.data["points"] == 40.5
    fits(page)
    assert page.console_errors == [], page.console_errors


def test_a_minus_on_a_keypad_without_one(narrow, session):
    """An adjustment takes from one player what it gives another; iOS's decimal keypad has no
    minus key, so the ± beside each amount flips its sign."""
    page = narrow
    log_in(page)
    page.goto(sheet_url(session))
    page.locator("a[href$='/hands/new/']").first.click()
    tap_option(page, "contract", "adjustment")

    ana, bor = page.locator("#id_adj-1"), page.locator("#id_adj-2")
    flip = page.locator("button[data-sign-of='id_adj-1']")
    expect(flip).to_be_visible()
    box = flip.bounding_box()
    assert box["height"] >= THUMB and box["width"] >= THUMB, box
    expect(ana).to_have_attribute("inputmode", "decimal")
    ana.click()
    page.keyboard.type("7,5")
    flip.click()
    expect(ana).to_have_value("-7,5")
    flip.click()  # a second tap gives the plus back
    expect(ana).to_have_value("7,5")
    flip.click()
    bor.click()
    page.keyboard.type("7,5")
    page.locator("#id_adj_reason").fill("dealt wrong")

    # The live score follows the flipped sign before any save.
    result = page.locator("#hand-result table.amounts")
    expect(result).to_contain_text("Ana−7.50Bor7.50")
    fits(page)
    page.locator(".save button[name=save]").click()

    expect(page.locator("#hand-1")).to_be_visible()
    assert page.locator("#hand-1 .amount").all_inner_texts()[:2] == ["−7.50", "7.50"]
    adjustments = Hand.objects.get(session=session).data["adjustments"]
    assert [(a["player"], a["amount"]) for a in adjustments] == [("Ana", -7.5), ("Bor", 7.5)]
    assert page.console_errors == [], page.console_errors
