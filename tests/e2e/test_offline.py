"""A phone at a table without signal (issue 15): the service worker, the outbox, the banner.

Playwright's offline emulation (`context.set_offline`) reaches the service worker's own
requests only from Playwright 1.57 on (microsoft/playwright#2311; pyproject.toml pins it):
before, a page offline was still answered through its worker by the network.
"""

import gzip
import re
import time
import uuid
from contextlib import contextmanager

import pytest
from django.core.signals import request_started
from playwright.sync_api import expect

from scorebook import hands, services
from scorebook.models import Entry, Hand
from tests.e2e.conftest import CHROMIUM, new_phone
from tests.e2e.test_record_hand import chip, log_in, sheet_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# A three with a partner in Slovenian tarok (seed preset): 10 and the difference from 35,
# won above 35 (RULES.md; `python -m rules score` says the same of each).
FIVE_HANDS = [  # declarer, partner, card points, what each of the two gets
    ("Ana", "Cene", "40", 15),
    ("Bor", "Dani", "50", 25),
    ("Cene", "Ana", "30", -15),
    ("Dani", "Bor", "36", 11),
    ("Ana", "Bor", "47", 22),
]
BUDGET = 100 * 1024  # the hand form and everything it loads, compressed


def form_url(session):
    return f"/c/{session.club.slug}/sessions/{session.pk}/hands/new/"


def controlled(page):
    """Wait until the service worker controls the page (it claims pages on activation)."""
    page.wait_for_function(until("navigator.serviceWorker.controller !== null"))


def until(condition):
    """A predicate for `wait_for_function` that the page's CSP lets it poll.

    Playwright evaluates a bare expression again with `eval` at every poll, which the strict
    CSP (no 'unsafe-eval') refuses once the first check was false; a function is evaluated
    once, in the protocol's own call, and then only called."""
    return f"() => {condition}"


def ready_for_offline(page, session):
    """Logged in, the worker in control, the sheet and the hand form seen once online: the
    worker keeps them for a table without signal."""
    log_in(page)
    page.goto(sheet_url(session))
    controlled(page)
    page.get_by_role("button", name="Record a hand").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Hand \d+$"))).to_be_visible()
    page.goto(sheet_url(session))  # now through the worker: its copy is fresh


@contextmanager
def offline(context):
    """The phone without a connection; the server counts what reaches it meanwhile."""
    reached = []

    def count(sender, environ, **kwargs):
        # Not counted: a live score that raced the switch to offline (it reads and stores
        # nothing; seen now and then on PostgreSQL's slower first answer), and the browser's
        # own update check of the worker (/sw.js), which Chromium makes past the page's
        # offline emulation when the worker was installed a while ago.
        path = environ["PATH_INFO"]
        if not (path.endswith("/hands/preview/") or path == "/sw.js"):
            reached.append(path)

    # What the phone asked while online (the form's live score, say) is answered first, so
    # that the server does not count it as a request made offline.
    for page in context.pages:
        page.wait_for_load_state("networkidle")
    request_started.connect(count)
    context.set_offline(True)
    try:
        yield reached
    finally:
        context.set_offline(False)
        request_started.disconnect(count)


def soon(condition, seconds=10):
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "not done in time"
        time.sleep(0.2)


def fill_hand(page, declarer, partner, points):
    chip(page, "declarer", declarer).click()
    chip(page, "partner", partner).click()
    page.get_by_label(re.compile("Card points of the declarer's side")).fill(points)


def save_offline(page, declarer, partner, points):
    """Saved, and kept on the phone: the hand form again, for the next hand (issue 26)."""
    fill_hand(page, declarer, partner, points)
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#hand-heading")).to_have_text(re.compile(r"^Next hand — \d+ waiting"))
    expect(page.locator("#outbox .outbox-status")).to_contain_text("Hand kept on this phone")


def pending(page):
    """The rows of hands waiting on the phone: in the sheet's outbox, below the hand form."""
    return page.locator(".outbox-rows .outbox-row")


def test_hands_saved_offline_are_recorded_once_each_in_order(phone, session, members):
    page = phone
    context = page.context
    ready_for_offline(page, session)

    with offline(context) as reached:
        expect(page.locator("#offline-banner")).to_be_visible()
        page.get_by_role("button", name="Record a hand").click()  # the worker's copy
        for number, (declarer, partner, points, _) in enumerate(FIVE_HANDS[:3], start=1):
            save_offline(page, declarer, partner, points)
            expect(pending(page)).to_have_count(number)
        # The hand form reloaded without a connection comes from the worker's copy.
        page.goto(form_url(session))
        expect(
            page.get_by_role("heading", name=re.compile(r"^Next hand — 3 waiting"))
        ).to_be_visible()
        expect(page.locator("#outbox .outbox-status")).to_contain_text("waiting on this phone")
        save_offline(page, *FIVE_HANDS[3][:3])
        page.get_by_role("link", name="Back to the sheet").click()  # the worker's copy too
        page.get_by_role("button", name="Record a hand").click()
        save_offline(page, *FIVE_HANDS[4][:3])
        expect(pending(page)).to_have_count(5)
        expect(pending(page).first).to_contain_text("Ana · Cene · 40")
        # A second tab on the sheet: both send when the connection is back, one at a time.
        other = context.new_page()
        other.goto(sheet_url(session))
        expect(pending(other)).to_have_count(5)
        assert reached == [], f"offline, yet the server was asked for {reached}"
        assert Hand.objects.count() == 0

    expect(pending(page)).to_have_count(0, timeout=20_000)
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.get_by_role("heading", name="Hand 6")).to_be_visible()
    expect(other.locator("tbody.hand")).to_have_count(5)
    expect(pending(other)).to_have_count(0)

    stored = list(Hand.objects.filter(session=session).order_by("number"))
    assert [hand.number for hand in stored] == [1, 2, 3, 4, 5]
    for hand, (declarer, partner, points, amount) in zip(stored, FIVE_HANDS, strict=True):
        assert (hand.data["declarer"], hand.data["partner"], hand.data["points"]) == (
            declarer,
            partner,
            int(points),
        )
        amounts = {e.player.name: e.amount for e in Entry.objects.filter(hand=hand)}
        assert amounts == {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0} | {
            declarer: amount,
            partner: amount,
        }
    assert len({hand.client_id for hand in stored}) == 5
    assert page.console_errors == [], page.console_errors
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_the_worker_and_the_manifest_are_served_and_the_worker_controls_the_page(
    phone, live_server, session, members
):
    page = phone
    log_in(page)
    manifest = page.request.get("/manifest.webmanifest")
    assert manifest.ok
    assert manifest.json()["display"] == "standalone"
    worker = page.request.get("/sw.js")
    assert worker.ok
    assert worker.headers["service-worker-allowed"] == "/"
    assert "javascript" in worker.headers["content-type"]
    page.goto(sheet_url(session))
    assert page.locator('link[rel="manifest"]').get_attribute("href") == "/manifest.webmanifest"
    controlled(page)
    script = page.evaluate("navigator.serviceWorker.controller.scriptURL")
    assert script == live_server.url + "/sw.js", script
    # The worker imported the outbox's store and sender, whose names its view wrote in.
    [worker] = page.context.service_workers
    assert worker.evaluate("typeof ScorebookSender.sendAll + typeof ScorebookStore.entries") == (
        "functionfunction"
    )
    assert page.console_errors == [], page.console_errors


def compressed(response) -> int:
    return len(gzip.compress(response.body())) if response.status == 200 else 0


def test_the_hand_form_and_all_it_loads_stays_small(phone_without_worker, session, members):
    """What a phone downloads for the hand form, each file compressed as the server sends it
    in production (gzip: GZipMiddleware for pages, whitenoise's own for static files)."""
    page = phone_without_worker
    log_in(page)
    sizes = {}
    page.on("response", lambda response: sizes.__setitem__(response.url, compressed(response)))
    page.goto(form_url(session))
    page.wait_for_load_state("networkidle")
    total = sum(sizes.values())
    report = ", ".join(f"{url.split('/')[-1] or url}: {size}" for url, size in sizes.items())
    print(f"\nthe hand form with all it loads: {total / 1024:.1f} KB compressed ({report})")
    assert total < BUDGET, f"{total / 1024:.1f} KB compressed: {report}"


def test_a_hand_the_server_refuses_keeps_its_message_and_can_be_fixed(phone, session, members):
    page = phone
    ready_for_offline(page, session)
    with offline(page.context):
        page.get_by_role("button", name="Record a hand").click()
        chip(page, "declarer", "Ana").click()  # no card points: the server refuses it
        page.get_by_role("button", name="Save the hand").click()
        expect(pending(page)).to_have_count(1)
        save_offline(page, "Bor", "Dani", "50")
        expect(pending(page)).to_have_count(2)

    refused = pending(page).nth(0)
    expect(refused).to_contain_text("Points: required", timeout=20_000)
    expect(pending(page).nth(1)).to_contain_text("the hand above goes first")
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert Hand.objects.count() == 0

    refused.get_by_role("button", name="Open").click()
    expect(page.get_by_role("heading", name="Hand 1")).to_be_visible()
    expect(page.locator("#outbox .outbox-status")).to_contain_text("Fix it and save it again")
    expect(page.locator("#id_declarer input:checked + label")).to_have_text("Ana")
    page.get_by_label(re.compile("Card points of the declarer's side")).fill("40")
    page.get_by_role("button", name="Save the hand").click()

    expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
    expect(pending(page)).to_have_count(0)
    expect(page.locator("tbody.hand")).to_have_count(2)
    stored = Hand.objects.filter(session=session).order_by("number")
    assert [(h.number, h.data["declarer"], h.data["points"]) for h in stored] == [
        (1, "Ana", 40),
        (2, "Bor", 50),
    ]


def test_a_hand_for_a_session_closed_meanwhile_can_be_discarded(phone, session, members):
    page = phone
    ready_for_offline(page, session)
    with offline(page.context):
        page.get_by_role("button", name="Record a hand").click()
        save_offline(page, "Ana", "Cene", "40")
        services.close_session(session, members["admin"])

    expect(pending(page)).to_contain_text("This session is closed", timeout=20_000)
    page.once("dialog", lambda dialog: dialog.accept())
    pending(page).get_by_role("button", name="Discard").click()
    expect(pending(page)).to_have_count(0)
    page.goto(sheet_url(session))
    expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
    expect(pending(page)).to_have_count(0)
    assert Hand.objects.count() == 0


def test_the_same_hand_from_a_second_phone_is_recorded_only_when_confirmed(
    phone, browser, live_server, session, members
):
    first = phone
    log_in(first)
    first.goto(form_url(session))
    fill_hand(first, "Ana", "Cene", "40")
    first.get_by_role("button", name="Save the hand").click()
    expect(first.locator("#hand-1")).to_be_visible()

    second = new_phone(browser, live_server)
    context = second.context
    log_in(second, "alma")
    second.goto(form_url(session))
    fill_hand(second, "Ana", "Cene", "40")
    questions = []

    def answer(accept):
        def reply(dialog):
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        return reply

    second.once("dialog", answer(False))
    second.get_by_role("button", name="Save the hand").click()
    expect(second.locator("#outbox .outbox-status")).to_contain_text("it is the same hand")
    assert questions == [
        "Hand 1 was just recorded by saso's phone with the same score — record it again?"
    ]
    assert Hand.objects.count() == 1

    second.once("dialog", answer(True))
    second.get_by_role("button", name="Save the hand").click()
    expect(second.locator("#hand-2")).to_be_visible()
    assert len(questions) == 2
    assert Hand.objects.count() == 2
    context.close()


@pytest.fixture
def back_forward_phone(browser, live_server):
    """A phone whose browser keeps pages for Back (its back-forward cache), as phones do:
    Playwright launches chromium without it."""
    keeping = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu"],
        ignore_default_args=["--disable-back-forward-cache"],
    )
    context = keeping.new_context(**browser.pixel_7, base_url=live_server.url)
    context.set_default_timeout(10_000)
    yield context.new_page()
    keeping.close()


@pytest.mark.parametrize("phone_kind", ["phone", "back_forward_phone"])
def test_back_after_a_save_shows_a_fresh_form(request, phone_kind, session, members):
    """Without the back-forward cache the browser loads the form again and would put the
    last hand's fields back in (autocomplete off stops it); with it, the page comes back as
    it was left and offline.js loads it anew."""
    page = request.getfixturevalue(phone_kind)
    log_in(page)
    page.goto(form_url(session))
    fill_hand(page, "Bor", "Dani", "30")
    expect(page.locator("#hand-result")).to_contain_text("lost")
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#hand-1")).to_be_visible()

    page.go_back()
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    expect(page.get_by_label(re.compile("Card points of the declarer's side"))).to_have_value("")
    expect(page.locator("#id_declarer input:checked")).to_have_count(0)
    expect(page.locator("#hand-result")).not_to_contain_text("lost")
    fill_hand(page, "Cene", "Ana", "40")
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#hand-2")).to_be_visible()
    assert [h.data["declarer"] for h in Hand.objects.order_by("number")] == ["Bor", "Cene"]


def test_a_save_whose_answer_is_lost_is_recorded_once(phone, session, members):
    """The server stored the hand but the phone never heard: the outbox sends it again with
    the same id, and the server answers with the hand it has."""
    page = phone
    log_in(page)
    page.goto(form_url(session))
    sends = []

    def lose_first_answer(route):
        # Only the outbox's sends count: the service worker may load the form again meanwhile.
        if route.request.headers.get("x-scorebook-outbox") != "1":
            return route.continue_()
        sends.append(route.request.method)
        if len(sends) == 1:
            route.fetch()  # the server records the hand ...
            route.abort("internetdisconnected")  # ... and its answer never arrives
        else:
            route.continue_()

    page.context.route(re.compile(r"/hands/new/$"), lose_first_answer)
    fill_hand(page, "Ana", "Cene", "40")
    page.get_by_role("button", name="Save the hand").click()
    # Kept (its answer never came): the form again, which sends it again; the server has it.
    expect(pending(page)).to_have_count(0, timeout=20_000)
    expect(page.get_by_role("heading", name="Hand 2")).to_be_visible()
    assert sends == ["POST", "POST"]
    assert Hand.objects.count() == 1


def test_a_hand_changed_after_it_was_sent_gets_a_message(phone, session, members):
    """Sent, stored, the answer lost; then opened from the outbox and changed before the
    outbox sent it again: the server says so, never maps it to the first hand silently."""
    page = phone
    log_in(page)
    page.goto(form_url(session))

    def store_and_lose(route):
        if route.request.headers.get("x-scorebook-outbox") != "1":
            return route.continue_()
        if Hand.objects.count() == 0:
            route.fetch()
        route.abort("internetdisconnected")

    page.context.route(re.compile(r"/hands/new/$"), store_and_lose)
    fill_hand(page, "Ana", "Cene", "40")
    page.get_by_role("button", name="Save the hand").click()
    expect(pending(page)).to_have_count(1)
    assert Hand.objects.count() == 1

    pending(page).get_by_role("button", name="Open").click()
    expect(page.locator("#outbox .outbox-status")).to_contain_text("Fix it and save it again")
    page.get_by_label(re.compile("Card points of the declarer's side")).fill("45")
    page.context.unroute(re.compile(r"/hands/new/$"))
    page.get_by_role("button", name="Save the hand").click()
    expect(page.locator("#outbox .outbox-status")).to_contain_text(
        "already sent as hand 1 with other content"
    )
    assert Hand.objects.count() == 1


def test_offline_the_banner_shows_and_the_score_waits_for_the_connection(phone, session, members):
    page = phone
    log_in(page)
    page.goto(form_url(session))
    expect(page.locator("#offline-banner")).to_be_hidden()
    with offline(page.context):
        expect(page.locator("#offline-banner")).to_be_visible()
        fill_hand(page, "Ana", "Cene", "40")
        expect(page.locator("#hand-result")).to_have_text(
            "No connection: the score will be computed when back online."
        )
    expect(page.locator("#offline-banner")).to_be_hidden()
    expect(page.locator("#hand-result")).to_contain_text("three 10 + difference 5")
    assert page.console_errors == [], page.console_errors


def test_logging_out_drops_the_pages_kept_for_offline(phone, session, members):
    page = phone
    ready_for_offline(page, session)
    with offline(page.context):
        page.goto(sheet_url(session))
        expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
    page.locator("details.site-menu > summary").press("Enter")  # as test_invitation.py does
    page.get_by_role("button", name="Log out").click()
    expect(page.get_by_role("button", name="Log in")).to_be_visible()
    with offline(page.context):
        page.goto(sheet_url(session))
        expect(page.get_by_role("heading", name="No connection")).to_be_visible()
        expect(page.locator("table.hands")).to_have_count(0)


WAKE_LOCK_STUB = """
window.wakeLocks = [];
Object.defineProperty(navigator, "wakeLock", {configurable: true, value: {
  request(type) {
    const sentinel = new EventTarget();
    sentinel.release = () => {
      window.wakeLocks.push("released");
      sentinel.dispatchEvent(new Event("release"));
      return Promise.resolve();
    };
    window.wakeLocks.push(type);
    return Promise.resolve(sentinel);
  },
}});
"""


def test_keep_screen_on_holds_a_wake_lock_and_is_remembered(phone, session, members):
    page = phone
    page.add_init_script(WAKE_LOCK_STUB)
    log_in(page)
    page.goto(sheet_url(session))
    switch = page.get_by_label("Keep screen on")
    expect(switch).to_be_checked()
    page.wait_for_function(until("window.wakeLocks.length === 1"))
    assert page.evaluate("window.wakeLocks") == ["screen"]
    switch.uncheck()
    page.wait_for_function(until("window.wakeLocks.includes('released')"))
    page.get_by_role("button", name="Record a hand").click()
    # Shown once wakelock.js has run, which also sets it as remembered: unchecked in the HTML,
    # the switch was unchecked before the script, and hidden (no box to measure).
    expect(page.locator(".keep-awake label")).to_be_visible()
    expect(page.get_by_label("Keep screen on")).not_to_be_checked()
    assert page.evaluate("window.wakeLocks") == []
    box = page.locator(".keep-awake label").bounding_box()
    assert box["height"] >= 44


def test_keep_screen_on_is_hidden_without_the_wake_lock_api(phone, session, members):
    page = phone
    page.add_init_script("Object.defineProperty(navigator, 'wakeLock', {value: undefined})")
    log_in(page)
    page.goto(sheet_url(session))
    expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
    expect(page.locator(".keep-awake")).to_be_hidden()


def test_offline_an_edit_or_a_void_says_it_needs_the_connection(phone, session, members):
    hands.record_hand(
        session,
        {"contract": "three", "declarer": "Ana", "partner": "Cene", "points": 40},
        uuid.uuid4(),
        members["scorekeeper"],
    )
    page = phone
    log_in(page)
    page.goto(f"/c/{session.club.slug}/sessions/{session.pk}/hands/1/")
    with offline(page.context) as reached:
        page.get_by_label(re.compile("Card points of the declarer's side")).fill("50")
        page.get_by_role("button", name="Save the change").click()
        expect(page.locator("#hand-result")).to_have_text("Not sent: this needs the connection.")
        assert reached == []
    page.goto(f"/c/{session.club.slug}/sessions/{session.pk}/hands/1/void/")
    with offline(page.context) as reached:
        page.get_by_label("Why is it voided?").fill("misdeal")
        page.get_by_role("button", name="Void the hand").click()
        banner = page.locator("#offline-banner")
        expect(banner).to_contain_text("Not sent: this needs the connection.")
        expect(page.get_by_label("Why is it voided?")).to_have_value("misdeal")
        assert reached == []
    hand = Hand.objects.get()
    assert (hand.data["points"], hand.voided, hand.version) == (40, False, 1)


def test_the_worker_sends_the_outbox_when_no_page_is_open(phone, session, members):
    """Background Sync: the browser wakes the worker when the connection is back, maybe with
    no page of the site open; the worker sends the outbox itself (what its sync event runs)."""
    page = phone
    context = page.context
    ready_for_offline(page, session)
    with offline(context):
        page.get_by_role("button", name="Record a hand").click()
        save_offline(page, "Ana", "Cene", "40")
        page.close()
    [worker] = context.service_workers
    # As the browser does, tried again while it fails: the worker's first send may come the
    # moment the connection is back, before its own requests have it (seen since the save
    # reloads the hand form, issue 26).
    soon(lambda: worker.evaluate("sendOutbox().then(() => true, () => false)"))
    hand = Hand.objects.get()
    assert (hand.number, hand.data["declarer"], hand.data["points"]) == (1, "Ana", 40)
    assert worker.evaluate("ScorebookStore.entries().then((entries) => entries.length)") == 0
