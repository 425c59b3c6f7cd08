"""Export (JSON, CSV) and import pages."""

from __future__ import annotations

import datetime
import json
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

import rules
from scorebook import hands, services, sheets
from scorebook.models import Hand, Session

HANDS = [
    {"contract": "beggar", "declarer": "Ana", "made": True},
    {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38},
]


@pytest.fixture
def played(club, players, members):
    session = services.start_session(
        club=club,
        variant_id="slovenian-4",
        preset="tarzs",
        players=players[:4],
        user=members["scorekeeper"],
    )
    for hand in HANDS:
        hands.record_hand(session, hand, uuid.uuid4(), members["scorekeeper"])
    return session


def url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def test_export_json_is_a_sheet_download(played, club, members, client_as):
    response = client_as(members["viewer"]).get(url("session_export_json", club, session=played.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "attachment;" in response["Content-Disposition"]
    assert f"-{played.pk}.json" in response["Content-Disposition"]
    sheet = json.loads(response.content)
    assert sheet["variant"] == "slovenian-4"
    assert sheet["players"] == ["Ana", "Bor", "Cene", "Dani"]
    assert sheet["hands"] == HANDS


def test_export_csv_is_utf8_with_bom(played, club, members, client_as):
    response = client_as(members["viewer"]).get(url("session_export_csv", club, session=played.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response.content.startswith(b"\xef\xbb\xbf")
    rows = response.content.decode("utf-8-sig").split("\r\n")
    assert rows[0] == "Hand,Ana,Bor,Cene,Dani,Note"
    assert rows[3] == "Total,120,0,50,0,"


@pytest.mark.parametrize("name", ["session_export_json", "session_export_csv"])
def test_another_clubs_session_is_404(name, club, other_club, members, client_as):
    theirs = Session.objects.create(
        club=other_club, variant="slovenian-4", rules={}, date=datetime.date(2026, 11, 1)
    )
    # An admin of this club, with the other club's session in this club's URL,
    assert client_as(members["admin"]).get(url(name, club, session=theirs.pk)).status_code == 404
    # and a member of the other club at this club's URL.
    response = client_as(members["outsider"]).get(url(name, club, session=theirs.pk))
    assert response.status_code == 404


def test_import_page_is_for_scorekeepers(club, members, client_as):
    assert client_as(members["scorekeeper"]).get(url("sheet_import", club)).status_code == 200
    assert client_as(members["viewer"]).get(url("sheet_import", club)).status_code == 403
    assert client_as(members["outsider"]).get(url("sheet_import", club)).status_code == 404
    response = client_as(members["outsider"]).post(
        url("sheet_import", club), {"text": json.dumps({"variant": "czech"})}
    )
    assert response.status_code == 404


def test_import_a_pasted_sheet(played, club, members, client_as):
    text = json.dumps(sheets.export_json(played))
    response = client_as(members["scorekeeper"]).post(
        url("sheet_import", club), {"text": text, "table_label": "Paper", "date": "2026-02-03"}
    )
    new = Session.objects.exclude(pk=played.pk).get()
    assert response.status_code == 302
    assert response["Location"] == url("session", club, session=new.pk)
    assert new.table_label == "Paper" and new.created_by == members["scorekeeper"]
    assert new.date == datetime.date(2026, 2, 3)
    assert hands.session_sheet(new).totals == hands.session_sheet(played).totals


def test_import_an_uploaded_file_with_a_bom(played, club, members, client_as):
    content = "\ufeff" + json.dumps(sheets.export_json(played), ensure_ascii=False)
    upload = SimpleUploadedFile("sheet.json", content.encode("utf-8"), "application/json")
    response = client_as(members["scorekeeper"]).post(url("sheet_import", club), {"file": upload})
    assert response.status_code == 302
    assert Session.objects.count() == 2


def test_a_bad_sheet_imports_nothing_and_shows_each_hand(played, club, members, client_as):
    sheet = sheets.export_json(played)
    sheet["hands"][1]["points"] = 80
    response = client_as(members["scorekeeper"]).post(
        url("sheet_import", club), {"text": json.dumps(sheet)}
    )
    assert response.status_code == 200
    assert "hand 2: points: " in response.content.decode()
    assert Session.objects.count() == 1


@pytest.mark.parametrize(
    "data, message",
    [
        ({}, "Choose a file or paste a sheet."),
        ({"text": "{not json"}, "This is not a readable JSON sheet."),
    ],
)
def test_nothing_or_no_json_is_a_form_error(data, message, club, members, client_as):
    response = client_as(members["scorekeeper"]).post(url("sheet_import", club), data)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Session.objects.exists()


def _long_sheet(hands: int) -> dict:
    rounds = [
        {"contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40},
        {"contract": "beggar", "declarer": "Cene", "made": False},
        {"contract": "two", "declarer": "Dani", "partner": "Ana", "points": 30},
    ]
    return {
        "variant": "slovenian-4",
        "rules": {"preset": "tarzs"},
        "players": ["Ana", "Bor", "Cene", "Dani"],
        "hands": [rounds[i % len(rounds)] for i in range(hands)],
    }


def test_the_import_page_says_how_many_hands_a_sheet_may_hold(club, members, client_as):
    response = client_as(members["scorekeeper"]).get(url("sheet_import", club))
    assert f"at most {hands.MAX_IMPORT_HANDS} hands" in response.content.decode()


def test_a_sheet_over_the_limit_is_refused_naming_it(club, players, members, client_as):
    text = json.dumps(_long_sheet(hands.MAX_IMPORT_HANDS + 1))
    response = client_as(members["scorekeeper"]).post(url("sheet_import", club), {"text": text})
    assert response.status_code == 200
    assert "hands: a sheet holds at most 1000 hands (one session), not 1001" in (
        response.content.decode()
    )
    assert not Session.objects.exists()


def test_a_sheet_at_the_limit_imports_with_the_totals_of_its_replay(club, players, members):
    sheet = _long_sheet(hands.MAX_IMPORT_HANDS)
    session = hands.import_sheet(club, sheet, members["scorekeeper"])
    assert session.hands.count() == 1000
    totals = {
        player.name: services.session_totals(session)[player.pk]
        for player in session.seated_players()
    }
    assert totals == dict(rules.score_sheet(sheet, closed=False).totals)
    assert Hand.history.filter(session_id=session.pk, history_type="+").count() == 1000


@pytest.mark.parametrize("hands", ["missing", 5, True, None, [5, None, True]])
def test_a_sheet_without_a_list_of_hands_is_a_message(hands, club, members, client_as):
    sheet = _long_sheet(1)
    if hands == "missing":
        del sheet["hands"]
    else:
        sheet["hands"] = hands
    response = client_as(members["scorekeeper"]).post(
        url("sheet_import", club), {"text": json.dumps(sheet)}
    )
    assert response.status_code == 200
    assert "Nothing was imported" in response.content.decode()
    assert not Session.objects.exists()


def test_an_imported_session_is_filed_in_the_season_of_its_date(club, members, client_as):
    autumn = club.seasons.create(name="Autumn", starts_on=datetime.date(2026, 9, 1))
    response = client_as(members["scorekeeper"]).post(
        url("sheet_import", club), {"text": json.dumps(_long_sheet(3)), "date": "2026-11-05"}
    )
    assert response.status_code == 302
    session = Session.objects.get()
    assert session.date == datetime.date(2026, 11, 5) and session.season == autumn
