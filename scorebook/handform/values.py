"""What a hand form shows: one string (or a list, for checkboxes) per field name."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def json_number(number: int | Decimal) -> int | float:
    """A number for the hand JSON, which has no decimals: the engine reads a float back by its
    digits, so a half point or a hundredth stays exact."""
    return number if isinstance(number, int) else float(number)


class Values:
    """What the form shows: one string (or a list, for checkboxes) per field name."""

    def __init__(self, data: Mapping[str, Any] | None = None):
        self._single: dict[str, str] = {}
        self._lists: dict[str, list[str]] = {}
        if data is None:
            return
        getlist = getattr(data, "getlist", None)
        for key in data:
            if getlist is not None:
                items = [str(v) for v in getlist(key)]
            else:
                raw = data[key]
                items = [str(v) for v in raw] if isinstance(raw, list) else [_text(raw)]
            self._lists[key] = items
            self._single[key] = items[-1].strip() if items else ""

    def get(self, key: str, default: str = "") -> str:
        return self._single.get(key, default)

    def getlist(self, key: str) -> list[str]:
        return self._lists.get(key, [])

    def set(self, key: str, value: Any) -> None:
        self._single[key] = _text(value)
        self._lists[key] = [_text(value)]

    def add(self, key: str, value: Any) -> None:
        self._lists.setdefault(key, []).append(_text(value))
        self._single[key] = _text(value)

    def __contains__(self, key: str) -> bool:
        return key in self._single
