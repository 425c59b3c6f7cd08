"""Every page of the demo club on two phones (360 × 780 and 412 × 915), held in one hand.

The pages are read from the URL resolver (tests/scorebook/test_access.py's `url_names`): a new
page is checked too. Each one the demo admin may GET as HTML is loaded with every <details> open
and must fit the screen (nothing scrolls sideways, the page nor a box in it) and give a thumb
targets at least 44 px high. The hand form is checked for every variant, as its fields differ.

A language's two sizes share one login and one navigation per page: the page is measured at
360 × 780, resized to 412 × 915 and measured again (loaded again only if it reads the size as
it loads). Each (page, language, size) is measured as before, each test asserts its own.

At 360 px, once per page and language, axe-core (tests/e2e/vendor/) checks the page as it
stands, and its visible text must show no engine id and no JSON (tests/e2e/engine_ids.py).
"""

from __future__ import annotations

import datetime
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.urls import reverse

import rules
from scorebook import confirmations, hands, services
from scorebook.management.commands.demo import ADMIN_USERNAME, CLUB_SLUG, demo_password
from scorebook.models import Club, Membership, Player, Role, Session
from tests.e2e.engine_ids import ids_in
from tests.scorebook.test_access import (
    _a_decision,
    _a_table,
    _a_tournament,
    _a_walk_in,
    _now,
    url_names,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PHONES = {"360x780": (360, 780), "412x915": (412, 915)}
MIN_TARGET = 44  # px, WCAG 2.5.5's size and Apple's and Google's guidance

# Not a page a phone looks at: a file to download, or Django's answer to the log-out link.
NOT_PAGES = {
    "scorebook:session_export_json",
    "scorebook:session_export_csv",
    "scorebook:series:season_csv",
    "scorebook:series:season_json",
}

# Boxes allowed to scroll sideways at 360 px: none (the list stays, empty, so that an exception
# would have to be written here and explained).
KNOWN_WIDE: tuple[str, ...] = ()

# What every visible control measures, in the page's own terms. The exceptions, short:
# - a link inside running text (its block holds other words too, and it is no action): WCAG
#   2.5.8 exempts it, as the line height of the words around it bounds it;
# - a radio or checkbox drawn as a chip (invisible, 1 px): its label is the target, measured;
# - a checkbox or switch inside its label: the label is the target, measured.
MEASURE = """(KNOWN_WIDE) => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  const width = document.documentElement.clientWidth;
  const out = {scroll: document.documentElement.scrollWidth - width, boxes: [], small: []};
  const describe = el => {
    const text = (el.innerText || el.value || el.getAttribute('aria-label') || el.name || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 40);
    const cls = el.className && typeof el.className === 'string' ? '.' + el.className.trim()
      .split(/\\s+/).join('.') : '';
    return `${el.tagName.toLowerCase()}${cls} "${text}"`;
  };
  const shown = el => el.checkVisibility({opacityProperty: true, visibilityProperty: true});
  for (const el of document.querySelectorAll('body *')) {
    const style = getComputedStyle(el);
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1
        && shown(el)) {
      if (KNOWN_WIDE.some(known => el.querySelector(known))) continue;
      out.boxes.push(`${describe(el)} scrolls ${el.scrollWidth - el.clientWidth} px sideways`);
    }
  }
  const block = el => {
    let node = el.parentElement;
    while (node && ['inline', 'contents'].includes(getComputedStyle(node).display)) {
      node = node.parentElement;
    }
    return node;
  };
  const inRunningText = a => {
    if (a.getAttribute('role') === 'button' || a.closest('.actions, nav, .pager')) return false;
    const around = block(a);
    if (!around) return false;
    const words = around.innerText.replace(a.innerText, '').replace(/[\\s·•|,.:()–-]/g, '');
    return words.length > 0;
  };
  const selector = 'a[href], button, select, textarea, summary, input:not([type=hidden]), '
    + '.chips > label';
  const seen = new Set();
  for (let el of document.querySelectorAll(selector)) {
    if (el.tagName === 'INPUT' && ['radio', 'checkbox'].includes(el.type)) {
      const label = el.closest('label')
        || (el.id && document.querySelector(`label[for="${el.id}"]`));
      if (!label) continue;
      el = label;
    }
    if (seen.has(el) || !shown(el)) continue;
    seen.add(el);
    if (el.tagName === 'A' && inRunningText(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    if (box.height < 44 - 0.5) {
      out.small.push(`${describe(el)} ${Math.round(box.width)}×${Math.round(box.height)}`);
    }
  }
  return out;
}"""


@pytest.fixture
def demo_club(db):
    """The demo command's club, plus what it does not make: an open session with a hand per
    variant, a season, house rules, a tournament and a second member."""
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    club = Club.objects.get(slug=CLUB_SLUG)
    admin = Membership.objects.get(club=club, user__username=ADMIN_USERNAME).user
    roster = list(club.players.order_by("pk"))
    open_sessions = {}
    for variant in rules.variants():
        session = services.start_session(
            club=club,
            variant_id=variant.id,
            preset=variant.default_preset,
            players=roster[: min(variant.player_counts)],
            user=admin,
            date=datetime.date.today(),
            table_label="Window table",
        )
        open_sessions[variant.id] = session
    session = open_sessions["slovenian-4"]
    # Its hands wait for the other side's word (issue 27): hand 1 waits, hand 2 is disputed.
    Session.objects.filter(pk=session.pk).update(confirmation="asked")
    session.refresh_from_db()
    for number in (1, 2):
        hands.record_hand(
            session,
            {"contract": "three", "declarer": "Ana", "points": 40},
            f"00000000-0000-4000-8000-0000000000e{number + 1}",
            admin,
        )
    confirmations.dispute(session, 2, 1, admin, "we took 45, not 40", player="Bor", at_table=True)
    viewer = Membership.objects.create(
        club=club,
        role=Role.VIEWER,
        user=type(admin).objects.create_user("demo-viewer", "viewer@example.org", "x"),
    )
    tournament = _a_tournament(club)
    values = {
        "club": club.slug,
        "player": Player.objects.get(club=club, name="Ana").pk,
        "membership": viewer.pk,
        "session": session.pk,
        "tournament": tournament.pk,
        "registration": _a_walk_in(club).pk,
        "season": club.seasons.get_or_create(
            name="Winter", defaults={"starts_on": datetime.date.today()}
        )[0].pk,
        "number": 1,
        "house_rules_id": club.house_rules.get_or_create(
            variant="slovenian-4", name="Thursday", defaults={"preset": "seed"}
        )[0].pk,
        "uidb64": "MQ",
        "token": "set-password",
        # The demo club publishes nothing: its public pages answer 404 and are not measured
        # here (tests/e2e/test_public.py measures them).
        "lang": "en",
    }
    # The tournament day's (issue 28): a table of round 1 (the three-player session is its
    # sheet) and a message to the players; the pages that take them are POSTs.
    values["table"] = _a_table(club, open_sessions["slovenian-3"]).pk
    values["message"] = tournament.messages.create(text="Break", sent_at=_now()).pk
    values["event"] = _a_decision(tournament).pk  # a match to decide: a POST, and on the screen
    values.update(_series_of(club, admin, tournament))
    return club, open_sessions, values


def _series_of(club, admin, tournament) -> dict:
    """The demo club's cup with its tournament in its season, a match of two of its players,
    and its TARZS rating with an imported rating: the series' pages, each kind with rows."""
    from scorebook.series import ratings
    from scorebook.series import services as series
    from scorebook.series.models import PlayerMatch

    today = datetime.date.today()
    days = series.SeasonPlan(
        "This year", today - datetime.timedelta(days=30), today + datetime.timedelta(days=300)
    )
    cup = series.create_series(club=club, user=admin, rated=False, plan=series.SeriesPlan("Cup"))
    season = series.add_season(cup, days)
    entry = series.add_tournament(season, tournament, admin)
    ana, bor = club.players.order_by("pk")[:2]
    rated = series.create_series(
        club=club, user=admin, rated=True, plan=series.SeriesPlan("TARZS rating")
    )
    series.add_season(rated, days)
    ratings.import_ratings(rated, f"{ana.name},24.5\n{bor.name},18\n")
    # Stored as the series' admins' match page stores it (the pair in id order).
    match = PlayerMatch.objects.create(series=cup, player=ana, other=bor)
    return {
        "series": cup.pk,
        "series_season": season.pk,
        "entry": entry.pk,
        "match": match.pk,
        "rated": rated,
    }


def _pages(demo_club) -> list[str]:
    club, open_sessions, values = demo_club
    urls = [
        reverse(name, kwargs={param: values[param] for param in params})
        for name, params in sorted(url_names().items())
        if name not in NOT_PAGES
    ]
    # The sheet and session pages of a closed session (the demo's) and the form of each variant.
    closed = Session.objects.filter(club=club, closed_at__isnull=False).first()
    urls.append(reverse("scorebook:sheet", kwargs={"club": club.slug, "session": closed.pk}))
    urls.append(reverse("scorebook:session", kwargs={"club": club.slug, "session": closed.pk}))
    urls += [
        reverse("scorebook:hand_new", kwargs={"club": club.slug, "session": s.pk})
        for s in open_sessions.values()
    ]
    # The rated series' pages: its rating list, its import and its season's end.
    rated = values["rated"]
    in_rated = {"club": club.slug, "series": rated.pk}
    rated_season = {**in_rated, "series_season": rated.seasons.get().pk}
    urls += [
        reverse("scorebook:series:detail", kwargs=in_rated),
        reverse("scorebook:series:ratings_import", kwargs=in_rated),
        reverse("scorebook:series:season_close", kwargs=rated_season),
    ]
    return urls


# A page that reads the screen's size as it loads: htmx's `revealed` and `intersect` triggers ask
# whether an element is in view (the sheet's "Earlier hands" link). Such a page is loaded again
# at each size; any other is measured, resized and measured again, in one navigation, as no
# script of ours reads the size (tests/scorebook/test_suite_rules.py keeps it so).
READS_SIZE_AT_LOAD = """() => document.querySelector(
  ['revealed', 'intersect'].map(t => `[hx-trigger*=${t}], [data-hx-trigger*=${t}]`).join(', ')
) !== null"""

# What a language's pages measured, kept for its other phone size: whichever of the two tests
# of a language runs first measures both sizes, the other reads its own. `make test` keeps the
# two on one worker (xdist_group under --dist loadgroup); anywhere else each still passes alone.
MEASURED: dict[str, dict] = {}


AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
# axe-core over the page as it stands, every rule but the experimental ones; its violations as
# "rule (impact): the first elements' selectors and why".
RUN_AXE = r"""async () => {
  // A transition under way (a <details> just opened) would be measured half-faded.
  document.getAnimations().forEach(animation => animation.finish());
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => `axe ${v.id} (${v.impact}): `
    + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' '
      + n.failureSummary.replace(/\s+/g, ' ').slice(0, 160)).join(' | '));
}"""


def _viewport(phone_size: str) -> dict[str, int]:
    width, height = PHONES[phone_size]
    return {"width": width, "height": height}


def measure_every_page(browser, live_server, demo_club, language) -> dict:
    """{"pages": the pages the demo admin may GET as HTML, in order, "sizes": {phone size: [(page,
    its problems), ...]}}: every page measured at every size of PHONES, in `language`."""
    sizes = sorted(PHONES)
    context = browser.new_context(
        viewport=_viewport(sizes[0]),
        device_scale_factor=2.625,
        is_mobile=True,
        has_touch=True,
        base_url=live_server.url,
    )
    context.set_default_timeout(10_000)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )
    page = context.new_page()
    page.goto("/accounts/login/")
    page.locator("#id_username").fill(ADMIN_USERNAME)
    page.locator("#id_password").fill(demo_password(settings.DEMO_LOGIN_FILE))
    page.locator("main button[type=submit]").click()
    page.wait_for_url("**/")
    pages = []
    measured = {size: [] for size in sizes}
    for url in _pages(demo_club):
        # Asked first without navigating (the context's cookies go along): a POST-only view's
        # empty 405, or a download, sends the browser to an error page whose navigation can
        # then interrupt the next page's.
        answer = page.request.get(url, max_redirects=0)
        if answer.status != 200 or not answer.headers["content-type"].startswith("text/html"):
            continue
        pages.append(url)
        for size in sizes:
            page.set_viewport_size(_viewport(size))
            if size == sizes[0] or page.evaluate(READS_SIZE_AT_LOAD):
                page.goto(url)
            problems = []
            if (spoken := page.evaluate("document.documentElement.lang")) != language:
                problems.append(f"{url}: the page speaks {spoken!r}, not {language!r}")
            found = page.evaluate(MEASURE, list(KNOWN_WIDE))
            if found["scroll"] > 0:
                problems.append(f"{url}: the page scrolls {found['scroll']} px sideways")
            problems += [f"{url}: {box}" for box in found["boxes"]]
            problems += [
                f"{url}: {target} is under {MIN_TARGET} px high" for target in found["small"]
            ]
            if size == sizes[0]:  # once per page and language, at 360 px
                problems += [f"{url}: {found}" for found in _axe(page)]
                problems += [
                    f"{url}: {found}" for found in ids_in(page.inner_text("body"), language)
                ]
            measured[size].append((url, problems))
    context.close()
    return {"pages": pages, "sizes": measured}


def _axe(page) -> list[str]:
    """axe-core's violations of the page, injected as a script of the test (the CSP, which
    allows no inline script, governs the page's own scripts, not the test's evaluate)."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE)
    return page.evaluate(RUN_AXE)


# Every language the site speaks: each has its own long words (German's are longest, French
# and Czech run long on buttons). The cookie speaks before the demo club's own language.
@pytest.mark.parametrize(
    "language",
    [
        pytest.param(code, marks=pytest.mark.xdist_group(f"every-page-{code}"))
        for code, _name in settings.LANGUAGES
    ],
)
@pytest.mark.parametrize("phone_size", sorted(PHONES))
def test_every_page_fits_a_phone_and_a_thumb(browser, live_server, request, phone_size, language):
    if language not in MEASURED:
        demo_club = request.getfixturevalue("demo_club")
        MEASURED[language] = measure_every_page(browser, live_server, demo_club, language)
    pages, measured = MEASURED[language]["pages"], MEASURED[language]["sizes"][phone_size]
    assert len(pages) > 30, "the pages were not reached: is the demo admin logged in?"
    # Every page at this size, in this language: the same (page, language, size) as ever.
    assert [url for url, _problems in measured] == pages
    problems = [problem for _url, problems in measured for problem in problems]
    assert not problems, "\n".join(problems)
