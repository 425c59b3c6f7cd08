"""The check test_every_page runs over every page's visible text (tests/e2e/engine_ids.py)
finds what it is meant to find, and lets a language's own words be."""

import pytest

from tests.e2e.engine_ids import ids_in


@pytest.mark.parametrize(
    "text, language, found",
    [
        ("Seja: slovenian-3 — Ana, Bor", "sl", "'slovenian-3'"),
        ("points_by_player: required", "en", "'points_by_player'"),
        ("declarations_payer", "de", "'declarations_payer'"),
        ("pravila: seed", "sl", "'seed'"),
        ("preset tarzs", "en", "'tarzs'"),
        ("Igra: three", "sl", "'three'"),
        ('vrednosti: {"three": 10}', "sl", "JSON is shown"),
    ],
)
def test_an_id_or_json_is_found(text, language, found):
    assert any(found in problem for problem in ids_in(text, language))


@pytest.mark.parametrize(
    "text, language",
    [
        ("three 10 + difference 5", "en"),  # English says three
        ("Slovenski tarok, 3 igralci · tri", "sl"),
        ("contract values: beggar 80", "en"),  # a word of the switch's name
        ("Ana plays alone", "en"),
        ("garde sans", "fr"),
        ("Skupaj 1 2 3", "sl"),  # a contra's level is a number, no id
    ],
)
def test_a_languages_own_words_pass(text, language):
    assert ids_in(text, language) == []
