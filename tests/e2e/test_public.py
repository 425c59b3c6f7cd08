"""The public pages on a 360 px phone, for an anonymous visitor, in every language: no sideways
scroll, every target 44 px high, the page's language, no browser error or CSP violation, and
the live page's htmx loaded from our own files."""

import pytest

from tests.e2e.test_every_page import MEASURE, MIN_TARGET
from tests.public.conftest import cup, evening, organiser, people, publish, roster  # noqa: F401

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LANGUAGES = ("en", "sl", "cs", "de", "fr")


def small_phone(browser, live_server):
    """A 360 × 780 phone's page, and the browser errors it logs."""
    context = browser.new_context(
        viewport={"width": 360, "height": 780}, is_mobile=True, has_touch=True,
        base_url=live_server.url,
    )  # fmt: skip
    page = context.new_page()
    errors = []
    page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
    return context, page, errors


def fits(page, where: str, lang: str) -> list[str]:
    """What the page at `where` gets wrong on the phone: its language, sideways scroll, a box
    that scrolls, a target under 44 px."""
    problems = []
    if page.evaluate("document.documentElement.lang") != lang:
        problems.append(f"{where}: not in {lang}")
    found = page.evaluate(MEASURE, [])
    if found["scroll"] > 0:
        problems.append(f"{where}: scrolls {found['scroll']} px sideways")
    problems += [f"{where}: {box}" for box in found["boxes"]]
    problems += [f"{where}: {t} under {MIN_TARGET} px" for t in found["small"]]
    return problems


def test_public_pages_on_a_small_phone(browser, live_server, club, evening, roster, cup, publish):  # noqa: F811
    publish(club)
    ids = {"session": evening.pk, "player": roster["Ana"].pk, "tournament": cup.pk}
    context, page, errors = small_phone(browser, live_server)
    problems = []
    for lang in LANGUAGES:
        base = f"/p/{club.slug}/{lang}"
        for path in (
            "/", "/privacy/", "/sessions/", f"/sessions/{ids['session']}/", "/standings/",
            f"/players/{ids['player']}/", "/tournaments/", f"/tournaments/{ids['tournament']}/",
            f"/tournaments/{ids['tournament']}/live/",
        ):  # fmt: skip
            page.goto(base + path)
            problems += fits(page, base + path, lang)
    assert page.evaluate("typeof htmx") == "object"  # the live page polls
    context.close()
    assert problems == []
    assert errors == []


from tests.e2e.test_every_page import _axe  # noqa: E402
from tests.public.test_series import cup_series  # noqa: E402, F401
from tests.series.conftest import admins  # noqa: E402, F401


def test_series_pages_on_a_small_phone(browser, live_server, club, cup_series):  # noqa: F811
    """The club's series, a cup's standing over two clubs and its season: 360 px, every
    language, axe-core clean."""
    series, season = cup_series["series"].pk, cup_series["season"].pk
    context, page, errors = small_phone(browser, live_server)
    problems = []
    for lang in LANGUAGES:
        base = f"/p/{club.slug}/{lang}"
        for path in ("/", "/series/", f"/series/{series}/", f"/series/{series}/seasons/{season}/"):
            page.goto(base + path)
            where = f"{base}{path}"
            if "/seasons/" in path and page.locator("table.series-table tbody tr").count() != 6:
                problems.append(f"{where}: not the six lines of the standing")
            problems += fits(page, where, lang)
            problems += [f"{where}: {found}" for found in _axe(page)]
    context.close()
    assert problems == []
    assert errors == []
