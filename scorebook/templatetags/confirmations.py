"""The printed sheet's word on each hand (issue 27): read once for the whole sheet, said per row."""

from django import template

from scorebook import confirmations

register = template.Library()


@register.simple_tag
def paper_words(session) -> dict[int, str]:
    """Each hand's state in words by its number, in one statement; empty for a session that
    asks for no confirmations (the paper then shows nothing of them)."""
    return confirmations.in_words(session) or {}


@register.filter
def of_hand(words, number) -> str:
    return words.get(number, "") if words else ""
