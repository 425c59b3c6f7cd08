"""One phone, several people (issue 22): one browser has one login, which a login in any tab
replaces in every tab. A hand kept on the phone is sent only under the login of the person who
saved it; the worker's copies of pages are one person's, shown only while his login lasts;
logging out needs no connection."""

import datetime
import json
import re
import time

import pytest
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.core.signals import request_started
from django.utils import timezone
from django.utils.crypto import get_random_string
from playwright.sync_api import expect

from scorebook.models import Hand
from tests.e2e.test_offline import (
    controlled,
    fill_hand,
    form_url,
    offline,
    pending,
    ready_for_offline,
    save_offline,
)
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
    expect(page.locator("#hand-heading")).to_have_text(re.compile(r"^Next hand — 1 waiting"))
    expect(pending(page)).to_have_count(1)


def script_errors(page):
    """What went wrong in the page's scripts (the browser also logs each send that failed, as
    these tests make them fail)."""
    return [e for e in page.console_errors if not e.startswith("Failed to load resource")]


def outbox(page):
    return page.evaluate("ScorebookStore.entries()")


def page_caches(context) -> list[str]:
    [worker] = context.service_workers
    names = worker.evaluate("caches.keys()")
    return [name for name in names if name.startswith("scorebook-pages:")]


def soon(condition, seconds=10):
    """Wait for what the worker does after a page is answered (its waitUntil)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not done in time"
        time.sleep(0.1)


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
    alma = alma_tab.evaluate("document.body.dataset.user")
    soon(lambda: page_caches(context) == ["scorebook-pages:" + alma])  # none of saso's
    context.unroute(HAND_NEW)

    saso_tab.evaluate("ScorebookSender.sendAll()")  # what its round every 20 s does
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
    [after] = worker.evaluate("ScorebookStore.entries()")
    assert (after["state"], after["status"]) == ("waiting", "other-user")

    # alma hands the phone back: saso logs in, and his hand is recorded as his.
    log_in(page)
    page.goto(sheet_url(session))
    expect(page.locator("tbody.hand")).to_have_count(1, timeout=20_000)
    hand = Hand.objects.get()
    assert (hand.data["declarer"], hand.created_by.username) == ("Ana", "saso")
    assert script_errors(page) == []


# --- The worker's copies of pages ---------------------------------------------------------


def login_ends_in(context, seconds) -> float:
    """The browser's login ends `seconds` from now (as a login a fortnight old does): the
    pages seen from now on say so. The time it ends, for time.time()."""
    [cookie] = [c for c in context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME]
    login = SessionStore(session_key=cookie["value"])
    login.set_expiry(timezone.now() + datetime.timedelta(seconds=seconds))
    login.save()
    return time.time() + seconds


def no_copy_shown(page, url):
    page.goto(url)
    expect(page.get_by_role("heading", name="No connection")).to_be_visible()
    expect(page.locator("table.hands")).to_have_count(0)
    expect(page.locator("form.hand-form")).to_have_count(0)


def test_kept_pages_are_not_shown_once_the_login_has_ended(phone, session, members):
    page = phone
    log_in(page)
    ends = login_ends_in(page.context, 20)  # time enough to see the pages first, when slow
    page.goto(sheet_url(session))
    controlled(page)
    page.get_by_role("button", name="Record a hand").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Hand \d+$"))).to_be_visible()
    page.goto(sheet_url(session))  # through the worker: its copy says when the login ends
    other = page.context.new_page()
    with offline(page.context):
        for tab in (page, other):  # still his
            tab.goto(sheet_url(session))
            expect(tab.get_by_role("heading", name="Sheet")).to_be_visible()
        time.sleep(max(0.0, ends - time.time()) + 0.5)
        no_copy_shown(page, sheet_url(session))
        no_copy_shown(other, form_url(session))


def test_a_page_for_nobody_drops_the_copies_at_once_in_every_tab(phone, session, members):
    page = phone
    context = page.context
    ready_for_offline(page, session)
    other = context.new_page()
    other.goto(sheet_url(session))
    expect(other.get_by_role("heading", name="Sheet")).to_be_visible()
    assert page_caches(context)

    Session.objects.all().delete()  # the login ended on the server (expired, say)
    other.goto(sheet_url(session))
    expect(other.get_by_role("button", name="Log in")).to_be_visible()  # answered for nobody
    soon(lambda: page_caches(context) == [])
    with offline(context):
        no_copy_shown(page, sheet_url(session))
        no_copy_shown(other, form_url(session))


# --- Logging out without a connection -----------------------------------------------------


def open_menu(page):
    page.locator("details.site-menu > summary").press("Enter")  # as test_invitation.py does


@pytest.mark.parametrize(
    "tabs,new_csrf_cookie",
    [(1, False), (2, False), (1, True)],
    ids=["one-tab", "two-tabs", "csrf-cookie-changed"],
)
def test_logging_out_offline_logs_out_every_tab_and_is_sent_first(
    tabs, new_csrf_cookie, phone, session, members
):
    page = phone
    context = page.context
    ready_for_offline(page, session)
    pages = [page] + [context.new_page() for _ in range(tabs - 1)]
    for tab in pages[1:]:
        tab.goto(sheet_url(session))
        expect(tab.get_by_role("heading", name="Sheet")).to_be_visible()
    [login] = [c["value"] for c in context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME]
    arrived = []

    def count(sender, environ, **kwargs):
        if environ["PATH_INFO"] != "/sw.js":  # the browser's own update check of the worker
            arrived.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))

    with offline(context) as reached:
        page.get_by_role("button", name="Record a hand").click()
        save_offline(page, "Ana", "Cene", "40")
        open_menu(page)
        page.get_by_role("button", name="Log out").click()
        for tab in pages:
            expect(tab.get_by_role("heading", name="No connection")).to_be_visible()
            # The offline page names no account: logged out, its menu is gone (issue 26).
            expect(tab.get_by_role("link", name="Log in")).to_have_count(0)
            expect(tab.locator("details.site-menu")).to_have_count(0)
        soon(lambda: page_caches(context) == [])
        no_copy_shown(pages[-1], sheet_url(session))
        no_copy_shown(page, form_url(session))
        assert reached == [], f"offline, yet the server was asked for {reached}"
        assert Session.objects.filter(session_key=login).exists()  # not yet: no connection
        if new_csrf_cookie:  # as a login in another tab since the page leaves it
            [csrf] = [c for c in context.cookies() if c["name"] == settings.CSRF_COOKIE_NAME]
            context.add_cookies([{**csrf, "value": get_random_string(32)}])
        request_started.connect(count)
    try:
        page.goto(sheet_url(session))
        expect(page.get_by_role("button", name="Log in")).to_be_visible()
    finally:
        request_started.disconnect(count)

    assert arrived[0] == ("POST", "/accounts/logout/"), arrived
    if new_csrf_cookie:  # refused with the page's token, sent again with the cookie's
        assert arrived[1] == ("POST", "/accounts/logout/"), arrived
    assert ("GET", sheet_url(session)) in arrived
    assert not Session.objects.filter(session_key=login).exists()
    # The hand waits for saso, and is sent as his when he logs in again.
    assert Hand.objects.count() == 0
    assert [kept["state"] for kept in outbox(page)] == ["waiting"]
    log_in(page)
    page.goto(sheet_url(session))
    expect(page.locator("tbody.hand")).to_have_count(1, timeout=20_000)
    assert Hand.objects.get().created_by == members["scorekeeper"]
    assert script_errors(page) == []
