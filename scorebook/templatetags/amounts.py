"""Amounts as the sheet shows them: up to two decimals, and a real minus sign (−)."""

from django import template
from django.template.defaultfilters import floatformat

register = template.Library()

MINUS = "\N{MINUS SIGN}"


@register.filter
def amount(value) -> str:
    """`-15` -> `−15`, `2.50` -> `2.5`: display only; stored and exported numbers keep '-'."""
    if value is None or value == "":
        return ""
    return str(floatformat(value, "-2")).replace("-", MINUS)
