"""The outbox's status words for a page's scripts (scorebook/outbox.py)."""

from django import template

from scorebook.outbox import status_json

register = template.Library()


@register.simple_tag
def outbox_status() -> str:
    """The words as JSON, for the sender's script tag (data-status): escaped as an attribute."""
    return status_json()
