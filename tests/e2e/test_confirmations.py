"""Confirmed hands on real phones at 360 px (issue 27): one phone records and the other side
confirms on its own; the same phone handed over to a defender; a dispute the admin resolves; a
required session that will not close until its last hand is confirmed; a tournament table
whose round ends only when its hands are; a word said without signal, kept in the phone's
outbox and sent once when the connection is back."""

import datetime
import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from scorebook import hands
from scorebook.models import HandConfirmation, Session
from scorebook.tournaments import services
from scorebook.tournaments.models import Round, Tournament
from tests.e2e.conftest import new_phone
from tests.e2e.test_offline import controlled, offline, pending, soon
from tests.e2e.test_record_hand import chip, log_in, sheet_url
from tests.scorebook import test_confirmations
from tests.tournaments import fixtures
from tests.tournaments.helpers import announce

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The shared fixtures, under their own names so that pytest finds them here.
table = test_confirmations.table
people = fixtures.people
organiser = fixtures.organiser

SMALL = {"width": 360, "height": 780}


def fits(page) -> None:
    """Nothing scrolls sideways on a 360 px phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= SMALL["width"]


def another_phone(browser, live_server):
    page = new_phone(browser, live_server)
    page.set_viewport_size(SMALL)
    return page


def record(page, session, points):
    """From the sheet: Ana and Cene play three, their side took `points`; the save answers
    with the sheet."""
    page.goto(sheet_url(session))
    page.get_by_role("button", name="Record a hand").click()
    chip(page, "declarer", "Ana").click()
    chip(page, "partner", "Cene").click()
    page.get_by_label(re.compile("Card points of the declarer's side")).fill(points)
    page.get_by_role("button", name="Save the hand").click()
    expect(page.get_by_role("heading", name="Sheet")).to_be_visible()


def state(page, number):
    return page.locator(f"#confirmation-{number}")


def hand_over(page, defender):
    """The sheet's offer after a save: the phone goes to `defender`, who taps his name."""
    page.get_by_role("button", name="Confirm — pass the phone to a defender").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Confirm hand \d+$"))).to_be_visible()
    expect(page.locator("fieldset.seats > label")).to_have_text(["Bor", "Dani"])
    fits(page)
    page.locator("fieldset.seats > label", has_text=defender).click()
    page.get_by_role("button", name="Correct").click()


def something_is_wrong(page, reason):
    """On the player's own phone: the hand waiting for him is not right, and why."""
    page.locator(".confirm-mine li").get_by_role("button", name="Something is wrong").click()
    page.locator("details.confirm-wrong > summary").click()
    page.get_by_label("What is wrong, in a few words").fill(reason)
    fits(page)
    page.get_by_role("button", name="Say that something is wrong").click()


def test_two_phones_a_phone_handed_over_a_dispute_and_a_session_that_waits_to_close(
    phone, browser, live_server, table, members
):
    Session.objects.filter(pk=table.pk).update(confirmation="required")
    ana = phone
    ana.set_viewport_size(SMALL)
    log_in(ana, "ana")

    # Hand 1: Ana hands her phone to Dani, who taps his name and "Correct".
    record(ana, table, "45")
    hand_over(ana, "Dani")
    expect(state(ana, 1)).to_contain_text("confirmed by Dani (at the table)")

    # Hand 2: Bor confirms on his own phone; Ana's sheet shows it at its next poll.
    record(ana, table, "50")
    bor = another_phone(browser, live_server)
    log_in(bor, "bor")
    bor.goto(sheet_url(table))
    mine = bor.locator(".confirm-mine li")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("three — Ana, Cene 50")
    fits(bor)
    mine.get_by_role("button", name="Correct").click()
    expect(bor.get_by_text("Hand 2 is confirmed.")).to_be_visible()
    expect(state(bor, 2)).to_contain_text("confirmed by Bor (own phone)")
    expect(state(ana, 2)).to_contain_text("confirmed by Bor (own phone)", timeout=15_000)

    # Hand 3: Bor says something is wrong.
    record(ana, table, "55")
    bor.reload()
    something_is_wrong(bor, "we took 50, not 55")
    expect(state(bor, 3)).to_contain_text("disputed by Bor: we took 50, not 55")

    # The session waits for it: closing is refused with the reason.
    ana.goto(f"/c/{table.club.slug}/sessions/{table.pk}/")
    ana.get_by_role("button", name="Close the session").click()
    ana.get_by_role("button", name="Close", exact=True).click()
    expect(ana.get_by_text("Hand 3 is not confirmed yet")).to_be_visible()
    assert not Session.objects.get(pk=table.pk).is_closed

    # The club's admin accepts it as recorded, on his phone (Bor's, now logged in as alma).
    log_in(bor, "alma")
    bor.goto(f"/c/{table.club.slug}/disputes/")
    dispute = bor.locator("article.dispute")
    expect(dispute).to_contain_text("disputed by Bor: we took 50, not 55")
    fits(bor)
    dispute.get_by_role("button", name="Accept as recorded").click()
    expect(bor.get_by_text("Hand 3 is accepted as recorded.")).to_be_visible()

    ana.get_by_role("button", name="Close the session").click()
    ana.get_by_role("button", name="Close", exact=True).click()
    expect(ana.get_by_text("The session is closed.")).to_be_visible()
    assert ana.console_errors == [] and bor.console_errors == []
    bor.context.close()


def test_a_tournament_tables_round_ends_only_when_its_hands_are_confirmed(
    phone, club, people, organiser
):
    tournament = announce(club, organiser, confirmation="required")
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() + datetime.timedelta(minutes=10)
    )
    for user in people[:4]:
        services.confirm_presence(services.register(tournament, user))
    services.start_tournament(tournament)
    (first,) = Round.objects.get(tournament=tournament, number=1).tables.all()
    names = [p.name for p in first.session.seated_players()]
    piles = dict(zip(names, (5, 10, 20, 35), strict=True))
    data = {"contract": "klop", "points_by_player": piles}
    hands.record_hand(first.session, data, "00000000-0000-4000-8000-0000000000c1", None)

    page = phone
    page.set_viewport_size(SMALL)
    log_in(page, "ana")
    page.goto(f"/c/{club.slug}/tournaments/{tournament.pk}/draw/")
    expect(page.get_by_role("heading", name="Round 1")).to_be_visible()
    expect(page.get_by_role("heading", name="Round 2")).to_have_count(0)  # played, not confirmed
    page.get_by_role("link", name="Confirm its hands").click()
    expect(page.get_by_role("heading", name="Hands waiting for your word")).to_be_visible()
    fits(page)
    page.get_by_role("button", name="Correct").click()
    expect(page.get_by_text("Hand 1 is confirmed.")).to_be_visible()
    page.goto(f"/c/{club.slug}/tournaments/{tournament.pk}/draw/")
    expect(page.get_by_role("heading", name="Round 2")).to_be_visible()
    assert page.console_errors == []


def test_a_word_said_without_signal_is_kept_and_sent_once_when_back(phone, table, members):
    test_confirmations.record(table, table.users["Ana"])  # two — Ana, Cene 45
    bor = phone
    bor.set_viewport_size(SMALL)
    log_in(bor, "bor")
    bor.goto(sheet_url(table))
    controlled(bor)
    bor.goto(sheet_url(table))  # through the worker: its copy of the sheet is fresh

    with offline(bor.context) as reached:
        bor.locator(".confirm-mine li").get_by_role("button", name="Correct").click()
        expect(bor.locator(".confirm-mine .word-kept")).to_have_text(
            "Your word is kept on this phone; it is sent when the connection is back."
        )
        expect(pending(bor)).to_have_count(1)
        expect(pending(bor)).to_contain_text("Hand 1 · Correct: two — Ana, Cene 45 — +30")
        fits(bor)
        assert reached == []
        assert not HandConfirmation.objects.exists()

    # Back online: sent by itself, once; the sheet shows it confirmed.
    expect(state(bor, 1)).to_contain_text("confirmed by Bor (own phone)", timeout=15_000)
    expect(pending(bor)).to_have_count(0)
    bor.reload()
    expect(state(bor, 1)).to_contain_text("confirmed by Bor (own phone)")
    soon(lambda: HandConfirmation.objects.count() == 1)
    assert list(HandConfirmation.objects.values_list("state", "player__name")) == [
        ("confirmed", "Bor")
    ]
    assert bor.console_errors == []
