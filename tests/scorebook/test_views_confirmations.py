"""Confirmed hands on the pages (issue 27): the sheet's block, one hand's word on the phone at
the table or one's own, confirm all shown, the disputes, the PIN; every refusal a page with its
reason and nothing changed, never a 500."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from scorebook import confirmations, hands
from scorebook.models import HandConfirmation, Membership, Role
from tests.scorebook import test_confirmations
from tests.scorebook.test_confirmations import record, words

pytestmark = pytest.mark.django_db

# The service tests' table, under its own name so that pytest finds it here.
table = test_confirmations.table


def url(name, session, **kwargs):
    return reverse(
        f"scorebook:{name}", kwargs={"club": session.club.slug, "session": session.pk, **kwargs}
    )


def text(response) -> str:
    """The page's visible words, tags dropped and spaces folded."""
    html = re.sub(r"<(script|style)[^>]*>.*?</\1>", "", response.content.decode(), flags=re.S)
    return " ".join(re.sub(r"<[^>]+>", " ", html).split()).replace(" ,", ",")


def test_the_sheet_shows_each_rows_state_and_what_waits_for_the_reader(table, client_as):
    record(table, table.users["Ana"])
    record(table, table.users["Ana"])
    confirmations.confirm(table, 1, 1, table.users["Dani"])
    page = client_as(table.users["Bor"]).get(url("sheet", table))
    shown = text(page)
    assert "1 ✓ confirmed by Dani (own phone)" in shown
    assert "2 … waiting for Bor or Dani" in shown
    assert "Waiting for your word 2 two — Ana, Cene 45 — +30 Correct Something is wrong" in shown
    assert "Not confirmed yet: 2" in shown
    # Ana recorded them: the phone at the table is offered to a defender; hers waits for none.
    ana = text(client_as(table.users["Ana"]).get(url("sheet", table)))
    assert "Confirm — pass the phone to a defender Hand 2: two — Ana, Cene 45 — +30" in ana
    assert "Waiting for your word" not in ana


def test_a_long_wait_lists_the_latest_ten_and_links_the_rest(table, client_as):
    for _ in range(12):
        record(table, table.users["Ana"])
    shown = text(client_as(table.users["Bor"]).get(url("sheet", table)))
    assert "Not confirmed yet: 2 earlier hands, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12" in shown
    assert "2 earlier hands wait for your word too" in shown
    listed = client_as(table.users["Bor"]).get(url("session_confirmations", table))
    assert len(re.findall(r'name="hand" value="', listed.content.decode())) == 12


def test_a_session_that_asks_for_nothing_shows_nothing_of_it(session, members, client_as):
    data = {"contract": "three", "declarer": "Ana", "points": 40}
    hands.record_hand(session, data, uuid.uuid4(), None)
    page = client_as(members["admin"]).get(url("sheet", session)).content.decode()
    assert "confirmation" not in page.lower()


def test_one_tap_confirms_on_ones_own_phone_and_comes_back_to_the_sheet(table, client_as):
    record(table, table.users["Ana"])
    bor = client_as(table.users["Bor"])
    response = bor.post(url("hand_confirm", table, number=1), {"version": "1", "answer": "correct"})
    assert response.status_code == 302 and response["Location"] == url("sheet", table)
    assert words(table) == [(1, 1, "confirmed", "Bor", "own-phone")]
    assert "Hand 1 is confirmed." in text(bor.get(response["Location"]))


def test_the_phone_passed_at_the_table_shows_the_names_that_may_answer(table, client_as):
    record(table, table.users["Ana"])
    ana = client_as(table.users["Ana"])
    page = ana.get(url("hand_confirm", table, number=1))
    assert page.status_code == 200
    assert re.findall(r'name="player"[^>]*value="([^"]+)"', page.content.decode()) == [
        "Bor",
        "Dani",
    ]
    refused = ana.post(url("hand_confirm", table, number=1), {"version": "1", "answer": "wrong"})
    assert refused.status_code == 422
    assert "Cene" not in re.findall(r'value="([^"]+)"', refused.content.decode())
    said = ana.post(
        url("hand_confirm", table, number=1),
        {"version": "1", "answer": "wrong", "player": "Dani", "reason": "45, not 40"},
    )
    assert said.status_code == 302
    assert words(table) == [(1, 1, "disputed", "Dani", "same-phone")]


@pytest.mark.parametrize(
    "user, posted, status, reason",
    [
        ("Cene", {"version": "1", "answer": "correct"}, 403, "on the side of the player"),
        ("Bor", {"version": "2", "answer": "correct"}, 409, "changed meanwhile"),
        ("Bor", {"version": "9" * 5000, "answer": "correct"}, 409, "changed meanwhile"),
        ("Bor", {"version": "1", "answer": "maybe"}, 422, "Tap “Correct”"),
        ("Bor", {"version": "1", "answer": "wrong", "reason": "\x00"}, 422, "control char"),
        ("Bor", {"version": "1", "answer": "wrong", "reason": "x" * 300}, 422, "under 201"),
        ("Ana", {"version": "1", "answer": "correct", "player": "Zala"}, 422, "not seated"),
        ("Ana", {"version": "1", "answer": "correct", "player": ["Bor", "\x00"]}, 422, "seated"),
        ("Eva", {"version": "1", "answer": "correct"}, 403, "no seat of this table"),
    ],
)
def test_a_refused_word_says_why_and_changes_nothing(
    table, client_as, user, posted, status, reason
):
    record(table, table.users["Ana"])
    response = client_as(table.users[user]).post(url("hand_confirm", table, number=1), posted)
    assert response.status_code == status
    assert reason in text(response)
    assert words(table) == []


def test_a_hand_that_does_not_exist_is_404(table, client_as):
    client = client_as(table.users["Bor"])
    assert client.get(url("hand_confirm", table, number=9)).status_code == 404
    assert (
        client.post(url("hand_confirm", table, number=9), {"answer": "correct"}).status_code == 404
    )


def test_confirm_all_shown(table, client_as):
    for _ in range(3):
        record(table, table.users["Ana"])
    bor = client_as(table.users["Bor"])
    page = bor.get(url("session_confirmations", table)).content.decode()
    posted = re.findall(r'name="hand" value="([^"]+)"', page)
    assert posted == ["1:1", "2:1", "3:1"]
    confirmations.confirm(table, 2, 1, table.users["Dani"])
    response = bor.post(url("session_confirmations", table), {"hand": [*posted, "junk", "1:x"]})
    assert response.status_code == 302
    assert [w[0] for w in words(table) if w[3] == "Bor"] == [1, 3]
    shown = text(bor.get(response["Location"]))
    assert "2 hands confirmed." in shown and "Hand 2 is confirmed already." in shown
    assert bor.post(url("session_confirmations", table), {"hand": "x"}).status_code == 422


def test_the_admins_see_the_disputes_and_accept_one_as_recorded(table, members, client_as):
    record(table, table.users["Ana"])
    confirmations.dispute(table, 1, 1, table.users["Bor"], "the points were 50")
    admin = client_as(members["admin"])
    page = text(admin.get(reverse("scorebook:disputes", kwargs={"club": table.club.slug})))
    assert "two — Ana, Cene 45 — +30 recorded by Ana disputed by Bor: the points were 50" in page
    resolve = url("hand_resolve", table, number=1)
    assert admin.post(resolve, {"version": "x"}).status_code == 409
    assert admin.post(resolve, {"version": "1"}).status_code == 302
    assert confirmations.open_hands(table) == []
    assert "No hand is disputed." in text(
        admin.get(reverse("scorebook:disputes", args=["ljubljana"]))
    )
    assert client_as(table.users["Ana"]).post(resolve, {"version": "1"}).status_code == 403


def test_a_required_session_does_not_close_while_a_hand_waits(table, members, client_as):
    type(table).objects.filter(pk=table.pk).update(confirmation="required")
    record(table, table.users["Ana"])
    ana = client_as(table.users["Ana"])
    response = ana.post(url("session_close", table), follow=True)
    assert "Hand 1 is not confirmed yet" in text(response)
    table.refresh_from_db()
    assert not table.is_closed
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    ana.post(url("session_close", table))
    table.refresh_from_db()
    assert table.is_closed


def test_a_poll_after_a_word_on_another_phone_brings_its_state(table, client_as):
    record(table, table.users["Ana"])
    ana = client_as(table.users["Ana"])
    page = ana.get(url("sheet", table)).content.decode()
    since = re.search(r"since=([^\"&]+)", page).group(1)
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    poll = ana.get(url("sheet", table) + f"?since={since}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 200
    html = poll.content.decode()
    assert 'hx-swap-oob="outerHTML:#sheet:has(' in html and "#confirmation-1" in html
    assert "confirmed by Bor (own phone)" in html


def test_the_printed_sheet_says_each_hands_word(table, client_as):
    record(table, table.users["Ana"])
    confirmations.confirm(table, 1, 1, table.users["Bor"], player="Bor")
    page = text(client_as(table.users["Ana"]).get(url("sheet_print", table)))
    assert "+30 two confirmed by Bor (own phone)" in page


def test_a_pin_is_set_on_ones_own_page(table, client_as):
    bor = client_as(table.users["Bor"])
    pin = reverse("scorebook:confirmation_pin")
    assert "You have no PIN yet." in text(bor.get(pin))
    refused = bor.post(pin, {"pin": "12a4", "again": "12a4"})
    assert refused.status_code == 422 and "A PIN is four digits." in text(refused)
    assert bor.post(pin, {"pin": "1234", "again": "1243"}).status_code == 422
    assert bor.post(pin, {"pin": "9" * 5000, "again": ""}).status_code == 422
    assert bor.post(pin, {"pin": "1234", "again": "1234"}).status_code == 302
    assert confirmations.has_pin(table.users["Bor"])
    assert bor.post(pin, {"remove": "1"}).status_code == 302
    assert not confirmations.has_pin(table.users["Bor"])


def test_the_club_admin_chooses_the_setting(club, members, client_as):
    response = client_as(members["admin"]).post(
        reverse("scorebook:club_settings", kwargs={"club": club.slug}),
        {"name": club.name, "time_zone": club.time_zone, "language": "en", "confirmation": "asked"},
    )
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.confirmation == "asked"


def test_a_viewer_not_seated_sees_nothing_waits_for_him(table, members, client_as):
    record(table, table.users["Ana"])
    viewer = client_as(members["viewer"])
    page = viewer.get(url("session_confirmations", table))
    assert page.status_code == 200
    assert "You are at no seat of this table" in text(page)
    assert viewer.get(url("hand_confirm", table, number=1)).status_code == 403
    assert HandConfirmation.objects.count() == 0


def test_another_clubs_member_gets_404_and_changes_nothing(table, other_club, members, client_as):
    record(table, table.users["Ana"])
    outsider = client_as(members["outsider"])
    for name, kwargs in (("hand_confirm", {"number": 1}), ("session_confirmations", {})):
        assert outsider.get(url(name, table, **kwargs)).status_code == 404
        posted = {"version": "1", "answer": "correct", "player": "Bor", "hand": "1:1"}
        assert outsider.post(url(name, table, **kwargs), posted).status_code == 404
    assert HandConfirmation.objects.count() == 0
    assert Membership.objects.filter(user=members["outsider"], role=Role.ADMIN).exists()


def test_the_session_page_carries_the_same_block_and_comes_back_to_itself(table, client_as):
    record(table, table.users["Ana"])
    page = client_as(table.users["Bor"]).get(url("session", table)).content.decode()
    assert 'name="back" value="session"' in page
    response = client_as(table.users["Bor"]).post(
        url("hand_confirm", table, number=1),
        {"version": "1", "answer": "correct", "back": "session"},
    )
    assert response["Location"] == url("session", table)


def test_an_unknown_back_goes_to_the_sheet(table, client_as):
    record(table, table.users["Ana"])
    response = client_as(table.users["Bor"]).post(
        url("hand_confirm", table, number=1),
        {"version": "1", "answer": "correct", "back": "https://evil.example/"},
    )
    assert response["Location"] == url("sheet", table)


def test_a_hand_without_a_recorder_linked_waits_for_anybody_dealt_in(table, members, client_as):
    # saso records on the club's tablet: linked to nobody at the table.
    hands.record_hand(
        table,
        {"contract": "three", "declarer": "Ana", "points": 40},
        uuid.uuid4(),
        members["scorekeeper"],
    )
    page = text(client_as(table.users["Ana"]).get(url("sheet", table)))
    assert "waiting for Ana, Bor, Cene or Dani" in page
