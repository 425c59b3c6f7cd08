"""Settling a session (RULES.md §7): each player's net, then the fewest transfers that pay it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from rules.model import Amount

HUNDREDTH = Decimal("0.01")


@dataclass(frozen=True, slots=True)
class Transfer:
    payer: str
    payee: str
    amount: Amount

    def to_json(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class Settlement:
    nets: Mapping[str, Amount]
    transfers: tuple[Transfer, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "nets": dict(self.nets),
            "transfers": [t.to_json() for t in self.transfers],
        }


def amount(value: Fraction | Decimal | int) -> Amount:
    """An exact amount as an int when whole, else a Decimal of hundredths."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return value.numerator
        return Decimal(value.numerator) / Decimal(value.denominator)
    if isinstance(value, Decimal) and value == value.to_integral_value():
        return int(value)
    return value


def nets(totals: Mapping[str, Amount], method: str) -> dict[str, Amount]:
    """``"pairwise"``: every pair settles the difference of their totals (N × total − sum);
    ``"average"``: total − mean, rounded half-up to the hundredth with the leftover hundredths
    given one each in seat order so that the nets add up to exactly zero."""
    players = list(totals)
    exact = {p: Fraction(totals[p]) for p in players}
    total = sum(exact.values(), Fraction(0))
    if method == "pairwise":
        raw = {p: len(players) * exact[p] - total for p in players}
    else:
        mean = total / len(players)
        raw = {p: exact[p] - mean for p in players}
    cents = {p: _half_up(raw[p] * 100) for p in players}
    leftover = -sum(cents.values())
    step = 1 if leftover > 0 else -1
    for p in players[: abs(leftover)]:
        cents[p] += step
    return {p: amount(Fraction(cents[p], 100)) for p in players}


def _half_up(value: Fraction) -> int:
    """Round to the nearest whole number, halves away from zero."""
    magnitude = (abs(value) * 2 + 1) // 2
    return int(magnitude) if value >= 0 else -int(magnitude)


def transfers(net: Mapping[str, Amount]) -> tuple[Transfer, ...]:
    """The largest debtor pays the largest creditor as much as settles one of them, ties by seat
    order, until every net is zero: at most N − 1 transfers."""
    seat = {p: i for i, p in enumerate(net)}
    left = {p: Fraction(v) for p, v in net.items()}
    out = []
    while True:
        debtors = [p for p in left if left[p] < 0]
        creditors = [p for p in left if left[p] > 0]
        if not debtors or not creditors:
            return tuple(out)
        payer = min(debtors, key=lambda p: (left[p], seat[p]))
        payee = min(creditors, key=lambda p: (-left[p], seat[p]))
        paid = min(-left[payer], left[payee])
        left[payer] += paid
        left[payee] -= paid
        out.append(Transfer(payer, payee, amount(paid)))


def settle(totals: Mapping[str, Amount], method: str = "average") -> Settlement:
    net = nets(totals, method)
    return Settlement(net, transfers(net))
