"""The one error type of the engine and the problems it carries."""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any

from rules.words import Say


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a hand: the field as a JSON path, a stable code and its details.

    ``message`` says it in the reader's language (rules.words); ``text(language)`` in any.
    """

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def message(self) -> str:
        return self.text()

    def text(self, language: str | None = None) -> str:
        return Say(f"problem.{self.code}", **self.params).text(language)

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class RulesError(ValueError):
    """A hand, sheet or set of rules that cannot be scored; ``problems`` lists every reason."""

    def __init__(self, problems: list[Problem] | tuple[Problem, ...]):
        self.problems = tuple(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class Problems(list):
    """Collects problems while a hand is read, so that all of them are reported at once."""

    def add(self, path: str, code: str, **params: Any) -> None:
        # What the input held is shown bounded: a 1 MB string, a 5,000-digit int or a list
        # nested 100,000 deep would make the message huge or its repr() raise.
        for name in SHOWN_PARAMS.intersection(params):
            params[name] = shown(params[name])
        self.append(Problem(path, code, params))

    def raise_if_any(self) -> None:
        if self:
            raise RulesError(self)


# The params that carry a value from the input (rather than words of the engine's own).
SHOWN_PARAMS = frozenset({"value", "key"})
MAX_SHOWN = 60  # characters of a value a problem shows


class Shown(str):
    """A value of the input as a problem shows it, already in repr() form: ``{value!r}`` in a
    template writes it as it is, and an app formatting the params gets plain text."""

    __slots__ = ()

    def __repr__(self) -> str:
        return str(self)


_REPR = reprlib.Repr()
_REPR.maxlevel = 2
_REPR.maxstring = _REPR.maxother = MAX_SHOWN
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = _REPR.maxfrozenset = 4


def shown(value: Any) -> Any:
    """``value`` itself when it is short and safe to format, else a bounded ``Shown`` text."""
    if value is None or type(value) is bool or type(value) is float:
        return value
    if type(value) is int:
        if value.bit_length() <= 100:
            return value
        return Shown(f"a number of {value.bit_length()} bits")
    if type(value) is str and len(value) <= MAX_SHOWN and value.isprintable():
        return value
    try:
        return Shown(_REPR.repr(value))
    except Exception:  # an object whose repr() fails: its type is enough
        return Shown(f"a {type(value).__name__}")


def field_name(key: Any) -> str:
    """A key of the input as a step of a path: itself when it is short printable text, else
    its bounded repr() (a NUL or a megabyte-long key is not printed as it is)."""
    if type(key) is str and len(key) <= MAX_SHOWN and key.isprintable():
        return key
    return str(shown(key)) if not isinstance(key, str) else _REPR.repr(key)
