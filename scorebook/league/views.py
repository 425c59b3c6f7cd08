"""League pages: ledger, standings, player. Read-only and open to every member of the club."""

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from scorebook.access import club_view, get_for_club
from scorebook.league import charts, services
from scorebook.models import Player, Role, Session

LEDGER_PAGE = 20


@club_view(role=Role.VIEWER)
def ledger(request):
    club = request.club
    services.ensure_current(club)
    # Page over ids alone: sorting a thousand sessions is cheaper without their JSON.
    closed = club.sessions.filter(is_closed=True).order_by("-date", "-id")
    page = Paginator(closed.values_list("id", flat=True), LEDGER_PAGE).get_page(
        request.GET.get("page")
    )
    ids = list(page.object_list)
    sessions = Session.objects.filter(pk__in=ids).prefetch_related("seats__player")
    rows = services.ledger_rows(club, sorted(sessions, key=lambda s: ids.index(s.pk)))
    return render(request, "league/ledger.html", {"page": page, "rows": rows})


@club_view(role=Role.VIEWER)
def standings(request):
    club = request.club
    services.ensure_current(club)
    families = services.families_played(club)
    family = request.GET.get("family") or (families[0] if families else "")
    if families and family not in families:
        raise Http404
    seasons = list(club.seasons.all())
    season = None
    if request.GET.get("season"):
        try:
            season = next(s for s in seasons if str(s.pk) == request.GET["season"])
        except StopIteration:
            raise Http404 from None
    sort = request.GET.get("sort", "total")
    if sort not in services.SORT_KEYS:
        sort = "total"
    descending = request.GET.get("dir", "asc" if sort == "name" else "desc") != "asc"
    rows = services.standings(club, family, season, sort, descending) if family else []
    columns = [
        ("name", _("Player")),
        ("sessions", _("Sessions")),
        ("hands", _("Hands")),
        ("total", _("Units")),
        ("per_hand", _("Per hand")),
        ("declared", _("Declared")),
        ("won", _("Won")),
        ("rating", _("Rating")),
    ]
    if family == "slovenian":
        columns[-1:-1] = [("radelci_used", _("Radelci used")), ("radelci_left", _("Radelci left"))]
    return render(
        request,
        "league/standings.html",
        {
            "families": [(f, services.FAMILY_LABELS.get(f, f)) for f in families],
            "family": family,
            "family_label": services.FAMILY_LABELS.get(family, family),
            "seasons": seasons,
            "season": season,
            "rows": rows,
            "contracts": services.contract_stats(club, family, season) if family else [],
            "columns": [
                {
                    "key": key,
                    "label": label,
                    "active": key == sort,
                    "descending": descending,
                    # A click on the sorted column turns it round; any other sorts it the
                    # natural way (names A–Z, numbers highest first).
                    "dir": ("asc" if descending else "desc")
                    if key == sort
                    else ("asc" if key == "name" else "desc"),
                }
                for key, label in columns
            ],
            "sort": sort,
        },
    )


@club_view(role=Role.VIEWER)
def player(request, player: int):
    club = request.club
    who = get_for_club(Player, club, pk=player)
    services.ensure_current(club)
    data = services.player_summary(club, who)
    history = data["history"]
    running = charts.line_chart(
        _("Running total of %(name)s") % {"name": who.name},
        [(_("Units"), [(date, running) for date, _f, running, _r in history])],
    )
    by_family: dict[str, list] = {}
    for date, family, _running, rating in history:
        by_family.setdefault(family, []).append((date, rating))
    rating = charts.line_chart(
        _("Rating of %(name)s") % {"name": who.name},
        [(services.FAMILY_LABELS.get(f, f), points) for f, points in by_family.items()],
    )
    return render(
        request,
        "league/player.html",
        {"player": who, "running_chart": running, "rating_chart": rating, **data},
    )
