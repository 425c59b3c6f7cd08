"""Every game word of the glossary cites where clubs say it (issue 26): a column per language
names a source of glossary_sources.csv, a public rulebook or club page (or, for English, the
project's own RULES.md)."""

from __future__ import annotations

import csv
import re

from rules import words

SOURCES = words.sources()


def test_every_source_has_a_title_and_an_address():
    assert SOURCES
    for key, source in SOURCES.items():
        assert re.fullmatch(r"[a-z0-9-]+", key), key
        assert source["title"].strip(), key
        address = source["address"]
        assert address.startswith(("https://", "http://")) or address == "rules/RULES.md", key


def test_the_glossary_has_a_source_column_per_language():
    with words.GLOSSARY.open(encoding="utf-8", newline="") as file:
        header = next(csv.reader(file))
    assert [c for c in header if c.startswith("source_")] == [
        f"source_{language}" for language in words.LANGUAGES
    ]


def test_every_game_word_cites_a_known_source_in_every_language():
    game_words = [key for key in words.ENTRIES if words.is_game_word(key)]
    assert len(game_words) > 80 and "contract.beggar" in game_words
    empty, unknown = [], []
    for key in game_words:
        for language in words.LANGUAGES:
            cited = words.ENTRIES[key][f"source_{language}"].strip()
            if not cited:
                empty.append((key, language))
            elif cited not in SOURCES:
                unknown.append((key, language, cited))
    assert empty == [] and unknown == []


def test_a_cell_that_cites_cites_a_known_source():
    """Words that are not the game's (problems, lines) may cite nothing, but never a stranger."""
    cited = {
        entry[f"source_{language}"]
        for entry in words.ENTRIES.values()
        for language in words.LANGUAGES
    }
    assert cited - {""} <= set(SOURCES)


def test_the_sources_of_the_words_issue_26_changed():
    def source(key, language):
        return words.ENTRIES[key][f"source_{language}"]

    assert source("role.declarer", "cs") == "hracikarty"  # aktér
    assert source("contra.3", "cs") == "taroky-net"  # tutti
    assert source("preset.tarzs", "sl") == "tarzs"
    assert source("contract.beggar", "de") == source("bonus.mond-caught", "de")
    assert SOURCES[source("contract.beggar", "de")]["address"].endswith("K%C3%B6nigrufen")
    assert source("contract.garde", "fr") == "fft"
