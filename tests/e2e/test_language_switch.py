"""A member chooses her language on a 360 px phone, without and after logging in, and finds it
again after logging out and in on a phone that never saw her choice.

The pages are told apart by `<html lang>` and by the login form's labels, which Django's own
catalogue translates; the controls are found by their places, not their (translated) names.
"""

import pytest
from playwright.sync_api import expect

from scorebook.models import Profile

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user
NARROW = {"width": 360, "height": 780}
THUMB = 44  # px: the least height of what a thumb taps


def switch_to(page, language: str) -> None:
    """The switcher of this page (the menu's, or the one below the page), as a thumb uses it."""
    switcher = page.locator("form.language-switch")
    select, button = switcher.locator("select"), switcher.locator("button")
    for target in (select, button):
        assert target.bounding_box()["height"] >= THUMB
    select.select_option(language)
    button.click()


def open_menu(page) -> None:
    # From the keyboard, as the other browser tests open it (issue 16).
    page.locator("details.site-menu > summary").press("Enter")


def log_in(page, username: str) -> None:
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page.locator("details.site-menu")).to_be_visible()


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], page.url


def test_the_choice_stays_after_logging_out_and_in_again(phone, club, members):
    page = phone
    page.set_viewport_size(NARROW)

    # Not logged in yet: the switcher is below the login form. French, and Django's French.
    page.goto("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    fits(page)
    switch_to(page, "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("label[for=id_username]")).to_have_text("Nom d’utilisateur")

    # Logging in keeps the choice made before.
    log_in(page, "vida")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert Profile.objects.get(user=members["viewer"]).language == "fr"

    # Logged in, the switcher is in the menu, and it fits the one-line header's phone.
    open_menu(page)
    fits(page)
    switch_to(page, "de")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert Profile.objects.get(user=members["viewer"]).language == "de"

    # Logged out, this phone still reads German.
    open_menu(page)
    page.locator("details.site-menu form[action$='/logout/'] button").click()
    page.goto("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("label[for=id_username]")).to_have_text("Benutzername")

    # Another phone (no cookie): English until she logs in, then German, from her profile.
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    log_in(page, "vida")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    page.goto(f"/c/{club.slug}/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    assert page.console_errors == []
