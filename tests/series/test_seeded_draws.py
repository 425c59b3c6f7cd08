"""RULES.md §8.3 and §8.5: a tournament in a series draws its `groups` (and a knockout its
seeds) by the series' standing or rating when the organiser names it, instead of the order of
registration; players the series does not rank go after the others, in order of registration.

The standings and ratings are written as the series would have them before the day; the
players come to the door in alphabetical order (their order of registration).
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorebook.errors import ServiceError
from scorebook.series import ratings
from scorebook.series import services as series_services
from scorebook.series.models import SeasonRating, StandingRow
from scorebook.tournaments import services
from scorebook.tournaments.forms import TournamentForm
from scorebook.tournaments.models import Round
from tests.series.conftest import SEASON_END, SEASON_START, at, start

pytestmark = pytest.mark.django_db


def season_of(club, user, rated: bool):
    plan = series_services.SeriesPlan("TARZS rating" if rated else "Winter cup")
    series = series_services.create_series(club=club, user=user, rated=rated, plan=plan)
    return series_services.add_season(
        series, series_services.SeasonPlan("2026/27", SEASON_START, SEASON_END)
    )


def day_of(club, user, variant: str, names: list[str], **plan):
    """A tournament on 2026-12-05 with `names` at the door, in that order."""
    tournament = services.create_tournament(
        club=club,
        user=user,
        name="Advent cup",
        variant=variant,
        starts_at=at(5),
        hands_per_table=1,
        rounds=1,
        capacity=len(names),
        seed=7,
        now=at(1, 12),
        confirmation="off",
        **plan,
    )
    for name in names:
        services.add_walk_in(tournament, name=name, now=at(5, 12))
    return tournament


def rank_by(tournament, order: str):
    """The organiser's edit: `groups`, ranked by `order`."""
    plan = services.Plan(
        name=tournament.name,
        variant=tournament.variant,
        starts_at=tournament.starts_at,
        hands_per_table=tournament.hands_per_table,
        rounds=tournament.rounds,
        capacity=tournament.capacity,
        placement_points=tournament.placement_points,
        draw_mode="groups",
        draw_order=order,
        confirmation=tournament.confirmation,
    )
    return services.edit_tournament(tournament, plan, now=at(2, 12))


def tables(tournament) -> list[set[str]]:
    rnd = Round.objects.get(tournament=tournament, number=1)
    return [{p.name for p in t.session.seated_players()} for t in rnd.tables.all()]


def standing(season, club, places: dict[str, int]) -> None:
    for name, place in places.items():
        player = club.players.get(name=name)
        StandingRow.objects.create(
            season=season,
            player=player,
            players=[player.pk],
            place=place,
            total="0",
            counted=1,
            club=club,
        )


EIGHT = ["Ana", "Bor", "Cene", "Dani", "Eva", "Fran", "Gal", "Hana"]


def test_groups_follow_the_series_standing_the_unranked_last(club, admins):
    lea = admins["club"]
    season = season_of(club, lea, rated=False)
    tournament = day_of(club, lea, "slovenian-4", EIGHT)
    series_services.add_tournament(season, tournament, lea)
    # The standing before the day: Eva 1st, Ana 2nd, Hana 3rd, Cene 4th, Bor 5th, Gal 6th,
    # Dani 7th; Fran has no place yet.
    standing(
        season, club, {"Eva": 1, "Ana": 2, "Hana": 3, "Cene": 4, "Bor": 5, "Gal": 6, "Dani": 7}
    )
    rank_by(tournament, "standing")
    start(tournament, 5)
    # 8 at fours: four groups of ⌈8/4⌉ = 2 from the standing: Eva, Ana | Hana, Cene |
    # Bor, Gal | Dani, Fran. Each of the two tables has one player of each group.
    groups = [{"Eva", "Ana"}, {"Hana", "Cene"}, {"Bor", "Gal"}, {"Dani", "Fran"}]
    drawn = tables(tournament)
    assert len(drawn) == 2
    for table in drawn:
        assert [len(table & group) for group in groups] == [1, 1, 1, 1]
    # By the order of registration Ana and Bor would have been one group: here they are not.
    assert any({"Ana", "Bor"} <= table for table in drawn)


def test_groups_follow_the_series_rating_a_new_player_at_ten_point_one(
    club, admins, tournament_day
):
    lea = admins["club"]
    season = season_of(club, lea, rated=True)
    names = ["Ana", "Bor", "Cene", "Dani", "Eva", "Fran"]
    tournament = day_of(club, lea, "slovenian-3", names, placement_points=[2, 1, 0.5])
    series_services.add_tournament(season, tournament, lea)
    ratings = {"Ana": "12.0", "Bor": "30.5", "Cene": "8.0", "Dani": "22.0", "Eva": "15.5"}
    for name, rating in ratings.items():
        player = club.players.get(name=name)
        SeasonRating.objects.create(
            season=season, player=player, players=[player.pk], running=Decimal(rating)
        )
    rank_by(tournament, "rating")
    start(tournament, 5)
    # Best first: Bor 30.5, Dani 22.0, Eva 15.5, Ana 12.0, Fran 10.1 (new to rated play,
    # RULES.md §8.7), Cene 8.0; 6 at threes: groups of 2, one of each at both tables.
    groups = [{"Bor", "Dani"}, {"Eva", "Ana"}, {"Fran", "Cene"}]
    drawn = tables(tournament)
    assert len(drawn) == 2
    for table in drawn:
        assert [len(table & group) for group in groups] == [1, 1, 1]
    # By the order of registration Ana and Bor would have been one group: here they are not.
    assert any({"Ana", "Bor"} <= table for table in drawn)


def test_a_knockouts_seeds_follow_the_series_standing(club, admins):
    lea = admins["club"]
    season = season_of(club, lea, rated=False)
    tournament = day_of(club, lea, "slovenian-2", ["Ana", "Bor", "Cene", "Dani"])
    series_services.add_tournament(season, tournament, lea)
    standing(season, club, {"Dani": 1, "Bor": 2, "Ana": 3})  # Cene: no place
    rank_by(tournament, "standing")
    start(tournament, 5)
    # Seeds Dani 1, Bor 2, Ana 3, Cene 4: 1 meets 4 and 2 meets 3 (RULES.md §8.5).
    rnd = Round.objects.get(tournament=tournament, number=1)
    seated = [[p.name for p in t.session.seated_players()] for t in rnd.tables.all()]
    assert seated == [["Dani", "Cene"], ["Bor", "Ana"]]


def test_a_ranking_by_a_series_the_tournament_is_not_in_is_refused_at_its_field(club, admins):
    lea = admins["club"]
    tournament = day_of(club, lea, "slovenian-4", EIGHT[:4])
    with pytest.raises(ServiceError) as refused:
        rank_by(tournament, "standing")
    assert refused.value.field == "draw_order"
    assert refused.value.message == (
        "The tournament is in no standing series: join one first, then rank by it."
    )
    with pytest.raises(ServiceError) as refused:
        rank_by(tournament, "rating")
    assert refused.value.message == (
        "The tournament is in no rated series: join one first, then rank by it."
    )
    with pytest.raises(ServiceError) as refused:
        rank_by(tournament, "<script>")
    assert refused.value.message == "Pick one of the rankings offered."
    tournament.refresh_from_db()
    assert tournament.draw_order == ""


def test_the_organisers_form_offers_the_three_rankings(club):
    form = TournamentForm(club=club)
    assert [str(label) for _value, label in form.fields["draw_order"].choices] == [
        "the order of registration",
        "the standing of its series",
        "the rating of its rated series",
    ]


def test_groups_by_rating_before_any_rated_tournament_follow_the_imported_ratings(
    club, admins, tournament_day
):
    """§8.7: ratings imported as those before the series' first season are the ratings before
    its first tournament, so they rank the first day's groups."""
    lea = admins["club"]
    season = season_of(club, lea, rated=True)
    names = ["Ana", "Bor", "Cene", "Dani", "Eva", "Fran"]
    tournament = day_of(club, lea, "slovenian-3", names, placement_points=[2, 1, 0.5])
    series_services.add_tournament(season, tournament, lea)
    ratings.import_ratings(season.series, "Cene,40.2\nAna,31\nFran,25.5\nBor,12\n")
    rank_by(tournament, "rating")
    start(tournament, 5)
    # Best first: Cene 40.2, Ana 31.0, Fran 25.5, Bor 12.0, then Dani and Eva new at 10.1, as
    # they came; 6 at threes: groups {Cene, Ana}, {Fran, Bor}, {Dani, Eva}.
    groups = [{"Cene", "Ana"}, {"Fran", "Bor"}, {"Dani", "Eva"}]
    drawn = tables(tournament)
    assert len(drawn) == 2
    for table in drawn:
        assert [len(table & group) for group in groups] == [1, 1, 1]
