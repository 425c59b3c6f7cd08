"""The offline save that looks like a loss (issue 26): a hand saved without a connection on a
form the phone came to from the session's page. The phone stays on the hand form, says the
hand is kept and lists what waits; never the offline page of a sheet it had no copy of, with
"Log in" in its header. And the pages a player looks up at the table, opened online, are
there offline too; the offline page speaks the language of the last page.
"""

import re
import time

import pytest
from django.core.signals import request_started
from playwright.sync_api import expect

from scorebook.models import Hand, Player
from tests.e2e.test_language_switch import open_menu, switch_to
from tests.e2e.test_offline import controlled, fill_hand, form_url, offline, pending
from tests.e2e.test_record_hand import log_in, sheet_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HEADING = "#hand-heading"
STATUS = "#outbox .outbox-status"


def session_url(session):
    return f"/c/{session.club.slug}/sessions/{session.pk}/"


def soon(condition, seconds=10):
    """Wait for what the worker does after a page is answered (its waitUntil)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not done in time"
        time.sleep(0.1)


def kept_pages(context) -> set[str]:
    """The paths of the pages the worker keeps a copy of, for whoever it keeps them."""
    [worker] = context.service_workers
    return set(
        worker.evaluate(
            """async () => {
              const names = (await caches.keys()).filter((n) => n.startsWith("scorebook-pages:"));
              const keys = await Promise.all(names.map(async (name) => {
                const cache = await caches.open(name);
                return (await cache.keys()).map((request) => new URL(request.url).pathname);
              }));
              return keys.flat();
            }"""
        )
    )


def offline_pages(context) -> set[str]:
    """The copies of the offline page the worker keeps, by their address."""
    [worker] = context.service_workers
    return set(
        worker.evaluate(
            """async () => {
              const names = (await caches.keys()).filter((n) => n.startsWith("scorebook-shell:"));
              const cache = await caches.open(names[0]);
              return (await cache.keys()).map((request) => new URL(request.url))
                .filter((url) => url.pathname === "/offline/")
                .map((url) => url.pathname + url.search);
            }"""
        )
    )


def save(page):
    page.get_by_role("button", name="Save the hand").click()


def test_a_hand_saved_offline_shows_the_form_again_and_both_are_recorded_in_order(
    phone, session, members
):
    page = phone
    context = page.context
    log_in(page)
    page.goto(session_url(session))
    controlled(page)
    page.get_by_role("button", name="Record a hand").click()  # a link drawn as a button
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    # The hand form opened online keeps its sheet too, which this phone never opened.
    soon(lambda: {form_url(session), sheet_url(session)} <= kept_pages(context))

    with offline(context) as reached:
        fill_hand(page, "Ana", "Cene", "40")
        save(page)
        expect(page.locator(HEADING)).to_have_text(
            "Next hand — 1 waiting to be sent (numbered when it reaches the sheet)"
        )
        expect(page.locator(STATUS)).to_have_text("Hand kept on this phone: 1 waiting to be sent")
        expect(pending(page)).to_have_count(1)
        expect(pending(page).first).to_contain_text("Ana · Cene · 40")
        assert page.url.endswith(form_url(session))
        expect(page.get_by_role("heading", name="No connection")).to_have_count(0)
        expect(page.get_by_role("link", name="Log in")).to_have_count(0)
        # A fresh form for the next hand, from the worker's copy.
        expect(page.locator("#id_declarer input:checked")).to_have_count(0)

        page.reload()
        expect(page.locator(HEADING)).to_have_text(
            "Next hand — 1 waiting to be sent (numbered when it reaches the sheet)"
        )
        expect(page.locator(STATUS)).to_contain_text("waiting on this phone to be sent: 1")
        expect(pending(page)).to_have_count(1)
        fill_hand(page, "Bor", "Dani", "50")
        save(page)
        expect(page.locator(HEADING)).to_have_text(
            "Next hand — 2 waiting to be sent (numbered when it reaches the sheet)"
        )
        expect(page.locator(STATUS)).to_have_text("Hand kept on this phone: 2 waiting to be sent")
        expect(pending(page)).to_have_count(2)
        expect(pending(page).nth(1)).to_contain_text("Bor · Dani · 50")

        # "Back to the sheet": the worker's copy, with both hands waiting on it.
        page.get_by_role("link", name="Back to the sheet").click()
        expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
        expect(pending(page)).to_have_count(2)
        page.goto(form_url(session))
        expect(pending(page)).to_have_count(2)
        assert reached == [], f"offline, yet the server was asked for {reached}"
        assert Hand.objects.count() == 0

    # Back online on the hand form: both are sent, in order, and the form knows its number.
    expect(pending(page)).to_have_count(0, timeout=20_000)
    expect(page.locator(HEADING)).to_have_text("Hand 3")
    expect(page.locator(STATUS)).to_have_text("")
    stored = list(Hand.objects.filter(session=session).order_by("number"))
    assert [
        (h.number, h.data["declarer"], h.data["partner"], h.data["points"]) for h in stored
    ] == [
        (1, "Ana", "Cene", 40),
        (2, "Bor", "Dani", 50),
    ]
    assert len({hand.client_id for hand in stored}) == 2
    assert Hand.objects.count() == 2
    # The worker's copy of the sheet was made again with them.
    with offline(context):
        page.goto(sheet_url(session))
        expect(page.locator("tbody.hand")).to_have_count(2)
    assert page.console_errors == [], page.console_errors


def test_standings_a_player_and_the_settlement_opened_online_are_there_offline(
    phone, session, members
):
    page = phone
    club = session.club.slug
    ana = Player.objects.get(club=session.club, name="Ana")
    pages = {
        f"/c/{club}/league/standings/": "Standings",
        f"/c/{club}/league/players/{ana.pk}/": "Ana",
        f"/c/{club}/sessions/{session.pk}/settlement/": "Settlement",
    }
    log_in(page)
    page.goto(f"/c/{club}/")
    controlled(page)
    for url, heading in pages.items():
        page.goto(url)
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    soon(lambda: set(pages) <= kept_pages(page.context))
    with offline(page.context):
        for url, heading in pages.items():
            page.goto(url)
            expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
            expect(page.get_by_role("heading", name="No connection")).to_have_count(0)


def test_the_offline_page_speaks_the_last_pages_language_and_names_no_account(
    phone, session, members
):
    page = phone
    context = page.context
    club = session.club.slug
    roster = f"/c/{club}/roster/"  # a page the worker keeps no copy of
    fetched = []

    def count(sender, environ, **kwargs):
        if environ["PATH_INFO"] == "/offline/":
            fetched.append(environ["QUERY_STRING"])

    log_in(page)
    page.goto(f"/c/{club}/")
    controlled(page)
    request_started.connect(count)
    try:
        for language in ("sl", "de", "sl"):
            open_menu(page)
            switch_to(page, language)
            expect(page.locator("html")).to_have_attribute("lang", language)
            soon(lambda language=language: f"/offline/?lang={language}" in offline_pages(context))
            with offline(context):
                page.goto(roster)
                expect(page.locator("html")).to_have_attribute("lang", language)
                no_connection = {"sl": "Ni povezave", "de": "Keine Verbindung"}[language]
                expect(page.get_by_role("heading", name=no_connection)).to_be_visible()
                # Neither logged out nor anybody's: no login link, no name, no menu.
                expect(page.locator("header a[href^='/accounts/login/']")).to_have_count(0)
                expect(page.locator("details.site-menu")).to_have_count(0)
                expect(page.get_by_text("saso")).to_have_count(0)
            page.goto(f"/c/{club}/")
    finally:
        request_started.disconnect(count)
    # One copy per language: Slovenian, shown again, was not fetched again.
    assert sorted(query for query in fetched if query) == ["lang=de", "lang=sl"], fetched
    assert not re.search("lang=en", " ".join(fetched))
