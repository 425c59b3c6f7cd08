"""The draw, the tables, placements and byes, Swiss grouping, the ranking and the knockout."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scorebook.tournaments import services
from scorebook.tournaments.models import Placement, Round, Status, Tournament
from tests.tournaments.helpers import CREATED, START, at, klop, record, seated

D = Decimal


def tables_of(tournament, number):
    return list(Round.objects.get(tournament=tournament, number=number).tables.all())


def results(table) -> list[tuple[str, int, Decimal, Decimal]]:
    return [
        (p.registration.player.name, p.place, p.points, p.units)
        for p in table.placements.select_related("registration__player").order_by("place", "seat")
    ]


@pytest.mark.parametrize(
    "variant, players, expected",
    [
        ("slovenian-4", 8, ([4, 4], 0)),
        ("slovenian-4", 7, ([4, 3], 0)),  # a Slovenian three-player table
        ("slovenian-4", 6, ([3, 3], 0)),  # two threes: never a two-player table at fours
        ("slovenian-4", 5, ([4], 1)),  # nobody plays alone: a bye
        ("slovenian-4", 22, ([4, 4, 4, 4, 3, 3], 0)),  # RULES §8.3: not five fours, two byes
        ("slovenian-3", 5, ([4], 1)),  # a four at threes, and a bye
        ("slovenian-3", 7, ([3, 4], 0)),
        ("french-4", 7, ([4, 3], 0)),  # French tarot for three
        ("french-4", 6, ([3, 3], 0)),
        ("french-4", 21, ([4, 4, 4, 4, 5], 0)),  # RULES §8.3: four fours and one five
        ("czech", 7, ([4], 3)),  # Czech tarok has no smaller form
        ("zwanzigerrufen", 9, ([4, 4], 1)),
    ],
)
def test_table_sizes_with_a_smaller_last_table_or_byes(variant, players, expected):
    tournament = Tournament(variant=variant, table_size=services.table_size_of(variant))
    assert services.table_sizes(tournament, players) == expected


def test_seven_players_make_a_four_and_a_three_table(started):
    tournament = started(7)
    tables = tables_of(tournament, 1)
    assert [t.session.variant for t in tables] == ["slovenian-4", "slovenian-3"]
    assert [len(seated(t)) for t in tables] == [4, 3]
    assert not Placement.objects.filter(round__tournament=tournament, table=None).exists()
    # Every table is an ordinary session of the club, named for the tournament.
    assert tables[0].session.table_name == "Advent cup · round 1 · table 1"
    assert tables[0].session.club == tournament.club


def test_a_table_is_named_in_each_readers_language_and_never_cut(started):
    """Stored as numbers, said when read: the organiser's language is nobody else's."""
    from django.utils import translation

    tournament = started(4, name="Ljubljana open winter championship of tarok")
    session = tables_of(tournament, 1)[0].session
    assert session.table_label == ""  # no words of whoever drew
    with translation.override("fr"):
        assert (
            session.table_name == "Ljubljana open winter championship of tarok · tour 1 · table 1"
        )
    with translation.override("sl"):
        assert session.table_name == "Ljubljana open winter championship of tarok · krog 1 · miza 1"


def test_the_draw_is_random_but_the_seed_replays_it(started, make_tournament, people):
    draw_42 = [seated(t) for t in tables_of(started(8, seed=42), 1)]
    assert draw_42 == [["Gal", "Dani", "Fran", "Hana"], ["Eva", "Bor", "Ana", "Cene"]]
    # The same seed and the same sign-up order draw the same tables in another tournament.
    again = make_tournament(name="Replay", seed=42, capacity=8)
    for user in people[:8]:
        services.confirm_presence(services.register(again, user, now=CREATED), now=at(18, 50))
    again = services.start_tournament(again, now=START)
    assert [seated(t) for t in tables_of(again, 1)] == draw_42


def test_ties_share_the_points_of_the_places_they_cover():
    points = [D(3), D(2), D(1), D(0)]
    assert services.share_places(
        [("Ana", D(30)), ("Bor", D(10)), ("Cene", D(10)), ("Dani", D(-5))], points
    ) == [("Ana", 1, D(3)), ("Bor", 2, D("1.5")), ("Cene", 2, D("1.5")), ("Dani", 4, D(0))]
    assert services.share_places(
        [("Ana", D(5)), ("Bor", D(5)), ("Cene", D(5)), ("Dani", D(0))], points
    ) == [("Ana", 1, D(2)), ("Bor", 1, D(2)), ("Cene", 1, D(2)), ("Dani", 4, D(0))]
    # Three-way tie for second of 5, 3, 1, 0 club points: 4/3 each, exactly (not 1.33).
    assert services.share_places(
        [("Ana", D(7)), ("Bor", D(7)), ("Cene", D(7)), ("Dani", D(9))],
        [D(5), D(3), D(1), D(0)],
    ) == [
        ("Dani", 1, Fraction(5)),
        ("Ana", 2, Fraction(4, 3)),
        ("Bor", 2, Fraction(4, 3)),
        ("Cene", 2, Fraction(4, 3)),
    ]


def test_placement_points_for_smaller_tables():
    default = Tournament(variant="slovenian-4", table_size=4)
    assert services.points_for(default, 4) == [D(3), D(2), D(1), D(0)]
    assert services.points_for(default, 3) == [D(2), D(1), D(0)]
    custom = Tournament(variant="slovenian-4", table_size=4, placement_points=[5, 3, 1, 0])
    # A smaller table gets the points of its first places.
    assert services.points_for(custom, 3) == [D(5), D(3), D(1)]
    assert services.parse_points("5, 3, 1, 0", 4) == [5, 3, 1, 0]


def test_a_finished_table_records_tied_placements_and_closes_its_sheet(started):
    tournament = started(4, rounds=1)
    (table,) = tables_of(tournament, 1)
    a, b, c, d = seated(table)
    assert not services.table_is_done(table)
    klop(table, **{a: 10, b: 10, c: 25, d: 25})
    assert services.table_is_done(table)
    assert services.finish_table(table)
    table.refresh_from_db()
    assert table.session.is_closed
    assert results(table) == [
        (a, 1, D("2.50"), D("-10.00")),
        (b, 1, D("2.50"), D("-10.00")),
        (c, 3, D("0.50"), D("-25.00")),
        (d, 3, D("0.50"), D("-25.00")),
    ]
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    assert not services.finish_table(table)  # twice does nothing


def test_redeals_and_adjustments_do_not_count_as_hands(started):
    tournament = started(4, rounds=1, hands_per_table=2)
    (table,) = tables_of(tournament, 1)
    a, b, c, d = seated(table)
    record(table, {"contract": "redeal"})
    klop(table, **{a: 10, b: 15, c: 20, d: 25})
    assert not services.table_is_done(table)
    klop(table, **{a: 10, b: 15, c: 20, d: 25})
    assert services.table_is_done(table)


def test_a_bye_is_worth_the_rounds_average_placement_points(started):
    tournament = started(5)
    (table,) = tables_of(tournament, 1)
    (bye,) = Placement.objects.filter(round__tournament=tournament, round__number=1, table=None)
    a, b, c, d = seated(table)
    klop(table, **{a: 5, b: 10, c: 20, d: 35})
    services.sync_tournament(tournament)
    bye.refresh_from_db()
    # Points 3 + 2 + 1 + 0 over four players: 1.5.
    assert bye.points == D("1.50") and bye.units == D(0)
    assert Round.objects.get(tournament=tournament, number=1).bye_points == D("1.50")
    # Round 2: the best four play (3, 2, 1.5 with the bye, 1); the lowest, who has not had a
    # bye yet, sits out.
    (table2,) = tables_of(tournament, 2)
    assert seated(table2) == [a, b, bye.registration.player.name, c]
    (bye2,) = Placement.objects.filter(round__number=2, table=None)
    assert bye2.registration.player.name == d


def test_swiss_groups_best_with_best_and_ranks_by_points_units_best_place(started):
    tournament = started(8)
    t1, t2 = tables_of(tournament, 1)
    a1, a2, a3, a4 = seated(t1)
    b1, b2, b3, b4 = seated(t2)
    klop(t1, **{a1: 5, a2: 10, a3: 20, a4: 35})
    assert services.sync_tournament(tournament)
    # One table still plays: round 2 is not drawn yet.
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    klop(t2, **{b1: 6, b2: 9, b3: 25, b4: 30})
    services.sync_tournament(tournament)
    u1, u2 = tables_of(tournament, 2)
    # 3 points: a1 (−5) before b1 (−6); 2 points: b2 (−9) before a2 (−10); and so on.
    assert seated(u1) == [a1, b1, b2, a2]
    assert seated(u2) == [a3, b3, b4, a4]
    klop(u1, **{a1: 35, b1: 20, b2: 10, a2: 5})
    klop(u2, **{a3: 10, b3: 10, b4: 25, a4: 25})
    services.sync_tournament(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    ranking = [
        (s.rank, s.registration.player.name, s.points, s.units, s.best_place)
        for s in services.standings(tournament)
    ]
    assert ranking == [
        (1, a2, D("5.00"), D("-15.00"), 1),
        (2, b2, D("4.00"), D("-19.00"), 2),  # 4 points each: units decide
        (3, b1, D("4.00"), D("-26.00"), 1),
        (4, a3, D("3.50"), D("-30.00"), 1),
        (5, b3, D("3.50"), D("-35.00"), 1),
        (6, a1, D("3.00"), D("-40.00"), 1),
        (7, b4, D("0.50"), D("-55.00"), 3),
        (8, a4, D("0.50"), D("-60.00"), 3),
    ]


def test_equal_points_and_units_are_broken_by_the_most_first_places(started):
    """RULES §8.4 placement: points, then the total sheet sum, then the count of first places.
    Two rounds of two threes (n − place: 2, 1, 0). Bor 1st and 3rd, Ana 2nd and 2nd: both 2
    points and −10; Bor's first place puts him ahead."""
    from scorebook.models import Session

    tournament = started(6, variant="slovenian-3", rounds=2)
    by_name = {r.player.name: r for r in tournament.registrations.select_related("player")}
    Placement.objects.filter(round__tournament=tournament).delete()
    rounds = [
        Round.objects.get(tournament=tournament, number=1),
        Round.objects.create(tournament=tournament, number=2, drawn_at=tournament.starts_at),
    ]
    sheets = [
        [{"Bor": 0, "Ana": -5, "Eva": -10}, {"Cene": 0, "Dani": -5, "Fran": -10}],
        [{"Cene": 0, "Ana": -5, "Bor": -10}, {"Dani": 0, "Eva": -5, "Fran": -10}],
    ]
    for rnd, tables in zip(rounds, sheets, strict=True):
        rnd.tables.all().delete()
        for number, sums in enumerate(tables, start=1):
            session = Session.objects.create(
                club=tournament.club, variant="slovenian-3", date=tournament.starts_at.date()
            )
            table = rnd.tables.create(number=number, session=session)
            for seat, (name, total) in enumerate(sums.items(), start=1):
                # As a finished table records it: place, points, the sum it ranks, the score.
                Placement.objects.create(
                    round=rnd,
                    table=table,
                    seat=seat,
                    registration=by_name[name],
                    place=seat,
                    points=D(3 - seat),
                    units=D(total),
                    ranked_sum=D(total),
                    score=str(3 - seat),
                )
    ranking = [
        (s.rank, s.registration.player.name, s.points, s.units)
        for s in services.standings(tournament)
    ]
    assert ranking == [
        (1, "Cene", D(4), D(0)),
        (2, "Dani", D(3), D(-5)),
        (3, "Bor", D(2), D(-10)),
        (4, "Ana", D(2), D(-10)),
        (5, "Eva", D(1), D(-15)),
        (6, "Fran", D(0), D(-20)),
    ]


def test_the_last_hand_saved_finishes_the_table_and_draws_the_next_round(
    started, django_capture_on_commit_callbacks
):
    tournament = started(4)
    (table,) = tables_of(tournament, 1)
    a, b, c, d = seated(table)
    with django_capture_on_commit_callbacks(execute=True):
        klop(table, **{a: 5, b: 10, c: 20, d: 35})
    table.refresh_from_db()
    assert table.finished_at is not None
    (table2,) = tables_of(tournament, 2)
    assert seated(table2) == [a, b, c, d]


def game(table, **points):
    """A two-player game, nobody announced: the one with more points gets the difference."""
    return record(table, {"contract": "game", "announcer": None, "points_by_player": points})


def test_knockout_with_byes_for_the_first_seeds_and_a_tie_playing_on(started):
    tournament = started(5, variant="slovenian-2", hands_per_table=1)
    assert tournament.is_knockout
    bracket = services.bracket(tournament)
    ((rnd1, matches1),) = bracket
    # Five players in a bracket of eight: seeds 1, 2 and 3 have byes; 4 plays 5.
    assert [m.is_bye for m in matches1] == [True, False, True, True]
    match = matches1[1]
    x, y = seated(match.table)
    game(match.table, **{x: 35, y: 35})
    assert not services.table_is_done(match.table)  # a tie plays one more hand
    services.sync_tournament(tournament)
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    game(match.table, **{x: 30, y: 40})
    services.sync_tournament(tournament)
    assert results(match.table) == [(y, 1, None, D("5.00")), (x, 2, None, D("-5.00"))]
    seed1, seed2, seed3 = (matches1[i].placements[0].registration.player.name for i in (0, 2, 3))
    semi1, semi2 = tables_of(tournament, 2)
    assert seated(semi1) == [seed1, y]
    assert seated(semi2) == [seed2, seed3]
    game(semi1, **{seed1: 40, y: 30})
    game(semi2, **{seed2: 30, seed3: 40})
    services.sync_tournament(tournament)
    (final,) = tables_of(tournament, 3)
    assert seated(final) == [seed1, seed3]
    game(final, **{seed1: 36, seed3: 34})
    services.sync_tournament(tournament)
    tournament.refresh_from_db()
    assert tournament.status == Status.FINISHED
    ranking = [(rank, r.player.name) for rank, r, _reached in services.knockout_ranking(tournament)]
    assert ranking[:2] == [(1, seed1), (2, seed3)]
    assert sorted(ranking[2:4]) == sorted([(3, seed2), (3, y)])
    assert ranking[4] == (5, x)


def test_the_migration_forgets_labels_stored_in_the_drawers_language(started):
    """Tables drawn before: their label said in whoever drew's words is cleared (from the
    tables' side, never by reading the label), and the name is said from the numbers."""
    import importlib

    from django.apps import apps

    from scorebook.models import Session

    migration = importlib.import_module(
        "scorebook.tournaments.migrations.0003_table_names_in_words"
    )
    tournament = started(4)
    session = tables_of(tournament, 1)[0].session
    Session.objects.filter(pk=session.pk).update(table_label="Advent cup · krog 1 · miza 1")
    other = Session.objects.create(
        club=tournament.club, variant="slovenian-4", date=session.date, table_label="A"
    )
    migration.forget_stored_names(apps, None)
    session.refresh_from_db()
    other.refresh_from_db()
    assert (session.table_label, other.table_label) == ("", "A")
    assert session.table_name == "Advent cup · round 1 · table 1"
