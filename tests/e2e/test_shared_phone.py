"""One phone, several people (issue 22): one browser has one login, which a login in any tab
replaces in every tab. A hand kept on the phone is sent only under the login of the person who
saved it."""

import json
import re

import pytest
from playwright.sync_api import expect

from scorebook.models import Hand
from tests.e2e.test_offline import fill_hand, form_url, pending
from tests.e2e.test_record_hand import log_in, sheet_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HAND_NEW = re.compile(r"/hands/new/$")


def no_network_for_saves(route):
    """A save that finds no network (the page's send and the worker's alike); pages load."""
    if route.request.method == "POST":
        route.abort("internetdisconnected")
    else:
        route.continue_()


def keep_a_hand(page, declarer="Ana", partner="Cene", points="40"):
    """Saved on the phone, its send lost: it waits in the outbox."""
    page.context.route(HAND_NEW, no_network_for_saves)
    page.goto(form_url(page.session))
    fill_hand(page, declarer, partner, points)
    page.get_by_role("button", name="Save the hand").click()
    expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
    expect(pending(page)).to_have_count(1)


def script_errors(page):
    """What went wrong in the page's scripts (the browser also logs each send that failed, as
    these tests make them fail)."""
    return [e for e in page.console_errors if not e.startswith("Failed to load resource")]


def outbox(page):
    return page.evaluate("ScorebookOutbox.entries()")


def test_a_hand_is_not_sent_under_the_login_of_somebody_who_logged_in_in_another_tab(
    phone, session, members
):
    saso_tab = phone
    saso_tab.session = session
    context = saso_tab.context
    log_in(saso_tab)
    keep_a_hand(saso_tab)

    alma_tab = context.new_page()
    log_in(alma_tab, "alma")  # saso's tab is alma's now too: one browser, one login
    alma_tab.goto(sheet_url(session))
    expect(alma_tab.get_by_role("heading", name="Sheet")).to_be_visible()
    context.unroute(HAND_NEW)

    saso_tab.evaluate("ScorebookOutbox.sendAll()")  # what its round every 20 s does
    expect(pending(saso_tab)).to_contain_text("Saved by saso: log in as saso to send it.")
    expect(pending(saso_tab).get_by_role("link", name="Log in")).to_be_visible()
    assert Hand.objects.count() == 0
    [kept] = outbox(saso_tab)
    assert (kept["state"], kept["status"], kept["userName"]) == ("waiting", "other-user", "saso")

    # Shown only to its owner, and it holds back nothing of alma's.
    alma_tab.reload()
    expect(alma_tab.get_by_role("heading", name="Sheet")).to_be_visible()
    expect(pending(alma_tab)).to_have_count(0)
    alma_tab.goto(form_url(session))
    fill_hand(alma_tab, "Bor", "Dani", "50")
    alma_tab.get_by_role("button", name="Save the hand").click()
    expect(alma_tab.locator("#hand-1")).to_be_visible()

    # saso logs in again: his hand is sent, as his.
    log_in(alma_tab)
    alma_tab.goto(sheet_url(session))
    expect(alma_tab.locator("tbody.hand")).to_have_count(2, timeout=20_000)
    expect(pending(alma_tab)).to_have_count(0)
    hands = Hand.objects.order_by("number")
    assert [(h.data["declarer"], h.created_by.username) for h in hands] == [
        ("Bor", "alma"),
        ("Ana", "saso"),
    ]
    assert outbox(alma_tab) == []
    assert script_errors(saso_tab) == []


def test_one_tab_handed_over_keeps_the_hand_for_the_one_who_saved_it(phone, session, members):
    page = phone
    page.session = session
    context = page.context
    log_in(page)
    keep_a_hand(page)
    [kept] = outbox(page)

    log_in(page, "alma")
    page.goto(sheet_url(session))
    expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
    context.unroute(HAND_NEW)
    expect(pending(page)).to_have_count(0)  # not alma's to see
    # Background Sync while the worker still takes the login for saso's (it learns whose it
    # is from the pages it sees: a login answered by a redirect is not one): saso's hand goes
    # out with alma's cookie, and waits.
    [worker] = context.service_workers
    worker.evaluate(f"currentUser = {json.dumps(kept['user'])}")
    assert worker.evaluate("sendOutbox().then(() => 'sent', () => 'waiting')") == "waiting"
    assert Hand.objects.count() == 0
    [after] = worker.evaluate("ScorebookOutbox.entries()")
    assert (after["state"], after["status"]) == ("waiting", "other-user")

    # alma hands the phone back: saso logs in, and his hand is recorded as his.
    log_in(page)
    page.goto(sheet_url(session))
    expect(page.locator("tbody.hand")).to_have_count(1, timeout=20_000)
    hand = Hand.objects.get()
    assert (hand.data["declarer"], hand.created_by.username) == ("Ana", "saso")
    assert script_errors(page) == []
