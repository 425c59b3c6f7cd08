"""The public pages for anonymous visitors: what each answers, published or not, with another
club's ids, with hostile input; what they never show; how caches may keep them."""

from __future__ import annotations

import pytest
from django.urls import get_resolver, reverse

from tests.conftest import made_once, new_club, new_members, new_other_club
from tests.public.conftest import (
    PARTS,
    SECRETS,
    new_cup,
    new_evening,
    new_roster,
    new_winter_series,
    switch_on,
)
from tests.tournaments.fixtures import new_organiser, new_people

LANGUAGES = ("en", "sl", "cs", "de", "fr")


def public_names() -> dict[str, frozenset]:
    """Every public URL name -> its parameters, read from the resolver: a new public view
    without a case here fails `test_every_public_url_is_covered`."""
    from tests.scorebook.test_access import url_names

    return {
        n: p for n, p in url_names(get_resolver().url_patterns).items() if n.startswith("public:")
    }


# name -> status for a visitor when the club publishes everything.
PUBLISHED = {
    "public:club_root": 302,
    "public:club": 200,
    "public:privacy": 200,
    "public:sessions": 200,
    "public:session": 200,
    "public:standings": 200,
    "public:embed": 200,
    "public:player": 200,
    "public:tournaments": 200,
    "public:tournament": 200,
    "public:live": 200,
    "public:live_part": 200,
    "public:projector": 200,
    "public:feed": 200,
    "public:calendar": 200,
    "public:sitemap": 200,
    "public:series_list": 200,
    "public:series": 200,
    "public:series_season": 200,
}


def test_every_public_url_is_covered():
    assert sorted(public_names()) == sorted(PUBLISHED)


@pytest.fixture(scope="module")
def made(built_once) -> dict:
    """The publishing club with its evening, cup and series, made once for these tests (they
    read them; what one changes is undone before the next), in the order fixtures made them."""
    club, other_club = new_club(), new_other_club()
    roster = new_roster(club, other_club)
    members = new_members(club, other_club)
    evening = new_evening(club, roster, members)
    people = new_people(club)
    organiser = new_organiser(club)
    cup = new_cup(club, people, organiser)
    series = new_winter_series(club)
    switch_on(club)
    world = {"session": evening.pk, "player": roster["Ana"].pk, "tournament": cup.pk, **series}
    return {
        "club": club,
        "other_club": other_club,
        "roster": roster,
        "members": members,
        "cup": cup,
        "organiser": organiser,
        "world": world,
    }


club, other_club, roster, members, cup, organiser, world = made_once(
    "club", "other_club", "roster", "members", "cup", "organiser", "world"
)


def url_of(name, club_slug, ids, lang="en"):
    params = public_names()[name]
    values = {"club": club_slug, "lang": lang, **ids}
    return reverse(name, kwargs={p: values[p] for p in params})


VISITORS = ("anonymous", "viewer", "outsider")


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_published_pages_answer_everybody_alike(name, visitor, club, world, members, client_as):
    response = client_as(members[visitor]).get(url_of(name, club.slug, world))
    assert response.status_code == PUBLISHED[name], (name, visitor)


@pytest.mark.parametrize("name", sorted(set(PUBLISHED) - {"public:sitemap"}))
def test_an_unpublished_club_is_404_for_everybody(name, club, world, members, client_as):
    for part in PARTS:
        setattr(club, f"publish_{part}", False)
    club.save()
    for visitor in ("anonymous", "admin", "viewer"):
        response = client_as(members[visitor]).get(url_of(name, club.slug, world))
        assert response.status_code == 404, (name, visitor)


# Which switch opens which page (besides the ones any switch opens).
OWN_SWITCH = {
    "public:club": "club",
    "public:sessions": "sessions",
    "public:session": "sessions",
    "public:standings": "league",
    "public:embed": "league",
    "public:player": "league",
    "public:tournaments": "tournaments",
    "public:tournament": "tournaments",
    "public:live": "tournaments",
    "public:live_part": "tournaments",
    "public:projector": "tournaments",
    "public:series_list": "series",
    "public:series": "series",
    "public:series_season": "series",
}


@pytest.mark.parametrize("name", sorted(OWN_SWITCH))
def test_each_part_is_published_on_its_own(name, club, world, client, publish):
    for part in PARTS:
        publish(club, **{p: p == part for p in PARTS})
        expected = 200 if part == OWN_SWITCH[name] else 404
        assert client.get(url_of(name, club.slug, world)).status_code == expected, (name, part)


@pytest.mark.parametrize("name", sorted(n for n in PUBLISHED if n not in ("public:sitemap",)))
def test_another_clubs_ids_in_my_clubs_address_are_404(name, club, world, theirs, client):
    params = public_names()[name] & {"session", "player", "tournament", "series", "series_season"}
    if not params:
        return
    response = client.get(url_of(name, club.slug, {**world, **{p: theirs[p] for p in params}}))
    assert response.status_code == 404
    assert client.get(url_of(name, "zagreb", theirs)).status_code == 200


def test_an_open_session_and_a_hidden_player_have_no_page(club, world, roster, client):
    from scorebook import services

    seated = [roster[n] for n in ("Ana", "Bor", "Cene", "Dani")]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=seated, user=None
    )
    assert (
        client.get(url_of("public:session", club.slug, {"session": session.pk})).status_code == 404
    )
    hidden = {"player": roster["Cene"].pk}
    assert client.get(url_of("public:player", club.slug, hidden)).status_code == 404


HOSTILE_VALUES = {
    "club": ["x" * 300, "no-such-club", "ljubljana%00"],
    "lang": ["xx", "EN", "en-us", "%2e%2e", "a" * 200],
    "session": [0, 2**31, 2**63 + 5],
    "player": [0, 2**31, 10**30],
    "tournament": [0, 2**31, 10**30],
    "series": [0, 2**31, 10**30],
    "series_season": [0, 2**31, 10**30],
}
HOSTILE_QUERIES = [
    "?page=-1",
    "?page=99999999999999999999",
    "?family=<script>alert(1)</script>",
    "?family=slovenian&season=abc",
    "?season=99999999999999999999999",
    "?family=" + "x" * 5000,
]


SENTINELS = {"club": "zzclubzz", "lang": "zzlangzz", "session": 987654321,
             "player": 987654322, "tournament": 987654323, "series": 987654324,
             "series_season": 987654325}  # fmt: skip


def hostile_path(name, param, value, club, world):
    """The page's address with one segment replaced by `value`, as a visitor may type it."""
    params = public_names()[name]
    path = reverse(name, kwargs={p: SENTINELS[p] for p in params})
    path = path.replace(str(SENTINELS[param]), str(value))
    for other in params - {param}:
        real = {"club": club.slug, "lang": "en", **world}[other]
        path = path.replace(str(SENTINELS[other]), str(real))
    return path


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_hostile_input_never_answers_500(name, club, world, client):
    client.raise_request_exception = False
    params = public_names()[name]
    for param in params & set(HOSTILE_VALUES):
        for value in HOSTILE_VALUES[param]:
            path = hostile_path(name, param, value, club, world)
            assert client.get(path).status_code in (301, 302, 404), (name, param, value)
    for query in HOSTILE_QUERIES:
        response = client.get(url_of(name, club.slug, world) + query)
        assert response.status_code in (200, 302, 404), (name, query)
    base = url_of(name, club.slug, world)
    junk = {"HTTP_IF_NONE_MATCH": '"\x00", W/"' + "a" * 5000, "HTTP_IF_MODIFIED_SINCE": "yesterday"}
    assert client.get(base, **junk).status_code in (200, 302), name
    assert client.post(base).status_code == 405


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_page_shows_a_username_an_email_a_hidden_name_or_a_reason(lang, club, world, client):
    for name in PUBLISHED:
        response = client.get(url_of(name, club.slug, world, lang), follow=True)
        text = response.content.decode()
        for secret in SECRETS:
            assert secret not in text, (name, lang, secret)


def test_the_sheet_names_players_as_they_chose(club, world, client):
    text = client.get(url_of("public:session", club.slug, world)).content.decode()
    assert "Ana Kovač" in text and "B. N." in text and "D. Z. 1" in text
    assert "Player 1" in text  # Cene, hidden here
    assert "mondfang −21" in text  # the line, its amount beside the hidden player's number
    assert "Player 1 −21" in text
    assert "voided" in text


def test_the_live_page_names_registrants_as_they_chose(club, world, client):
    text = client.get(url_of("public:live", club.slug, world)).content.decode()
    assert "Fran" in text  # his choice at registration went to his player at the start
    assert "Cene" not in text and "Dani" not in text
    assert 'hx-trigger="every 10s"' in text
    assert "<script>" not in text and "style=" not in text  # CSP strict: no inline script


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_page_speaks_its_addresss_language(lang, club, world, client):
    response = client.get(url_of("public:club", club.slug, world, lang), HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Language"] == lang
    assert f'<html lang="{lang}">' in response.content.decode()


def test_without_a_language_the_clubs(club, world, client):
    club.language = "sl"
    club.save()
    response = client.get(f"/p/{club.slug}/")
    assert response.status_code == 302 and response["Location"] == f"/p/{club.slug}/sl/"


# --- Caching --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PUBLISHED))
def test_no_page_varies_on_the_cookie_or_sets_one(name, club, world, members, client_as):
    anonymous = client_as(None).get(url_of(name, club.slug, world))
    member = client_as(members["viewer"]).get(url_of(name, club.slug, world))
    for response in (anonymous, member):
        assert "cookie" not in response.get("Vary", "").lower(), name
        assert not response.cookies, name
        assert "public" in response["Cache-Control"], name
    assert member.content == anonymous.content, name


def test_a_live_page_is_kept_a_few_seconds_the_others_minutes(club, world, client):
    assert client.get(url_of("public:live", club.slug, world))["Cache-Control"] == (
        "public, max-age=5"
    )
    assert client.get(url_of("public:club", club.slug, world))["Cache-Control"] == (
        "public, max-age=300"
    )


def test_an_unchanged_page_answers_304_after_one_query(
    club, world, client, django_assert_num_queries
):
    url = url_of("public:session", club.slug, world)
    first = client.get(url)
    assert first["ETag"] and first["Last-Modified"]
    with django_assert_num_queries(1):
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert "public" in again["Cache-Control"]
    since = client.get(url, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"])
    assert since.status_code == 304


def test_a_change_of_a_name_or_a_hand_makes_a_new_page(club, world, roster, cup, client):
    from scorebook.public import choices
    from tests.tournaments.helpers import record

    url = url_of("public:session", club.slug, world)
    tag = client.get(url)["ETag"]
    choices.own_choice(roster["Cene"], roster["Cene"].user, "full")
    changed = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and "Cene Kralj" in changed.content.decode()
    live = url_of("public:live", club.slug, world)
    tag = client.get(live)["ETag"]
    table = cup.round_set.get().tables.get()
    seated = [p.name for p in table.session.seated_players()]
    record(table, {"contract": "three", "declarer": seated[1], "points": 40})
    assert client.get(live, HTTP_IF_NONE_MATCH=tag).status_code == 200
    # The league's rebuild clears the stale mark the save left: the page stays the new one.
    from scorebook.league.services import ensure_current

    ensure_current(club)
    assert client.get(live, HTTP_IF_NONE_MATCH=tag).status_code == 200


# --- Framing --------------------------------------------------------------------------------


def test_only_the_embed_may_be_framed_and_only_by_the_clubs_sites(club, world, client):
    embed = url_of("public:embed", club.slug, world)
    response = client.get(embed)
    assert "X-Frame-Options" not in response
    assert "frame-ancestors 'none'" in response["Content-Security-Policy"]
    club.frame_sites = "https://www.tarok-lj.si\nhttps://*.example.si"
    club.save()
    response = client.get(embed)
    assert (
        "frame-ancestors https://www.tarok-lj.si https://*.example.si"
        in response["Content-Security-Policy"]
    )
    again = client.get(embed, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304 and "X-Frame-Options" not in again
    assert "https://www.tarok-lj.si" in again["Content-Security-Policy"]
    for name in set(PUBLISHED) - {"public:embed"}:
        other = client.get(url_of(name, club.slug, world))
        assert other["X-Frame-Options"] == "DENY", name
        assert "frame-ancestors 'none'" in other["Content-Security-Policy"], name


# --- Feeds, calendar, sitemap, link previews -------------------------------------------------


def test_the_feed_lists_results_with_public_names(club, world, client):
    response = client.get(url_of("public:feed", club.slug, world))
    assert response["Content-Type"].startswith("application/atom+xml")
    text = response.content.decode()
    assert "<feed" in text and "Ana Kovač 15" in text and "Player 1 −1" in text


def test_the_calendar_lists_upcoming_tournaments(club, world, client, organiser):
    from tests.tournaments.helpers import announce

    announce(club, organiser, name="Spring cup; open, for all")
    text = client.get(url_of("public:calendar", club.slug, world)).content.decode()
    assert text.startswith("BEGIN:VCALENDAR\r\n") and text.endswith("END:VCALENDAR\r\n")
    assert "SUMMARY:Spring cup\\; open\\, for all\r\n" in text
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))


def test_the_sitemap_lists_published_pages_only(club, world, theirs, other_club, client):
    other_club.publish_sessions = False
    other_club.save()
    text = client.get("/sitemap.xml").content.decode()
    assert f"/p/{club.slug}/sl/sessions/{world['session']}/" in text
    assert "/p/zagreb/en/sessions/" not in text and "/p/zagreb/en/" in text
    assert "/players/" not in text


def test_a_shared_link_shows_the_club_and_the_result(club, world, client):
    text = client.get(url_of("public:session", club.slug, world)).content.decode()
    assert '<meta property="og:site_name" content="Ljubljana Tarock">' in text
    assert '<meta property="og:description" content="Ana Kovač 15 · B. N. 0 · Player 1 −1' in text
    assert 'hreflang="sl"' in text
