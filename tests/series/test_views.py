"""The series' pages: a standing with a column per tournament and what changed, who sees a
series, and bad input answered at its field or row."""

from __future__ import annotations

import re
from decimal import Decimal as D

import pytest
from django.urls import reverse

from scorebook.series import services
from scorebook.series.models import Series, SeriesSeason
from scorebook.series.services import SeasonPlan, SeriesPlan
from tests.series.conftest import SEASON_END, SEASON_START, play_round, start, three_player_cup

pytestmark = pytest.mark.django_db


def url(name, club, **kwargs):
    return reverse(f"scorebook:series:{name}", kwargs={"club": club.slug, **kwargs})


def errors_at(html: str, field: str) -> list[str]:
    """The messages shown under a form field (scorebook/_field.html)."""
    found = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1), re.S) if found else []


@pytest.fixture
def cup(club, admins):
    series = services.create_series(
        club=club,
        user=admins["club"],
        rated=False,
        plan=SeriesPlan("Winter cup", points_preset="own", own_points="25, 20, 16"),
    )
    season = services.add_season(series, SeasonPlan("2026/27", SEASON_START, SEASON_END))
    return series, season


def test_a_points_table_with_text_is_refused_at_its_field(club, admins, client_as):
    response = client_as(admins["club"]).post(
        url("create", club),
        {"name": "Cup", "kind": "standing", "points_preset": "own", "own_points": "25, twenty"},
    )
    assert response.status_code == 200
    assert errors_at(response.content.decode(), "own_points") == [
        "Enter numbers only (such as 25, 20, 16.5), separated by commas."
    ]
    assert not Series.objects.exists()


def test_best_n_zero_and_a_factor_of_minus_one_are_refused_at_their_fields(
    club, admins, cup, client_as
):
    series, season = cup
    client = client_as(admins["club"])
    data = {"name": "Spring", "starts_on": "2027-07-01", "ends_on": "2027-12-31", "best_n": "0"}
    response = client.post(url("season_add", club, series=series.pk), data)
    assert errors_at(response.content.decode(), "best_n") == [
        "Count at least 1 result, or leave this empty to count them all."
    ]
    assert not SeriesSeason.objects.filter(name="Spring").exists()
    tournament = three_player_cup(club, admins["club"], "Ljubljana open", 5, ["Ana", "Bor", "Cene"])
    entry = services.add_tournament(season, tournament, admins["club"])
    edit = url("season_edit", club, series=series.pk, series_season=season.pk)
    data = {
        "name": "2026/27",
        "starts_on": "2026-12-01",
        "ends_on": "2027-06-30",
        "best_n": "",
        f"factor_{entry.pk}": "−1",
    }
    html = client.post(edit, data).content.decode()
    assert errors_at(html, f"factor_{entry.pk}") == [
        "A factor is a number above 0 and up to 100, such as 1, 1.5 or 2."
    ]
    entry.refresh_from_db()
    assert entry.factor == 1


def test_an_import_row_with_an_unknown_player_is_named_by_its_row(club, admins, client_as, players):
    series = services.create_series(
        club=club, user=admins["club"], rated=True, plan=SeriesPlan("TARZS rating")
    )
    response = client_as(admins["club"]).post(
        url("ratings_import", club, series=series.pk),
        {"csv": "player,rating\nAna,31.5\nZala,20\nBor,lots\n"},
    )
    assert errors_at(response.content.decode(), "csv") == [
        "Row 3: Ljubljana Tarock has no player named “Zala”.",
        "Row 4: the rating of Bor is not a number above 0 (such as 24.5).",
    ]
    assert not series.imported.exists()


def test_another_clubs_series_is_404_until_one_of_our_tournaments_is_in_it(
    club, other_club, admins, members, client_as
):
    theirs = services.create_series(
        club=other_club,
        user=admins["other_club"],
        rated=False,
        plan=SeriesPlan("Zagreb cup", open_to_other_clubs=True),
    )
    season = services.add_season(theirs, SeasonPlan("2026/27", SEASON_START, SEASON_END))
    viewer = client_as(members["viewer"])
    detail = url("detail", club, series=theirs.pk)
    assert viewer.get(detail).status_code == 404
    ours = three_player_cup(club, admins["club"], "Ljubljana open", 5, ["Ana", "Bor", "Cene"])
    # Our admins ask; until theirs accept, the series stays theirs alone.
    asked = client_as(admins["club"]).post(
        url("ask", club), {"tournament": ours.pk, "season": season.pk}
    )
    assert asked.status_code == 302
    assert viewer.get(detail).status_code == 404
    entry = season.entries.get()
    accept = reverse(
        "scorebook:series:entry_accept",
        kwargs={"club": other_club.slug, "series": theirs.pk, "entry": entry.pk},
    )
    assert client_as(admins["other_club"]).post(accept).status_code == 302
    assert viewer.get(detail).status_code == 200
    # Their settings stay theirs: our admin sees the series, not its administration.
    assert client_as(admins["club"]).get(url("edit", club, series=theirs.pk)).status_code == 403


def test_the_standing_has_a_column_a_tournament_and_says_what_changed(
    club, admins, cup, client_as, django_capture_on_commit_callbacks
):
    series, season = cup
    first = three_player_cup(club, admins["club"], "Ljubljana open", 5, ["Ana", "Bor", "Cene"])
    second = three_player_cup(club, admins["club"], "Advent cup", 12, ["Ana", "Bor", "Cene"])
    for tournament in (first, second):
        services.add_tournament(season, tournament, admins["club"])
    start(first, 5)
    for number, order in ((1, ["Ana", "Bor", "Cene"]), (2, ["Ana", "Cene", "Bor"])):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(first, number, order)
    start(second, 12)
    for number, order in ((1, ["Bor", "Ana", "Cene"]), (2, ["Bor", "Cene", "Ana"])):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(second, number, order)
    page = url("season", club, series=series.pk, series_season=season.pk)
    html = client_as(admins["club"]).get(page).content.decode()
    # Placement points 2 / 1 / ½ over two rounds. The first: Ana 4, Bor and Cene 1.5 each
    # (and equal units and best places: they share 2nd). The second: Bor 4, Ana and Cene 1.5.
    # Points 25 / 20 / 16: the tied 2nd and 3rd share (20 + 16) / 2 = 18. Ana and Bor have 43
    # each, two results, a best of 25: the latest tournament either played decides, Bor 1st.
    rows = re.findall(
        r'<tr>\s*<td class="num rank">(\d+)</td>.*?>([A-Za-z]+)</a></th>(.*?)</tr>', html, re.S
    )
    cells = {name: re.findall(r'data-label="[^"]*">([^<]*)</td>', rest) for _p, name, rest in rows}
    assert [(place, name) for place, name, _rest in rows] == [
        ("1", "Bor"),
        ("2", "Ana"),
        ("3", "Cene"),
    ]
    assert cells == {
        "Ana": ["Ljubljana Tarock", "25.00", "18.00", "43.00", "2"],
        "Bor": ["Ljubljana Tarock", "18.00", "25.00", "43.00", "2"],
        "Cene": ["Ljubljana Tarock", "18.00", "18.00", "36.00", "2"],
    }
    assert "What changed" in html and "Advent cup" in html


def test_a_spreadsheets_semicolons_and_decimal_commas_are_read(club, admins, client_as, players):
    series = services.create_series(
        club=club, user=admins["club"], rated=True, plan=SeriesPlan("TARZS rating")
    )
    response = client_as(admins["club"]).post(
        url("ratings_import", club, series=series.pk), {"csv": "Igralec;Rating\nana;31,5\nBor;20\n"}
    )
    assert response.status_code == 302
    imported = {r.player.name: r.rating_shown for r in series.imported.select_related("player")}
    assert imported == {"Ana": D("31.5"), "Bor": D("20.0")}
