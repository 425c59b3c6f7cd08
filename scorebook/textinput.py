"""Reading what a member typed: the one number parser and the one text check of every form.

A number is checked as text before anything is converted: a short run of digits with one
optional decimal separator (a point or a comma, whatever the page's language: a phone's
keyboard offers the one of its own locale), so no exponent ("1e1000000") ever builds a huge
Decimal or int (converting one costs seconds of CPU, and storing one overflows the database).
A text may hold no control characters (PostgreSQL refuses a NUL; the others break a page or a
printout) and is bounded in length before it reaches a model.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, ProhibitNullCharactersValidator
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from rules import jsontext
from rules.reader import MAX_ADJUSTMENT, has_control_characters

# Longer than any number a scorekeeper types ("-1000000.00" is 11): refused before converting.
MAX_NUMBER_LENGTH = 20
# An optional sign, digits, at most one decimal separator: ASCII digits only.
NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)", re.ASCII)
MINUS_SIGNS = ("−",)  # U+2212, what a phone's keyboard or a pasted score may hold
# No number anybody types here has more (amounts in hundredths, card points in halves); more
# is a separator between thousands ("1,000" or "1.000"), which would read as 1.
MAX_DECIMALS = 2
# The browser's hint of the same, for an input's `pattern` (the server decides): either
# separator, either minus, at most MAX_DECIMALS decimals. Written for the `v` flag that
# browsers compile a pattern with, where a "-" in a class is escaped.
DECIMAL_PATTERN = (
    rf"\s*[+\-−]?(?:[0-9]+(?:[.,][0-9]{{0,{MAX_DECIMALS}}})?|[.,][0-9]{{1,{MAX_DECIMALS}}})\s*"
)
WHOLE_PATTERN = r"\s*[0-9]+\s*"

# An adjustment: within the engine's ±MAX_ADJUSTMENT, in hundredths; every one fits an entry's
# numeric(12,2) with room to spare.
MAX_AMOUNT = MAX_ADJUSTMENT

# A text the model leaves unbounded (a TextField, such as a session's notes).
MAX_TEXT_LENGTH = 2000


class InputError(ValueError):
    """Text that is not what the field takes; `message` is for the member, at the field."""

    def __init__(self, message: str, code: str = ""):
        super().__init__(message)
        self.message = message
        self.code = code


# --- Numbers ---------------------------------------------------------------------------------


def number(text: str | None, *, whole: bool = False) -> int | Decimal | None:
    """The number in `text`, exactly: an int when it is whole, else a Decimal; None when empty.

    Takes "40", "40.5", "40,5", "-12" and "−12". Raises InputError for anything else,
    including exponents, letters, more than MAX_DECIMALS decimals and more than
    MAX_NUMBER_LENGTH characters.
    """
    text = (text or "").strip().replace(",", ".")
    for sign in MINUS_SIGNS:
        text = text.replace(sign, "-")
    if not text:
        return None
    if len(text) > MAX_NUMBER_LENGTH or not NUMBER.fullmatch(text):
        raise InputError(_("Enter a number."))
    if len(text.partition(".")[2]) > MAX_DECIMALS:
        raise InputError(
            _("Enter at most two decimals, and no separator between thousands."), "decimals"
        )
    value = Decimal(text)  # at most 20 digits: cheap
    if value == value.to_integral_value():
        return int(value)
    if whole:
        raise InputError(_("Enter a whole number."))
    return value


def amount(text: str | None) -> int | Decimal | None:
    """An adjustment's amount: a number within ±MAX_AMOUNT with at most two decimals."""
    try:
        value = number(text)
    except InputError as error:
        if error.code == "decimals":
            raise InputError(_("Enter an amount with at most two decimals."), "decimals") from None
        raise
    if value is None:
        return None
    if abs(value) > MAX_AMOUNT:
        raise InputError(
            _("Enter an amount between −%(max)s and %(max)s.")
            % {"max": number_format(MAX_AMOUNT, force_grouping=True)}
        )
    return value


# --- Text ------------------------------------------------------------------------------------


def check_text(text: str, *, max_length: int, multiline: bool = False) -> str:
    """`text` unchanged when it is plain text of at most `max_length` characters; else
    InputError with the message for its field."""
    if len(text) > max_length:
        raise InputError(length_message(max_length))
    if has_control_characters(text, multiline=multiline):
        raise InputError(control_message())
    return text


def control_message() -> str:
    return _("Remove the control characters (such as NUL) from this text.")


def length_message(max_length: int) -> str:
    return _("Keep this under %(n)d characters.") % {"n": max_length + 1}


class PlainText:
    """The validator of a form's text field: no control characters."""

    def __init__(self, multiline: bool = False):
        self.multiline = multiline

    def __call__(self, value: str) -> None:
        if has_control_characters(str(value), multiline=self.multiline):
            raise ValidationError(control_message(), code="control_characters")


def plain_text_field(field: forms.CharField) -> None:
    """Give a form's text field the text check and a length bound (MAX_TEXT_LENGTH where the
    field has none). A field with a Textarea is multi-line."""
    if field.max_length is None:
        field.max_length = MAX_TEXT_LENGTH
        field.validators.append(MaxLengthValidator(MAX_TEXT_LENGTH))
        field.widget.attrs["maxlength"] = str(MAX_TEXT_LENGTH)
    multiline = isinstance(field.widget, forms.Textarea)
    # PlainText refuses a NUL too, with the message for every control character.
    field.validators = [
        v for v in field.validators if not isinstance(v, ProhibitNullCharactersValidator)
    ]
    field.validators.append(PlainText(multiline=multiline))


class PlainTextForm:
    """Mixin for every form of the app: each of its text fields takes plain, bounded text."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if isinstance(field, forms.CharField):
                plain_text_field(field)


# --- A sheet pasted or uploaded ----------------------------------------------------------------


def json_value(raw: bytes, *, max_bytes: int) -> Any:
    """The value of a JSON text a member pasted or uploaded, within every bound of the engine's
    reader (rules.jsontext: size, depth, long numbers; fractions as floats, as the stored JSON
    keeps them). InputError with the reader's reason, in the member's words."""
    try:
        return jsontext.loads(raw, max_bytes=max_bytes, decimals=False)
    except jsontext.UnreadableJSON as error:
        [problem] = error.problems
        raise InputError(problem.message, problem.code) from None
