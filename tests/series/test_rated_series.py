"""A rated series (RULES.md §8.7) of three tournaments over two clubs, played through the
service layer: a person matched across the clubs, ratings imported, a hand corrected after the
second tournament (every later rating computed again), and the seasons' ends.

Ratings before (imported): Ana 30, Bor 20 (Ljubljana), Dani 40 (Zagreb); Cene and Eva are
new (10.1). Ana plays for Ljubljana and, as Zagreb's Ana, for Zagreb: one person, matched.
"""

from __future__ import annotations

from decimal import Decimal as D

import pytest

from scorebook import hands
from scorebook.series import compute, people, ratings, reading, services
from scorebook.series.models import ChangeCause, SeriesChange
from scorebook.series.services import SeasonPlan, SeriesPlan
from scorebook.tournaments.models import Table
from tests.series.conftest import SEASON_END, SEASON_START, play_the_third, three_player_cup

pytestmark = pytest.mark.django_db


def rating_list(season):
    return [
        (r.rank, r.player.name, r.club, r.rating, r.played) for r in reading.rating_lines(season)
    ]


def test_a_same_name_is_offered_and_the_match_makes_one_rating(
    rated, admins, mailoutbox, django_capture_on_commit_callbacks
):
    series, season = rated["series"], rated["season"]
    ana, their_ana = rated["ana"]
    # Before the match Zagreb's Ana is new: (10.1 + 40 + 10.1) / 3 in Zagreb.
    assert [(a.pk, b.pk) for a, b in people.possible_matches(series)] == [(ana.pk, their_ana.pk)]
    assert ("Ana", "Zagreb Tarock") in [
        (r.player.name, r.club) for r in reading.rating_lines(season)
    ]
    with django_capture_on_commit_callbacks(execute=True):
        people.match(series, ana, their_ana, admins["club"])
    assert people.possible_matches(series) == []
    # She has an account (Ljubljana's Ana): she is told.
    (mail,) = mailoutbox
    assert mail.to == ["ana@example.org"] and "TARZS rating" in mail.body
    # After the first two: Ana (3 × 20.0333 + 3 × 26.7167) / 4 = 35.0625 as one person,
    # shown as the series' club's Ana, with the club of her latest tournament (Zagreb's).
    assert rating_list(season) == [
        (1, "Ana", "Zagreb Tarock", D("35.1"), 2),
        (2, "Dani", "Zagreb Tarock", D("33.4"), 1),
        (3, "Bor", "Ljubljana Tarock", D("30.1"), 1),
        (4, "Eva", "Zagreb Tarock", D("20.0"), 1),
        (5, "Cene", "Ljubljana Tarock", D("10.0"), 1),
    ]


def test_three_tournaments_and_a_corrected_hand_after_the_second(
    rated, admins, django_capture_on_commit_callbacks
):
    series, season = rated["series"], rated["season"]
    t1, t2, t3 = rated["tournaments"]
    people.match(series, *rated["ana"], admins["club"])
    play_the_third(rated, django_capture_on_commit_callbacks)
    # Before the third: Ana 35.0625, Bor 30.05, Cene 10.0167 (mean 25.0431).
    assert rating_list(season) == [
        (1, "Ana", "Ljubljana Tarock", D("35.9"), 3),  # 35.8965…
        (2, "Dani", "Zagreb Tarock", D("33.4"), 1),  # 33.3958…
        (3, "Cene", "Ljubljana Tarock", D("23.8"), 2),  # 23.790625
        (4, "Bor", "Ljubljana Tarock", D("21.3"), 2),  # 21.2857…
        (5, "Eva", "Zagreb Tarock", D("20.0"), 1),  # 20.0375
    ]
    entries = {e.tournament_id: e for e in season.entries.all()}
    assert [entries[t.pk].rating for t in (t1, t2, t3)] == [
        D("30.0000000000"),  # its strongest third: Ana, 30
        D("40.0000000000"),  # Dani
        D("35.0625000000"),  # Ana
    ]
    # Round 2 of Zagreb's tournament is corrected: Eva won it, then Ana, then Dani.
    table = Table.objects.get(round__tournament=t2, round__number=2)
    hand = table.session.hands.get()
    corrected = {"contract": "klop", "points_by_player": {"Eva": 10, "Ana": 20, "Dani": 40}}
    with django_capture_on_commit_callbacks(execute=True):
        hands.edit_hand(hand, corrected, hand.version, admins["other_club"], change_closed=True)
    # Ana (3 × 20.0333 + 2 × 26.7167) / 4 = 28.3833 before the third; it changes too.
    assert rating_list(season) == [
        (1, "Dani", "Zagreb Tarock", D("33.4"), 1),
        (1, "Eva", "Zagreb Tarock", D("33.4"), 1),  # both 1603/48: one rank
        (3, "Ana", "Ljubljana Tarock", D("30.3"), 3),  # 10919/360
        (4, "Cene", "Ljubljana Tarock", D("22.1"), 2),  # 5309/240
        (5, "Bor", "Ljubljana Tarock", D("20.7"), 2),  # 995/48
    ]
    ana_history = {
        r.entry.tournament.name: (r.before, r.after)
        for season_history in reading.history(series, rated["ana"][1])
        for r in season_history.tournaments
    }
    assert ana_history == {
        "Ljubljana open": (D("30.0000000000"), D("30.0500000000")),
        "Zagreb open": (D("30.0500000000"), D("28.3833333333")),
        "Ljubljana winter": (D("28.3833333333"), D("30.3305555556")),
    }
    entries = {e.tournament_id: e for e in season.entries.all()}
    assert entries[t3.pk].rating == D("30.0500000000")  # Bor is its strongest now
    change = SeriesChange.objects.filter(season=season).first()
    assert change.cause == ChangeCause.RESULT and change.entry.tournament == t2
    moved = {line["player"]: (line["was"], line["now"]) for line in change.lines}
    ana = rated["ana"][0]
    assert moved[ana.pk] == ([1, "35.9"], [3, "30.3"])
    assert len(moved) == 5


def test_a_rated_series_refuses_a_tournament_that_does_not_fit(club, admins):
    series = services.create_series(
        club=club, user=admins["club"], rated=True, plan=SeriesPlan("TARZS rating")
    )
    season = services.add_season(series, SeasonPlan("2026/27", SEASON_START, SEASON_END))
    # Today's tournament: four-player tables, "n − place", the variant's own rules.
    four = three_player_cup(club, admins["club"], "Four", 5, ["Ana", "Bor", "Cene"])
    four.variant, four.table_size, four.placement_points = "slovenian-4", 4, []
    four.save()
    with pytest.raises(services.ServiceError) as refused:
        services.add_tournament(season, four, admins["club"])
    assert refused.value.field == "tournament"
    assert refused.value.message == (
        "A rated tournament plays at tables of three. "
        "A rated tournament ranks by placement points 2, 1 and ½. "
        "A rated tournament plays the rules of Tarok zveza Slovenije (TARZS)."
    )  # RULES §8.3 never draws a two-player table at fours: no reason about byes
    assert not season.entries.exists()


def test_the_seasons_end_halves_floors_and_caps(rated, admins, django_capture_on_commit_callbacks):
    series, season = rated["series"], rated["season"]
    people.match(series, *rated["ana"], admins["club"])
    play_the_third(rated, django_capture_on_commit_callbacks)
    preview = {
        r.row.player.name: (ratings_shown(r.end.rating), r.end.steps)
        for r in ratings.preview_end(season)
    }
    # Three rated tournaments: Dani and Eva played one (fewer than half), halved; Dani's floor
    # is half his 40 at the season's start. No cap in a first season.
    assert preview == {
        "Ana": (D("35.9"), ()),
        "Dani": (D("20.0"), ("halved", "floor")),  # 33.3958 / 2 = 16.6979, raised to 20
        "Cene": (D("23.8"), ()),
        "Bor": (D("21.3"), ()),
        "Eva": (D("10.0"), ("halved",)),  # 20.0375 / 2 = 10.01875, above 10.1 / 2
    }
    ratings.close_season(season, admins["club"])
    at_the_end = [D("35.9"), D("23.8"), D("21.3"), D("20.0"), D("10.0")]
    assert [r[3] for r in rating_list(season)] == at_the_end
    # Closed is frozen: a hand corrected in Zagreb's tournament changes nothing in it.
    hand = Table.objects.get(round__tournament=rated["tournaments"][1], round__number=2)
    hand = hand.session.hands.get()
    corrected = {"contract": "klop", "points_by_player": {"Eva": 10, "Ana": 20, "Dani": 40}}
    with django_capture_on_commit_callbacks(execute=True):
        hands.edit_hand(hand, corrected, hand.version, admins["other_club"], change_closed=True)
    assert [r[3] for r in rating_list(season)] == at_the_end
    # The next season: nobody plays. Five played a rated round the season before: cap 7.5.
    after = services.add_season(
        series,
        SeasonPlan(
            "2027/28", SEASON_END.replace(year=2027, month=7, day=1), SEASON_END.replace(year=2028)
        ),
    )
    assert [(r.player.name, r.rating) for r in reading.rating_lines(after)][:1] == [
        ("Ana", D("35.9"))
    ]
    ratings.close_season(after, admins["club"])
    assert {r.player.name: (r.rating, tuple(r.steps)) for r in reading.rating_lines(after)} == {
        name: (D("7.5"), ("cap",)) for name in ("Ana", "Bor", "Cene", "Dani", "Eva")
    }
    with pytest.raises(services.ServiceError):
        ratings.reopen_season(season)  # the later season is closed
    ratings.reopen_season(after)
    assert [r.rating for r in reading.rating_lines(after)][:1] == [D("35.9")]
    # Reopened, the first season is computed again, the corrected hand with it.
    ratings.reopen_season(season)
    assert [r[1:4] for r in rating_list(season)][:3] == [
        ("Dani", "Zagreb Tarock", D("33.4")),
        ("Eva", "Zagreb Tarock", D("33.4")),
        ("Ana", "Ljubljana Tarock", D("30.3")),
    ]


def ratings_shown(value):
    from scorebook.series import tarzs

    return tarzs.shown(value)


def test_compute_sync_reads_a_result_that_came_without_a_signal(rated):
    series, season = rated["series"], rated["season"]
    t2 = rated["tournaments"][1]
    # Unmatched, Zagreb's Ana is new: (10.1 + 40 + 10.1) / 3 = 20.0667 at each table of two
    # rounds. Eva ½ and 1 of it: 15.05.
    assert eva(season) == D("15.1")
    hand = Table.objects.get(round__tournament=t2, round__number=2).session.hands.get()
    # Outside on_commit capture: the signal's work never runs; the page's sync finds it.
    hands.edit_hand(
        hand,
        {"contract": "klop", "points_by_player": {"Eva": 10, "Ana": 20, "Dani": 40}},
        hand.version,
        None,
        change_closed=True,
    )
    assert eva(season) == D("15.1")
    assert compute.sync(series)
    assert not compute.sync(series)  # nothing changed since
    assert eva(season) == D("25.1")  # ½ and 2 of it: 25.0833


def eva(season):
    return next(r.rating for r in reading.rating_lines(season) if r.player.name == "Eva")
