"""The one error a change of the club's data is refused with, from a roster rename to a hand.

A refusal carries every reason at once, each with the path of what it concerns, so that a view
puts each message next to its field: a field of a hand as the engine names it (``points``,
``bonuses[1].contra``), a hand of a sheet (``hands[3].points``), a form field (``reason``), or
"" for the change as a whole. The engine's own problems (rules.Problem) are such reasons.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol


class Reason(Protocol):
    """What every reason has, the engine's and the club's alike: a form reads only these."""

    path: str
    code: str

    @property
    def message(self) -> str: ...


@dataclass(frozen=True)
class Refusal:
    """A reason of the club's rules (not the engine's): a closed session, a name taken."""

    path: str
    message: str
    # The engine's problems have codes the form words its own way ("missing": "required");
    # the club's reasons are said as they are.
    code: str = "refused"

    def __str__(self) -> str:
        return f"{self.path}: {self.message}" if self.path else self.message


class ServiceError(Exception):
    """A change refused; `problems` lists every reason, `message` says them all, and `field`
    names the form field of a single reason (None: the change as a whole)."""

    def __init__(self, message: str, field: str | None = None):
        super().__init__(message)
        self.message = message
        self.field = field
        self.problems: list[Reason] = [Refusal(field or "", message)]

    @classmethod
    def of(cls, problems: Iterable[Reason]) -> ServiceError:
        """A refusal for several reasons (the engine's problems with a hand, say)."""
        problems = list(problems)
        error = cls("\n".join(str(problem) for problem in problems))
        error.problems = problems
        return error
