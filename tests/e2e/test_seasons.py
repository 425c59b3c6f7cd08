"""An admin on a phone adds the club's season; a wrong date is refused at its field."""

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
