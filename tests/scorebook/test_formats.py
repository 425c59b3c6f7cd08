"""Dates and numbers as each language writes them (issue 14): one date format per language on
every page, a decimal comma and the real minus sign (−) on pages, while what a program reads
(CSV, JSON, an input's value) keeps the ASCII '-' and '.'; "40,5" typed is 40.5."""

import csv
import datetime
import io
import json
import re
import uuid

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.formats import date_format, get_format

from scorebook.models import Hand, Season, Session, SessionSeat
from scorebook.textinput import InputError, number

NBSP = "\N{NO-BREAK SPACE}"
DAY = datetime.date(2026, 11, 27)
# How each language writes that day; the spaces in a date do not break.
DAY_IN = {
    "en": "27 Nov 2026",
    "sl": "27. 11. 2026",
    "cs": "27. 11. 2026",
    "de": "27.11.2026",
    "fr": "27/11/2026",
}
OTHER_WAYS = ["11/27/2026", "Nov. 27, 2026", "2026-11-27", "27. Nov. 2026", "27 novembre 2026"]


def club_url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def session_url(name, session, **kwargs):
    return club_url(name, session.club, session=session.pk, **kwargs)


def in_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def text_of(response) -> str:
    """The page's text as a reader sees it: tags dropped, a non-breaking space a space."""
    html = response.content.decode()
    return re.sub(r"<[^>]+>", " ", html).replace(NBSP, " ")


# --- Dates ------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", DAY_IN)
def test_a_day_reads_the_same_on_every_page_of_a_language(language, session, members, client_as):
    Season.objects.create(club=session.club, name="Winter", starts_on=DAY)
    client = in_language(client_as(members["admin"]), language)
    for page in (club_url("club_home", session.club), club_url("seasons", session.club)):
        text = text_of(client.get(page))
        assert DAY_IN[language] in text, page
        for other in OTHER_WAYS:
            assert other not in text, (page, other)


@pytest.mark.parametrize("language", DAY_IN)
def test_a_date_does_not_break_across_lines(language):
    with translation.override(language):
        shown = date_format(DAY, "SHORT_DATE_FORMAT")
    assert " " not in shown
    assert shown.replace(NBSP, " ") == DAY_IN[language]


@pytest.mark.parametrize(
    "language, shown",
    [
        ("en", "27 Nov 2026 19:30"),
        ("sl", "27. 11. 2026 19:30"),
        ("cs", "27. 11. 2026 19:30"),
        ("de", "27.11.2026 19:30"),
        ("fr", "27/11/2026 19:30"),
    ],
)
def test_a_moment_is_the_day_and_a_24_hour_time(language, shown):
    moment = datetime.datetime(2026, 11, 27, 19, 30)
    with translation.override(language):
        for name in ("SHORT_DATETIME_FORMAT", "DATETIME_FORMAT"):
            assert date_format(moment, name).replace(NBSP, " ") == shown
        # A date without a format name is the same as with one.
        assert date_format(DAY) == date_format(DAY, "SHORT_DATE_FORMAT")


@pytest.mark.parametrize("language", DAY_IN)
def test_a_date_picker_gets_and_posts_the_iso_date_in_every_language(
    language, club, players, members, client_as
):
    """A browser's date input takes only "2026-11-27": a local value would show it empty."""
    client = in_language(client_as(members["scorekeeper"]), language)
    html = client.get(club_url("session_start", club)).content.decode()
    picker = re.search(r'<input type="date" name="date" value="([^"]*)"', html)
    assert picker and re.fullmatch(r"\d{4}-\d{2}-\d{2}", picker[1])
    response = client.post(
        club_url("session_start", club),
        {
            "variant": "slovenian-4",
            "date": "2026-11-27",
            **{f"seat_{i}": p.pk for i, p in enumerate(players[:4], start=1)},
        },
    )
    assert response.status_code == 302
    assert Session.objects.get(club=club).date == DAY


# --- Numbers ----------------------------------------------------------------------------------


@pytest.fixture
def french(club, players, members):
    """An open french-3 session (whose piles may end in a half): Ana, Bor and Cene."""
    session = Session.objects.create(
        club=club,
        variant="french-3",
        rules={"preset": "fft"},
        date=DAY,
        created_by=members["scorekeeper"],
    )
    for position, player in enumerate(players[:3], start=1):
        SessionSeat.objects.create(session=session, player=player, position=position)
    return session


def post_hand(client, session, fields):
    return client.post(session_url("hand_new", session), {"client_id": str(uuid.uuid4()), **fields})


@pytest.fixture
def recorded(french, members, client_as):
    """Typed on a French page: an adjustment of 40,5 / −12 / -28,5, then a garde on 40,5."""
    client = in_language(client_as(members["scorekeeper"]), "fr")
    adjustment = {
        "contract": "adjustment",
        "adj-1": "40,5",
        "adj-2": "−12",
        "adj-3": "-28,5",
        "adj_reason": "erreur",
    }
    garde = {"contract": "garde", "declarer": "1", "points": "40,5", "oudlers": "2"}
    for fields in (adjustment, garde):
        response = post_hand(client, french, fields)
        assert response.status_code == 302, re.findall(
            r"errorlist[^>]*>(.*?)</ul>", response.content.decode(), re.S
        )
    return client


def test_typed_decimal_commas_are_stored_as_numbers(french, recorded):
    first, second = Hand.objects.filter(session=french).order_by("number")
    assert [a["amount"] for a in first.data["adjustments"]] == [40.5, -12, -28.5]
    assert second.data["points"] == 40.5


def test_a_french_page_writes_a_decimal_comma_and_a_real_minus(
    french, recorded, members, client_as
):
    html = recorded.get(session_url("sheet", french)).content.decode()
    first_hand = html[html.index('id="hand-1"') : html.index('id="hand-2"')]
    amounts = re.findall(r'<span class="amount[^"]*">([^<]+)</span>', first_hand)
    assert amounts == ["40,50", "−12", "−28,50"]
    # The garde's card points, in the session's history (an admin's page).
    admin = in_language(client_as(members["admin"]), "fr")
    history = text_of(admin.get(session_url("session_history", french)))
    assert "40,5" in history and "40.5" not in history


def test_an_english_page_writes_a_decimal_point(french, recorded):
    client = in_language(recorded, "en")
    html = client.get(session_url("sheet", french)).content.decode()
    first_hand = html[html.index('id="hand-1"') : html.index('id="hand-2"')]
    amounts = re.findall(r'<span class="amount[^"]*">([^<]+)</span>', first_hand)
    assert amounts == ["40.50", "−12", "−28.50"]


def test_an_input_gets_the_number_unlocalised(french, recorded):
    """The edit form of the garde, on the French page: "40.5" in the input, as typed back."""
    html = recorded.get(session_url("hand_edit", french, number=2)).content.decode()
    points = re.search(r'<input type="text" name="points"[^>]*>', html)[0]
    assert 'value="40.5"' in points
    assert 'inputmode="decimal"' in points
    assert 'type="number"' not in html


def test_csv_and_json_keep_the_ascii_minus_and_the_decimal_point(french, recorded):
    exported = recorded.get(session_url("session_export_csv", french)).content.decode("utf-8")
    rows = list(csv.reader(io.StringIO(exported.lstrip("\ufeff"))))
    assert rows[1][1:4] == ["40.50", "-12", "-28.50"]
    assert "−" not in "".join(rows[1][1:4])
    sheet = json.loads(recorded.get(session_url("session_export_json", french)).content)
    hands = sheet["hands"]
    assert [a["amount"] for a in hands[0]["adjustments"]] == [40.5, -12, -28.5]
    assert hands[1]["points"] == 40.5


def test_a_french_chart_keeps_its_coordinates_for_the_browser(french, recorded, players):
    """Its labels are the reader's (the day, whole units with the real minus), its coordinates
    the browser's: a French "74,0" in an SVG attribute would break the drawing."""
    page = reverse(
        "scorebook:league:player", kwargs={"club": french.club.slug, "player": players[0].pk}
    )
    html = recorded.get(page).content.decode()
    chart = html[html.index("<svg viewBox") : html.index("</svg>", html.index("<svg viewBox"))]
    coordinates = re.findall(r'\s(?:x|y|x1|x2|y1|y2)="([^"]*)"', chart)
    assert coordinates and all(re.fullmatch(r"-?\d+(\.\d+)?", c) for c in coordinates)
    assert "27/11/2026" in chart.replace(NBSP, " ")  # the day under the x axis
    assert "−" in chart  # Ana is 63,5 down: a tick below zero


def test_every_language_writes_the_decimal_separator_the_engine_writes():
    """The engine (rules.words, no Django) writes its own lines: both agree on the comma."""
    from rules.words import DECIMAL_COMMA

    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            separator = get_format("DECIMAL_SEPARATOR")
        assert separator == ("," if code in DECIMAL_COMMA else "."), code


# --- Reading what was typed -------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, read",
    [("40,5", 40.5), ("40.5", 40.5), ("−12", -12), ("-12", -12), (" 7 ", 7), (",5", 0.5)],
)
def test_either_decimal_separator_and_either_minus_are_read(typed, read):
    assert number(typed) == read


@pytest.mark.parametrize("typed", ["1,000", "1.000", "2.500"])
def test_a_thousands_separator_is_refused_not_read_as_a_small_number(typed):
    with pytest.raises(InputError) as refused:
        number(typed)
    assert "thousands" in refused.value.message


@pytest.mark.parametrize(
    "typed",
    ["3, 2, 1.5, 0", "3; 2; 1,5; 0", "3 / 2 / 1,5 / 0", "3/2/1½/0", "3 2 1.5 0"],
)
def test_placement_points_take_a_decimal_comma_where_commas_do_not_separate(typed):
    from scorebook.tournaments.services import parse_points

    assert parse_points(typed, 4) == [3, 2, 1.5, 0]
