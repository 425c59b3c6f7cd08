"""Tournaments joining a series (RULES.md §8.6): the series' own club's at once, another
club's when the other side accepts, one standing and one rated series at most, leaving until
the start; matching players, and the order the groups draw may seat them by."""

from __future__ import annotations

import pytest

from scorebook.series import people, reading, services
from scorebook.series.models import EntryState
from scorebook.series.services import SeasonPlan, SeriesPlan
from tests.series.conftest import (
    SEASON_END,
    SEASON_START,
    play_round,
    play_the_third,
    start,
    three_player_cup,
)

pytestmark = pytest.mark.django_db


def cup(club, user, name="Winter cup", **plan):
    series = services.create_series(
        club=club, user=user, rated=False, plan=SeriesPlan(name, **plan)
    )
    return series, services.add_season(series, SeasonPlan("2026/27", SEASON_START, SEASON_END))


def test_the_series_invites_another_clubs_open_tournament_and_that_club_accepts(
    club, other_club, admins
):
    _series, season = cup(club, admins["club"])
    theirs = three_player_cup(
        other_club, admins["other_club"], "Zagreb open", 5, ["Ana", "Bor", "Eva"]
    )
    with pytest.raises(services.ServiceError) as refused:
        services.add_tournament(season, theirs, admins["club"])  # only for Zagreb's members
    assert refused.value.field == "tournament"
    theirs.open_to_all = True
    theirs.save()
    invited = services.add_tournament(season, theirs, admins["club"])
    assert invited.state == EntryState.INVITED
    assert not services.decides(invited, club) and services.decides(invited, other_club)
    with pytest.raises(services.ServiceError):
        services.accept(invited, club)  # the other club answers an invitation
    assert services.accept(invited, other_club).state == EntryState.JOINED


def test_a_tournament_is_in_one_standing_series_and_leaves_only_before_it_starts(club, admins):
    _first, season = cup(club, admins["club"])
    _second, other_season = cup(club, admins["club"], name="Spring cup")
    tournament = three_player_cup(club, admins["club"], "Ljubljana open", 5, ["Ana", "Bor", "Cene"])
    entry = services.add_tournament(season, tournament, admins["club"])
    with pytest.raises(services.ServiceError) as refused:
        services.add_tournament(other_season, tournament, admins["club"])
    assert refused.value.message == (
        "The tournament is in a standing series already (Winter cup): it may be in one."
    )
    start(tournament, 5)
    with pytest.raises(services.ServiceError) as refused:
        services.remove(entry)
    assert refused.value.message == "The tournament has started: it stays in the series."
    assert season.entries.filter(state=EntryState.JOINED).count() == 1


def test_a_match_of_two_accounts_is_refused_and_one_can_be_undone(
    club, other_club, admins, make_user, django_capture_on_commit_callbacks
):
    series, season = cup(club, admins["club"], open_to_other_clubs=True)
    ours = three_player_cup(club, admins["club"], "Ljubljana open", 5, ["Ana", "Bor", "Cene"])
    theirs = three_player_cup(
        other_club, admins["other_club"], "Zagreb open", 12, ["Ana", "Bor", "Eva"]
    )
    services.add_tournament(season, ours, admins["club"])
    services.accept(services.ask_to_join(season, theirs, admins["other_club"]), club)
    ana, their_ana = club.players.get(name="Ana"), other_club.players.get(name="Ana")
    bor, their_bor = club.players.get(name="Bor"), other_club.players.get(name="Bor")
    bor.user, their_bor.user = make_user("bor"), make_user("bor2")
    bor.save()
    their_bor.save()
    # Both Bors are offered? No: they are two accounts. Both Anas are.
    assert [(a.name, b.name) for a, b in people.possible_matches(series)] == [("Ana", "Ana")]
    with pytest.raises(services.ServiceError) as refused:
        people.match(series, bor, their_bor, admins["club"])
    assert refused.value.field == "other"
    made = people.match(series, ana, their_ana, admins["club"])
    # Transitive: matching Zagreb's Ana with Ljubljana's Cene makes one person of the three.
    cene = club.players.get(name="Cene")
    people.match(series, their_ana, cene, admins["club"])
    assert people.universe(series).person(cene.pk) == {ana.pk, their_ana.pk, cene.pk}
    people.unmatch(made)
    assert people.universe(series).person(ana.pk) == {ana.pk}
    assert people.universe(series).person(cene.pk) == {their_ana.pk, cene.pk}


def test_series_order_seats_by_the_rating_or_by_the_standing(
    rated, club, admins, django_capture_on_commit_callbacks
):
    series, season = rated["series"], rated["season"]
    people.match(series, *rated["ana"], admins["club"])
    play_the_third(rated, django_capture_on_commit_callbacks)
    ana, bor, cene = (club.players.get(name=n) for n in ("Ana", "Bor", "Cene"))
    zala = club.players.create(name="Zala")  # new to rated play: 10.1
    # Ratings: Ana 35.9, Cene 23.8, Bor 21.3; Zala 10.1.
    assert reading.series_order(season, [zala, bor, cene, ana]) == [ana, cene, bor, zala]
    standing, standing_season = cup(club, admins["club"])
    t = three_player_cup(club, admins["club"], "Cup", 26, ["Ana", "Bor", "Cene"], rounds=1)
    services.add_tournament(standing_season, t, admins["club"])
    start(t, 26)
    with django_capture_on_commit_callbacks(execute=True):
        play_round(t, 1, ["Bor", "Cene", "Ana"])
    assert reading.series_order(standing_season, [zala, ana, cene, bor]) == [bor, cene, ana, zala]
