"""A session as a sheet: radelci carried hand to hand, edits and voids that rescore the hands
after them, the optimistic lock, closed sessions, settlement, import and export."""

from __future__ import annotations

import csv
import datetime
import io
import uuid
from decimal import Decimal

import pytest

import rules
from scorebook import hands, roster, services, sheets
from scorebook.models import Entry, Hand, Player, Session

BEGGAR = {"contract": "beggar", "declarer": "Ana", "made": True}
TWO = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38}
TWO_LOST = {"contract": "two", "declarer": "Bor", "partner": "Dani", "points": 30}
THREE = {"contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40}


def record(session, data, user=None):
    return hands.record_hand(session, data, uuid.uuid4(), user)


def entries(hand) -> dict[str, Decimal]:
    """The hand's entries that are not 0 (every player dealt in has one)."""
    rows = Entry.objects.filter(hand=hand).select_related("player")
    return {e.player.name: e.amount for e in rows if e.amount}


def totals_by_name(session) -> dict[str, Decimal]:
    """The session's totals that are not 0."""
    session.refresh_from_db()
    names = {p.pk: p.name for p in Player.objects.filter(club=session.club)}
    return {names[pid]: t for pid, t in services.session_totals(session).items() if t}


def test_radelci_are_carried_from_hand_to_hand(tarzs, members):
    # Hand 1: Ana's beggar made, 70 for her; everybody dealt in gets a radelc.
    first = record(tarzs, BEGGAR)
    assert entries(first) == {"Ana": 70}
    # Hand 2: two with Cene, 38 points: 20 + difference 3 rounded to 5 = 25, doubled because
    # Ana holds a radelc = 50 each; she won, so her radelc is crossed out.
    second = record(tarzs, TWO)
    assert entries(second) == {"Ana": 50, "Cene": 50}
    # Hand 3: Bor (still holding his radelc) loses two with Dani, 30 points: −(20 + 5) × 2.
    third = record(tarzs, TWO_LOST)
    assert entries(third) == {"Bor": -50, "Dani": -50}

    sheet = hands.session_sheet(tarzs)
    assert [row.result.radelci for row in sheet.rows] == [
        {"Ana": 1, "Bor": 1, "Cene": 1, "Dani": 1},
        {"Ana": 0, "Bor": 1, "Cene": 1, "Dani": 1},
        {"Ana": 0, "Bor": 1, "Cene": 1, "Dani": 1},
    ]
    assert dict(sheet.totals) == {"Ana": 120, "Bor": -50, "Cene": 50, "Dani": -50}
    assert totals_by_name(tarzs) == {"Ana": 120, "Bor": -50, "Cene": 50, "Dani": -50}


def test_the_stored_hand_is_the_full_hand_format(tarzs):
    hand = record(tarzs, TWO)
    assert hand.data["format"] == 1
    assert hand.data["variant"] == "slovenian-4"
    assert hand.data["players"] == ["Ana", "Bor", "Cene", "Dani"]
    assert rules.score_hand(hand.data).amounts["Ana"] == 25


def test_a_wrong_hand_reports_its_own_field_and_stores_nothing(tarzs):
    record(tarzs, BEGGAR)
    with pytest.raises(services.ServiceError) as caught:
        record(tarzs, {**TWO, "points": 71})
    assert [p.path for p in caught.value.problems] == ["points"]
    assert tarzs.hands.count() == 1


def test_editing_hand_1_rescores_hand_2(tarzs, members):
    first = record(tarzs, BEGGAR)
    second = record(tarzs, TWO)
    edited = hands.edit_hand(first, THREE, 1, members["scorekeeper"])
    assert edited.version == 2
    assert edited.data["contract"] == "three"
    # Hand 1 is now three with Bor, 40 points: 10 + 5 = 15 each, and no radelc for anybody,
    assert entries(first) == {"Ana": 15, "Bor": 15}
    # so hand 2 is no longer doubled: 25 each instead of 50.
    assert entries(second) == {"Ana": 25, "Cene": 25}
    assert totals_by_name(tarzs) == {"Ana": 40, "Bor": 15, "Cene": 25}
    assert hands.session_sheet(tarzs).rows[1].result.radelci == dict.fromkeys(
        ["Ana", "Bor", "Cene", "Dani"], 0
    )
    # The change is in the history with who made it.
    latest = first.history.order_by("-history_id").first()
    assert latest.history_type == "~"
    assert latest.history_user == members["scorekeeper"]
    assert latest.version == 2 and latest.data["contract"] == "three"


def test_a_stale_version_is_refused_and_nothing_changes(tarzs, members):
    first = record(tarzs, BEGGAR)
    second = record(tarzs, TWO)
    hands.edit_hand(first, THREE, 1, members["scorekeeper"])
    stale = Hand.objects.get(pk=first.pk)
    with pytest.raises(hands.HandChanged) as caught:
        # Another phone opened the form at version 1 and saves after the edit above.
        hands.edit_hand(stale, BEGGAR, 1, members["admin"])
    assert "meanwhile" in caught.value.message
    assert caught.value.current.version == 2
    assert caught.value.current.data["contract"] == "three"
    first.refresh_from_db()
    assert (first.version, first.data["contract"]) == (2, "three")
    assert entries(first) == {"Ana": 15, "Bor": 15}
    assert entries(second) == {"Ana": 25, "Cene": 25}


def test_a_wrong_edit_changes_nothing(tarzs, members):
    first = record(tarzs, BEGGAR)
    second = record(tarzs, TWO)
    with pytest.raises(services.ServiceError) as caught:
        hands.edit_hand(first, {**THREE, "partner": "Ana"}, 1, members["scorekeeper"])
    assert [p.path for p in caught.value.problems] == ["partner"]
    first.refresh_from_db()
    assert (first.version, first.data["contract"]) == (1, "beggar")
    assert entries(second) == {"Ana": 50, "Cene": 50}


def test_void_needs_a_reason(tarzs, members):
    first = record(tarzs, BEGGAR)
    for reason in ("", "   "):
        with pytest.raises(services.ServiceError) as caught:
            hands.void_hand(first, reason, 1, members["scorekeeper"])
        assert caught.value.field == "reason"
    first.refresh_from_db()
    assert not first.voided and first.version == 1


def test_void_strikes_the_hand_and_rescores_the_hands_after(tarzs, members):
    first = record(tarzs, BEGGAR)
    second = record(tarzs, TWO)
    voided = hands.void_hand(first, "  dealt twice ", 1, members["scorekeeper"])
    assert voided.voided and voided.void_reason == "dealt twice" and voided.version == 2
    assert entries(first) == {}
    assert entries(second) == {"Ana": 25, "Cene": 25}
    assert totals_by_name(tarzs) == {"Ana": 25, "Cene": 25}
    assert [row.result.hand.contract for row in hands.session_sheet(tarzs).rows] == ["two"]
    latest = first.history.order_by("-history_id").first()
    assert latest.voided and latest.history_change_reason == "dealt twice"
    with pytest.raises(services.ServiceError, match="already"):
        hands.void_hand(voided, "again", 2, members["scorekeeper"])
    # A voided hand is not edited, and the number of the next hand does not reuse its number.
    with pytest.raises(services.ServiceError):
        hands.edit_hand(voided, THREE, 2, members["scorekeeper"])
    assert record(tarzs, THREE).number == 3
    # The voided hand is left out of the export.
    assert [h["contract"] for h in sheets.export_json(tarzs)["hands"]] == ["two", "three"]


def test_a_closed_session_is_changed_only_by_an_admin(tarzs, members):
    first = record(tarzs, BEGGAR)
    second = record(tarzs, TWO)
    services.close_session(tarzs, members["scorekeeper"])
    with pytest.raises(services.ServiceError, match="closed"):
        hands.edit_hand(first, THREE, 1, members["scorekeeper"])
    with pytest.raises(services.ServiceError, match="closed"):
        hands.void_hand(first, "wrong table", 1, members["scorekeeper"])
    with pytest.raises(services.ServiceError, match="closed"):
        record(tarzs, THREE)
    first.refresh_from_db()
    assert first.version == 1

    hands.edit_hand(first, THREE, 1, members["admin"], change_closed=True)
    assert entries(second) == {"Ana": 25, "Cene": 25}
    latest = first.history.order_by("-history_id").first()
    assert latest.history_user == members["admin"] and latest.data["contract"] == "three"
    tarzs.refresh_from_db()
    assert tarzs.closing["totals"] == {"Ana": 40, "Bor": 15, "Cene": 25, "Dani": 0}


def test_settlement_of_a_small_session(tarzs):
    for hand in (BEGGAR, TWO, TWO_LOST):
        record(tarzs, hand)
    # Totals 120, −50, 50, −50 (sum 70). Slovenian settles pairwise: net = 4 × total − 70.
    result = hands.session_sheet(tarzs, closed=True).settlement
    assert dict(result.nets) == {"Ana": 410, "Bor": -270, "Cene": 130, "Dani": -270}
    # The largest debtor pays the largest creditor, ties by seat: three transfers for four.
    assert [(t.payer, t.payee, t.amount) for t in result.transfers] == [
        ("Bor", "Ana", 270),
        ("Dani", "Ana", 140),
        ("Dani", "Cene", 130),
    ]


def test_closing_adds_the_radelc_penalties_and_keeps_the_settlement(tarzs, members):
    Session.objects.filter(pk=tarzs.pk).update(rules={**tarzs.rules, "radelc_penalty": -40})
    tarzs.refresh_from_db()
    record(tarzs, BEGGAR)
    record(tarzs, TWO)
    assert hands.session_sheet(tarzs).closing == ()
    services.close_session(tarzs, members["scorekeeper"])
    tarzs.refresh_from_db()
    assert tarzs.is_closed and tarzs.closed_at is not None
    # Ana used her radelc; Bor, Cene and Dani each still hold one: −40 each.
    assert [amounts for _words, amounts in tarzs.closing["lines"]] == [
        {"Bor": -40},
        {"Cene": -40},
        {"Dani": -40},
    ]
    assert tarzs.closing["totals"] == {"Ana": 120, "Bor": -40, "Cene": 10, "Dani": -40}
    assert totals_by_name(tarzs) == {"Ana": 120, "Bor": -40, "Cene": 10, "Dani": -40}
    assert tarzs.closing["settlement"]["nets"] == {
        "Ana": 430,
        "Bor": -210,
        "Cene": -10,
        "Dani": -210,
    }
    assert tarzs.history.order_by("-history_id").first().history_user == members["scorekeeper"]

    services.reopen_session(tarzs, members["admin"])
    tarzs.refresh_from_db()
    assert tarzs.closing == {}
    assert totals_by_name(tarzs) == {"Ana": 120, "Cene": 50}


def test_export_then_import_gives_the_same_totals(tarzs, club, members):
    for hand in (BEGGAR, TWO, TWO_LOST):
        record(tarzs, hand)
    exported = sheets.export_json(tarzs)
    assert exported["format"] == 1 and exported["players"] == ["Ana", "Bor", "Cene", "Dani"]
    assert exported["hands"][0] == BEGGAR
    copy = hands.import_sheet(club, exported, members["scorekeeper"])
    assert copy.pk != tarzs.pk and copy.rules == tarzs.rules
    assert [p.name for p in copy.seated_players()] == ["Ana", "Bor", "Cene", "Dani"]
    assert list(copy.hands.values_list("number", flat=True)) == [1, 2, 3]
    assert totals_by_name(copy) == totals_by_name(tarzs)
    assert hands.session_sheet(copy).totals == hands.session_sheet(tarzs).totals
    assert sheets.export_json(copy) == exported
    assert rules.score_sheet(exported).totals == hands.session_sheet(copy, closed=True).totals


def test_import_adds_new_players_to_the_roster(club, members):
    sheet = {
        "variant": "slovenian-3",
        "players": ["Ana", "Zala", "Miha"],
        "hands": [{"contract": "two", "declarer": "Zala", "points": 39}],
    }
    session = hands.import_sheet(club, sheet, members["scorekeeper"])
    assert sorted(club.players.values_list("name", flat=True)) == ["Ana", "Miha", "Zala"]
    assert session.rules["preset"] == "seed"
    assert totals_by_name(session) == {"Zala": 24}


def test_an_import_with_bad_hands_imports_nothing_and_names_each_hand(club, players, members):
    sheet = {
        "variant": "slovenian-4",
        "rules": {"preset": "tarzs"},
        "players": ["Ana", "Nova", "Cene", "Dani"],
        "hands": [
            BEGGAR,
            {**TWO, "points": 71},
            {"contract": "two", "declarer": "Nova", "partner": "Dani", "points": 30},
            {"contract": "two", "declarer": "Ema"},
        ],
    }
    sessions_before = Session.objects.count()
    with pytest.raises(hands.SheetProblems) as caught:
        hands.import_sheet(club, sheet, members["scorekeeper"])
    problems = caught.value.messages
    assert any(p.startswith("hand 2: points: ") for p in problems), problems
    assert any(p.startswith("hand 4: declarer: ") for p in problems), problems
    assert any(p.startswith("hand 4: points: ") for p in problems), problems
    assert not any(p.startswith(("hand 1:", "hand 3:")) for p in problems)
    assert Session.objects.count() == sessions_before
    assert not club.players.filter(name="Nova").exists()


def test_an_import_refuses_a_roster_name_spelt_otherwise(club, players, members):
    sheet = {
        "variant": "slovenian-3",
        "players": ["ana", "Bor", "Cene"],
        "hands": [{"contract": "two", "declarer": "Bor", "points": 30}],
    }
    with pytest.raises(hands.SheetProblems) as caught:
        hands.import_sheet(club, sheet, members["scorekeeper"])
    assert caught.value.messages == ["players[0]: ana is on the roster as Ana; use that spelling."]


def test_an_import_of_no_sheet_at_all(club, members):
    with pytest.raises(hands.SheetProblems) as caught:
        hands.import_sheet(club, ["not", "a", "sheet"], members["scorekeeper"])
    assert caught.value.problems


def test_csv_has_the_bom_one_column_per_player_a_note_and_totals(tarzs):
    for hand in (BEGGAR, TWO, TWO_LOST):
        record(tarzs, hand)
    text = sheets.export_csv(tarzs)
    assert text.startswith("\ufeff")
    lines = text[1:].split("\r\n")
    assert lines[0] == "Hand,Ana,Bor,Cene,Dani,Note"
    # The note is the sheet's own paper note; one starting with "+" is quoted as text, so a
    # spreadsheet does not read it as a formula.
    assert lines[1] == "1,70,0,0,0,'+70 beggar"
    assert lines[2] == "2,50,0,50,0,'+50 two"
    assert lines[3] == "3,0,-50,0,-50,−50 two"
    assert lines[4] == "Total,120,-50,50,-50,"


def test_a_hand_not_dealt_to_a_player_is_blank_in_the_csv(club, players, members):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players, user=None
    )
    record(session, {**TWO, "players": ["Ana", "Bor", "Cene", "Dani"]})
    lines = sheets.export_csv(session)[1:].split("\r\n")
    assert lines[0] == "Hand,Ana,Bor,Cene,Dani,Eva,Note"
    assert lines[1].startswith("1,23,0,23,0,,")
    assert sheets.export_json(session)["hands"][0]["players"] == ["Ana", "Bor", "Cene", "Dani"]


def test_renaming_a_player_renames_him_in_his_hands(tarzs, players, members):
    record(tarzs, BEGGAR)
    record(
        tarzs,
        {
            "contract": "klop",
            "points_by_player": {"Ana": 20, "Bor": 15, "Cene": 25, "Dani": 10},
        },
    )
    record(tarzs, {**TWO, "bonuses": [{"name": "trula", "side": "defenders"}]})
    roster.rename_player(player=players[0], name="Ana Marija", user=members["admin"])
    stored = list(tarzs.hands.order_by("number"))
    assert stored[0].data["declarer"] == "Ana Marija"
    assert stored[0].data["players"] == ["Ana Marija", "Bor", "Cene", "Dani"]
    assert set(stored[1].data["points_by_player"]) == {"Ana Marija", "Bor", "Cene", "Dani"}
    # The sheet still reads, and the next hand can name him by his new name (the session read
    # afresh, as the next page does: an instance keeps the seat names it read).
    # beggar 70, klop −20, then two 25 less the defenders' silent trula 10, doubled: 80.
    tarzs = Session.objects.get(pk=tarzs.pk)
    assert hands.session_sheet(tarzs).totals["Ana Marija"] == 70 - 20 + 2 * (25 - 10)
    record(tarzs, {**THREE, "declarer": "Ana Marija"})
    # Who renamed him is in the player's history; no hand records a change of its own.
    renamed = players[0].history.order_by("-history_id").first()
    assert (renamed.name, renamed.history_user) == ("Ana Marija", members["admin"])
    assert [h.history_type for h in stored[0].history.all()] == ["+"]


def test_an_import_refuses_two_names_that_differ_only_in_case(club, members):
    sheet = {
        "variant": "slovenian-3",
        "players": ["Zala", "zala", "Miha"],
        "hands": [{"contract": "two", "declarer": "Miha", "points": 30}],
    }
    with pytest.raises(hands.SheetProblems) as caught:
        hands.import_sheet(club, sheet, members["scorekeeper"])
    assert caught.value.messages == ["players[1]: zala is another player's name spelt otherwise."]
    assert not club.players.exists()


def test_a_five_seat_table_round_trips(club, players, members):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players, user=None
    )
    record(session, {**BEGGAR, "players": ["Ana", "Bor", "Cene", "Dani"]})
    record(session, {**TWO_LOST, "players": ["Bor", "Cene", "Dani", "Eva"]})
    exported = sheets.export_json(session)
    assert exported["players"] == ["Ana", "Bor", "Cene", "Dani", "Eva"]
    assert [h["players"] for h in exported["hands"]] == [
        ["Ana", "Bor", "Cene", "Dani"],
        ["Bor", "Cene", "Dani", "Eva"],
    ]
    copy = hands.import_sheet(club, exported, None, date=datetime.date(2026, 1, 2))
    assert copy.date == datetime.date(2026, 1, 2)
    assert dict(hands.session_sheet(copy).totals) == {
        "Ana": 70,
        "Bor": -50,
        "Cene": 0,
        "Dani": -50,
        "Eva": 0,
    }


def test_csv_cells_a_spreadsheet_would_run_are_quoted_and_amounts_stay_numbers(club, members):
    """OWASP CSV injection: a name typed at the table starting with =, +, -, @, a tab or a
    carriage return reaches a spreadsheet as text, never as a formula (notes: see above)."""
    names = ['=HYPERLINK("x")', "+cmd|' /C calc'!A0", "@SUM(A1)", "-2+3", "\tx"]
    seated = [Player.objects.create(club=club, name=name) for name in names]
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=seated, user=None
    )
    record(
        session,
        {
            "contract": "adjustment",
            "players": names[:4],
            "adjustments": [
                {"player": names[0], "amount": 20.5, "reason": "late"},
                {"player": names[1], "amount": -12, "reason": "late"},
            ],
        },
    )
    rows = list(csv.reader(io.StringIO(sheets.export_csv(session)[1:])))
    assert rows[0] == ["Hand", *(f"'{name}" for name in names), "Note"]
    assert rows[1][:6] == ["1", "20.50", "-12", "0", "0", ""]
    assert rows[-1][:6] == ["Total", "20.50", "-12", "0", "0", "0"]
