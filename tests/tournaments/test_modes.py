"""The modes of RULES.md §8.2–8.4: hands per table size, rankings by placement, sheet and
sheet+rank with exact shares, byes, and teams."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scorebook.errors import ServiceError
from scorebook.tournaments import services
from scorebook.tournaments.models import Placement, Round, Team, Tournament
from scorebook.tournaments.services.rounds import mode_scores
from tests.tournaments.helpers import CREATED, at, klop, record, seated

D = Decimal
F = Fraction


def tables_of(tournament, number):
    return list(Round.objects.get(tournament=tournament, number=number).tables.all())


def test_the_sheet_plus_rank_example_of_rules_8_4():
    """60 / 40 / 20 / 0: sums Ana 12, Bor 12, Cene −4, Dani −20 give 62, 62, 16, −20."""
    tournament = Tournament(
        variant="slovenian-4", table_size=4, ranking_mode="sheet+rank", rank_points=[60, 40, 20, 0]
    )
    sums = {"Ana": D(12), "Bor": D(12), "Cene": D(-4), "Dani": D(-20)}
    assert mode_scores(tournament, sums) == {
        "Ana": F(62),
        "Bor": F(62),
        "Cene": F(16),
        "Dani": F(-20),
    }


def test_a_three_way_tie_shares_two_one_half_exactly():
    """2 / 1 / ½ shared three ways is 7/6 each, not 1.17."""
    tournament = Tournament(variant="slovenian-3", table_size=3, placement_points=[2, 1, 0.5])
    sums = {"Ana": D(5), "Bor": D(5), "Cene": D(5)}
    assert mode_scores(tournament, sums) == {"Ana": F(7, 6), "Bor": F(7, 6), "Cene": F(7, 6)}


def test_the_sheet_mode_scores_the_sums():
    tournament = Tournament(variant="slovenian-4", table_size=4, ranking_mode="sheet")
    sums = {"Ana": D("12.50"), "Bor": D(-12), "Cene": D(0), "Dani": D("-0.50")}
    assert mode_scores(tournament, sums) == {
        "Ana": F(25, 2),
        "Bor": F(-12),
        "Cene": F(0),
        "Dani": F(-1, 2),
    }


def test_a_table_of_another_size_plays_its_own_number_of_hands(started):
    tournament = started(7, hands_per_table=1, hands_by_size={3: 2})
    four, three = tables_of(tournament, 1)
    klop(four, **dict(zip(seated(four), [5, 10, 20, 35], strict=True)))
    klop(three, **dict(zip(seated(three), [10, 20, 40], strict=True)))
    services.sync_tournament(tournament)
    four.refresh_from_db()
    three.refresh_from_db()
    assert four.finished_at is not None
    assert three.finished_at is None  # one of its two hands
    klop(three, **dict(zip(seated(three), [10, 20, 40], strict=True)))
    services.sync_tournament(tournament)
    three.refresh_from_db()
    assert three.finished_at is not None


def test_hands_by_size_are_read_and_refused_at_their_field():
    assert services.parse_hands_by_size("3: 12", [4, 3, 2]) == {3: 12}
    assert services.parse_hands_by_size(" 3 = 12 ; 2: 6 ", [4, 3, 2]) == {3: 12, 2: 6}
    with pytest.raises(ServiceError) as refused:
        services.parse_hands_by_size("five: twenty", [4, 3, 2])
    assert refused.value.field == "hands_by_size"
    with pytest.raises(ServiceError, match="seat 4, 3, 2 players"):
        services.parse_hands_by_size("5: 20", [4, 3, 2])


def test_a_sheet_ranking_ranks_the_sums(started):
    tournament = started(4, ranking_mode="sheet", rounds=1)
    (table,) = tables_of(tournament, 1)
    a, b, c, d = seated(table)
    klop(table, **{a: 5, b: 10, c: 20, d: 35})
    services.sync_tournament(tournament)
    # A klop: each scores minus his own card points.
    rows = [(s.rank, s.registration.player.name, s.points) for s in services.standings(tournament)]
    assert rows == [(1, a, D(-5)), (2, b, D(-10)), (3, c, D(-20)), (4, d, D(-35))]


def test_a_bye_scores_the_exact_mean_of_the_round(started):
    tournament = started(5, rounds=1)  # a four and a bye at a Slovenian four-player day
    (table,) = tables_of(tournament, 1)
    klop(table, **dict(zip(seated(table), [5, 10, 20, 35], strict=True)))
    services.sync_tournament(tournament)
    bye = Placement.objects.get(round__tournament=tournament, table=None)
    # 3 + 2 + 1 + 0 over four seated players.
    assert (bye.score, bye.points) == ("3/2", D("1.50"))


def test_teams_register_under_a_name_and_rank_by_their_members(make_tournament, people):
    tournament = make_tournament(team_size=2, capacity=4, rounds=1)
    with pytest.raises(ServiceError) as refused:
        services.register(tournament, people[0], now=CREATED)
    assert refused.value.field == "team"
    for user, team in zip(people[:4], ["Sokoli", "sokoli", "Orli", "Orli"], strict=True):
        registration = services.register(tournament, user, now=CREATED, team_name=team)
        services.confirm_presence(registration, now=at(18, 50))
    with pytest.raises(ServiceError, match="Sokoli has its 2 players already"):
        services.add_walk_in(tournament, name="Zala", team_name="SOKOLI", now=at(18, 52))
    assert sorted(Team.objects.values_list("name", flat=True)) == ["Orli", "Sokoli"]
    tournament = services.start_tournament(tournament, now=at(19))
    (table,) = tables_of(tournament, 1)
    piles = {"Ana": 5, "Bor": 35, "Cene": 10, "Dani": 20}  # Ana 1st, Cene 2nd, Dani 3rd, Bor 4th
    klop(table, **{name: piles[name] for name in seated(table)})
    services.sync_tournament(tournament)
    teams = services.team_standings(tournament, services.standings(tournament))
    # Sokoli (Ana 3 + Bor 0) and Orli (Cene 2 + Dani 1) both 3: Sokoli's best member is first.
    assert [(t.rank, t.team.name, t.points) for t in teams] == [
        (1, "Sokoli", D(3)),
        (2, "Orli", D(3)),
    ]


def _create(client, club, **values):
    from django.urls import reverse

    from tests.tournaments.test_day import plan_form

    url = reverse("scorebook:tournaments:create", kwargs={"club": club.slug})
    return client.post(url, plan_form(**values))


def test_the_form_names_the_rules_and_the_modes(club, organiser, client_as):
    response = _create(
        client_as(organiser),
        club,
        rules="tarzs",
        ranking_mode="sheet+rank",
        rank_points="60, 40, 20, 0",
        hands_by_size="3: 12",
        round_minutes="40",
        grace_minutes="5",
        draw_mode="random",
        contras_not_counted="on",
        team_size="2",
    )
    assert response.status_code == 302
    t = Tournament.objects.get()
    assert (t.preset, t.ranking_mode, t.rank_points, t.hands_by_size) == (
        "tarzs",
        "sheet+rank",
        [60, 40, 20, 0],
        {"3": 12},
    )
    assert (t.round_minutes, t.grace_minutes, t.draw_mode, t.contras_count, t.team_size) == (
        40,
        5,
        "random",
        False,
        2,
    )


@pytest.mark.parametrize(
    ("values", "field", "words"),
    [
        ({"ranking_mode": "sheet+rank"}, "rank_points", "rank points"),
        ({"ranking_mode": "sheet+rank", "rank_points": "60, 40"}, "rank_points", "4 places"),
        ({"hands_by_size": "three"}, "hands_by_size", "5: 20"),
        ({"rules": "fft"}, "rules", "has no house rules called"),
        ({"team_size": "5"}, "team_size", "5"),
        ({"round_minutes": "2"}, "round_minutes", "5"),
    ],
)
def test_bad_modes_are_refused_at_their_field(club, organiser, client_as, values, field, words):
    from tests.tournaments.test_day import field_error

    response = _create(client_as(organiser), club, **values)
    assert response.status_code == 200
    assert words in field_error(response.content.decode(), field)
    assert not Tournament.objects.exists()


def test_contras_off_rank_the_sheet_without_its_contras_the_session_keeps_them(started):
    """Austrian cups: Ana plays two with Cene, 38 points, the game contra'd (standard rules:
    two is 20 and the difference 3, so 23; ×2 with the contra). The ranking reads 23 each, the
    session's own sheet 46."""
    tournament = started(4, contras_count=False, rounds=1)
    (table,) = tables_of(tournament, 1)
    hand = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38}
    record(table, {**hand, "contra": {"game": 1}})
    services.sync_tournament(tournament)
    got = {
        p.registration.player.name: (p.units, p.ranked_sum)
        for p in table.placements.select_related("registration__player")
    }
    assert got == {
        "Ana": (D(46), D(23)),
        "Bor": (D(0), D(0)),
        "Cene": (D(46), D(23)),
        "Dani": (D(0), D(0)),
    }
    # The session's own totals keep the contra.
    from scorebook import services as core

    assert sorted(core.session_totals(table.session).values()) == [D(0), D(0), D(46), D(46)]


def test_groups_seat_one_player_of_each_group_at_every_table(started):
    """RULES §8.3 groups, 8 at fours by the order of registration: groups Ana Bor, Cene Dani,
    Eva Fran, Gal Hana; each table gets one of each group."""
    tournament = started(8, draw_mode="groups")
    groups = [{"Ana", "Bor"}, {"Cene", "Dani"}, {"Eva", "Fran"}, {"Gal", "Hana"}]
    for table in tables_of(tournament, 1):
        names = seated(table)
        assert [len(set(names) & group) for group in groups] == [1, 1, 1, 1]


def test_teammates_never_sit_at_one_table(make_tournament, people):
    tournament = make_tournament(team_size=2, capacity=8, rounds=2)
    for i, user in enumerate(people[:8]):
        registration = services.register(tournament, user, now=CREATED, team_name=f"T{i // 2}")
        services.confirm_presence(registration, now=at(18, 50))
    tournament = services.start_tournament(tournament, now=at(19))
    for table in tables_of(tournament, 1):
        teams = [
            p.registration.team.name for p in table.placements.select_related("registration__team")
        ]
        assert len(set(teams)) == 4, teams
