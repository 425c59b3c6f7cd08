"""Names in the order of the reader's alphabet, the same on SQLite and PostgreSQL.

A database sorts by its own collation (SQLite by code point, so "Čarli" comes after "Zala";
PostgreSQL by the server's locale), so every list of names a person reads is sorted here, in
Python, with one key. The key has the three levels of the Unicode collation algorithm, with
each language's own letters as the CLDR tailorings have them:

- the letters: a letter with an accent sorts with its base letter (Á with A, ä with a, é with
  e; German ß as ss), case aside, unless the language's alphabet has it as a letter of its
  own: Slovenian č and ć after c, đ after d, š after s, ž after z; Czech č after c, ch after
  h, ř after r, š after s, ž after z;
- then the accents (Cene before Cené), then the case (lower before upper);
- then the name itself, so that no two different names ever tie.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

from django.conf import settings
from django.forms.models import ModelChoiceField, ModelChoiceIterator
from django.utils.translation import get_language

T = TypeVar("T")

# A language's letters of their own: the letter they follow and their place after it.
OWN_LETTERS: dict[str, dict[str, tuple[str, int]]] = {
    "sl": {"č": ("c", 1), "ć": ("c", 2), "đ": ("d", 1), "š": ("s", 1), "ž": ("z", 1)},
    "cs": {"č": ("c", 1), "ch": ("h", 1), "ř": ("r", 1), "š": ("s", 1), "ž": ("z", 1)},
}
# Letters Unicode does not split into a base letter and an accent, read as the root collation
# reads them (after a language's own letters, so Slovenian đ stays a letter).
BASE_LETTERS = {"đ": "d", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "ı": "i"}

Key = tuple[tuple[tuple[str, int], ...], tuple[str, ...], tuple[int, ...], str]


def language_of(language: str | None = None) -> str:
    """The language whose alphabet applies: `language`, else the active one ("sl-si" -> sl)."""
    code = language or get_language() or settings.LANGUAGE_CODE
    return code.replace("_", "-").split("-")[0].lower()


def sort_key(name: str, language: str | None = None) -> Key:
    """The key that sorts `name` in the alphabet of `language` (None: the active language)."""
    weights = list(_weights(_clusters(name), OWN_LETTERS.get(language_of(language), {})))
    letters = tuple(letter for letter, _accent, _upper in weights)
    accents = tuple(accent for _letter, accent, _upper in weights)
    cases = tuple(upper for _letter, _accent, upper in weights)
    return letters, accents, cases, name


Weight = tuple[tuple[str, int], str, int]  # (letter, its place after it), accent, upper case


def _weights(clusters: list[str], own: dict[str, tuple[str, int]]) -> Iterator[Weight]:
    """The weights of each letter of a name, a language's letter of two (Czech ch) as one."""
    i = 0
    while i < len(clusters):
        pair = (clusters[i] + clusters[i + 1]) if i + 1 < len(clusters) else ""
        if pair.lower() in own:  # neither half has an accent: "c" + "h"
            yield own[pair.lower()], "", _upper(pair)
            i += 2
        else:
            yield from _letter_weights(clusters[i], own)
            i += 1


def _letter_weights(cluster: str, own: dict[str, tuple[str, int]]) -> list[Weight]:
    """One letter with its accents: a letter of the language's own, or its base letter(s)
    with the accents beside (ß is s s, æ is a e)."""
    upper = _upper(cluster)
    composed = unicodedata.normalize("NFC", cluster).lower()
    if composed in own:
        return [(own[composed], "", upper)]
    base, marks = cluster[0].casefold(), cluster[1:]
    if base in BASE_LETTERS:  # after the plain letters, by its own sign: Lodz, Łodz
        return [((letter, 0), cluster[0].lower() + marks, upper) for letter in BASE_LETTERS[base]]
    return [((letter, 0), marks, upper) for letter in base]


def _upper(text: str) -> int:
    return int(text != text.lower())


def _clusters(name: str) -> list[str]:
    """Each base character of `name` with the accents that follow it (decomposed)."""
    clusters: list[str] = []
    for char in unicodedata.normalize("NFD", name):
        if clusters and unicodedata.combining(char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


def alphabetical(
    items: Iterable[T], language: str | None = None, *, key: Callable[[T], str] = str
) -> list[T]:
    """`items` sorted by their names (`key`, default str) in the alphabet of `language`."""
    language = language_of(language)
    return sorted(items, key=lambda item: sort_key(key(item), language))


class AlphabeticalChoices(ModelChoiceIterator):
    """A model choice field's options in alphabetical order of their labels."""

    def __iter__(self):
        if self.field.empty_label is not None:
            yield ("", self.field.empty_label)
        label = self.field.label_from_instance
        for obj in alphabetical(self.queryset, key=lambda obj: str(label(obj))):
            yield self.choice(obj)


class AlphabeticalChoiceField(ModelChoiceField):
    """A select of players (or any named rows) in the reader's alphabet."""

    iterator = AlphabeticalChoices
