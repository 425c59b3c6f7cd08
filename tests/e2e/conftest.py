"""Playwright against Debian's chromium (never `playwright install`), at a Pixel 7 viewport."""

import os

import pytest

# Playwright's sync API runs an event loop in this thread; Django refuses ORM calls from a
# thread with a running loop unless told that this is fine (the tests are synchronous).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


@pytest.fixture(scope="session", autouse=True)
def patient_expectations():
    """A page's expected state waits as long as an action does (10 s, the contexts' default),
    not Playwright's 5 s: on two busy cores an htmx swap can take longer, and nothing asserted
    changes, only how long it is waited for."""
    from playwright.sync_api import expect

    expect.set_options(timeout=10_000)


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    assert os.path.exists(CHROMIUM), f"{CHROMIUM} is missing: apt-get install chromium"
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-background-networking", "--disable-gpu"],
        )
        # Keep the device description with the browser: the fixture below needs it.
        browser.pixel_7 = dict(p.devices["Pixel 7"])
        yield browser
        browser.close()


def new_phone(browser, live_server, **options):
    """A page in a fresh Pixel 7 context (`options`: the context's own) that records
    browser-side errors and CSP violations."""
    context = browser.new_context(**browser.pixel_7, base_url=live_server.url, **options)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.console_errors = []
    page.on(
        "console",
        lambda msg: page.console_errors.append(msg.text) if msg.type == "error" else None,
    )
    page.on("pageerror", lambda exc: page.console_errors.append(str(exc)))
    return page


@pytest.fixture
def phone(browser, live_server):
    page = new_phone(browser, live_server)
    yield page
    page.context.close()


@pytest.fixture
def phone_without_worker(browser, live_server):
    """A phone whose service worker is blocked: every request it makes goes to the network,
    where the test's routes and listeners see it."""
    page = new_phone(browser, live_server, service_workers="block")
    yield page
    page.context.close()
