"""The engine's words in every language it speaks, without Django.

Every word the engine shows a player — a contract, a bonus, a line of the score, a problem —
is a ``Say``: the id of an entry of ``glossary.csv`` (one table: term id × language) and the
values to put into it. A ``Say`` is kept as it is (a stored row holds ids and values, never
text), and said in a language only when it is shown:

>>> line = Say("line.value", what=Say("contract.three"), value=Decimal("-2.5"))
>>> line.text("en"), line.text("sl"), line.text("fr")
('three −2.5', 'tri −2,5', 'trois −2,5')
>>> Say.from_json(line.to_json()) == line
True

What the current language is, is asked of ``current_language``: English unless an app sets it
(the web app hands it Django's active language), so ``str(say)`` speaks the reader's language.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import string
from collections.abc import Callable, Iterable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

GLOSSARY = Path(__file__).with_name("glossary.csv")
LANGUAGES = ("en", "sl", "cs", "de", "fr")
ENGLISH = "en"
# Languages that write a decimal comma ("40,5"); all of them write the minus sign U+2212.
DECIMAL_COMMA = frozenset({"sl", "cs", "de", "fr"})
MINUS = "−"


def _read_glossary(path: Path = GLOSSARY) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as file:
        return {row["id"]: row for row in csv.DictReader(file)}


ENTRIES: dict[str, dict[str, str]] = _read_glossary()

# Where each game word comes from: ``glossary.csv`` cites, in its column ``source_<language>``,
# an id of ``glossary_sources.csv`` (id, title, address) for every word of these groups. Read
# only when asked (a test), so that loading the engine's words costs no more.
SOURCES = GLOSSARY.with_name("glossary_sources.csv")
GAME_WORD_GROUPS = frozenset(
    ("variant", "family", "preset", "contract", "bonus", "declaration", "contra", "role", "side")
    + ("poignee-level", "deck")
)


def sources(path: Path = SOURCES) -> dict[str, dict[str, str]]:
    """The rulebooks and club pages the glossary's game words cite, by id."""
    with path.open(encoding="utf-8", newline="") as file:
        return {row["id"]: row for row in csv.DictReader(file)}


def is_game_word(key: str) -> bool:
    return key.split(".", 1)[0] in GAME_WORD_GROUPS


def _english() -> str:
    return ENGLISH


_language_source: Callable[[], str | None] = _english


def use_language_source(source: Callable[[], str | None]) -> None:
    """Where ``str(say)`` asks for the reader's language (the web app: Django's active one)."""
    global _language_source
    _language_source = source


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Say everything in ``language`` for a while (the command line's ``--lang``)."""
    global _language_source
    before = _language_source
    _language_source = lambda: language  # noqa: E731
    try:
        yield
    finally:
        _language_source = before


def current_language() -> str:
    code = (_language_source() or ENGLISH).split("-")[0].lower()
    return code if code in LANGUAGES else ENGLISH


def number(value: int | float | Decimal, language: str) -> str:
    """A number as a sheet in that language writes it: "−2.5", "−2,5", "45" (a Decimal
    without its trailing zeros: −2.50 is "−2.5", as notes always wrote it)."""
    if isinstance(value, float):
        value = Decimal(repr(value))
    if isinstance(value, Decimal):
        text = format(value.normalize(), "f")
    else:
        text = str(value)
    if language in DECIMAL_COMMA:
        text = text.replace(".", ",")
    return text.replace("-", MINUS)


class Say:
    """Words to be said in some language: a glossary id and its values (numbers, names,
    other ``Say``). Immutable and hashable by what it says."""

    __slots__ = ("id", "params")

    def __init__(self, id: str, **params: Any):
        self.id = id
        self.params = params

    def text(self, language: str | None = None) -> str:
        language = language or current_language()
        entry = ENTRIES.get(self.id)
        if entry is None:  # an id of a plug-in or a test's own game: it stands for itself
            template = self.id
        else:
            template = entry.get(language) or entry[ENGLISH]
        if not self.params:
            return template
        raw = _quoted(template)  # "{value!r}": the input as it was, quoted
        return template.format(
            **{k: v if k in raw else said(v, language) for k, v in self.params.items()}
        )

    def __str__(self) -> str:
        return self.text()

    def __format__(self, spec: str) -> str:
        return format(self.text(), spec)

    def __repr__(self) -> str:
        params = "".join(f", {k}={v!r}" for k, v in self.params.items())
        return f"Say({self.id!r}{params})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Say):
            return self.id == other.id and self.params == other.params
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.id)

    def __add__(self, other: object) -> str:  # "Say + str" reads as the text it says
        return self.text() + other if isinstance(other, str) else NotImplemented

    def __radd__(self, other: object) -> str:
        return other + self.text() if isinstance(other, str) else NotImplemented

    def to_json(self) -> list:
        """``[id]`` or ``[id, {values}]``; a value that is itself a ``Say`` nests as a list."""
        if not self.params:
            return [self.id]
        return [self.id, {k: _json_value(v) for k, v in self.params.items()}]

    @classmethod
    def from_json(cls, data: list) -> Say:
        params = data[1] if len(data) > 1 else {}
        return cls(data[0], **{k: _from_json_value(v) for k, v in params.items()})


@functools.cache
def _quoted(template: str) -> frozenset[str]:
    return frozenset(
        name for _, name, _, conversion in string.Formatter().parse(template) if conversion == "r"
    )


def said(value: Any, language: str) -> Any:
    """A value put into words: a ``Say`` in that language, a number as its sheets write it,
    a name or any other text as it is."""
    if isinstance(value, Say):
        return value.text(language)
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float | Decimal):
        return number(value, language)
    return value


def _json_value(value: Any) -> Any:
    if isinstance(value, Say):
        return value.to_json()
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _from_json_value(value: Any) -> Any:
    return Say.from_json(value) if isinstance(value, list) else value


# A phrase: pieces said one after the other ("trula announced 20" + ", contra ×2"). A game of
# a plug-in or a test may write its lines as plain text: it is said as it is, in any language.
Phrase = tuple[Say, ...]


def _pieces(phrase: Iterable[Say] | str) -> Iterable[Say]:
    return (Say("text", text=phrase),) if isinstance(phrase, str) else phrase


def phrase_text(phrase: Iterable[Say] | str, language: str | None = None) -> str:
    language = language or current_language()
    return "".join(piece.text(language) for piece in _pieces(phrase))


def phrase_json(phrase: Iterable[Say] | str) -> list:
    return [piece.to_json() for piece in _pieces(phrase)]


def phrase_from_json(data: list) -> Phrase:
    return tuple(Say.from_json(piece) for piece in data)


def terms(group: str) -> dict[str, Say]:
    """Every id of a group of the glossary ("contract", "bonus"…) as a ``Say``, keyed by the
    part after the group: ``terms("contract")["solo-without"]``."""
    prefix = group + "."
    return {key[len(prefix) :]: Say(key) for key in ENTRIES if key.startswith(prefix)}


def missing(language: str) -> list[str]:
    """The glossary's ids with no words in ``language`` (a test keeps this empty)."""
    return [key for key, entry in ENTRIES.items() if not (entry.get(language) or "").strip()]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def mismatched_placeholders(language: str) -> list[str]:
    """Ids whose words in ``language`` name other values than the English ones."""
    return [
        key
        for key, entry in ENTRIES.items()
        if placeholders(entry.get(language) or "") != placeholders(entry[ENGLISH])
    ]
