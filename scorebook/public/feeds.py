"""The club's results as an Atom feed (Django's feedgenerator), its upcoming tournaments as an
iCalendar feed, and the sitemap of everything published (django.contrib.sitemaps).

The calendar is RFC 5545 written here rather than with the `icalendar` library: a feed of
events with a start, a title and an address is some twenty lines of text (escaping and
folding included), where the library would be one more dependency to keep for it.
"""

from __future__ import annotations

import datetime

from django.contrib.sitemaps import Sitemap
from django.contrib.sites.requests import RequestSite
from django.contrib.syndication.views import Feed
from django.http import HttpResponse
from django.template import loader
from django.utils import timezone, translation
from django.utils.cache import patch_cache_control
from django.utils.feedgenerator import Atom1Feed
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from scorebook.models import WITH_TABLE, Club
from scorebook.public import pages, series
from scorebook.public.access import PAGE_MAX_AGE, public_view
from scorebook.public.naming import Naming
from scorebook.public.sheet import totals_by_name
from scorebook.templatetags.amounts import amount
from scorebook.tournaments.models import Status

FEED_ITEMS = 30


class ResultsFeed(Feed):
    feed_type = Atom1Feed

    def get_object(self, request, lang):
        return request.club

    def title(self, club: Club) -> str:
        return _("Results of %(club)s") % {"club": club.name}

    def link(self, club: Club) -> str:
        return pages.url(
            "club" if club.publish_club else "privacy", club, translation.get_language()
        )

    def subtitle(self, club: Club) -> str:
        return club.description

    def items(self, club: Club) -> list[dict]:
        lang = translation.get_language()
        naming = Naming(club)
        found = []
        if club.publish_sessions:
            closed = club.sessions.filter(is_closed=True).exclude(closed_at=None)
            for session in (
                closed.select_related(WITH_TABLE)
                .prefetch_related("seats__player")
                .order_by("-closed_at")[:FEED_ITEMS]
            ):
                found.append(_session_item(club, lang, naming, pages.with_seat_names(session)))
        if club.publish_tournaments:
            for tournament in club.tournaments.filter(status=Status.FINISHED).exclude(
                finished_at=None
            )[:FEED_ITEMS]:
                found.append(
                    {
                        "title": tournament.name,
                        "description": _("The final ranking of %(name)s.")
                        % {"name": tournament.name},
                        "link": pages.url("tournament", club, lang, tournament=tournament.pk),
                        "when": tournament.finished_at,
                    }
                )
        found.sort(key=lambda item: item["when"], reverse=True)
        return found[:FEED_ITEMS]

    def item_title(self, item: dict) -> str:
        return item["title"]

    def item_description(self, item: dict) -> str:
        return item["description"]

    def item_link(self, item: dict) -> str:
        return item["link"]

    def item_pubdate(self, item: dict):
        return item["when"]


def _session_item(club, lang, naming, session) -> dict:
    totals = " · ".join(
        f"{name} {amount(total)}" for name, total in totals_by_name(session, naming)
    )
    return {
        "title": f"{session.date:%Y-%m-%d} · {session.variant_label}",
        "description": totals,
        "link": pages.url("session", club, lang, session=session.pk),
        "when": session.closed_at,
    }


@public_view("sessions", "tournaments")
def feed(request, lang):
    return ResultsFeed()(request, lang)


# --- iCalendar (RFC 5545) ------------------------------------------------------------------


def _ical_text(value: str) -> str:
    for plain, escaped in (("\\", "\\\\"), (";", "\\;"), (",", "\\,"), ("\n", "\\n")):
        value = value.replace(plain, escaped)
    return value.replace("\r", "")


def _fold(line: str) -> str:
    """Lines of at most 75 octets, each continuation starting with a space (§3.1)."""
    out, current = [], b""
    for char in line:
        encoded = char.encode()
        if len(current) + len(encoded) > (75 if not out else 74):
            out.append(current.decode())
            current = b""
        current += encoded
    out.append(current.decode())
    return "\r\n ".join(out)


def _utc(moment: datetime.datetime) -> str:
    return moment.astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")


def calendar_text(club: Club, events: list[tuple[int, str, datetime.datetime, str]], host: str):
    """One VEVENT per (id, title, start, address); each lasts until the club says otherwise,
    so no end is claimed (§3.6.1: a DTSTART alone is allowed)."""
    stamp = _utc(timezone.now())
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Scorebook//public pages//EN"]
    lines.append(f"X-WR-CALNAME:{_ical_text(club.name)}")
    for pk, title, start, address in events:
        lines += [
            "BEGIN:VEVENT",
            f"UID:tournament-{pk}@{host}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{_utc(start)}",
            f"SUMMARY:{_ical_text(title)}",
            f"URL:{address}",
        ]
        if club.plays_where:
            lines.append(f"LOCATION:{_ical_text(club.plays_where)}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)


@public_view("club", "tournaments", daily=True)
def calendar(request, lang):
    club = request.club
    upcoming = club.tournaments.filter(
        status__in=pages.UPCOMING, starts_at__gte=timezone.now() - datetime.timedelta(hours=12)
    ).order_by("starts_at")[:100]
    events = [
        (
            t.pk,
            t.name,
            t.starts_at,
            request.build_absolute_uri(pages.tournament_url(club, lang, t))
            if club.publish_tournaments
            else request.build_absolute_uri(pages.url("club", club, lang)),
        )
        for t in upcoming
    ]
    text = calendar_text(club, events, request.get_host().split(":")[0])
    return HttpResponse(text, content_type="text/calendar; charset=utf-8")


# --- Sitemap -------------------------------------------------------------------------------


class PublishedPages(Sitemap):
    """Every published page of every club that publishes, in each language: the club's page,
    its sessions, standings and tournaments. A player's page is left out: finding people is
    not what a sitemap is for, and one hidden since would linger in a search engine."""

    limit = 5000

    def items(self) -> list[str]:
        clubs = (
            Club.objects.filter(publish_club=True)
            | Club.objects.filter(publish_sessions=True)
            | Club.objects.filter(publish_league=True)
            | Club.objects.filter(publish_tournaments=True)
            | Club.objects.filter(publish_series=True)
        )
        found = []
        for club in clubs.distinct().order_by("pk"):
            for code, _name in pages.LANGUAGES:
                found += _club_addresses(club, code)
        return found

    def location(self, item: str) -> str:
        return item


def _club_addresses(club: Club, lang: str) -> list[str]:
    found = [pages.url("privacy", club, lang)]
    if club.publish_club:
        found.append(pages.url("club", club, lang))
    if club.publish_sessions:
        found.append(pages.url("sessions", club, lang))
        found += [
            pages.url("session", club, lang, session=pk)
            for pk in club.sessions.filter(is_closed=True).values_list("pk", flat=True)[:1000]
        ]
    if club.publish_league:
        found.append(pages.url("standings", club, lang))
    if club.publish_tournaments:
        found.append(pages.url("tournaments", club, lang))
        found += [
            pages.url("tournament", club, lang, tournament=pk)
            for pk in club.tournaments.exclude(status=Status.CANCELLED).values_list(
                "pk", flat=True
            )[:200]
        ]
    if club.publish_series:
        found.append(pages.url("series_list", club, lang))
        found += [address for _title, address in series.series_pages(club, lang)]
        found += series.season_pages(club, lang)
    return found


@require_safe
def sitemap(request):
    """django.contrib.sitemaps' list, rendered without the request's context processors (its
    own view would read the login session, and vary on the cookie)."""
    urls = PublishedPages().get_urls(site=RequestSite(request), protocol=request.scheme)
    response = HttpResponse(
        loader.render_to_string("sitemap.xml", {"urlset": urls}), content_type="application/xml"
    )
    patch_cache_control(response, public=True, max_age=PAGE_MAX_AGE)
    return response


sitemap.public_page = True  # nothing of the visitor is read (scorebook.language)
