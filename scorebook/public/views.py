"""The club's public pages (issue 30): read-only, for anybody, the same for everybody.

Views stay thin: `public_view` finds the club (404 when it does not publish the page) and
makes the page cacheable; each view reads through the league's and the tournaments' own
services and names every player through one Naming (scorebook.public.naming). Templates get
names as text, never a player, an account or a session's notes.
"""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import Http404, HttpResponseRedirect
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scorebook.league import services as league
from scorebook.models import WITH_TABLE, Session
from scorebook.public import pages, series
from scorebook.public.access import LIVE_MAX_AGE, public_view, render_public
from scorebook.public.naming import Naming
from scorebook.public.sheet import public_sheet, totals_by_name
from scorebook.templatetags.amounts import amount
from scorebook.tournaments.models import Status

SESSIONS_PAGE = 20


@public_view("club", "sessions", "league", "tournaments", "series")
def club_root(request):
    """Without a language: the club's."""
    club = request.club
    code = club.language if club.language in dict(pages.LANGUAGES) else "en"
    return HttpResponseRedirect(pages.url("club", club, code))


@public_view("club", daily=True)
def club_page(request, lang):
    club = request.club
    upcoming = club.tournaments.filter(
        status__in=[Status.SCHEDULED, Status.RUNNING], starts_at__gte=_today_start()
    ).order_by("starts_at")[:20]
    context = pages.context(request, "club", description=club.description or club.name)
    context["upcoming"] = [
        {"name": t.name, "starts": t.starts_at, "url": pages.tournament_url(club, lang, t)}
        for t in upcoming
    ]
    context["series"] = series.series_pages(club, lang)
    return render_public("public/club.html", context)


def _today_start():
    return timezone.now() - timezone.timedelta(hours=12)


@public_view("club", "sessions", "league", "tournaments", "series")
def privacy(request, lang):
    return render_public(
        "public/privacy.html",
        pages.context(request, "privacy", title=_("Privacy notice")),
    )


@public_view("sessions")
def sessions(request, lang):
    club = request.club
    closed = club.sessions.filter(is_closed=True).order_by("-date", "-id")
    page = Paginator(closed.values_list("id", flat=True), SESSIONS_PAGE).get_page(
        request.GET.get("page")
    )
    ids = list(page.object_list)
    found = {
        s.pk: s
        for s in Session.objects.filter(pk__in=ids)
        .select_related(WITH_TABLE)
        .prefetch_related("seats__player")
    }
    naming = Naming(club)
    listed = []
    for pk in ids:
        session = pages.with_seat_names(found[pk])
        listed.append(
            {
                "session": session,
                "url": pages.url("session", club, lang, session=pk),
                "totals": totals_by_name(session, naming),
            }
        )
    context = pages.context(request, "sessions", title=_("Sessions"))
    context.update(page=page, sessions=listed)
    return render_public("public/sessions.html", context)


@public_view("sessions")
def session(request, lang, session):
    club = request.club
    found = (
        Session.objects.filter(club=club, is_closed=True, pk=pages.address_id(session))
        .select_related(WITH_TABLE)
        .first()
    )
    if found is None:
        raise Http404
    naming = Naming(club)
    sheet = public_sheet(found, naming)
    title = f"{found.date:%Y-%m-%d} · {found.variant_label}"
    description = " · ".join(
        f"{name} {amount(total)}" for name, total in zip(sheet.names, sheet.totals, strict=True)
    )
    context = pages.context(request, "session", title=title, description=description)
    context.update(session=found, sheet=sheet)
    return render_public("public/session.html", context)


@public_view("league")
def standings(request, lang):
    club = request.club
    return render_public("public/standings.html", _standings_context(request, club))


def _standings_context(request, club, embed: bool = False) -> dict:
    league.ensure_current(club)
    families = league.families_played(club)
    family = request.GET.get("family") or (families[0] if families else "")
    if families and family not in families:
        raise Http404
    seasons = list(club.seasons.all())
    season = _season(request.GET.get("season"), seasons)
    naming = Naming(club)
    rows = league.standings(club, family, season) if family else []
    lang = translation.get_language()
    shown = [
        {
            "name": naming.name(r.player_id),
            "url": pages.url("player", club, lang, player=r.player_id)
            if naming.is_shown(r.player_id)
            else "",
            "standing": r,
        }
        for r in rows
    ]
    title = _("Standings") + (f" · {league.family_label(family)}" if family else "")
    context = pages.context(request, "embed" if embed else "standings", title=title)
    context.update(
        families=[
            (f, league.family_label(f), pages.url("standings", club, lang) + f"?family={f}")
            for f in families
        ],
        family=family,
        seasons=[
            (s, pages.url("standings", club, lang) + f"?family={family}&season={s.pk}")
            for s in seasons
        ],
        season=season,
        rows=shown,
    )
    return context


def _season(pk: str | None, seasons):
    if not pk:
        return None
    found = next((s for s in seasons if str(s.pk) == pk), None)
    if found is None:
        raise Http404
    return found


@public_view("league")
def player(request, lang, player):
    club = request.club
    naming = Naming(club)
    if not naming.is_shown(pages.address_id(player)):
        raise Http404  # a hidden player has no page: none of his
    who = club.players.filter(pk=player).first()
    league.ensure_current(club)
    data = league.player_summary(club, who)
    name = naming.name(player)
    opponents = [{**row, "name": naming.name(row["player_id"])} for row in data["opponents"]]
    context = pages.context(request, "player", title=name, description=name)
    context.update(
        name=name,
        summary=data["summary"],
        ratings=data["ratings"],
        contracts=data["contracts"],
        opponents=opponents,
    )
    return render_public("public/player.html", context)


@public_view("tournaments", daily=True)
def tournaments(request, lang):
    club = request.club
    listed = club.tournaments.exclude(status=Status.CANCELLED).order_by("-starts_at")[:100]
    rows = [{"tournament": t, "url": pages.tournament_url(club, lang, t)} for t in listed]
    context = pages.context(request, "tournaments", title=_("Tournaments"))
    context.update(upcoming=[r for r in rows if r["tournament"].status in pages.UPCOMING])
    context.update(past=[r for r in rows if r["tournament"].status == Status.FINISHED])
    return render_public("public/tournaments.html", context)


@public_view("tournaments", daily=True)
def tournament(request, lang, tournament):
    found = pages.tournament_of(request.club, pages.address_id(tournament))
    context = pages.tournament_context(request, found)
    return render_public("public/tournament.html", context)


@public_view("tournaments", max_age=LIVE_MAX_AGE)
def live(request, lang, tournament):
    found = pages.tournament_of(request.club, pages.address_id(tournament))
    return render_public("public/live.html", pages.live_context(request, found, "live"))


@public_view("tournaments", max_age=LIVE_MAX_AGE)
def live_part(request, lang, tournament):
    """What the live page's poll swaps in: the draw and the standings."""
    found = pages.tournament_of(request.club, pages.address_id(tournament))
    return render_public("public/_live.html", pages.live_context(request, found, "live"))


@public_view("tournaments", max_age=LIVE_MAX_AGE)
def projector(request, lang, tournament):
    """The live page in large print, for a projector in the hall."""
    found = pages.tournament_of(request.club, pages.address_id(tournament))
    return render_public("public/projector.html", pages.live_context(request, found, "projector"))


@public_view("league", framed=True)
def embed(request, lang):
    """The standings for the club's own website: the one page that may be framed."""
    return render_public("public/embed.html", _standings_context(request, request.club, embed=True))
