"""A club's series in public: the list, a cup's standing over two clubs' tournaments, a rated
series' list, every name as its player chose (another club's players by their own choice
there), 404 for what is not published, and the cache kept until the standing moves."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from scorebook.series import services
from scorebook.series.services import SeasonPlan, SeriesPlan
from tests.e2e.engine_ids import ids_in
from tests.public.conftest import PARTS
from tests.series.conftest import (  # noqa: F401
    SEASON_END,
    SEASON_START,
    admins,
    play_round,
    rated,
    start,
    three_player_cup,
    tournament_day,
)
from tests.series.test_pages import visible

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "sl", "cs", "de", "fr")


def url(name, club, lang="en", **kwargs):
    return reverse(f"public:{name}", kwargs={"club": club.slug, "lang": lang, **kwargs})


def chose(player, shown):
    from scorebook.public.models import PublicName

    PublicName.objects.create(player=player, shown=shown, agreed="admin")


def play(tournament, day, orders, capture):
    start(tournament, day)
    for number, order in enumerate(orders, start=1):
        with capture(execute=True):
            play_round(tournament, number, order)


@pytest.fixture
def cup_series(club, other_club, admins, django_capture_on_commit_callbacks):  # noqa: F811
    """Ljubljana's cup (points 25, 20, 16): Ljubljana open with Ana, Bor and Cene, then Zagreb
    open (factor 2) with Tomo, Uroš and Vesna; each tournament's order the same in both
    rounds. Ana chose her full name, Bor his initials, Cene nothing; in Zagreb Tomo his full
    name, Uroš his initials, Vesna nothing."""
    lea, zdravko = admins["club"], admins["other_club"]
    for target in (club, other_club):
        for part in PARTS:
            setattr(target, f"publish_{part}", True)
        target.save()
    series = services.create_series(
        club=club,
        user=lea,
        rated=False,
        plan=SeriesPlan(
            "Winter cup", points_preset="own", own_points="25, 20, 16", open_to_other_clubs=True
        ),
    )
    season = services.add_season(series, SeasonPlan("2026/27", SEASON_START, SEASON_END))
    ours = three_player_cup(club, lea, "Ljubljana open", 5, ["Ana", "Bor", "Cene"])
    theirs = three_player_cup(other_club, zdravko, "Zagreb open", 12, ["Tomo", "Uroš", "Vesna"])
    services.add_tournament(season, ours, lea)
    services.accept(services.ask_to_join(season, theirs, zdravko), club)
    season.entries.filter(tournament=theirs).update(factor=2)
    play(ours, 5, [["Ana", "Bor", "Cene"]] * 2, django_capture_on_commit_callbacks)
    play(theirs, 12, [["Tomo", "Uroš", "Vesna"]] * 2, django_capture_on_commit_callbacks)
    for target, name, shown in (
        (club, "Ana", "full"),
        (club, "Bor", "initials"),
        (other_club, "Tomo", "full"),
        (other_club, "Uroš", "initials"),
    ):
        chose(target.players.get(name=name), shown)
    return {"series": series, "season": season, "ours": ours, "theirs": theirs}


def standing(page: str) -> list[list[str]]:
    """The standing's rows as a reader reads them: place, name, club, each cell."""
    body = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return [
        [html.unescape(cell.strip()) for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)
    ]


def test_the_cup_standing_names_everybody_as_he_chose_in_his_own_club(club, cup_series, client):
    series = cup_series["series"]
    page = client.get(url("series", club, series=series.pk)).content.decode()
    # Ljubljana open: 2 + 2 placement points for Ana, 1 + 1 Bor, ½ + ½ Cene: 25, 20, 16.
    # Zagreb open, factor 2: 50, 40, 32. Vesna and Cene chose nothing: numbered as named.
    assert standing(page) == [
        ["1", "Tomo", "Zagreb Tarock", "–", "50.00", "50.00", "1"],
        ["2", "U.", "Zagreb Tarock", "–", "40.00", "40.00", "1"],
        ["3", "Player 1", "Zagreb Tarock", "–", "32.00", "32.00", "1"],
        ["4", "Ana", "Ljubljana Tarock", "25.00", "–", "25.00", "1"],
        ["5", "B.", "Ljubljana Tarock", "20.00", "–", "20.00", "1"],
        ["6", "Player 2", "Ljubljana Tarock", "16.00", "–", "16.00", "1"],
    ]
    assert "Zagreb open ×2" in page and "Vesna" not in page and "Cene" not in page
    assert f"/p/{club.slug}/en/tournaments/{cup_series['ours'].pk}/" in page
    assert f"/tournaments/{cup_series['theirs'].pk}/" not in page  # Zagreb's to publish
    season = url("series_season", club, series=series.pk, series_season=cup_series["season"].pk)
    assert standing(client.get(season).content.decode()) == standing(page)


def test_the_list_and_the_club_page_link_the_series(club, cup_series, client):
    series = cup_series["series"]
    address = url("series", club, series=series.pk)
    listed = client.get(url("series_list", club)).content.decode()
    assert f'<a href="{address}">Winter cup</a>' in listed and "2026/27" in listed
    assert f'<a href="{address}">Winter cup</a>' in client.get(url("club", club)).content.decode()
    sitemap = client.get("/sitemap.xml").content.decode()
    season = url(
        "series_season", club, "sl", series=series.pk, series_season=cup_series["season"].pk
    )
    assert address in sitemap and season in sitemap and url("series_list", club, "fr") in sitemap


def test_a_rated_series_lists_a_person_of_two_clubs_by_his_most_private_choice(
    club,
    other_club,
    rated,  # noqa: F811
    admins,  # noqa: F811
    client,
    django_capture_on_commit_callbacks,
):
    from scorebook.series import people

    series = rated["series"]
    ana, their_ana = rated["ana"]
    with django_capture_on_commit_callbacks(execute=True):
        people.match(series, ana, their_ana, admins["club"])
    club.publish_series = True
    club.save()
    chose(ana, "full")
    chose(their_ana, "hidden")  # one person: the more private choice counts
    chose(other_club.players.get(name="Dani"), "full")
    chose(club.players.get(name="Bor"), "initials")
    page = client.get(url("series", club, series=series.pk)).content.decode()
    # tests/series/test_rated_series.py: Ana 35.1 as one person, Dani 33.4, Bor 30.1, …
    assert standing(page) == [
        ["1", "Player 1", "Zagreb Tarock", "35.1", "2"],
        ["2", "Dani", "Zagreb Tarock", "33.4", "1"],
        ["3", "B.", "Ljubljana Tarock", "30.1", "1"],
        ["4", "Player 2", "Zagreb Tarock", "20.0", "1"],
        ["5", "Player 3", "Ljubljana Tarock", "10.0", "1"],
    ]
    assert "Rating list" in page and "Ana" not in page


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_series_page_shows_a_hidden_name_a_username_or_an_id(lang, club, cup_series, client):
    series, season = cup_series["series"], cup_series["season"]
    for address in (
        url("series_list", club, lang),
        url("series", club, lang, series=series.pk),
        url("series_season", club, lang, series=series.pk, series_season=season.pk),
    ):
        response = client.get(address)
        assert response.status_code == 200 and response["Content-Language"] == lang
        text = response.content.decode().split("<body", 1)[1]
        for secret in ("Cene", "Vesna", "lea", "zdravko", "@example.org"):
            assert secret not in text, (address, secret)
        assert ids_in(visible(response.content.decode()), lang) == [], address


def test_unpublished_another_clubs_and_unknown_series_are_404(club, other_club, cup_series, client):
    series, season = cup_series["series"], cup_series["season"]
    theirs = services.create_series(
        club=other_club, user=None, rated=False, plan=SeriesPlan("Zagreb cup")
    )
    their_season = services.add_season(theirs, SeasonPlan("2026/27", SEASON_START, SEASON_END))
    mine = {"series": series.pk, "series_season": season.pk}
    for kwargs in (
        {"series": theirs.pk},
        {"series": theirs.pk, "series_season": their_season.pk},
        {"series": series.pk, "series_season": their_season.pk},
        {"series": 2**31},
    ):
        name = "series_season" if "series_season" in kwargs else "series"
        assert client.get(url(name, club, **kwargs)).status_code == 404, kwargs
    assert client.get(url("series", other_club, series=theirs.pk)).status_code == 200
    club.publish_series = False
    club.save()
    for name, kwargs in (
        ("series_list", {}),
        ("series", {"series": series.pk}),
        ("series_season", mine),
    ):
        assert client.get(url(name, club, **kwargs)).status_code == 404, name
    assert "/series/" not in client.get(url("club", club)).content.decode()


def test_an_unchanged_standing_answers_304_and_a_change_of_the_series_a_new_page(
    club, other_club, cup_series, client
):
    series, season = cup_series["series"], cup_series["season"]
    address = url("series_season", club, series=series.pk, series_season=season.pk)
    tag = client.get(address)["ETag"]
    assert client.get(address, HTTP_IF_NONE_MATCH=tag).status_code == 304
    # The season counts each player's best result only, the same: but the page is new.
    services.edit_season(season, SeasonPlan("2026/27", SEASON_START, SEASON_END, 1), factors={})
    again = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert again.status_code == 200 and "1 result counts for each player" in again.content.decode()
    tag = again["ETag"]
    # Vesna, of Zagreb, chooses her full name in her club: Ljubljana's series page names her.
    chose(other_club.players.get(name="Vesna"), "full")
    named = client.get(address, HTTP_IF_NONE_MATCH=tag)
    assert named.status_code == 200 and "Vesna" in named.content.decode()
