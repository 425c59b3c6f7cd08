"""Starting a session on a phone: the house-rules choice offers only the chosen variant's sets
and presets, each by its name (a static script; without it the server refuses a mismatch)."""

import pytest
from playwright.sync_api import expect

from scorebook.models import Session

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user


def offered(page) -> list[str]:
    """The house-rules choices a person can pick: the visible, enabled options."""
    return page.evaluate(
        """() => [...document.querySelectorAll('#id_preset option')]
              .filter(o => !o.disabled && !o.parentElement.disabled && !o.parentElement.hidden)
              .map(o => o.text)"""
    )


def test_the_house_rules_offered_follow_the_variant(phone, club, members, players):
    page = phone
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("saso")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/c/{club.slug}/sessions/new/")

    page.get_by_label("variant").select_option(label="Slovenian tarok, 4 players")
    assert offered(page) == [
        "the club's default for the variant",
        "standard rules",
        "Tarok zveza Slovenije (TARZS)",
    ]
    page.get_by_label("house rules").select_option(label="Tarok zveza Slovenije (TARZS)")

    page.get_by_label("variant").select_option(label="French tarot, 4 players")
    assert offered(page) == [
        "the club's default for the variant",
        "Fédération Française de Tarot (FFT)",
    ]
    # TARZS is no choice for French tarot: back to the club's default, not sent along.
    expect(page.get_by_label("house rules")).to_have_value("")

    for seat, player in enumerate(players[:4], start=1):
        page.get_by_label(f"Seat {seat}", exact=True).select_option(label=player.name)
    page.get_by_role("button", name="Start the session").click()
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert Session.objects.get().rules["preset"] == "fft"
    assert page.console_errors == []
