"""Reading JSON text for the engine: the one parser the command line and the web import share.

``json.loads`` alone is not safe on text from anybody: a deep nest of brackets overflows the
stack (RecursionError), ``NaN`` and ``Infinity`` are accepted although JSON has no such
numbers, and a number such as ``1e1000000`` parses into a value whose conversion to an int
takes a minute of CPU. ``loads`` bounds all of that before or while parsing, so whatever the
text, it returns a value or raises ``UnreadableJSON`` (a ``RulesError`` with one problem,
path ``""``, its code one of ``JSON_PROBLEMS``), in time linear in the text:

- a UTF-8 byte order mark at the start is skipped; bytes must be UTF-8;
- ``max_bytes``, when given, bounds the size of the text (UTF-8 bytes);
- arrays and objects nest at most ``MAX_DEPTH`` levels, counted over the text before the
  (recursive) parser runs;
- a number is at most ``MAX_NUMBER_CHARS`` characters long as written, ``NaN``,
  ``Infinity`` and ``-Infinity`` are refused, and a number with a fraction or an exponent
  must lie below 10**``MAX_EXPONENT`` in magnitude; it parses to an exact ``Decimal``
  (or, with ``decimals=False``, to the nearest float, for a store whose JSON encoder takes no
  Decimal).
"""

from __future__ import annotations

import json
from array import array
from decimal import Decimal, InvalidOperation
from itertools import accumulate
from typing import Any

from rules.problems import Problem, RulesError, shown

MAX_DEPTH = 32  # a sheet nests 4 levels (sheet, hands, a bonus list, a bonus)
MAX_NUMBER_CHARS = 30  # "-1000000.00" is 11; the longest float repr is 24
MAX_EXPONENT = 30  # |x| < 10**30 for a number written with a fraction or an exponent
BOM = "\ufeff"

JSON_PROBLEMS = frozenset(
    {
        "json-too-large",
        "json-not-utf8",
        "json-too-deep",
        "json-not-a-number",
        "json-number-too-long",
        "json-number-out-of-range",
        "json-syntax",
    }
)

# Every byte but a quote and the four brackets, which the depth scan deletes first.
_NOT_MARKS = bytes(sorted(set(range(256)) - set(b'"[]{}')))
# Each bracket as the step it takes in depth: an opening one 1, a closing one the byte 0xFF,
# which an array of signed bytes reads as -1.
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")
# Each digit as "0" and every other byte as a space, to find a long run of digits.
_DIGITS_AS_ZEROS = bytes(ord("0") if byte in b"0123456789" else ord(" ") for byte in range(256))


class UnreadableJSON(RulesError):
    """Text that is not JSON the engine reads; its one problem says why (``JSON_PROBLEMS``)."""

    def __init__(self, code: str, **params: Any):
        super().__init__([Problem("", code, params)])


class _Refused(Exception):
    """Raised inside a parser hook; ``loads`` turns it into UnreadableJSON."""

    def __init__(self, code: str, **params: Any):
        super().__init__(code)
        self.code = code
        self.params = params


def loads(text: str | bytes | bytearray, *, max_bytes: int | None = None, decimals: bool = True):
    """The value of a JSON text, with every limit of this module; raises ``UnreadableJSON``.

    Numbers with a fraction or an exponent come back as ``Decimal`` (exact), or as ``float``
    with ``decimals=False``; integers as ``int``.
    """
    if isinstance(text, bytes | bytearray):
        if max_bytes is not None and len(text) > max_bytes:
            raise UnreadableJSON("json-too-large", limit=max_bytes)
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError:
            raise UnreadableJSON("json-not-utf8") from None
    elif not isinstance(text, str):
        raise TypeError(f"JSON text must be str or bytes, not {type(text).__name__}")
    elif max_bytes is not None and (
        len(text) > max_bytes or (len(text) * 4 > max_bytes and _utf8_length(text) > max_bytes)
    ):
        raise UnreadableJSON("json-too-large", limit=max_bytes)
    if text.startswith(BOM):
        text = text[1:]
    if nesting(text) > MAX_DEPTH:
        raise UnreadableJSON("json-too-deep", limit=MAX_DEPTH)
    # An integer is checked as it is read only where one may be too long: that check is a
    # call into Python for each of a sheet's thousands of integers, and int() itself is quick.
    parse_int = _integer if _has_long_digit_run(text) else int
    try:
        return json.loads(
            text,
            parse_int=parse_int,
            parse_float=_decimal if decimals else _float,
            parse_constant=_constant,
        )
    except _Refused as refused:
        raise UnreadableJSON(refused.code, **refused.params) from None
    except json.JSONDecodeError as error:
        raise UnreadableJSON(
            "json-syntax", error=f"{error.msg} (line {error.lineno}, column {error.colno})"
        ) from None
    except (ValueError, RecursionError) as error:  # not expected after the checks above
        raise UnreadableJSON("json-syntax", error=shown(str(error))) from None


def nesting(text: str) -> int:
    """How deep brackets outside strings nest in ``text``, at the deepest, in linear time.

    Escaped backslashes and quotes are dropped, then every byte but quotes and brackets; what
    then lies between two quotes was in a string. Two quotes side by side hold no bracket
    between them, whether they open and close a string or close one and open the next:
    dropping them leaves every other quote opening or closing as before, and leaves quotes
    only around the few brackets written inside strings, so that cutting the strings out
    makes few pieces. Each step is one pass in C over the text, far quicker than a regular
    expression over a sheet's thousands of strings. A backslash outside a string is never
    JSON: the parser stops there, before any bracket after it. Brackets that do not match
    only lower the count; the parser refuses such text anyway."""
    raw = text.encode("utf-8", "surrogatepass")
    if b"\\" in raw:
        raw = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    marks = raw.translate(None, _NOT_MARKS).replace(b'""', b"")
    brackets = b"".join(marks.split(b'"')[::2])
    if not brackets:
        return 0
    return max(0, max(accumulate(array("b", brackets.translate(_STEPS)))))


def _has_long_digit_run(text: str) -> bool:
    """Whether ``MAX_NUMBER_CHARS`` digits stand in a row anywhere in ``text``, in a number or
    in a string: an integer too long to read holds as many (two passes in C)."""
    digits = text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZEROS)
    return b"0" * MAX_NUMBER_CHARS in digits


def _utf8_length(text: str) -> int:
    return len(text.encode("utf-8", "surrogatepass"))


def _check_length(literal: str) -> None:
    if len(literal) > MAX_NUMBER_CHARS:
        raise _Refused("json-number-too-long", limit=MAX_NUMBER_CHARS)


def _integer(literal: str) -> int:
    _check_length(literal)
    return int(literal)


def _decimal(literal: str) -> Decimal:
    _check_length(literal)
    try:
        value = Decimal(literal)
    except InvalidOperation:  # an exponent beyond what Decimal takes
        raise _Refused("json-number-out-of-range", value=shown(literal)) from None
    if value and value.adjusted() >= MAX_EXPONENT:
        raise _Refused("json-number-out-of-range", value=shown(literal))
    return value


def _float(literal: str) -> float:
    return float(_decimal(literal))


def _constant(name: str) -> Any:
    raise _Refused("json-not-a-number", value=name)


__all__ = ["JSON_PROBLEMS", "MAX_DEPTH", "MAX_NUMBER_CHARS", "UnreadableJSON", "loads", "nesting"]
