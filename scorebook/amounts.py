"""Amounts as the database keeps them: exact Decimals in hundredths (numeric(12,2))."""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal
from typing import Any

CENT = Decimal("0.01")


def cents(value: Any, rounding: str = ROUND_HALF_EVEN) -> Decimal:
    """`value` (an int, a Decimal, or a float from JSON, read by its digits) in hundredths."""
    return Decimal(str(value)).quantize(CENT, rounding=rounding)
