"""An admin on a phone adds the club's season; a wrong date is refused at its field."""

import datetime
import re

import pytest
from playwright.sync_api import expect

from scorebook.models import Season

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user


def test_an_admin_adds_a_season_on_a_phone(phone, club, members):
    page = phone
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alma")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.get_by_role("link", name="Ljubljana Tarock").click()
    page.get_by_role("button", name="Seasons").click()
    expect(page.get_by_role("heading", name="Seasons")).to_be_visible()

    page.get_by_label("Name").fill("Winter")
    page.get_by_label("Starts on").fill("2026-10-01")
    page.get_by_label("Ends on").fill("2026-09-01")
    page.get_by_role("button", name="Add the season").click()
    expect(page.locator("#id_ends_on_error")).to_have_text(
        "A season ends on or after the day it starts."
    )
    expect(page.get_by_label("Name")).to_have_value("Winter")  # nothing typed is lost
    assert not Season.objects.exists()

    page.get_by_label("Ends on").fill("2027-03-31")
    page.get_by_role("button", name="Add the season").click()
    expect(page.get_by_text("Season Winter added.")).to_be_visible()
    expect(page.locator("table")).to_contain_text(re.compile("Winter"))
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert Season.objects.get(club=club).ends_on.isoformat() == "2027-03-31"


# What a thumb taps on these pages: each at least 44 px high.
TARGETS = "main button, main [role=button], main input:not([type=hidden]), main select"


def at_phone_width(page, url):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(url)
    # Against the 360 px set, not window.innerWidth: a phone widens its layout to fit a page
    # that is too wide (and zooms out), so innerWidth grows with the fault.
    sideways = page.evaluate("document.documentElement.scrollWidth") - 360
    assert sideways <= 0, f"{url} scrolls {sideways} px sideways at 360 px"
    low = [
        (box["height"], text)
        for target in page.locator(TARGETS).all()
        if target.is_visible()
        for box, text in [
            (target.bounding_box(), target.inner_text() or target.get_attribute("name"))
        ]
        if box["height"] < 44
    ]
    assert not low, f"tap targets under 44 px on {url}: {low}"


def test_the_seasons_pages_fit_a_360_px_phone(phone, club, members):
    page = phone
    Season.objects.create(
        club=club,
        name="Autumn league of the Ljubljana club",
        starts_on=datetime.date(2026, 9, 1),
        ends_on=datetime.date(2026, 10, 31),
    )
    winter = Season.objects.create(club=club, name="Winter", starts_on=datetime.date(2026, 11, 1))
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alma")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    at_phone_width(page, f"/c/{club.slug}/seasons/")
    expect(page.locator("table")).to_contain_text("running")
    at_phone_width(page, f"/c/{club.slug}/seasons/{winter.pk}/")
    # An overlap is refused at its field, on a page that still fits.
    page.get_by_label("Starts on").fill("2026-10-15")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#id_starts_on_error")).to_contain_text("Autumn league")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
