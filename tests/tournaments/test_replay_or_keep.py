"""RULES.md §8.2: a knockout match whose match before it has another winner after it began is
the organiser's call, replay or keep, from two buttons on his screen.

A knockout of eight seeded by the order of registration (Ana 1 … Hana 8): round 1 is Ana–Hana,
Dani–Eva, Bor–Gal, Cene–Fran; round 2's table 1 is the winners of the first two, table 2 of
the other two. One deal a match; the first named wins 40 to 30.
"""

from __future__ import annotations

import html

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from scorebook import hands
from scorebook.errors import ServiceError
from scorebook.models import Hand, Session
from scorebook.tournaments import services
from scorebook.tournaments.models import Event, Round
from tests.tournaments.helpers import record, seated

REPLAYED = (
    "Round 2 · table 1 is replayed by the director's decision: Dani, Hana play it again; "
    "its earlier hands are voided."
)
KEPT = "Round 2 · table 1 is kept as played, by the director's decision."
TO_DECIDE = (
    "Round 2 · table 1 has begun, but the match before it has another winner now: decide "
    "whether it is replayed or kept."
)


def tables_of(tournament, number):
    return list(Round.objects.get(tournament=tournament, number=number).tables.all())


def won(table, winner, loser):
    return record(
        table,
        {"contract": "game", "announcer": None, "points_by_player": {winner: 40, loser: 30}},
    )


def url(name, tournament, **kwargs):
    return reverse(
        f"scorebook:tournaments:{name}",
        kwargs={"club": tournament.club.slug, "tournament": tournament.pk, **kwargs},
    )


@pytest.fixture
def semi_final_played(started, organiser, django_capture_on_commit_callbacks):
    """Round 1 played (Ana, Dani, Bor, Cene go on); Ana beat Dani at round 2's table 1,
    table 2 has no hand yet; then the organiser corrects Ana–Hana: Hana won it."""
    tournament = started(8, variant="slovenian-2", hands_per_table=1, draw_mode="groups")
    first = tables_of(tournament, 1)
    assert [seated(t) for t in first] == [
        ["Ana", "Hana"],
        ["Dani", "Eva"],
        ["Bor", "Gal"],
        ["Cene", "Fran"],
    ]
    for table in first:
        won(table, *seated(table))
    services.sync_tournament(tournament)
    semi, other = tables_of(tournament, 2)
    assert (seated(semi), seated(other)) == (["Ana", "Dani"], ["Bor", "Cene"])
    won(semi, "Ana", "Dani")
    services.sync_tournament(tournament)
    hand = Hand.objects.get(session=first[0].session, number=1)
    flipped = {"contract": "game", "announcer": None, "points_by_player": {"Ana": 30, "Hana": 40}}
    with django_capture_on_commit_callbacks(execute=True):
        hands.edit_hand(hand, flipped, hand.version, organiser, change_closed=True)
    return tournament


def the_decision(tournament):
    (event,) = services.open_decisions(tournament)
    return event


def history_lines(tournament):
    return [text for _event, text in services.history(tournament)]


def test_the_directors_screen_offers_replay_and_keep_as_plain_buttons(
    semi_final_played, organiser, client_as
):
    event = the_decision(semi_final_played)
    page = html.unescape(
        client_as(organiser).get(url("director", semi_final_played)).content.decode()
    )
    action = url("match_decide", semi_final_played, event=event.pk)
    assert f'<form method="post" action="{action}"' in page
    assert 'name="csrfmiddlewaretoken"' in page
    assert '<button type="submit" name="answer" value="replay">Replay the match</button>' in page
    assert 'value="keep" class="secondary">Keep the result</button>' in page
    assert TO_DECIDE in page


def test_replay_seats_the_new_winner_and_voids_the_hands_played(
    semi_final_played, organiser, client_as
):
    tournament = semi_final_played
    semi = tables_of(tournament, 2)[0]
    old_sheet = semi.session
    assert seated(semi) == ["Ana", "Dani"]  # kept until he decides
    client = client_as(organiser)
    response = client.post(
        url("match_decide", tournament, event=the_decision(tournament).pk), {"answer": "replay"}
    )
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["The match is played again."]
    semi = tables_of(tournament, 2)[0]
    assert seated(semi) == ["Hana", "Dani"]
    assert semi.finished_at is None and not semi.session.hands.exists()
    # The match as first played stays on record: its sheet, its hand voided, saying why.
    old_sheet = Session.objects.get(pk=old_sheet.pk)
    (old_hand,) = old_sheet.hands.all()
    assert old_hand.voided
    assert old_hand.void_reason == "Replayed: the match before it has another winner."
    assert old_sheet.is_closed and old_sheet.table_label == "Advent cup"
    assert history_lines(tournament)[0] == REPLAYED
    assert services.open_decisions(tournament) == []
    # The history line links that sheet: it is no table's any more.
    page = client.get(url("director", tournament)).content.decode()
    old_url = reverse(
        "scorebook:session", kwargs={"club": tournament.club.slug, "session": old_sheet.pk}
    )
    assert f'<a href="{old_url}">The sheet as first played</a>' in page
    # Played again: Hana wins it, and meets Bor in the final once table 2 is played.
    won(semi, "Hana", "Dani")
    won(tables_of(tournament, 2)[1], "Bor", "Cene")
    services.sync_tournament(tournament)
    assert seated(tables_of(tournament, 3)[0]) == ["Hana", "Bor"]


def test_keep_leaves_the_match_as_played(semi_final_played, organiser, client_as):
    tournament = semi_final_played
    semi = tables_of(tournament, 2)[0]
    response = client_as(organiser).post(
        url("match_decide", tournament, event=the_decision(tournament).pk), {"answer": "keep"}
    )
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["The match is kept as played."]
    after = tables_of(tournament, 2)[0]
    assert (after.session_id, seated(after)) == (semi.session_id, ["Ana", "Dani"])
    assert after.session.hands.filter(voided=False).count() == 1
    assert history_lines(tournament)[0] == KEPT
    assert services.open_decisions(tournament) == []
    page = html.unescape(client_as(organiser).get(url("director", tournament)).content.decode())
    assert "Replay the match" not in page
    assert KEPT in page


def test_a_second_answer_or_a_double_post_acts_once(semi_final_played, organiser, client_as):
    tournament = semi_final_played
    event = the_decision(tournament)
    client = client_as(organiser)
    address = url("match_decide", tournament, event=event.pk)
    client.post(address, {"answer": "replay"})
    replayed = tables_of(tournament, 2)[0].session_id
    again = client.post(address, {"answer": "replay"})
    assert [str(m) for m in get_messages(again.wsgi_request)][-1] == (
        "This match is decided already."
    )
    client.post(address, {"answer": "keep"})
    assert tables_of(tournament, 2)[0].session_id == replayed
    kinds = [e.kind for e in tournament.events.all()[:2]]
    assert kinds == [Event.Kind.KNOCKOUT_REPLAYED, Event.Kind.KNOCKOUT_DECIDE]
    assert Event.objects.get(pk=event.pk).answer == "replay"


def test_replay_is_refused_once_the_round_after_is_drawn(
    started, organiser, django_capture_on_commit_callbacks
):
    tournament = started(8, variant="slovenian-2", hands_per_table=1, draw_mode="groups")
    for table in tables_of(tournament, 1):
        won(table, *seated(table))
    services.sync_tournament(tournament)
    semi, other = tables_of(tournament, 2)
    won(semi, "Ana", "Dani")
    won(other, "Bor", "Cene")
    services.sync_tournament(tournament)
    assert seated(tables_of(tournament, 3)[0]) == ["Ana", "Bor"]  # the final is drawn
    hand = Hand.objects.get(session=tables_of(tournament, 1)[0].session, number=1)
    flipped = {"contract": "game", "announcer": None, "points_by_player": {"Ana": 30, "Hana": 40}}
    with django_capture_on_commit_callbacks(execute=True):
        hands.edit_hand(hand, flipped, hand.version, organiser, change_closed=True)
    event = the_decision(tournament)
    with pytest.raises(ServiceError) as refused:
        services.decide_match(tournament, event, "replay", organiser)
    assert refused.value.message == (
        "Round 2 is over and the next round is drawn from it: the match can only be kept."
    )
    assert seated(tables_of(tournament, 2)[0]) == ["Ana", "Dani"]
    assert services.open_decisions(tournament) == [event]  # still his to answer: keep
    services.decide_match(tournament, event, "keep", organiser)
    assert history_lines(tournament)[0] == KEPT
    assert seated(tables_of(tournament, 3)[0]) == ["Ana", "Bor"]


@pytest.mark.parametrize("answer", ["", "REPLAY", "\x00", "9" * 5000])
def test_a_strange_answer_is_refused_with_a_message(
    semi_final_played, organiser, client_as, answer
):
    tournament = semi_final_played
    address = url("match_decide", tournament, event=the_decision(tournament).pk)
    response = client_as(organiser).post(address, {"answer": answer})
    assert response.status_code == 302
    assert [str(m) for m in get_messages(response.wsgi_request)] == ["Answer replay or keep."]
    assert seated(tables_of(tournament, 2)[0]) == ["Ana", "Dani"]
    assert len(services.open_decisions(tournament)) == 1


def test_another_event_or_another_clubs_event_is_404(
    semi_final_played, organiser, client_as, other_club
):
    tournament = semi_final_played
    client = client_as(organiser)
    corrected = tournament.events.get(kind=Event.Kind.CORRECTED)
    response = client.post(url("match_decide", tournament, event=corrected.pk), {"answer": "keep"})
    assert response.status_code == 404
    # The decision of this tournament, in the URL of another club: not this club's.
    event = the_decision(tournament)
    other = reverse(
        "scorebook:tournaments:match_decide",
        kwargs={"club": other_club.slug, "tournament": tournament.pk, "event": event.pk},
    )
    assert client.post(other, {"answer": "keep"}).status_code == 404
    assert services.open_decisions(tournament) == [event]


@pytest.mark.parametrize(
    "language, replay, keep",
    [
        ("en", "Replay the match", "Keep the result"),
        ("sl", "Ponovi dvoboj", "Obdrži izid"),
        ("cs", "Opakovat zápas", "Ponechat výsledek"),
        ("de", "Partie wiederholen", "Ergebnis behalten"),
        ("fr", "Rejouer le match", "Garder le résultat"),
    ],
)
def test_the_two_buttons_in_each_readers_language(
    semi_final_played, organiser, client_as, language, replay, keep
):
    from django.conf import settings

    client = client_as(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = html.unescape(client.get(url("director", semi_final_played)).content.decode())
    assert f'value="replay">{replay}</button>' in page
    assert f'value="keep" class="secondary">{keep}</button>' in page
