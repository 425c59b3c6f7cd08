"""The one error type of the engine and the problems it carries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.labels import PROBLEMS


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a hand: the field as a JSON path, a stable code and its details.

    ``message`` is the English text; an app translating the engine keys on ``code`` and
    formats ``params`` itself.
    """

    path: str
    code: str
    params: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def message(self) -> str:
        return PROBLEMS[self.code].format(**self.params)

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
        self.append(Problem(path, code, params))

    def raise_if_any(self) -> None:
        if self:
            raise RulesError(self)
