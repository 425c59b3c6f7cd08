"""The role matrix: every URL pattern of the site, for every kind of visitor.

The patterns are read from the URL resolver, so a new view without a row here fails
`test_every_url_pattern_has_a_row`.
"""

from __future__ import annotations

import datetime

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.conftest import (
    made_once,
    new_club,
    new_members,
    new_other_club,
    new_players,
    new_session,
)

VISITORS = ("admin", "scorekeeper", "viewer", "outsider", "anonymous")
LOGIN = "login"  # a redirect to the login page

# name -> (method, POST data, expected status for admin, scorekeeper, viewer, outsider, anonymous)
MATRIX: dict[str, tuple[str, dict, tuple]] = {
    "scorebook:my_clubs": ("GET", {}, (200, 200, 200, 200, LOGIN)),
    "scorebook:club_create": ("GET", {}, (200, 200, 200, 200, LOGIN)),
    "scorebook:club_home": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:roster": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:player_add": ("POST", {"name": "Zala"}, (302, 403, 403, 404, LOGIN)),
    "scorebook:player_edit": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:player_archive": ("POST", {"archived": "1"}, (302, 403, 403, 404, LOGIN)),
    "scorebook:player_delete": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:player_link": ("POST", {"user": ""}, (302, 403, 403, 404, LOGIN)),
    "scorebook:player_claim": ("POST", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:player_claim_decide": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:player_merge": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:members": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:member_add": (
        "POST",
        {"username": "newbie", "role": "viewer"},
        (302, 403, 403, 404, LOGIN),
    ),
    "scorebook:member_role": ("POST", {"role": "scorekeeper"}, (302, 403, 403, 404, LOGIN)),
    "scorebook:member_remove": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:member_invite": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    # Every member may leave; the last admin is told he cannot (a redirect with the message).
    "scorebook:club_leave": ("POST", {}, (302, 302, 302, 404, LOGIN)),
    "scorebook:club_settings": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    # Open to everyone: a link that is no open invitation shows its refusal.
    "scorebook:invitation_accept": ("GET", {}, (200, 200, 200, 200, 200)),
    "scorebook:seasons": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:season_add": (
        "POST",
        {"name": "Spring", "starts_on": "2026-03-01"},
        (302, 403, 403, 404, LOGIN),
    ),
    "scorebook:season_edit": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:house_rules": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    # Without ?variant= the admin goes back to the list, to choose the variant there.
    "scorebook:house_rules_add": ("GET", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:house_rules_edit": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:house_rules_delete": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:session_start": ("GET", {}, (200, 200, 403, 404, LOGIN)),
    "scorebook:session": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:session_close": ("POST", {}, (302, 302, 403, 404, LOGIN)),
    "scorebook:session_reopen": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:league:ledger": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:league:standings": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:league:player": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:sheet": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:hand_new": ("GET", {}, (200, 200, 403, 404, LOGIN)),
    "scorebook:hand_preview": ("POST", {}, (200, 200, 403, 404, LOGIN)),
    "scorebook:hand_edit": ("GET", {}, (200, 200, 403, 404, LOGIN)),
    "scorebook:hand_void": ("GET", {}, (200, 200, 403, 404, LOGIN)),
    # Confirmed hands (issue 27), in a session that asks for them (CONFIRMING). Nobody of the
    # matrix is seated there: the phone at the table (a scorekeeper's) takes Bor's word; a
    # viewer at no seat has no word to say, and his list says that nothing waits for him.
    "scorebook:hand_confirm": (
        "POST",
        {"version": "1", "answer": "correct", "player": "Bor"},
        (302, 302, 403, 404, LOGIN),
    ),
    "scorebook:session_confirmations": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    # Only a disputed hand is accepted as recorded: this one is not, and stays as it is.
    "scorebook:hand_resolve": ("POST", {"version": "1"}, (409, 403, 403, 404, LOGIN)),
    "scorebook:disputes": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    # Each person's own PIN, whatever his clubs.
    "scorebook:confirmation_pin": ("GET", {}, (200, 200, 200, 200, LOGIN)),
    "scorebook:session_export_json": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:session_export_csv": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:sheet_import": ("GET", {}, (200, 200, 403, 404, LOGIN)),
    "scorebook:session_history": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:session_settlement": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:sheet_print": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:tournaments:list": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:tournaments:create": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:detail": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:tournaments:edit": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:walk_in": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:walk_in_remove": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:register": ("POST", {}, (302, 302, 302, 404, LOGIN)),
    "scorebook:tournaments:cancel": ("POST", {}, (302, 302, 302, 404, LOGIN)),
    "scorebook:tournaments:confirm": ("POST", {}, (302, 302, 302, 404, LOGIN)),
    "scorebook:tournaments:start": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:draw": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:tournaments:standings": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:tournaments:ranking": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:tournaments:bracket": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:tournaments:director": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:table_end": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    # The tournament has not started: the admin is told so on the director's screen.
    "scorebook:tournaments:table_minutes": ("POST", {"minutes": "5"}, (302, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:table_reseat": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    # A scorer may end his timed table once its time is up (here told it is not in play).
    "scorebook:tournaments:round_over": ("POST", {}, (302, 302, 403, 404, LOGIN)),
    "scorebook:tournaments:presence": ("POST", {"present": "1"}, (302, 403, 403, 404, LOGIN)),
    # A knockout match to decide (RULES.md §8.2): the organiser keeps it.
    "scorebook:tournaments:match_decide": ("POST", {"answer": "keep"}, (302, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:withdraw": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:message": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:tournaments:message_dismiss": ("POST", {}, (302, 302, 302, 404, LOGIN)),
    # A page only for htmx: opened as a page, the tournament's (test_director.py reads the part).
    "scorebook:tournaments:where": ("GET", {}, (302, 302, 302, 404, LOGIN)),
    # Series (issue 29): members read them; the series' admins run them.
    "scorebook:series:list": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:series:create": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:ask": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:detail": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:series:edit": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:all_time": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:series:season_add": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:season": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:series:season_edit": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:entry_add": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:season_close": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    # An open season: its admin is sent back to it with a message.
    "scorebook:series:season_reopen": ("GET", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:series:season_csv": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:series:season_json": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:series:entry": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    # The club's own tournament is in already: its admin is told so.
    "scorebook:series:entry_accept": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:series:entry_remove": ("POST", {}, (302, 403, 403, 404, LOGIN)),
    "scorebook:series:players": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:player": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    # Nobody named: the form answers with its messages.
    "scorebook:series:match_add": ("POST", {}, (422, 403, 403, 404, LOGIN)),
    "scorebook:series:match_remove": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:series:ratings_import": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    # Django's account pages: open to everyone, except changing one's own password.
    "login": ("GET", {}, (200, 200, 200, 200, 200)),
    "logout": ("POST", {}, (302, 302, 302, 302, 302)),
    "password_change": ("GET", {}, (200, 200, 200, 200, LOGIN)),
    "password_change_done": ("GET", {}, (200, 200, 200, 200, LOGIN)),
    "password_reset": ("GET", {}, (200, 200, 200, 200, 200)),
    "password_reset_done": ("GET", {}, (200, 200, 200, 200, 200)),
    "password_reset_confirm": ("GET", {}, (200, 200, 200, 200, 200)),
    "password_reset_complete": ("GET", {}, (200, 200, 200, 200, 200)),
    # The installable app (issue 15): the same for everyone, logged in or not.
    "service_worker": ("GET", {}, (200, 200, 200, 200, 200)),
    "manifest": ("GET", {}, (200, 200, 200, 200, 200)),
    "offline": ("GET", {}, (200, 200, 200, 200, 200)),
    # Everyone chooses his language (the cookie; a member's profile too), then goes back.
    "set_language": ("POST", {"language": "de"}, (302, 302, 302, 302, 302)),
    # A member's public name (issue 30): his own choice, the admins' record of the roster's.
    "scorebook:public_members:my_name": ("GET", {}, (200, 200, 200, 404, LOGIN)),
    "scorebook:public_members:names": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    "scorebook:public_members:record": ("GET", {}, (200, 403, 403, 404, LOGIN)),
    # The public pages (issue 30): this club publishes nothing, so every one of them is 404 to
    # everybody, its members too (tests/public has the published cases); the sitemap lists
    # whatever is published, here nothing.
    "public:sitemap": ("GET", {}, (200, 200, 200, 200, 200)),
    **{
        f"public:{name}": ("GET", {}, (404, 404, 404, 404, 404))
        for name in (
            "club_root",
            "club",
            "privacy",
            "sessions",
            "session",
            "standings",
            "embed",
            "player",
            "tournaments",
            "tournament",
            "live",
            "live_part",
            "projector",
            "feed",
            "calendar",
            "series_list",
            "series",
            "series_season",
        )
    },  # fmt: skip
}


def url_names(patterns=None, namespace: str = "", params=frozenset()) -> dict[str, frozenset]:
    """Every named pattern with its namespace -> the names of its URL parameters.

    The admin site is tested apart.
    """
    names: dict[str, frozenset] = {}
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        own = params | set(pattern.pattern.converters)
        if isinstance(pattern, URLResolver):
            if pattern.namespace == "admin":
                continue
            inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
            names.update(url_names(pattern.url_patterns, inner, own))
        elif isinstance(pattern, URLPattern):
            assert pattern.name, f"URL pattern {pattern.pattern} has no name"
            names[f"{namespace}{pattern.name}"] = frozenset(own)
    return names


def test_every_url_pattern_has_a_row():
    names = url_names()
    missing = sorted(set(names) - set(MATRIX))
    assert not missing, f"add these views to the role matrix: {missing}"
    assert not sorted(set(MATRIX) - set(names)), "the matrix names views that do not exist"


def url_kwargs(name: str, club, session, players, members) -> dict:
    from scorebook.models import Membership

    values = {
        "club": lambda: club.slug,
        "player": lambda: players[-1].pk,  # Eva, who never sat at a table
        "membership": lambda: Membership.objects.get(user=members["viewer"]).pk,
        "session": lambda: session.pk,
        "tournament": lambda: _a_tournament(club).pk,
        "registration": lambda: _a_walk_in(club).pk,
        "table": lambda: _a_table(club, session).pk,
        "message": lambda: _a_tournament(club).messages.create(text="Break", sent_at=_now()).pk,
        "event": lambda: _a_decision(_a_tournament(club)).pk,
        "season": lambda: (
            club.seasons.get_or_create(
                name="Winter", defaults={"starts_on": datetime.date(2026, 1, 1)}
            )[0].pk
        ),
        "number": lambda: _a_hand(session, members).number,
        "house_rules_id": lambda: (
            club.house_rules.get_or_create(
                variant="slovenian-4", name="Thursday", defaults={"preset": "seed"}
            )[0].pk
        ),
        "uidb64": lambda: "MQ",
        "lang": lambda: "en",
        "token": lambda: "set-password",
        "series": lambda: _a_series(club, rated=name in RATED_ONLY).pk,
        "series_season": lambda: _a_series_season(club, rated=name in RATED_ONLY).pk,
        "entry": lambda: _an_entry(club).pk,
        "match": lambda: _a_match(club).pk,
    }
    return {param: values[param]() for param in url_names()[name]}


# The pages of a rated series only (the rest are the club's standing series').
RATED_ONLY = {
    "scorebook:series:ratings_import",
    "scorebook:series:season_close",
    "scorebook:series:season_reopen",
}


def _a_series(club, rated: bool = False):
    """The club's cup (or its TARZS rating)."""
    from scorebook.series.models import Series

    name = "TARZS rating" if rated else "Advent cup series"
    return Series.objects.get_or_create(club=club, name=name, defaults={"rated": rated})[0]


def _a_series_season(club, rated: bool = False):
    """A season of a year around today, so that the club's tournament three days ahead is in it."""
    from django.utils import timezone

    today = timezone.localdate()
    return _a_series(club, rated).seasons.get_or_create(
        name="This year",
        defaults={
            "starts_on": today - datetime.timedelta(days=30),
            "ends_on": today + datetime.timedelta(days=335),
        },
    )[0]


def _an_entry(club):
    """The club's tournament in its cup's season."""
    from scorebook.series.models import EntryState, SeriesTournament

    return SeriesTournament.objects.get_or_create(
        season=_a_series_season(club),
        tournament=_a_tournament(club),
        defaults={"rated": False, "state": EntryState.JOINED},
    )[0]


def _a_match(club):
    """Two roster players of the club the cup's admins say are one person."""
    from scorebook.models import Player
    from scorebook.series.models import PlayerMatch

    one, _ = Player.objects.get_or_create(club=club, name="Zala")
    other, _ = Player.objects.get_or_create(club=club, name="Zala Novak")
    low, high = sorted((one, other), key=lambda p: p.pk)
    return PlayerMatch.objects.get_or_create(series=_a_series(club), player=low, other=high)[0]


def _a_hand(session, members):
    from scorebook import hands

    data = {"contract": "three", "declarer": "Ana", "points": 40}
    client_id = "00000000-0000-4000-8000-000000000001"
    return hands.record_hand(session, data, client_id, members["scorekeeper"])


def _a_tournament(club):
    """A members-only tournament three days ahead: the outsider gets 404 on all its pages."""
    import datetime

    from django.utils import timezone

    from scorebook.tournaments.models import Tournament

    return Tournament.objects.get_or_create(
        club=club,
        name="Advent cup",
        defaults={
            "variant": "slovenian-4",
            "table_size": 4,
            "starts_at": timezone.now() + datetime.timedelta(days=3),
            "capacity": 8,
        },
    )[0]


def _now():
    from django.utils import timezone

    return timezone.now()


def _a_table(club, session):
    """Round 1, table 1 of the club's tournament: the club's session as its sheet."""
    from scorebook.tournaments.models import Table

    rnd = _a_tournament(club).round_set.create(number=1, drawn_at=_now())
    return Table.objects.create(round=rnd, number=1, session=session)


def _a_decision(tournament):
    """A knockout match for the organiser to decide (replay or keep), on his screen."""
    return tournament.events.create(
        kind="decide", at=_now(), round_number=2, table_number=1, seen=False
    )


def _a_walk_in(club):
    """Zala, added at the door of the club's tournament."""
    from scorebook.tournaments import services

    return services.add_walk_in(_a_tournament(club), name="Zala")


# The views of confirmed hands: the matrix's session asks for them there.
CONFIRMING = {"scorebook:hand_confirm", "scorebook:session_confirmations", "scorebook:hand_resolve"}


@pytest.fixture(scope="module")
def made(built_once) -> dict:
    """The club, its players, members and open session, made once for the module's tests (what
    one changes is undone before the next), in the order fixtures made them."""
    club, other_club = new_club(), new_other_club()
    players = new_players(club)
    members = new_members(club, other_club)
    session = new_session(club, players, members)
    return {
        "club": club,
        "other_club": other_club,
        "players": players,
        "members": members,
        "session": session,
    }


club, other_club, players, members, session = made_once(
    "club", "other_club", "players", "members", "session"
)


@pytest.mark.parametrize("visitor", VISITORS)
@pytest.mark.parametrize("name", sorted(MATRIX))
def test_role_matrix(name, visitor, club, session, players, members, client_as):
    method, data, expected_by_visitor = MATRIX[name]
    expected = expected_by_visitor[VISITORS.index(visitor)]
    if name in CONFIRMING:
        type(session).objects.filter(pk=session.pk).update(confirmation="asked")
        session.confirmation = "asked"
    url = reverse(name, kwargs=url_kwargs(name, club, session, players, members))
    client = client_as(members[visitor])
    response = client.post(url, data) if method == "POST" else client.get(url)
    if expected == LOGIN:
        assert response.status_code == 302, (name, visitor, response.status_code)
        assert response["Location"].startswith(reverse("login")), response["Location"]
    else:
        assert response.status_code == expected, (name, visitor, response.status_code)


@pytest.mark.parametrize(
    "name",
    [
        "scorebook:player_edit",
        "scorebook:player_archive",
        "scorebook:player_delete",
        "scorebook:member_role",
        "scorebook:member_remove",
        "scorebook:season_edit",
        "scorebook:session",
        "scorebook:session_close",
        "scorebook:session_reopen",
        "scorebook:session_export_json",
        "scorebook:session_export_csv",
    ],
)
def test_another_clubs_object_in_my_club_url_is_404(
    name, club, other_club, members, make_user, client_as
):
    """An admin of `club` who puts the id of another club's object in his club's URL gets 404."""
    import datetime

    from scorebook.models import Membership, Player, Role, Season, Session

    stranger = Player.objects.create(club=other_club, name="Tomo")
    their_season = Season.objects.create(
        club=other_club, name="Theirs", starts_on=datetime.date(2026, 1, 1)
    )
    their_session = Session.objects.create(
        club=other_club, variant="slovenian-4", rules={}, date=datetime.date(2026, 11, 1)
    )
    their_member = Membership.objects.create(
        user=make_user("ivo"), club=other_club, role=Role.VIEWER
    )
    kwargs = {"club": club.slug}
    if "player" in name:
        kwargs["player"] = stranger.pk
    elif "season" in name:
        kwargs["season"] = their_season.pk
    elif "member" in name:
        kwargs["membership"] = their_member.pk
    else:
        kwargs["session"] = their_session.pk
    client = client_as(members["admin"])
    url = reverse(name, kwargs=kwargs)
    response = (
        client.get(url)
        if name.startswith(
            ("scorebook:player_edit", "scorebook:season_edit", "scorebook:session_export")
        )
        or name == "scorebook:session"
        else client.post(url, {"role": "admin", "archived": "1"})
    )
    assert response.status_code == 404


def test_admin_site_is_for_superusers_only(members, make_user, client_as):
    superuser = make_user("root", is_staff=True, is_superuser=True)
    assert client_as(superuser).get(reverse("admin:index")).status_code == 200
    for visitor in VISITORS:
        response = client_as(members[visitor]).get(reverse("admin:index"))
        assert response.status_code == 302
        assert reverse("admin:login") in response["Location"]


def test_wrong_method_is_405(club, members, client_as):
    client = client_as(members["admin"])
    assert (
        client.get(reverse("scorebook:player_add", kwargs={"club": club.slug})).status_code == 405
    )


# --- Another club's objects, for every URL that names one ----------------------------------------

# The URL parameters that name an object of a club. A parameter of any other kind fails
# `test_every_url_pattern_has_a_cross_club_case` until it is sorted into one of these two sets.
CLUB_OBJECT_PARAMS = {
    "player",
    "membership",
    "season",
    "session",
    "number",
    "tournament",
    "house_rules_id",
    "registration",
    "table",
    "message",
    "event",
    "series",
    "series_season",
    "entry",
    "match",
}
OTHER_PARAMS = {"club", "uidb64", "token", "lang"}

# name -> the parameters of its URL that name a club's object; () for a URL that names none.
CROSS_CLUB: dict[str, tuple[str, ...]] = {
    "scorebook:my_clubs": (),
    "scorebook:club_create": (),
    "scorebook:club_home": (),
    "scorebook:roster": (),
    "scorebook:player_add": (),
    "scorebook:player_edit": ("player",),
    "scorebook:player_archive": ("player",),
    "scorebook:player_delete": ("player",),
    "scorebook:player_link": ("player",),
    "scorebook:player_claim": (),
    "scorebook:player_claim_decide": ("player",),
    "scorebook:player_merge": ("player",),
    "scorebook:members": (),
    "scorebook:member_add": (),
    "scorebook:member_role": ("membership",),
    "scorebook:member_remove": ("membership",),
    "scorebook:member_invite": ("membership",),
    "scorebook:club_leave": (),
    "scorebook:club_settings": (),
    "scorebook:invitation_accept": (),
    "scorebook:seasons": (),
    "scorebook:season_add": (),
    "scorebook:season_edit": ("season",),
    "scorebook:house_rules": (),
    "scorebook:house_rules_add": (),
    "scorebook:house_rules_edit": ("house_rules_id",),
    "scorebook:house_rules_delete": ("house_rules_id",),
    "scorebook:session_start": (),
    "scorebook:session": ("session",),
    "scorebook:session_close": ("session",),
    "scorebook:session_reopen": ("session",),
    "scorebook:league:ledger": (),
    "scorebook:league:standings": (),
    "scorebook:league:player": ("player",),
    "scorebook:sheet": ("session",),
    "scorebook:hand_new": ("session",),
    "scorebook:hand_preview": ("session",),
    "scorebook:hand_edit": ("number", "session"),
    "scorebook:hand_void": ("number", "session"),
    "scorebook:hand_confirm": ("number", "session"),
    "scorebook:hand_resolve": ("number", "session"),
    "scorebook:session_confirmations": ("session",),
    "scorebook:disputes": (),
    "scorebook:confirmation_pin": (),
    "scorebook:session_export_json": ("session",),
    "scorebook:session_export_csv": ("session",),
    "scorebook:sheet_import": (),
    "scorebook:session_history": ("session",),
    "scorebook:session_settlement": ("session",),
    "scorebook:sheet_print": ("session",),
    "scorebook:tournaments:list": (),
    "scorebook:tournaments:create": (),
    "scorebook:tournaments:detail": ("tournament",),
    "scorebook:tournaments:edit": ("tournament",),
    "scorebook:tournaments:walk_in": ("tournament",),
    "scorebook:tournaments:walk_in_remove": ("registration", "tournament"),
    "scorebook:tournaments:register": ("tournament",),
    "scorebook:tournaments:cancel": ("tournament",),
    "scorebook:tournaments:confirm": ("tournament",),
    "scorebook:tournaments:start": ("tournament",),
    "scorebook:tournaments:draw": ("tournament",),
    "scorebook:tournaments:standings": ("tournament",),
    "scorebook:tournaments:ranking": ("tournament",),
    "scorebook:tournaments:bracket": ("tournament",),
    "scorebook:tournaments:director": ("tournament",),
    "scorebook:tournaments:table_end": ("table", "tournament"),
    "scorebook:tournaments:table_minutes": ("table", "tournament"),
    "scorebook:tournaments:table_reseat": ("table", "tournament"),
    "scorebook:tournaments:round_over": ("table", "tournament"),
    "scorebook:tournaments:presence": ("registration", "tournament"),
    "scorebook:tournaments:match_decide": ("event", "tournament"),
    "scorebook:tournaments:withdraw": ("registration", "tournament"),
    "scorebook:tournaments:message": ("tournament",),
    "scorebook:tournaments:message_dismiss": ("message", "tournament"),
    "scorebook:tournaments:where": ("tournament",),
    "scorebook:series:list": (),
    "scorebook:series:create": (),
    "scorebook:series:ask": (),
    "scorebook:series:detail": ("series",),
    "scorebook:series:edit": ("series",),
    "scorebook:series:all_time": ("series",),
    "scorebook:series:season_add": ("series",),
    "scorebook:series:season": ("series", "series_season"),
    "scorebook:series:season_edit": ("series", "series_season"),
    "scorebook:series:entry_add": ("series", "series_season"),
    "scorebook:series:season_close": ("series", "series_season"),
    "scorebook:series:season_reopen": ("series", "series_season"),
    "scorebook:series:season_csv": ("series", "series_season"),
    "scorebook:series:season_json": ("series", "series_season"),
    "scorebook:series:entry": ("entry", "series"),
    "scorebook:series:entry_accept": ("entry", "series"),
    "scorebook:series:entry_remove": ("entry", "series"),
    "scorebook:series:players": ("series",),
    "scorebook:series:player": ("player", "series"),
    "scorebook:series:match_add": ("series",),
    "scorebook:series:match_remove": ("match", "series"),
    "scorebook:series:ratings_import": ("series",),
    "login": (),
    "logout": (),
    "password_change": (),
    "password_change_done": (),
    "password_reset": (),
    "password_reset_done": (),
    "password_reset_confirm": (),
    "password_reset_complete": (),
    "set_language": (),
    "service_worker": (),
    "manifest": (),
    "offline": (),
    "scorebook:public_members:my_name": (),
    "scorebook:public_members:names": (),
    "scorebook:public_members:record": ("player",),
    "public:sitemap": (),
    "public:club_root": (),
    "public:club": (),
    "public:privacy": (),
    "public:sessions": (),
    "public:session": ("session",),
    "public:standings": (),
    "public:embed": (),
    "public:player": ("player",),
    "public:tournaments": (),
    "public:tournament": ("tournament",),
    "public:live": ("tournament",),
    "public:live_part": ("tournament",),
    "public:projector": ("tournament",),
    "public:feed": (),
    "public:calendar": (),
    "public:series_list": (),
    "public:series": ("series",),
    "public:series_season": ("series", "series_season"),
}

# Everything a view could change if it took another club's id, filled in for every form.
TAMPERING = {
    "name": "Taken over",
    "role": "admin",
    "archived": "1",
    "starts_on": "2026-03-01",
    "reason": "taken over",
    "contract": "three",
    "declarer": "Tomo",
    "points": "40",
    "version": "1",
    "answer": "correct",
    "player": "Tomo",
    "hand": "1:1",
}


def test_every_url_pattern_has_a_cross_club_case():
    names = url_names()
    assert sorted(set(names) ^ set(CROSS_CLUB)) == [], "add (or remove) these in CROSS_CLUB"
    for name, params in names.items():
        assert params <= CLUB_OBJECT_PARAMS | OTHER_PARAMS, (name, params)
        assert sorted(CROSS_CLUB[name]) == sorted(params & CLUB_OBJECT_PARAMS), name


@pytest.fixture
def theirs(other_club, make_user):
    """One object of every kind a URL can name, all of `other_club`."""
    from django.utils import timezone

    from scorebook.models import Hand, Membership, Player, Role, Season, Session, SessionSeat
    from scorebook.series.models import EntryState, PlayerMatch, SeriesTournament
    from scorebook.tournaments.models import Registration, Table, Tournament

    session = Session.objects.create(
        club=other_club,
        variant="slovenian-4",
        rules={},
        date=datetime.date(2026, 11, 1),
        confirmation="asked",  # its hands wait for a word: none of ours is taken
    )
    for position, name in enumerate(["Tomo", "Uroš", "Vesna", "Žan"], start=1):
        player = Player.objects.create(club=other_club, name=name)
        SessionSeat.objects.create(session=session, player=player, position=position)
    hand = Hand.objects.create(session=session, number=1, data={}, rules_version="test")
    tournament = Tournament.objects.create(
        club=other_club,
        name="Their cup",
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() + datetime.timedelta(minutes=10),
        capacity=8,
    )
    rnd = tournament.round_set.create(number=1, drawn_at=timezone.now())
    series = _a_series(other_club, rated=True)
    series_season = _a_series_season(other_club, rated=True)
    entry = SeriesTournament.objects.create(
        season=series_season, tournament=tournament, rated=True, state=EntryState.JOINED
    )
    stranger = Player.objects.create(club=other_club, name="Tomo Novak")
    low, high = sorted([player, stranger], key=lambda p: p.pk)
    match = PlayerMatch.objects.create(series=series, player=low, other=high)
    return {
        "table": Table.objects.create(round=rnd, number=1, session=session),
        "message": tournament.messages.create(text="Theirs", sent_at=timezone.now()),
        "event": _a_decision(tournament),
        "player": player,
        "membership": Membership.objects.create(
            user=make_user("ivo"), club=other_club, role=Role.VIEWER
        ),
        "season": Season.objects.create(
            club=other_club, name="Theirs", starts_on=datetime.date(2026, 1, 1)
        ),
        "session": session,
        "number": hand.number,
        "house_rules_id": other_club.house_rules.create(
            variant="slovenian-4", name="Theirs", preset="seed"
        ),
        "tournament": tournament,
        "registration": Registration.objects.create(
            tournament=tournament, player=player, registered_at=timezone.now()
        ),
        "series": series,
        "series_season": series_season,
        "entry": entry,
        "match": match,
    }


def everything() -> dict[str, list]:
    """Every row of the app's tables (their history included), to see that nothing changed."""
    from django.apps import apps

    rows = {}
    for label in ("scorebook", "tournaments", "league", "series"):
        for model in apps.get_app_config(label).get_models():
            rows[model._meta.label] = list(model.objects.order_by("pk").values())
    return rows


def _object_id(value):
    return value if isinstance(value, int) else value.pk


@pytest.mark.parametrize("name", sorted(n for n, params in CROSS_CLUB.items() if params))
def test_another_clubs_ids_read_and_change_nothing(
    name, club, other_club, members, theirs, client_as
):
    """Their ids in my club's URL, or in theirs: for every visitor, GET and POST are refused
    (404 as if nothing were there, 403 for a role that may not act at all, 405 for the wrong
    method, the login page for the anonymous) and nothing of anybody's changes."""
    ids = {param: _object_id(theirs[param]) for param in CROSS_CLUB[name]}
    if "lang" in url_names()[name]:  # a public page's address says its language
        ids["lang"] = "en"
    before = everything()
    for slug, visitors in ((club.slug, VISITORS), (other_club.slug, VISITORS[:3])):
        url = reverse(name, kwargs={"club": slug, **ids})
        for visitor in visitors:
            client = client_as(members[visitor])
            for response in (client.get(url), client.post(url, TAMPERING)):
                case = (url, visitor, response.request["REQUEST_METHOD"], response.status_code)
                if visitor == "anonymous" and response.status_code == 302:
                    assert response["Location"].startswith(reverse("login")), case
                else:
                    assert response.status_code in (403, 404, 405), case
                if response.status_code == 403:
                    assert visitor in ("scorekeeper", "viewer") and slug == club.slug, case
    assert everything() == before
