"""Series fixtures: two clubs' tournaments of three-player tables, played through the service
layer (no browser), with the clock of tests/tournaments/helpers."""

from __future__ import annotations

import datetime
import uuid

import pytest

from tests.tournaments.helpers import LJ

SEASON_START = datetime.date(2026, 12, 1)
SEASON_END = datetime.date(2027, 6, 30)


@pytest.fixture
def tournament_day(monkeypatch):
    """Issue 28 gives a tournament its own preset and a draw that gives byes rather than a
    table of two (RULES.md §8.3); until it lands, today's tournaments have neither, and every
    rated series would refuse them. This stands in for both, at the series' one adapter."""
    from scorebook.series import adapter

    monkeypatch.setattr(adapter, "tournament_preset", lambda tournament: "tarzs")
    monkeypatch.setattr(adapter, "draws_two_player_tables", lambda tournament: False)


@pytest.fixture
def admins(club, other_club, make_user):
    """An admin of each club: Lea of Ljubljana (the series'), Zdravko of Zagreb."""
    from scorebook.models import Membership, Role

    lea, zdravko = make_user("lea"), make_user("zdravko")
    Membership.objects.create(user=lea, club=club, role=Role.ADMIN)
    Membership.objects.create(user=zdravko, club=other_club, role=Role.ADMIN)
    return {"club": lea, "other_club": zdravko}


def at(day: int, hour: int = 19) -> datetime.datetime:
    return datetime.datetime(2026, 12, day, hour, 0, tzinfo=LJ)


def three_player_cup(club, user, name: str, day: int, names, rounds: int = 2):
    """A three-player tournament of `club` on 2026-12-`day` with `names` at the door."""
    from scorebook.tournaments import services

    tournament = services.create_tournament(
        club=club,
        user=user,
        name=name,
        variant="slovenian-3",
        starts_at=at(day),
        hands_per_table=1,
        rounds=rounds,
        capacity=len(names),
        placement_points=[2, 1, 0.5],
        seed=7,
        now=at(1, 12),
        confirmation="off",  # the tables finish on their last hand (confirmed hands: issue 27)
    )
    for player_name in names:
        player = club.players.filter(name=player_name).first()
        services.add_walk_in(tournament, player=player, name=player_name, now=at(day, 12))
    return tournament


def start(tournament, day: int):
    from scorebook.tournaments import services

    return services.start_tournament(tournament, now=at(day))


def play_round(tournament, number: int, order: list[str]):
    """Round `number`'s one table finishes in `order`: a klop where the first takes 10 card
    points, the second 20, the third 40 (each scores minus his own)."""
    from scorebook import hands
    from scorebook.tournaments.models import Table

    table = Table.objects.get(round__tournament=tournament, round__number=number)
    points = dict(zip(order, (10, 20, 40), strict=True))
    return hands.record_hand(
        table.session, {"contract": "klop", "points_by_player": points}, uuid.uuid4(), None
    )


@pytest.fixture
def rated(club, other_club, admins, make_user, tournament_day, django_capture_on_commit_callbacks):
    """A rated series of Ljubljana, its season and its three tournaments (Ljubljana's, then
    Zagreb's, then Ljubljana's), the first two played; ratings imported before."""
    from scorebook.series import ratings as series_ratings
    from scorebook.series import services as series_services

    lea, zdravko = admins["club"], admins["other_club"]
    series = series_services.create_series(
        club=club,
        user=lea,
        rated=True,
        plan=series_services.SeriesPlan("TARZS rating", open_to_other_clubs=True),
    )
    season = series_services.add_season(
        series, series_services.SeasonPlan("2026/27", SEASON_START, SEASON_END)
    )
    t1 = three_player_cup(club, lea, "Ljubljana open", 5, ["Ana", "Bor", "Cene"])
    t2 = three_player_cup(other_club, zdravko, "Zagreb open", 12, ["Ana", "Dani", "Eva"])
    t3 = three_player_cup(club, lea, "Ljubljana winter", 19, ["Ana", "Bor", "Cene"])
    series_services.add_tournament(season, t1, lea)  # the series' own club: in at once
    asked = series_services.ask_to_join(
        season, t2, zdravko
    )  # another club asks, the series accepts
    series_services.accept(asked, club)
    series_services.add_tournament(season, t3, lea)
    series_ratings.import_ratings(series, "player,rating,club\nAna,30\nBor,20\nDani,40,zagreb\n")
    ana, their_ana = club.players.get(name="Ana"), other_club.players.get(name="Ana")
    ana.user = make_user("ana")
    ana.save()
    start(t1, 5)
    # Each hand committed on its own: the table finishes, the next round is drawn, the series
    # follows (what happens after each save's commit).
    for number, order in ((1, ["Ana", "Bor", "Cene"]), (2, ["Bor", "Ana", "Cene"])):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(t1, number, order)
    start(t2, 12)
    for number, order in ((1, ["Dani", "Ana", "Eva"]), (2, ["Ana", "Eva", "Dani"])):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(t2, number, order)
    return {
        "series": series,
        "season": season,
        "tournaments": (t1, t2, t3),
        "ana": (ana, their_ana),
    }


def play_the_third(rated, django_capture_on_commit_callbacks):
    t3 = rated["tournaments"][2]
    start(t3, 19)
    for number, order in ((1, ["Cene", "Ana", "Bor"]), (2, ["Ana", "Cene", "Bor"])):
        with django_capture_on_commit_callbacks(execute=True):
            play_round(t3, number, order)
