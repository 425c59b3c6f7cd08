"""Stored rows keep the engine's words as ids and values (issue 14): a sheet recorded in one
language reads in any other, and rows stored as English text before are converted by the
migration without changing any amount."""

from __future__ import annotations

import copy
import importlib

import pytest
from django.apps import apps
from django.utils import translation

from scorebook import hands, services
from scorebook.models import Hand, Session
from tests.scorebook.test_sheets import BEGGAR, TWO, record

pytestmark = pytest.mark.django_db

migration = importlib.import_module("scorebook.migrations.0011_stored_words")

TRULA_TWO = {
    "contract": "two",
    "declarer": "Ana",
    "partner": "Cene",
    "points": 41,
    "bonuses": [{"name": "trula", "announced": True}],
}


def as_english_text(score: dict) -> dict:
    """A row as it was stored before issue 14: every line and the note in English text."""
    with translation.override("en"):
        return {
            **score,
            "lines": [[hands.line_text(line), line[1]] for line in score["lines"]],
            "note": hands.stored_note_text(score["note"]),
        }


def test_a_row_recorded_in_english_reads_in_slovenian_and_french(tarzs):
    hand = record(tarzs, TRULA_TWO)
    hand.refresh_from_db()
    line = hand.score["lines"][0]
    # Ids and values, not text: the row holds no English word of the game.
    assert line[0] == [
        ["line.value-difference", {"what": ["contract.two"], "value": 20, "difference": 5}]
    ]
    said = {}
    for language in ("en", "sl", "fr"):
        with translation.override(language):
            said[language] = (hands.line_text(line), hands.stored_note_text(hand.score["note"]))
    assert said["en"] == ("two 20 + difference 5", "+45 two tr.")
    assert said["sl"][0].startswith("dva 20") and said["sl"][1].startswith("+45 dva")
    assert said["fr"][0] != said["en"][0]


def test_the_migration_gives_rows_their_words_and_keeps_every_amount(tarzs, members):
    # Radelci left unused at the close: closing lines to convert too.
    Session.objects.filter(pk=tarzs.pk).update(rules={**tarzs.rules, "radelc_penalty": -40})
    tarzs.refresh_from_db()
    for data in (BEGGAR, TWO, TRULA_TWO):
        record(tarzs, data)
    services.close_session(tarzs, members["scorekeeper"])
    tarzs.refresh_from_db()
    rows = {h.pk: copy.deepcopy(h.score) for h in Hand.objects.filter(session=tarzs)}
    closing = copy.deepcopy(tarzs.closing)
    # Back to what the code before issue 14 stored: English text in rows and closing lines.
    for hand in Hand.objects.filter(session=tarzs):
        Hand.objects.filter(pk=hand.pk).update(score=as_english_text(hand.score))
    with translation.override("en"):
        old_closing = {
            **closing,
            "lines": [
                # the old code wrote the penalty with Python's own minus
                {
                    "item": "radelc-penalty",
                    "text": hands.line_text(line).replace("−", "-"),
                    "amounts": line[1],
                }
                for line in closing["lines"]
            ],
        }
    Session.objects.filter(pk=tarzs.pk).update(closing=old_closing)
    assert old_closing["lines"][0]["text"] == "unused radelci 1 × -40"

    migration.forwards(apps, None)

    assert {h.pk: h.score for h in Hand.objects.filter(session=tarzs)} == rows
    tarzs.refresh_from_db()
    assert tarzs.closing == closing


def test_a_row_the_engine_no_longer_gives_keeps_its_text_and_amounts(tarzs):
    hand = record(tarzs, TWO)
    old = as_english_text(hand.score)
    # A rule changed since: the stored amounts are not what the engine gives today.
    old["amounts"] = {"Ana": 99, "Bor": -99, "Cene": 99, "Dani": -99}
    Hand.objects.filter(pk=hand.pk).update(score=old)

    migration.forwards(apps, None)

    hand.refresh_from_db()
    assert hand.score["amounts"] == {"Ana": 99, "Bor": -99, "Cene": 99, "Dani": -99}
    assert hand.score["lines"][0][1] == old["lines"][0][1]
    with translation.override("sl"):  # kept as written: the English of the day it was scored
        assert hands.line_text(hand.score["lines"][0]) == old["lines"][0][0]
        assert hands.stored_note_text(hand.score["note"]) == old["note"]
