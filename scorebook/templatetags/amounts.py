"""Amounts as the sheet shows them: at most two decimals, and a real minus sign (−)."""

from decimal import Decimal

from django import template

register = template.Library()

MINUS = "\N{MINUS SIGN}"


@register.filter
def amount(value) -> str:
    """`-15` -> `−15`, `Decimal("-3.40")` -> `−3.40`, `Decimal("4.00")` -> `4`: display only;
    stored and exported numbers keep '-'. A sheet shows hundreds of these, so no floatformat
    (which localises and rounds through Decimal contexts on every call)."""
    if value is None or value == "":
        return ""
    if not isinstance(value, int):
        value = Decimal(value)
        value = int(value) if value == value.to_integral_value() else f"{value:.2f}"
    return str(value).replace("-", MINUS)
