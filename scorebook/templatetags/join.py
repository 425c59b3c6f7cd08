"""Join another phone (issue 15): the sheet's address as a QR code drawn by the server."""

import segno
from django import template
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

register = template.Library()


@register.simple_tag(takes_context=True)
def sheet_qr_code(context, session) -> str:
    """The QR code of the session's sheet at its absolute address (as this request reached
    the site), inline SVG. Scanning it opens the sheet after a login: it grants nothing."""
    path = reverse("scorebook:sheet", kwargs={"club": session.club.slug, "session": session.pk})
    url = context["request"].build_absolute_uri(path)
    # segno escapes the title; the rest of the markup is its own paths.
    return mark_safe(sheet_qr(url, _("QR code of this sheet's address")))


def sheet_qr(url: str, title: str) -> str:
    """A QR code of `url` as inline SVG markup (no style attribute: the CSP allows none),
    dark modules on a light square so that it scans in a dark theme too."""
    return segno.make_qr(url).svg_inline(scale=5, dark="#000", light="#fff", title=title)
