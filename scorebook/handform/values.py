"""What a hand form shows: one string (or a list, for checkboxes) per key, and the keys of one
seat or one item of a field."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def seat_key(template: str, position: int | str) -> str:
    """A field's key for one seat (rules.fields: "pbp-{seat}" -> "pbp-2")."""
    return template.replace("{seat}", str(position))


def item_key(template: str, item: str) -> str:
    """A field's key for one bonus or declaration ("decl-{id}" -> "decl-trul")."""
    return template.replace("{id}", item)


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
