"""Exact numbers of the series: Fractions inside, Decimals rounded half up where shown or stored.

No Django here: standing.py and tarzs.py compute with these, the models store what they give.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction


def half_up(value: Fraction, places: int) -> Decimal:
    """`value` to `places` decimals, a half away from zero, decided on the exact value:
    half_up(Fraction(1, 8), 2) is 0.13, half_up(Fraction(14375, 1000), 1) is 14.4."""
    step = Decimal(1).scaleb(-places)
    scaled = abs(value) * 10**places
    whole = int(scaled + Fraction(1, 2))  # int() of a non-negative Fraction is its floor
    return (Decimal(-whole if value < 0 else whole) * step).quantize(step)


def exact(value: Decimal | int | str) -> Fraction:
    """A stored Decimal (or a whole number, or its text) as the Fraction it is exactly."""
    return Fraction(Decimal(value) if isinstance(value, str) else value)
