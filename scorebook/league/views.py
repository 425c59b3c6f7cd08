"""League pages: ledger, standings, player. Read-only and open to every member of the club."""

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook.access import club_view, get_for_club
from scorebook.league import charts, services
from scorebook.models import WITH_TABLE, Player, Role, Season, Session

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
    sessions = (
        Session.objects.filter(pk__in=ids)
        .select_related(WITH_TABLE)
        .prefetch_related("seats__player")
    )
    rows = services.ledger_rows(club, sorted(sessions, key=lambda s: ids.index(s.pk)))
    return render(request, "league/ledger.html", {"page": page, "rows": rows})


# The standings' columns, in order; the radelci columns go before the rating where the
# sessions shown kept radelci.
COLUMNS = [
    ("name", gettext_lazy("Player")),
    ("sessions", gettext_lazy("Sessions")),
    ("hands", gettext_lazy("Hands")),
    ("total", gettext_lazy("Units")),
    ("per_hand", gettext_lazy("Per hand")),
    ("declared", gettext_lazy("Declared")),
    ("won", gettext_lazy("Won")),
    ("rating", gettext_lazy("Rating")),
]
RADELCI_COLUMNS = [
    ("radelci_used", gettext_lazy("Radelci used")),
    ("radelci_left", gettext_lazy("Radelci left")),
]


@club_view(role=Role.VIEWER)
def standings(request):
    club = request.club
    services.ensure_current(club)
    families = services.families_played(club)
    family = request.GET.get("family") or (families[0] if families else "")
    if families and family not in families:
        raise Http404
    seasons = list(club.seasons.all())
    season = _season(request.GET.get("season"), seasons)
    sort, descending = _sort_order(request.GET)
    radelci = bool(family) and services.keeps_radelci(club, family, season)
    return render(
        request,
        "league/standings.html",
        {
            "families": [(f, services.family_label(f)) for f in families],
            "family": family,
            "family_label": services.family_label(family),
            "radelci": radelci,
            "seasons": seasons,
            "season": season,
            "rows": services.standings(club, family, season, sort, descending) if family else [],
            "contracts": services.contract_stats(club, family, season) if family else [],
            "columns": _columns(sort, descending, radelci),
            "sort": sort,
        },
    )


def _season(pk: str | None, seasons: list[Season]) -> Season | None:
    """The season the query names (None: all time); 404 for one the club does not have."""
    if not pk:
        return None
    try:
        return next(s for s in seasons if str(s.pk) == pk)
    except StopIteration:
        raise Http404 from None


def _sort_order(query) -> tuple[str, bool]:
    """The standings' sort column and direction: by total, highest first, unless asked."""
    sort = query.get("sort", "total")
    if sort not in services.SORT_KEYS:
        sort = "total"
    return sort, query.get("dir", _natural_dir(sort)) != "asc"


def _natural_dir(key: str) -> str:
    """Names A–Z, numbers highest first."""
    return "asc" if key == "name" else "desc"


def _columns(sort: str, descending: bool, radelci: bool) -> list[dict]:
    """The column heads, each with the direction a click on it sorts: the sorted column
    turns round, any other sorts its natural way."""
    columns = COLUMNS[:-1] + (RADELCI_COLUMNS if radelci else []) + COLUMNS[-1:]
    return [
        {
            "key": key,
            "label": label,
            "active": key == sort,
            "descending": descending,
            "dir": ("asc" if descending else "desc") if key == sort else _natural_dir(key),
        }
        for key, label in columns
    ]


@club_view(role=Role.VIEWER)
def player(request, player: int):
    club = request.club
    who = get_for_club(Player, club, pk=player)
    services.ensure_current(club)
    data = services.player_summary(club, who)
    history = data["history"]
    # A running total per family (the database sums each apart), as the standings keep them.
    units: dict[str, list] = {}
    for date, family, running, _r in history:
        units.setdefault(family, []).append((date, running))
    running = charts.line_chart(
        _("Running total of %(name)s") % {"name": who.name},
        [(services.family_label(f), points) for f, points in units.items()],
    )
    data["units"] = [(services.family_label(f), points[-1][1]) for f, points in units.items()]
    by_family: dict[str, list] = {}
    for date, family, _running, rating in history:
        by_family.setdefault(family, []).append((date, rating))
    rating = charts.line_chart(
        _("Rating of %(name)s") % {"name": who.name},
        [(services.family_label(f), points) for f, points in by_family.items()],
    )
    return render(
        request,
        "league/player.html",
        {"player": who, "running_chart": running, "rating_chart": rating, **data},
    )
