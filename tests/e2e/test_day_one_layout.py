"""Day one at a club on a 360 px phone (issue 26): nothing cut or broken mid-word, no text
under 12 px, and a focus ring a keyboard user can see (3:1 against what is around it)."""

import re
import uuid

import pytest
from playwright.sync_api import expect

from scorebook import hands
from scorebook.league import services as league
from tests.league.conftest import history  # noqa: F401  (fixture)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user
MIN_TEXT_PX = 12
MIN_FOCUS_CONTRAST = 3.0


def log_in(page, username="saso"):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="My clubs")).to_be_visible()


def at_360(page, url):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(url)
    sideways = page.evaluate("document.documentElement.scrollWidth") - 360
    assert sideways <= 0, f"{url} scrolls {sideways} px sideways at 360 px"


def tarzs_sheet(session, members):
    """The shared `tarzs` session (tests/conftest.py) with hands that give radelci."""
    for data in (
        {"contract": "beggar", "declarer": "Ana", "made": True},
        {"contract": "three", "declarer": "Bor", "points": 40},
    ):
        hands.record_hand(session, data, uuid.uuid4(), members["scorekeeper"])
    return session


def sheet_url(session):
    return f"/c/{session.club.slug}/sessions/{session.pk}/sheet/"


def hand_url(session):
    return f"/c/{session.club.slug}/sessions/{session.pk}/hands/new/"


# Every visible element with text of its own (or a ::before/::after with content), and its
# computed font size: what a reader has to read.
SMALL_TEXT = """(min) => {
  const out = [];
  const visible = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden";
  for (const e of document.body.querySelectorAll("*")) {
    if (!visible(e) || e.closest(".visually-hidden")) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    const sizes = own ? [["", getComputedStyle(e).fontSize]] : [];
    for (const pseudo of ["::before", "::after"]) {
      const s = getComputedStyle(e, pseudo);
      const content = s.content;
      if (s.display !== "none" && content && content !== "none" && content !== "normal"
          && content.replace(/["']/g, "").trim()) sizes.push([pseudo, s.fontSize]);
    }
    for (const [pseudo, size] of sizes) {
      if (parseFloat(size) < min) {
        out.push(`${e.tagName.toLowerCase()}.${e.className}${pseudo} ${size}: `
          + (pseudo ? getComputedStyle(e, pseudo).content : e.textContent.trim().slice(0, 30)));
      }
    }
  }
  return out;
}"""


def test_no_text_under_12_px_on_the_standings_the_sheet_and_the_hand_form(
    phone,
    club,
    players,
    members,
    history,  # noqa: F811
    tarzs,
):
    league.rebuild_ratings(club)
    session = tarzs_sheet(tarzs, members)
    page = phone
    log_in(page)
    for url in (f"/c/{club.slug}/league/standings/", sheet_url(session), hand_url(session)):
        at_360(page, url)
        small = page.evaluate(SMALL_TEXT, MIN_TEXT_PX)
        assert not small, f"text under {MIN_TEXT_PX} px at 360 px on {url}: {small}"
    # The hand form with every kind of control: a contract with bonuses, an adjustment.
    for contract in ("three", "adjustment"):
        page.locator(f"fieldset#id_contract > input[value={contract}] + label").click()
        expect(page.locator("#hand-fields")).not_to_have_class(re.compile("htmx-request"))
        page.wait_for_load_state("networkidle")
        small = page.evaluate(SMALL_TEXT, MIN_TEXT_PX)
        assert not small, f"text under {MIN_TEXT_PX} px on the hand form ({contract}): {small}"


# The focus indicator of the focused element (a chip's is on its label) and the colour behind
# it: the outline where there is one, else the ring Pico draws as a box-shadow; composited over
# the first opaque background outside the element (an outline with an offset sits on that).
FOCUS_RING = """() => {
  const rgba = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, bottom) =>
    top.slice(0, 3).map((v, i) => v * top[3] + bottom[i] * (1 - top[3]));
  const behind = (e) => {
    const layers = [];
    for (let n = e; n; n = n.parentElement) {
      const c = rgba(getComputedStyle(n).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255];
    for (const c of layers.reverse()) colour = over(c, colour);
    return colour;
  };
  const luminance = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const contrast = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const focused = document.activeElement;
  let shown = focused;
  if (focused.matches(".chips > input")) shown = focused.nextElementSibling;
  const s = getComputedStyle(shown);
  let ring = null, width = 0;
  if (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) > 0) {
    ring = rgba(s.outlineColor); width = parseFloat(s.outlineWidth);
  } else if (s.boxShadow && s.boxShadow !== "none") {
    // Pico's ring: "<colour> 0px 0px 0px <width>" (a spread, no blur).
    ring = rgba(s.boxShadow);
    const px = s.boxShadow.match(/0px 0px 0px ([\\d.]+)px/);
    width = px ? parseFloat(px[1]) : 0;
  }
  const around = behind(shown.parentElement);
  const kind = focused.matches("a:not([role=button])") ? "link"
    : focused.matches("button, [role=button], summary") ? "button"
    : focused.matches(".chips > input") ? "chip"
    : focused.matches("select") ? "select"
    : focused.matches("input") ? "input" : focused.tagName.toLowerCase();
  const what = `${kind} ${focused.outerHTML.slice(0, 70)}`;
  if (!ring) return {kind, what, contrast: 0, width: 0};
  return {kind, what, width, contrast: contrast(over(ring, around), around)};
}"""

KINDS = {"link", "button", "chip", "input", "select"}


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_kind_of_control_shows_a_focus_ring_of_3_to_1(phone, club, members, tarzs, scheme):
    session = tarzs_sheet(tarzs, members)
    page = phone
    page.emulate_media(color_scheme=scheme)
    log_in(page)
    # The hand form of the default contract (a three: bonuses, their contra selects), from the
    # top of the page Tab by Tab: the keyboard's focus, never a click's.
    at_360(page, hand_url(session))
    expect(page.locator("fieldset#id_contract > input[value=three]")).to_be_checked()
    seen, faint = set(), []
    for _ in range(200):
        page.keyboard.press("Tab")
        ring = page.evaluate(FOCUS_RING)
        if ring["kind"] == "body":
            break
        seen.add(ring["kind"])
        if ring["contrast"] < MIN_FOCUS_CONTRAST or ring["width"] < 2:
            faint.append((round(ring["contrast"], 2), ring["width"], ring["what"]))
    assert KINDS <= seen, f"not reached by Tab: {KINDS - seen}"
    assert not faint, f"focus rings under {MIN_FOCUS_CONTRAST}:1 or 2 px ({scheme}): {faint}"


# Each text node of an element on one line, and inside the element's box: not wrapped, not
# spilling into the next cell, not cut.
LINES = """(e) => {
  const out = [];
  const box = e.getBoundingClientRect();
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (!n.textContent.trim() || n.parentElement.closest(".visually-hidden")) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const rects = [...range.getClientRects()].filter((r) => r.width);
    const tops = new Set(rects.map((r) => Math.round(r.top)));
    const left = Math.min(...rects.map((r) => r.left));
    const right = Math.max(...rects.map((r) => r.right));
    const inside = left >= box.left - 0.5 && right <= box.right + 0.5;
    out.push({text: n.textContent.trim(), lines: tops.size, inside});
  }
  return out;
}"""


def choose_language(page, live_server, language):
    from django.conf import settings

    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


@pytest.mark.parametrize("language", ["sl", "de", "cs", "fr", "en"])
def test_the_totals_row_head_never_wraps_at_360_px(
    phone, live_server, club, members, tarzs, language
):
    session = tarzs_sheet(tarzs, members)
    page = phone
    log_in(page)
    choose_language(page, live_server, language)
    at_360(page, sheet_url(session))
    for row in ("tr.totals", "tr.radelci"):
        head = page.locator(f"table.hands tfoot {row} > th")
        for text in page.evaluate(LINES, head.element_handle()):
            assert text["lines"] == 1, f"{language}: {text['text']!r} wraps at 360 px"
            assert text["inside"], f"{language}: {text['text']!r} spills out of its cell"
    # The radelci row's "○" says what it is: its row head is named, and titled for the eye.
    expect(page.locator("tfoot tr.radelci > th")).to_have_attribute("title", re.compile(r"\w"))
    name = page.evaluate("document.querySelector('tfoot tr.radelci > th').innerText")
    assert page.get_by_role("rowheader", name=re.compile(r"Radel")).count() == 1, name


# Each word of an element's text: its lines, and whether it is inside the element's box.
WORDS = """(e) => {
  const out = [];
  const box = e.getBoundingClientRect();
  const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    for (const m of n.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(n, m.index);
      range.setEnd(n, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width);
      const tops = new Set(rects.map((r) => Math.round(r.top)));
      const inside = rects.every((r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5
        && r.right <= window.innerWidth);
      out.push({word: m[0], lines: tops.size, inside});
    }
  }
  return out;
}"""


@pytest.mark.parametrize("language", ["en", "sl"])
def test_the_club_name_is_shown_whole_in_the_header_at_360_px(
    phone, live_server, club, members, language
):
    club.name = "Demo Tarock Club Ljubljana Center"
    club.save()
    page = phone
    log_in(page)
    choose_language(page, live_server, language)
    for url in (f"/c/{club.slug}/", f"/c/{club.slug}/league/standings/"):
        at_360(page, url)
        link = page.locator(".site-header .site-club a")
        expect(link).to_have_text(club.name)
        overflow = link.evaluate("(a) => a.scrollWidth - a.clientWidth")
        assert overflow <= 0, f"the club's name is cut by {overflow} px on {url}"
        for word in page.evaluate(WORDS, link.element_handle()):
            assert word["lines"] == 1, f"{word['word']!r} is broken across lines on {url}"
            assert word["inside"], f"{word['word']!r} is cut off on {url}"
        # The menu is still in view and opens.
        menu = page.locator(".site-header .site-menu > summary")
        box = menu.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 360, box
        assert box["height"] >= 44, box
        # Nothing lies over it (a tap lands on it), and it opens (as test_language_switch).
        on_top = menu.evaluate(
            """(s) => { const r = s.getBoundingClientRect();
              const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
              return s.contains(hit); }"""
        )
        assert on_top, f"the menu is covered on {url}"
        menu.press("Enter")
        expect(page.locator(".site-header .site-menu [data-logout] button")).to_be_visible()


def test_the_walk_in_list_lines_up_its_names_and_buttons_at_360_px(phone, club, members):
    import datetime

    from django.utils import timezone

    from scorebook.tournaments import services as tournaments

    tournament = tournaments.create_tournament(
        club=club, user=members["admin"], name="Advent cup", variant="slovenian-4",
        starts_at=timezone.now() + datetime.timedelta(hours=2), hands_per_table=1, rounds=1,
        capacity=4,
    )  # fmt: skip
    for name in ("Zala", "Maximilian Oberhofer-Kranjc", "Iva", "Jan", "Ana"):
        tournaments.add_walk_in(tournament, name=name)
    page = phone
    log_in(page, "alma")
    at_360(page, f"/c/{club.slug}/tournaments/{tournament.pk}/walk-in/")
    rows = page.locator("ul.walk-ins > li")
    expect(rows).to_have_count(5)
    boxes = [
        (row.locator("> span").bounding_box(), row.locator("> [role=button]").bounding_box())
        for row in rows.all()
    ]
    # The names start at one left edge, the buttons end at one right edge, and each name is
    # level with its button (centred on the same line).
    assert len({round(name["x"]) for name, _ in boxes}) == 1, boxes
    assert len({round(b["x"] + b["width"]) for _, b in boxes}) == 1, boxes
    for name, button in boxes:
        middle = name["y"] + name["height"] / 2
        assert abs(middle - (button["y"] + button["height"] / 2)) <= 2, (name, button)
