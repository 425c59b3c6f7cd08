"""Numbers as a page shows them: the reader's decimal separator and a real minus sign (−).

Only for what a person reads. What a program reads (the CSV and JSON exports, an input's
value, a data- attribute, an SVG coordinate) keeps the ASCII '-' and '.', unlocalised.
"""

from decimal import Decimal, InvalidOperation

from django import template
from django.utils.formats import get_format

register = template.Library()

MINUS = "\N{MINUS SIGN}"


def shown(text: str) -> str:
    """A number written by Python ("-3.40") as the reader writes it ("−3,40" in French)."""
    text = text.replace("-", MINUS)
    if "." in text:
        text = text.replace(".", get_format("DECIMAL_SEPARATOR"))
    return text


@register.filter
def amount(value, places=None) -> str:
    """Units: `-15` -> `−15`, `Decimal("-3.40")` -> `−3,40` (fr), `Decimal("4.00")` -> `4`.

    At most two decimals; with `places` always that many (a rating: `1512.00`). A sheet shows
    hundreds of these, so no floatformat (which rounds through Decimal contexts on every call)
    and the separator is looked up only for a number that has decimals."""
    if value is None or value == "":
        return ""
    if places is not None:
        return shown(f"{Decimal(value):.{int(places)}f}")
    if not isinstance(value, int):
        value = Decimal(value)
        if value != value.to_integral_value():
            return shown(f"{value:.2f}")
        value = int(value)
    return str(value).replace("-", MINUS)


@register.filter
def number(value) -> str:
    """Card points or placement points exactly as they are: `40.5` -> `40,5` (fr), `-2` -> `−2`."""
    if value is None or value == "":
        return ""
    if isinstance(value, int):
        return str(value).replace("-", MINUS)
    try:
        exact = Decimal(str(value))
    except InvalidOperation:  # not a number after all (an old or hostile record): as it is
        return str(value)
    return shown(format(exact.normalize(), "f"))
