"""Words, not internals (issue 16): the form names fields as a user sees them, pages name a
game by its name, each family's form uses its own words, and notes say who announced."""

from __future__ import annotations

import re
import uuid

import pytest
from django.conf import settings
from django.utils import translation

from scorebook import hands
from scorebook.models import Hand
from tests.scorebook.test_views_hands import post_hand, start, url

pytestmark = pytest.mark.django_db


def errors(html: str) -> list[str]:
    return re.findall(r'<ul class="errorlist"[^>]*>(.*?)</ul>', html, re.S)


def test_a_missing_field_is_named_by_its_label(session, members, client_as):
    client = client_as(members["scorekeeper"])
    html = post_hand(client, session, {"contract": "three"}).content.decode()
    assert 'id="id_points_error"><li>required</li>' in html
    assert 'id="id_declarer_error"><li>required</li>' in html
    # Under the fields, each problem names its field as the form labels it.
    assert "<li>Points: required</li>" in html and "<li>Declarer: required</li>" in html
    assert "is required" not in html and "points:" not in html
    assert not Hand.objects.exists()


def test_a_missing_player_entry_names_the_players(session, members, client_as):
    client = client_as(members["scorekeeper"])
    html = post_hand(client, session, {"contract": "klop", "pbp-1": "10"}).content.decode()
    assert 'id="id_pbp_error"><li>required for Bor, Cene, Dani</li>' in html
    assert "<li>Card points of each player: required for Bor, Cene, Dani</li>" in html
    assert "points_by_player" not in html and "needs an entry" not in html


def test_the_live_preview_names_fields_by_label(session, members, client_as):
    client = client_as(members["scorekeeper"])
    fields = {"contract": "three", "declarer": "1", "partner": "1", "points": "40"}
    html = client.post(url("scorebook:hand_preview", session), fields).content.decode()
    assert "<li>Partner: the partner cannot be the declarer</li>" in html


@pytest.mark.parametrize("contract", ["three", "klop", "beggar"])
def test_show_the_fields_without_javascript_shows_no_error(contract, session, members, client_as):
    client = client_as(members["scorekeeper"])
    response = post_hand(client, session, {"contract": contract, "_refresh": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert errors(html) == [] and 'aria-invalid="true"' not in html
    assert "The score shows here as you fill in the hand." in html
    # With htmx, choosing the contract redraws the fields the same way.
    target = url("scorebook:hand_preview", session) + "?part=fields"
    html = client.post(target, {"contract": contract}).content.decode()
    assert errors(html) == [] and 'aria-invalid="true"' not in html


def test_show_the_fields_of_a_complete_hand_shows_its_score(session, members, client_as):
    client = client_as(members["scorekeeper"])
    fields = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
    html = post_hand(client, session, {**fields, "_refresh": "1"}).content.decode()
    assert "three 10 + difference 5" in html


@pytest.mark.parametrize("name", ["scorebook:session_settlement", "scorebook:session_history"])
def test_subtitles_name_the_game(name, session, members, client_as):
    client = client_as(members["admin"])
    html = client.get(url(name, session)).content.decode()
    assert "Slovenian tarok, 4 players" in html
    assert "slovenian-4" not in html


def shown(labels):
    """What a chip shows: the "no bonus" chip shows "–" (its name is for screen readers)."""
    return [re.sub(r'<span class="visually-hidden">.*?</span>|<[^>]+>', "", c) for c in labels]


def test_the_french_form_uses_french_words(club, players, members, client_as):
    session = start(club, players, members, "french-4", 4)
    client = client_as(members["scorekeeper"])
    html = client.get(url("scorebook:hand_new", session)).content.decode()
    assert "<legend>Taker</legend>" in html and "Declarer" not in html
    assert "Card points of the attack (of 91)" in html
    assert "these are the points of the defence" in html
    chips = shown(re.findall(r'<label for="id_bonus-petit-au-bout_\d+">(.*?)</label>', html))
    assert chips == ["–", "attack", "defence"]
    assert "silent, defenders" not in html
    html = post_hand(client, session, {"contract": "garde"}).content.decode()
    assert "<li>Taker: required</li>" in html


def test_the_french_five_player_form_calls_its_partner(club, players, members, client_as):
    session = start(club, players, members, "french-5", 5)
    html = client_as(members["scorekeeper"]).get(url("scorebook:hand_new", session))
    assert "<legend>Called partner</legend>" in html.content.decode()


def test_the_slovenian_form_keeps_its_words(session, members, client_as):
    html = client_as(members["scorekeeper"]).get(url("scorebook:hand_new", session))
    html = html.content.decode()
    assert "<legend>Declarer</legend>" in html and "<legend>Partner</legend>" in html
    assert "Card points of the declarer&#x27;s side (of 70)" in html
    chips = shown(re.findall(r'<label for="id_bonus-trula_\d+">(.*?)</label>', html))
    assert chips[:3] == ["–", "silent", "silent, defenders"]


def test_a_two_player_note_says_who_announced(club, players, members, client_as):
    session = start(club, players, members, "slovenian-2", 2)
    user = members["scorekeeper"]
    for announcer, points in (("Ana", {"Ana": 40, "Bor": 30}), (None, {"Ana": 38, "Bor": 32})):
        data = {"contract": "game", "points_by_player": points}
        if announcer:
            data["announcer"] = announcer
        hands.record_hand(session, data, uuid.uuid4(), user)
    notes = [
        hands.stored_note_text(h.score["note"])
        for h in Hand.objects.filter(session=session).order_by("number")
    ]
    assert notes == ["Ana: I play, 40", "game"]
    html = client_as(user).get(url("scorebook:sheet", session)).content.decode()
    assert "Ana: I play, 40" in html


def test_the_german_form_names_the_declarer_who_plays_alone(session, members, client_as):
    """Austrian players call the declarer of a game without a partner the Alleinspieler
    (issue 26); with a called king he is the Spieler."""
    client = client_as(members["scorekeeper"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "de"
    target = url("scorebook:hand_preview", session) + "?part=fields"
    alone = client.post(target, {"contract": "solo-three"}).content.decode()
    assert "<legend>Alleinspieler</legend>" in alone and "<legend>Partner</legend>" not in alone
    called = client.post(target, {"contract": "three"}).content.decode()
    assert "<legend>Spieler</legend>" in called and "Alleinspieler" not in called


def test_the_czech_form_counts_oci_of_the_akter(club, players, members, client_as):
    """Czech players count "oči" and call the declarer "aktér" (issue 26), while a
    tournament's placement points stay "body"."""
    session = start(club, players, members, "czech", 4)
    client = client_as(members["scorekeeper"])
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    html = client.get(url("scorebook:hand_new", session)).content.decode()
    assert "Oči – strana aktéra (z 70)" in html and "<legend>Aktér</legend>" in html
    assert "Body –" not in html and "hlavní" not in html
    html = post_hand(client, session, {"contract": "first-obligation"}).content.decode()
    assert "<li>Oči: povinné</li>" in html and "<li>Aktér: povinné</li>" in html
    with translation.override("cs"):
        assert translation.gettext("Points") == "Body"  # a tournament's placement points
