"""manage.py import_sheet and export_sheet."""

from __future__ import annotations

import io
import json
import uuid

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from scorebook import hands, services
from scorebook.models import Session

SHEET = {
    "format": 1,
    "variant": "slovenian-4",
    "rules": {"preset": "tarzs"},
    "players": ["Ana", "Bor", "Cene", "Dani"],
    "hands": [
        {"contract": "beggar", "declarer": "Ana", "made": True},
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38},
    ],
}


def run(*args) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_import_sheet_prints_the_new_sessions_id(club, tmp_path):
    path = tmp_path / "sheet.json"
    path.write_text(json.dumps(SHEET), encoding="utf-8")
    out, err = run("import_sheet", club.slug, str(path), "--date", "2026-03-01", "--table", "2")
    session = Session.objects.get()
    assert out.strip() == str(session.pk) and not err
    assert session.club == club
    assert (session.date.isoformat(), session.table_label) == ("2026-03-01", "2")
    assert dict(hands.session_sheet(session).totals) == {
        "Ana": 120,
        "Bor": 0,
        "Cene": 50,
        "Dani": 0,
    }


def test_export_sheet_prints_the_json_sheet(club, players, members):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=None
    )
    for hand in SHEET["hands"]:
        hands.record_hand(session, hand, uuid.uuid4(), None)
    out, _ = run("export_sheet", str(session.pk))
    exported = json.loads(out)
    assert exported["hands"] == SHEET["hands"]
    assert exported["players"] == SHEET["players"]
    assert exported["rules"] == session.rules


def test_import_with_a_bad_hand_prints_each_problem_and_imports_nothing(club, tmp_path):
    bad = json.loads(json.dumps(SHEET))
    bad["hands"][1]["points"] = 99
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad), encoding="utf-8")
    err = io.StringIO()
    with pytest.raises(CommandError, match="Nothing was imported"):
        call_command("import_sheet", club.slug, str(path), stdout=io.StringIO(), stderr=err)
    assert err.getvalue().startswith("hand 2: points: ")
    assert not Session.objects.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (("import_sheet", "nowhere", "x.json"), "No club"),
        (("import_sheet", "ljubljana", "/nonexistent/sheet.json"), "No such file"),
        (("export_sheet", "999999"), "No session"),
    ],
)
def test_commands_refuse_what_is_not_there(args, message, club):
    with pytest.raises(CommandError, match=message):
        run(*args)


def test_import_of_unreadable_json(club, tmp_path):
    path = tmp_path / "broken.json"
    path.write_text("{", encoding="utf-8")
    with pytest.raises(CommandError, match="not readable JSON"):
        run("import_sheet", club.slug, str(path))


def test_export_then_import_through_the_shell(club, players, tmp_path):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=None
    )
    for hand in SHEET["hands"]:
        hands.record_hand(session, hand, uuid.uuid4(), None)
    out, _ = run("export_sheet", str(session.pk))
    path = tmp_path / "export.json"
    path.write_text(out, encoding="utf-8")
    new_id, _ = run("import_sheet", club.slug, str(path))
    copy = Session.objects.get(pk=int(new_id))
    assert hands.session_sheet(copy).totals == hands.session_sheet(session).totals
