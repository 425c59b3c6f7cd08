"""The league pages: what a member sees, who may see it, and queries that do not grow with
history."""

import re

import pytest
from django.conf import settings
from django.urls import reverse

from scorebook.league import services
from scorebook.models import Player, Session

from .conftest import add_hand, add_session, grow


def url(name, club, **kwargs):
    return reverse(f"scorebook:league:{name}", kwargs={"club": club.slug, **kwargs})


@pytest.fixture
def viewer(members, client_as):
    return client_as(members["viewer"])


def test_standings_page_shows_the_table_sorted(club, history, viewer):
    services.rebuild_ratings(club)
    page = viewer.get(url("standings", club), {"family": "slovenian"}).content.decode()
    order = [page.index(f">{name}</a>") for name in ["Eva", "Cene", "Ana", "Dani", "Bor"]]
    assert order == sorted(order)
    assert "1518.21" in page and "−12.50" in page  # a page writes the real minus sign
    assert "Radelci" not in page  # none of these sessions kept radelci (rules {}: the seed)
    assert "scorebook/site.css" in page  # one stylesheet, the league's print rules in it
    by_name = viewer.get(
        url("standings", club), {"family": "slovenian", "sort": "name", "dir": "asc"}
    ).content.decode()
    order = [by_name.index(f">{name}</a>") for name in ["Ana", "Bor", "Cene", "Dani", "Eva"]]
    assert order == sorted(order)
    # A season of its own, and the Czech table.
    autumn = viewer.get(
        url("standings", club), {"family": "slovenian", "season": history["autumn"].pk}
    ).content.decode()
    assert ">Eva</a>" not in autumn
    czech = viewer.get(url("standings", club), {"family": "czech"}).content.decode()
    assert "1512.00" in czech and ">Eva</a>" not in czech
    assert "Radelci" not in czech  # a Slovenian thing


def test_standings_show_radelci_only_where_a_session_kept_them(club, history, players, viewer):
    """The radelci columns are the sessions' own: shown when a session of the family (in the
    season shown) kept radelci by its rules, as its variant says; never for a family that has
    none, in any language (issue 26: the Czech page said "Využité radelce")."""
    services.rebuild_ratings(club)

    def page(family, language="en", **params):
        viewer.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        return viewer.get(url("standings", club), {"family": family, **params})

    for language in ("en", "cs", "sl"):
        assert "radelc" not in page("slovenian", language).content.decode().lower()
        assert "radelc" not in page("czech", language).content.decode().lower()
    tarzs = add_session(
        club, "slovenian-4", history["winter"].starts_on, players[:4], season=history["winter"]
    )
    Session.objects.filter(pk=tarzs.pk).update(rules={"preset": "tarzs", "radelci": True})
    add_hand(tarzs, 1, {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0}, contract="klop")
    services.rebuild_ratings(club, full=True)
    shown = page("slovenian").content.decode()
    assert "Radelci used" in shown and "Radelci left" in shown
    assert "Radelci used" in page("slovenian", season=history["winter"].pk).content.decode()
    assert "Radelci" not in page("slovenian", season=history["autumn"].pk).content.decode()
    assert "Využité radelce" in page("slovenian", "cs").content.decode()
    assert "radelc" not in page("czech", "cs").content.decode().lower()


def test_standings_unknown_family_or_season_is_404(club, history, viewer):
    assert viewer.get(url("standings", club), {"family": "bridge"}).status_code == 404
    assert viewer.get(url("standings", club), {"season": "999999"}).status_code == 404


def test_ledger_page(club, history, viewer):
    services.rebuild_ratings(club)
    page = viewer.get(url("ledger", club)).content.decode()
    assert "1\xa0Nov\xa02026" in page and "Window" in page  # the one date format of English
    assert "Slovenian tarok, 4 players" in page
    assert "Bor pays Cene 160" in page and "Dani pays Ana 80" in page
    assert "8\xa0Dec\xa02026" not in page  # open sessions are not in the ledger yet


def test_player_page_has_two_charts_and_head_to_head(club, history, players, viewer):
    services.rebuild_ratings(club)
    page = viewer.get(url("player", club, player=players[0].pk)).content.decode()
    assert page.count("<svg viewBox") == 2
    assert "<polyline" in page
    assert not re.search(r"<script(?![^>]*\bsrc=)", page)  # no inline script, no chart library
    assert "chart" not in " ".join(re.findall(r"<script[^>]*>", page))
    assert "Head to head" in page and ">Bor</a>" in page
    assert "1502.95" in page  # Ana's Slovenian rating


def test_player_who_never_played(club, players, members, viewer):
    page = viewer.get(url("player", club, player=players[4].pk)).content.decode()
    assert "Eva has not played a hand yet." in page


@pytest.mark.parametrize("name", ["ledger", "standings", "player"])
def test_another_clubs_member_gets_404(
    name, club, other_club, history, players, members, client_as
):
    kwargs = {"player": players[0].pk} if name == "player" else {}
    response = client_as(members["outsider"]).get(url(name, club, **kwargs))
    assert response.status_code == 404


def test_another_clubs_player_in_my_club_url_is_404(club, other_club, members, client_as):
    stranger = Player.objects.create(club=other_club, name="Tomo")
    response = client_as(members["admin"]).get(url("player", club, player=stranger.pk))
    assert response.status_code == 404


# Queries of a page view: the session and user (2), the membership (1, with the club and its
# language), whether any ratings are stale (1), then the page's own (the standings of a family
# that can keep radelci ask which rules its sessions kept).
QUERIES = {"standings": 10, "ledger": 11, "player": 12}


@pytest.mark.parametrize("name", sorted(QUERIES))
@pytest.mark.parametrize("size", ["small", "bigger"])
def test_queries_do_not_grow_with_history(
    name, size, club, history, players, viewer, django_assert_num_queries
):
    if size == "bigger":
        grow(club, players, sessions=30, hands=12)
    services.rebuild_ratings(club)
    kwargs = {"player": players[0].pk} if name == "player" else {}
    params = {"family": "slovenian"} if name == "standings" else {}
    with django_assert_num_queries(QUERIES[name]):
        response = viewer.get(url(name, club, **kwargs), params)
    assert response.status_code == 200


def test_ledger_balance_runs_across_pages(club, players, viewer):
    """25 closed evenings; on evening k Ana's net is +k and Bor's −k. Her balance after
    evening k is 1 + 2 + … + k: 325 after the newest, 21 after the oldest on page 1 (evening
    6), 15 at the top of page 2 (evening 5)."""
    import datetime

    from .conftest import add_hand, add_session

    for k in range(1, 26):
        session = add_session(
            club,
            "slovenian-4",
            datetime.date(2026, 1, 1) + datetime.timedelta(days=k),
            players[:4],
            closing={
                "totals": {"Ana": k, "Bor": -k, "Cene": 0, "Dani": 0},
                "settlement": {"nets": {"Ana": k, "Bor": -k, "Cene": 0, "Dani": 0}},
            },
        )
        add_hand(session, 1, {"Ana": k, "Bor": -k, "Cene": 0, "Dani": 0}, declarer="Ana")
    services.rebuild_ratings(club)
    rows = services.ledger_rows(
        club, list(club.sessions.filter(is_closed=True).order_by("-date", "-id")[:20])
    )
    ana = [row["players"][0]["balance"] for row in rows]
    assert (ana[0], ana[-1], len(ana)) == (325, 21, 20)
    page2 = viewer.get(url("ledger", club), {"page": 2}).content.decode()
    assert "Page 2 of 2" in page2
    assert [m for m in re.findall(r'<td class="num[^"]*">(−?\d+)</td>\s*</tr>', page2)][:2] == [
        "15",  # Ana after evening 5
        "−15",  # Bor
    ]


def test_player_page_keeps_units_per_family(club, history, players, viewer):
    """Units of different games are never added together: a line per family, as the
    standings keep them (issue 16)."""
    services.rebuild_ratings(club)
    page = viewer.get(url("player", club, player=players[0].pk)).content.decode()
    # Ana: Slovenian +10 (1 Nov) and −10 (8 Dec); Czech −10 (8 Dec). Not "Units −10".
    units = re.findall(r"<dt>(Units[^<]*)</dt><dd[^>]*>([^<]*)</dd>", page)
    assert units == [("Units, Slovenian tarok", "0"), ("Units, Czech tarok", "−10")]
    # The running total is drawn per family too, each named by its game.
    running = (
        page.split('id="running"')[1].split("</figure>")[0] if 'id="running"' in page else page
    )
    assert "Slovenian tarok" in running and "Czech tarok" in running
