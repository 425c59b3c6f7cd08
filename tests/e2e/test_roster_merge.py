"""An admin on a 360 px phone merges a duplicate roster player into the one kept: a confirm
page first, then the kept player's league page shows the moved hands."""

import datetime
import re
import uuid

import pytest
from playwright.sync_api import expect

from scorebook import hands, services
from scorebook.league import services as league
from scorebook.models import Player
from tests.e2e.test_league import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NARROW = {"width": 360, "height": 780}

# What a thumb taps in the page's content: buttons, fields, and links drawn as buttons.
TARGETS = """() => [...document.querySelectorAll(
    'main button, main input:not([type=hidden]), main select, main a[role=button]')]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.textContent.trim() || e.name, e.getBoundingClientRect().height])"""


def fits_a_thumb(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    targets = page.evaluate(TARGETS)
    assert len(targets) >= 2
    assert [target for target in targets if target[1] < 44] == []


def evening(club, four, day, declarer):
    session = services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="seed",
        players=four,
        user=None,
        date=datetime.date(2026, 11, day),
    )
    data = {"contract": "two", "declarer": declarer, "partner": four[1].name, "points": 39}
    hands.record_hand(session, data, uuid.uuid4(), None)


def test_an_admin_merges_a_duplicate_on_a_phone(phone, club, players, members):
    ana, bor, cene, dani = players[:4]
    twin = Player.objects.create(club=club, name="ana (ana)")
    evening(club, [ana, bor, cene, dani], 1, "Ana")
    evening(club, [twin, bor, cene, dani], 2, "ana (ana)")
    league.rebuild_ratings(club)
    page = phone
    page.set_viewport_size(NARROW)
    log_in(page, "alma")
    page.get_by_role("link", name="Ljubljana Tarock").click()
    page.get_by_role("button", name="Roster").click()
    page.get_by_role("row").filter(has_text="ana (ana)").get_by_role("button", name="Open").click()

    expect(page.get_by_role("heading", name="ana (ana)")).to_be_visible()
    fits_a_thumb(page)
    page.get_by_label("Player to keep").select_option(label="Ana")
    page.get_by_role("button", name="Merge…").click()

    expect(page.get_by_role("heading", name="Merge ana (ana) into Ana?")).to_be_visible()
    fits_a_thumb(page)
    assert Player.objects.filter(pk=twin.pk).exists()  # nothing happens before the confirm
    page.get_by_role("button", name="Merge", exact=True).click()

    expect(page.get_by_text("ana (ana) is merged into Ana.")).to_be_visible()
    assert not Player.objects.filter(pk=twin.pk).exists()
    page.goto(f"/c/{club.slug}/league/players/{ana.pk}/")
    expect(page.get_by_role("heading", name="Ana", exact=True)).to_be_visible()
    summary = page.locator("dl.player-summary")
    expect(summary).to_contain_text(re.compile(r"Sessions\s*2"))
    expect(summary).to_contain_text(re.compile(r"Hands\s*2"))
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    assert page.console_errors == []
