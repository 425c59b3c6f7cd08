"""Confirmed hands (issue 27): who may confirm, from the engine's sides of every contract of
every variant, and the service's words and refusals: a refusal writes nothing."""

from __future__ import annotations

import json
import uuid

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

import rules
from scorebook import confirmations, hands, services, sheets
from scorebook.confirmations import BadInput, NotAllowed, Refused
from scorebook.models import HandConfirmation, Membership, Role
from scorebook.signals import hands_changed

# --- Who may confirm, for every kind of contract of every variant --------------------------------

NAMES = ("Ana", "Bor", "Cene", "Dani", "Eva")

# Bor declares, with Dani where the contract takes a partner. Who may confirm, by the recorder,
# written out for each table size.
WITH_PARTNER = {
    4: {"Bor": ("Ana", "Cene"), "Dani": ("Ana", "Cene"), "Ana": ("Bor", "Dani")},
    5: {"Bor": ("Ana", "Cene", "Eva"), "Dani": ("Ana", "Cene", "Eva"), "Ana": ("Bor", "Dani")},
}
ALONE = {
    3: {"Bor": ("Ana", "Cene"), "Ana": ("Bor",), "Cene": ("Bor",)},
    4: {"Bor": ("Ana", "Cene", "Dani"), "Ana": ("Bor",), "Dani": ("Bor",)},
    5: {"Bor": ("Ana", "Cene", "Dani", "Eva"), "Ana": ("Bor",), "Eva": ("Bor",)},
}
# No sides (klop, varsovia, two players, a redeal, an adjustment): anybody but the recorder.
NO_SIDES = {
    2: {"Ana": ("Bor",), "Bor": ("Ana",)},
    3: {"Ana": ("Bor", "Cene"), "Cene": ("Ana", "Bor")},
    4: {"Ana": ("Bor", "Cene", "Dani"), "Dani": ("Ana", "Bor", "Cene")},
    5: {"Ana": ("Bor", "Cene", "Dani", "Eva"), "Eva": ("Ana", "Bor", "Cene", "Dani")},
}


def every_contract():
    """(variant, preset, contract) for every contract every preset of every variant allows."""
    for variant in rules.variants():
        for preset in variant.presets:
            for contract in variant.rules({"preset": preset}).contracts.values():
                yield variant, preset, contract


def a_hand(variant, contract) -> dict:
    players = list(NAMES[: max(variant.player_counts)])
    data = {"variant": variant.id, "players": players, "contract": contract.id}
    if "declarer" in contract.fields:
        data["declarer"] = "Bor"
    if "partner" in contract.fields and len(players) > 3:
        data["partner"] = "Dani"
    return data


@pytest.mark.parametrize(
    "variant, preset, contract",
    list(every_contract()),
    ids=lambda value: getattr(value, "id", value),
)
def test_who_may_confirm_every_contract_of_every_variant(variant, preset, contract):
    data = a_hand(variant, contract)
    size = len(data["players"])
    if "declarer" not in data:
        expected = NO_SIDES[size]
    elif "partner" in data:
        expected = WITH_PARTNER[size]
    else:
        expected = ALONE[size]
    for recorder, allowed in expected.items():
        assert confirmations.may_confirm(data, recorder) == allowed, (recorder, data)
    # A recorder linked to nobody dealt in (a club's tablet, a steward) counts as nobody.
    for nobody in (None, "Zala"):
        assert confirmations.may_confirm(data, nobody) == tuple(data["players"])


def test_the_contracts_without_sides_are_the_issues_list():
    """Klop, varsovia, the two-player game, redeals and adjustments have no declarer: the
    test above reads them as hands without sides, as the issue lists them."""
    without = {(v.id, c.id) for v, _p, c in every_contract() if "declarer" not in c.fields}
    assert {("slovenian-4", "klop"), ("slovenian-3", "klop"), ("czech", "varsovia")} <= without
    assert ("slovenian-2", "game") in without
    assert {("french-5", "redeal"), ("zwanzigerrufen", "adjustment")} <= without
    assert ("slovenian-4", "two") not in without


def test_a_stored_hand_with_a_sitting_out_player_counts_only_those_dealt_in():
    data = {"players": ["Ana", "Bor", "Cene", "Dani"], "contract": "three", "declarer": "Ana"}
    assert confirmations.may_confirm(data, "Eva") == ("Ana", "Bor", "Cene", "Dani")
    assert confirmations.may_confirm(data, "Ana") == ("Bor", "Cene", "Dani")


def test_hostile_stored_data_reads_as_no_players_rather_than_failing():
    assert confirmations.may_confirm({"players": [1, None], "declarer": ["x"]}, "Ana") == ()
    assert confirmations.may_confirm({}, None) == ()


# --- The service ---------------------------------------------------------------------------------


@pytest.fixture
def table(club, players, members, make_user):
    """An asked-for session of Ana, Bor, Cene and Dani, each linked to an account of his own
    (Ana records: a scorekeeper; the others are viewers), Eva on the roster too."""
    club.confirmation = "asked"
    club.save()
    users = {}
    for player in players:
        user = make_user(player.name.lower())
        role = Role.SCOREKEEPER if player.name == "Ana" else Role.VIEWER
        Membership.objects.create(user=user, club=club, role=role)
        player.user = user
        player.save()
        users[player.name] = user
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=users["Ana"]
    )
    session.users = users
    return session


def record(session, user, **data):
    data = data or {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 45}
    return hands.record_hand(session, data, uuid.uuid4(), user)


def state(session, number=1, user=None):
    return confirmations.read(session, user, confirmations.Q(number=number)).of(number)


KLOP = {"contract": "klop", "points_by_player": {"Ana": 35, "Bor": 35, "Cene": 0, "Dani": 0}}


def words(session):
    return list(
        HandConfirmation.objects.filter(hand__session=session).values_list(
            "hand__number", "hand_version", "state", "player__name", "how"
        )
    )


def test_the_club_setting_is_frozen_by_each_session_as_it_starts(table, club, players):
    assert table.confirmation == "asked"
    club.confirmation = "off"
    club.save()
    table.refresh_from_db()
    assert table.confirmation == "asked"
    later = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
    )
    assert later.confirmation == "off"


def test_a_defender_confirms_on_his_own_phone(table):
    record(table, table.users["Ana"])
    assert state(table).said == "waiting for Bor or Dani"
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    assert words(table) == [(1, 1, "confirmed", "Bor", "own-phone")]
    assert state(table).said == "confirmed by Bor (own phone)"


def test_the_hands_line_says_what_is_confirmed(table):
    record(table, table.users["Ana"])
    # Seed rules: two 20, and 45 − 35 = 10 for the difference (RULES.md §1.2).
    assert state(table).line == "two — Ana, Cene 45 — +30"
    piles = {"Ana": 35, "Bor": 35, "Cene": 0, "Dani": 0}
    record(table, table.users["Ana"], contract="klop", points_by_player=piles)
    # Klop (seed): minus his own points; +10 for a player who took no trick (RULES.md §1.4).
    assert state(table, 2).line == "klop — Ana −35, Bor −35, Cene +10, Dani +10"


@pytest.mark.parametrize(
    "who, message",
    [
        ("Cene", "Cene is on the side of the player who recorded hand 1"),
        ("Ana", "Ana is on the side of the player who recorded hand 1"),
        ("Eva", "You are at no seat of this table."),
    ],
)
def test_the_recorders_side_and_a_player_at_no_seat_are_refused(table, who, message):
    record(table, table.users["Ana"])
    with pytest.raises(NotAllowed, match=message):
        confirmations.confirm(table, 1, 1, table.users[who])
    assert words(table) == []


def test_a_player_who_sat_out_the_hand_is_refused(club, players, table):
    five = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players, user=None
    )
    data = {"contract": "three", "declarer": "Ana", "points": 40, "players": list(NAMES[:4])}
    hands.record_hand(five, data, uuid.uuid4(), table.users["Ana"])
    with pytest.raises(NotAllowed, match="Eva was not dealt in hand 1."):
        confirmations.confirm(five, 1, 1, table.users["Eva"])
    confirmations.confirm(five, 1, 1, table.users["Dani"])
    assert words(five) == [(1, 1, "confirmed", "Dani", "own-phone")]


def test_a_hand_recorded_by_an_account_linked_to_nobody_dealt_in_waits_for_anybody(table, members):
    record(table, members["scorekeeper"])  # saso: on no seat
    assert state(table).allowed == ("Ana", "Bor", "Cene", "Dani")
    confirmations.confirm(table, 1, 1, table.users["Ana"])
    assert state(table).confirmed


def test_a_stale_version_is_refused_and_an_edit_asks_again(table):
    hand = record(table, table.users["Ana"])
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    with pytest.raises(Refused, match="confirmed already"):
        confirmations.confirm(table, 1, 1, table.users["Dani"])
    data = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 50}
    hands.edit_hand(hand, data, 1, table.users["Ana"])
    assert state(table).said == "waiting for Bor or Dani"
    with pytest.raises(Refused, match=r"changed meanwhile \(now version 2\)"):
        confirmations.confirm(table, 1, 1, table.users["Dani"])
    confirmations.confirm(table, 1, 2, table.users["Dani"])
    # The history keeps the word on the first version.
    assert words(table) == [
        (1, 1, "confirmed", "Bor", "own-phone"),
        (1, 2, "confirmed", "Dani", "own-phone"),
    ]


def test_after_an_edit_the_editor_is_the_recorder(table):
    hand = record(table, table.users["Ana"])
    data = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 50}
    hands.edit_hand(hand, data, 1, table.users["Bor"])
    assert state(table).allowed == ("Ana", "Cene")


def test_the_phone_at_the_table_takes_a_defenders_word(table, members):
    record(table, table.users["Ana"])
    with pytest.raises(NotAllowed, match="scorekeeper's phone"):
        confirmations.confirm(table, 1, 1, table.users["Cene"], player="Bor")
    with pytest.raises(BadInput, match="Zala is not seated"):
        confirmations.confirm(table, 1, 1, table.users["Ana"], player="Zala", at_table=True)
    with pytest.raises(NotAllowed, match="Cene is on the side"):
        confirmations.confirm(table, 1, 1, table.users["Ana"], player="Cene", at_table=True)
    confirmations.confirm(table, 1, 1, table.users["Ana"], player="Bor", at_table=True)
    assert words(table) == [(1, 1, "confirmed", "Bor", "same-phone")]
    assert state(table).said == "confirmed by Bor (at the table)"


def test_a_dispute_says_what_is_wrong_and_an_admin_accepts_it(table, members):
    record(table, table.users["Ana"])
    for reason in ("", "   ", "x" * 201, "bad\x00"):
        with pytest.raises(BadInput):
            confirmations.dispute(table, 1, 1, table.users["Dani"], reason)
    assert words(table) == []
    confirmations.dispute(table, 1, 1, table.users["Dani"], "  the points\twere 50 ")
    assert state(table).said == "disputed by Dani: the points were 50"
    with pytest.raises(Refused, match="disputed: the club's admins resolve it"):
        confirmations.confirm(table, 1, 1, table.users["Bor"])
    with pytest.raises(Refused, match="not disputed"):
        confirmations.resolve(table, 1, 2, members["admin"])
    confirmations.resolve(table, 1, 1, members["admin"])
    assert state(table).said == "accepted as recorded by alma"
    with pytest.raises(Refused, match="not disputed"):
        confirmations.resolve(table, 1, 1, members["admin"])


def test_a_session_that_asks_for_nothing_takes_no_word(session, members):
    hands.record_hand(session, KLOP, uuid.uuid4(), None)
    with pytest.raises(Refused, match="asks for no confirmations"):
        confirmations.confirm(session, 1, 1, members["admin"], player="Ana", at_table=True)
    assert HandConfirmation.objects.count() == 0


def test_voiding_a_confirmed_hand_needs_the_other_sides_word_or_an_admin(table, members):
    first, second, third = (record(table, table.users["Ana"]) for _ in range(3))
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    confirmations.confirm(table, 3, 1, table.users["Bor"])
    hands.void_hand(first, "misdeal", 1, table.users["Ana"])
    hands.void_hand(second, "misdeal", 1, table.users["Ana"])  # never confirmed: struck
    hands.void_hand(third, "misdeal", 1, members["admin"], change_closed=True)
    assert [state(table, n).kind for n in (1, 2, 3)] == ["waiting", "nothing", "confirmed"]
    assert state(table, 1).said == "voided; the void waits for Bor or Dani"
    assert state(table, 3).said == "confirmed by alma (admin)"
    confirmations.confirm(table, 1, 2, table.users["Dani"])
    assert confirmations.open_hands(table) == []


def test_the_counts_of_many_tables_say_what_each_tables_hands_say(table, members, session):
    """The director's screen counts every table's open hands in one statement: waiting (a new
    hand, an edit of a confirmed one, the void of a confirmed one) and disputed, but not a
    confirmed hand nor the void of a hand nobody confirmed."""
    first, second, third, _, _ = (record(table, table.users["Ana"]) for _ in range(5))
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    confirmations.confirm(table, 2, 1, table.users["Bor"])
    hands.void_hand(first, "misdeal", 1, table.users["Ana"])  # confirmed: waits again
    hands.void_hand(third, "misdeal", 1, table.users["Ana"])  # never confirmed: struck
    confirmations.dispute(table, 4, 1, table.users["Dani"], "the points")
    # Hand 1 waits (its void), 2 is confirmed, 3 struck, 4 disputed, 5 waits.
    assert [state(table, n).kind for n in range(1, 6)] == [
        "waiting",
        "confirmed",
        "nothing",
        "disputed",
        "waiting",
    ]
    hands.record_hand(session, KLOP, uuid.uuid4(), None)  # a session that asks for nothing
    with CaptureQueriesContext(connection) as statements:
        counts = confirmations.open_counts([table, session])
    assert counts == {table.pk: (2, 1)}
    assert len(statements) == 1


def test_a_required_session_closes_only_when_every_hand_is_confirmed(table, members):
    type(table).objects.filter(pk=table.pk).update(confirmation="required")
    table.refresh_from_db()
    record(table, table.users["Ana"])
    record(table, table.users["Ana"])
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    with pytest.raises(Refused, match="Hand 2 is not confirmed yet"):
        services.close_session(table)
    table.refresh_from_db()
    assert not table.is_closed
    confirmations.dispute(table, 2, 1, table.users["Bor"], "points")
    with pytest.raises(Refused, match="Hand 2 is not confirmed yet"):
        services.close_session(table)
    confirmations.resolve(table, 2, 1, members["admin"])
    services.close_session(table)
    assert table.is_closed


def test_an_admins_correction_of_a_closed_session_is_confirmed_in_his_name(table, members):
    type(table).objects.filter(pk=table.pk).update(confirmation="required")
    table.refresh_from_db()
    hand = record(table, table.users["Ana"])
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    services.close_session(table)
    data = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 30}
    hands.edit_hand(hand, data, 1, members["admin"], change_closed=True)
    assert state(table).said == "confirmed by alma (admin)"
    assert confirmations.all_confirmed(table)


def test_confirm_all_confirms_what_still_waits_and_says_why_not_the_rest(table):
    first = record(table, table.users["Ana"])
    record(table, table.users["Ana"])
    record(table, table.users["Ana"])
    data = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 50}
    hands.edit_hand(first, data, 1, table.users["Ana"])  # the phone still shows version 1
    confirmations.confirm(table, 3, 1, table.users["Dani"])
    done, refused = confirmations.confirm_all(table, table.users["Bor"], {1: 1, 2: 1, 3: 1})
    assert done == [2]
    assert refused == [
        "Hand 1 changed meanwhile (now version 2): check it and confirm again.",
        "Hand 3 is confirmed already.",
    ]
    with pytest.raises(NotAllowed, match="no seat"):
        confirmations.confirm_all(table, table.users["Eva"], {1: 2})


def test_a_word_sends_the_signal_a_changed_hand_sends_and_moves_the_hands_change(table):
    hand = record(table, table.users["Ana"])
    heard = []

    def listener(sender, session, **kwargs):
        heard.append(session.pk)

    hands_changed.connect(listener, dispatch_uid="test-confirmation-heard")
    try:
        confirmations.confirm(table, 1, 1, table.users["Bor"])
    finally:
        hands_changed.disconnect(dispatch_uid="test-confirmation-heard")
    assert heard == [table.pk]
    changed = type(hand).objects.get(pk=hand.pk).changed_at
    assert changed > hand.changed_at  # a polling phone sees it


def test_a_word_leaves_the_leagues_ratings_as_they_are(table):
    from scorebook.league.models import StaleFamily

    record(table, table.users["Ana"])
    marked = StaleFamily.objects.get(club=table.club).marked_at
    confirmations.confirm(table, 1, 1, table.users["Bor"])
    assert StaleFamily.objects.get(club=table.club).marked_at == marked


def test_the_sheets_words_are_one_statement_however_many_rows(table, rf):
    for _ in range(12):
        record(table, table.users["Ana"])
    request = rf.get("/")
    request.user = table.users["Bor"]
    request.membership = Membership.objects.get(user=table.users["Bor"])
    for first in (11, 1):
        with CaptureQueriesContext(connection) as queries:
            shown = confirmations.on_sheet(request, table, first)
        assert len(queries) == 1
        # The latest ten wait for Bor on the sheet; the two before them a link away.
        assert [hand.number for hand in shown.mine] == list(range(3, 13))
        assert (shown.mine_before, shown.open_before) == (2, 2)
    assert len(shown.states) == 12


# --- The exports, the import, the history -------------------------------------------------------


def test_the_export_carries_the_words_beside_the_hands_and_an_import_ignores_them(
    table, club, members
):
    voided = record(table, table.users["Ana"])
    record(table, table.users["Ana"])
    record(table, table.users["Ana"])
    hands.void_hand(voided, "misdeal", 1, table.users["Ana"])
    confirmations.dispute(table, 3, 1, table.users["Bor"], "45, not 40")
    exported = json.loads(json.dumps(sheets.export_json(table), default=str))
    assert [{k: v for k, v in word.items() if k != "at"} for word in exported["confirmations"]] == [
        {"hand": 2, "by": "Bor", "state": "disputed", "reason": "45, not 40", "how": "own-phone"}
    ]
    assert exported["confirmations"][0]["at"]
    assert all("confirmations" not in hand for hand in exported["hands"])
    imported = hands.import_sheet(club, exported, members["scorekeeper"])
    assert imported.hands.count() == 2
    assert confirmations.open_hands(imported)[1].said == "waiting for Ana, Bor, Cene or Dani"
    assert HandConfirmation.objects.filter(hand__session=imported).count() == 0
    assert rules.score_sheet(exported).totals  # the engine scores it, words and all


def test_the_csv_has_a_column_of_words_where_the_session_asks_for_them(table, session):
    record(table, table.users["Ana"])
    confirmations.confirm(table, 1, 1, table.users["Dani"])
    lines = sheets.export_csv(table).lstrip("\ufeff").splitlines()
    assert lines[0] == "Hand,Ana,Bor,Cene,Dani,Note,Confirmation"
    assert lines[1] == "1,30,0,30,0,'+30 two,confirmed by Dani (own phone)"  # no formula
    hands.record_hand(session, KLOP, uuid.uuid4(), None)
    assert sheets.export_csv(session).splitlines()[0] == "\ufeffHand,Ana,Bor,Cene,Dani,Note"


def test_the_history_keeps_every_word_with_who_and_when(table, members):
    record(table, table.users["Ana"])
    confirmations.dispute(table, 1, 1, table.users["Bor"], "45")
    confirmations.resolve(table, 1, 1, members["admin"])
    said = [
        (c.hand, c.version, c.what, c.detail, c.user.username)
        for c in sheets.session_history(table)
        if c.what in ("disputed", "accepted as recorded")
    ]
    assert said == [
        (1, 1, "accepted as recorded", "admin", "alma"),
        (1, 1, "disputed", "Bor (own phone): 45", "bor"),
    ]


# --- PINs ----------------------------------------------------------------------------------------


def test_a_pin_is_four_digits_kept_hashed(table):
    for bad in ("", "123", "12345", "abcd", "١٢٣٤"):
        with pytest.raises(BadInput):
            confirmations.set_pin(table.users["Bor"], bad)
    assert not confirmations.has_pin(table.users["Bor"])
    confirmations.set_pin(table.users["Bor"], "4711")
    stored = table.users["Bor"].profile.confirmation_pin
    assert "4711" not in stored and stored
    confirmations.clear_pin(table.users["Bor"])
    assert not confirmations.has_pin(table.users["Bor"])
