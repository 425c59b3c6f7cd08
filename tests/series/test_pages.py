"""Every series page, with results on it, answers in each of the five languages in that
language's words, shows no engine id and no JSON, and the exports have the columns of
rules/HANDS.md."""

from __future__ import annotations

import csv
import html
import io
import json
import re

import pytest
from django.urls import reverse

from scorebook.series import people
from tests.e2e.engine_ids import ids_in
from tests.series.conftest import play_the_third

pytestmark = pytest.mark.django_db

LANGUAGES = ("en", "sl", "cs", "de", "fr")
# A word of the rating list's page in each language (the TARZS words in Slovenian).
RATING_LIST = {
    "en": "Rating list",
    "sl": "Rating lista",
    "cs": "Ratingový žebříček",
    "de": "Rating-Liste",
    "fr": "Liste des cotes",
}


def visible(page: str) -> str:
    """The page's text as a reader sees it: no tags, scripts or attributes."""
    body = page.split("<body", 1)[1].split(">", 1)[1]
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", body, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def pages(club, series, season, entry, player, match) -> list[str]:
    def url(name, **kwargs):
        return reverse(
            f"scorebook:series:{name}", kwargs={"club": club.slug, "series": series.pk, **kwargs}
        )

    in_season = {"series_season": season.pk}
    return [
        reverse("scorebook:series:list", kwargs={"club": club.slug}),
        reverse("scorebook:series:create", kwargs={"club": club.slug}),
        reverse("scorebook:series:ask", kwargs={"club": club.slug}),
        url("detail"),
        url("edit"),
        url("season_add"),
        url("season", **in_season),
        url("season_edit", **in_season),
        url("entry_add", **in_season),
        url("season_close", **in_season),
        url("entry", entry=entry.pk),
        url("entry_remove", entry=entry.pk),
        url("players"),
        url("player", player=player.pk),
        url("match_remove", match=match.pk),
        url("ratings_import"),
    ]


@pytest.fixture
def played(rated, admins, django_capture_on_commit_callbacks):
    series, season = rated["series"], rated["season"]
    match = people.match(series, *rated["ana"], admins["club"])
    play_the_third(rated, django_capture_on_commit_callbacks)
    return series, season, season.entries.first(), rated["ana"][0], match


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_rated_series_page_speaks_the_language(played, club, admins, client_as, language):
    client = client_as(admins["club"], HTTP_ACCEPT_LANGUAGE=language)
    client.cookies["django_language"] = language
    for address in pages(club, *played):
        response = client.get(address)
        assert response.status_code == 200, address
        text = visible(response.content.decode())
        assert ids_in(text, language) == [], address
    season_page = client.get(pages(club, *played)[6]).content.decode()
    assert RATING_LIST[language] in season_page


def test_the_exports_have_the_columns_of_hands_md(played, club, admins, client_as):
    series, season = played[0], played[1]
    kwargs = {"club": club.slug, "series": series.pk, "series_season": season.pk}
    client = client_as(admins["club"])
    text = client.get(reverse("scorebook:series:season_csv", kwargs=kwargs)).content.decode()
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
    assert rows[:3] == [
        ["place", "player", "club", "rating", "tournaments"],
        ["1", "Ana", "Ljubljana Tarock", "35.9", "3"],
        ["2", "Dani", "Zagreb Tarock", "33.4", "1"],
    ]
    body = json.loads(client.get(reverse("scorebook:series:season_json", kwargs=kwargs)).content)
    assert body["kind"] == "rating" and body["season"] == "2026/27"
    assert body["rows"][0] == {
        "place": 1,
        "player": "Ana",
        "club": "Ljubljana Tarock",
        "rating": "35.9",
        "tournaments": 3,
    }
