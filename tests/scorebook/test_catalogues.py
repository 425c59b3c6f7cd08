"""Every word a user sees is translated (issue 14): the app's gettext catalogues hold every
string the code marks, each one translated, none fuzzy, with the placeholders of its English;
the compiled catalogues git keeps are those of the .po files; the engine's glossary has every
term in every language."""

from __future__ import annotations

import gettext
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from rules import words

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ("sl", "cs", "de", "fr")
# %(name)s, %s, %d and {name}: what a translation must keep.
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}")


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_entry_is_translated_and_none_is_fuzzy(language):
    po = catalogue(language)
    assert len(po) > 600
    assert [e.msgid for e in po.untranslated_entries()] == []
    assert [e.msgid for e in po.fuzzy_entries()] == []
    assert "fuzzy" not in po.metadata_as_entry().flags
    for entry in po.translated_entries():
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for translation in translations:
            assert translation.strip(), entry.msgid
            assert placeholders(translation) == placeholders(entry.msgid), entry.msgid


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_is_the_one_of_the_po_file(language):
    """The .mo files are kept in git, so that a fresh clone speaks every language without
    gettext installed; they must say what the .po files say."""
    with open(ROOT / "locale" / language / "LC_MESSAGES" / "django.mo", "rb") as file:
        compiled = gettext.GNUTranslations(file)
    for entry in catalogue(language).translated_entries():
        if entry.msgid_plural:
            # Every form, also Czech's for fractions (no whole count reaches it): as stored.
            for form, text in entry.msgstr_plural.items():
                assert compiled._catalog.get((entry.msgid, form)) == text, entry.msgid
            continue
        key = f"{entry.msgctxt}\x04{entry.msgid}" if entry.msgctxt else entry.msgid
        assert compiled.gettext(key) == entry.msgstr, entry.msgid


def test_the_catalogues_hold_every_string_the_code_marks(tmp_path):
    """makemessages run afresh over a copy finds no string the catalogues lack (a string
    marked in a template or in Python but never translated would show in English)."""
    assert shutil.which("xgettext"), "gettext is needed (apt-get install gettext)"
    for folder in ("scorebook", "templates", "rules", "locale"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "manage.py", tmp_path / "manage.py")
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "sl", "--no-location"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "DEBUG": "1", "PYTHONPATH": str(tmp_path)},
    )
    fresh = polib.pofile(str(tmp_path / "locale" / "sl" / "LC_MESSAGES" / "django.po"))
    assert [e.msgid for e in fresh.untranslated_entries()] == []
    assert [e.msgid for e in fresh.fuzzy_entries()] == []


@pytest.mark.parametrize("language", words.LANGUAGES)
def test_the_glossary_has_every_term_in_every_language(language):
    assert words.missing(language) == []
    assert words.mismatched_placeholders(language) == []


# French typography (issue 26): a narrow no-break space (U+202F) before ; ! ? and a no-break
# space (U+00A0, or U+202F) before :, as "Preneur : obligatoire"; placeholders, URLs, tags,
# entities and times (20:30) are not words and are left alone.
NNBSP, NBSP = "\u202f", "\u00a0"
NOT_WORDS = r"%\(\w+\)[sd]|%[sd]|\{[^{}]*\}|https?://\S+|<[^>]*>|&#?\w+;|\d:\d"
FRENCH_MARK = re.compile(rf"(?P<skip>{NOT_WORDS})|(?P<mark>[;:!?])")


def french_spacing_problems(text: str) -> list[str]:
    """Each ; : ! ? of ``text`` not preceded by the space French puts before it."""
    problems = []
    for match in FRENCH_MARK.finditer(text):
        mark = match["mark"]
        if not mark:
            continue
        before = text[match.start() - 1] if match.start() else ""
        if before not in ((NBSP, NNBSP) if mark == ":" else (NNBSP,)):
            problems.append(f"{text[max(0, match.start() - 20) : match.end()]!r}")
    return problems


def test_french_spacing_is_checked_as_french_writes_it():
    assert french_spacing_problems("Preneur\u00a0: obligatoire") == []
    assert french_spacing_problems("Quitter %(name)s\u202f?") == []
    assert french_spacing_problems("Preneur : obligatoire") != []  # a plain space
    assert french_spacing_problems("Quitter %(name)s\u00a0?") != []  # not the narrow one
    assert french_spacing_problems("inconnu\u00a0; choisissez") != []
    # Not words: a placeholder's !r, a URL's : and ?, a time, an entity.
    assert french_spacing_problems("{value!r} https://x.fr/a?b=1 à 20:30 &amp;") == []


def test_the_french_catalogue_spaces_its_punctuation():
    problems = []
    for entry in catalogue("fr").translated_entries():
        texts = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        problems += [(entry.msgid, p) for text in texts for p in french_spacing_problems(text)]
    assert problems == []


def test_the_french_words_of_the_glossary_space_their_punctuation():
    problems = {
        key: french_spacing_problems(entry["fr"])
        for key, entry in words.ENTRIES.items()
        if french_spacing_problems(entry["fr"])
    }
    assert problems == {}


def test_french_reglement_is_only_a_tournaments_rules():
    """One meaning per word: "Règlement" is a tournament's rules; a session's settlement is
    its "Décompte" (and the klop's and valat's scoring their "marque")."""
    translated = {e.msgid: e.msgstr for e in catalogue("fr").translated_entries()}
    assert translated["Settlement"] == "Décompte"
    assert translated["Rules of this tournament"] == "Règlement de ce tournoi"
    settlement = [m for m, t in translated.items() if "settlement" in m.lower()]
    assert settlement and not [m for m in settlement if "èglement" in translated[m]]
    assert words.ENTRIES["switch.settlement"]["fr"] == "décompte"
    assert not [k for k, e in words.ENTRIES.items() if "règlement" in e["fr"].lower()]
    assert [k for k, e in words.ENTRIES.items() if "décompte" in e["fr"]] == ["switch.settlement"]
