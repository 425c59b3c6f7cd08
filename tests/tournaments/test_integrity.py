"""Integrity of a tournament day (RULES.md §8.1–8.2): the tournament's own rules at every
table, a corrected hand after its round, and one registration per person."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorebook import hands
from scorebook.errors import ServiceError
from scorebook.models import Hand, HouseRules, Player
from scorebook.tournaments import services
from scorebook.tournaments.models import Event, Round
from tests.tournaments.helpers import CREATED, START, at, klop, record, seated

D = Decimal


def tables_of(tournament, number):
    return list(Round.objects.get(tournament=tournament, number=number).tables.all())


# --- The tournament's rules -------------------------------------------------------------------


def test_a_tarzs_tournament_plays_tarzs_at_every_table_even_the_smaller_one(started):
    tournament = started(7, rules_choice="tarzs")
    tables = tables_of(tournament, 1)
    assert [(t.session.variant, t.session.preset) for t in tables] == [
        ("slovenian-4", "tarzs"),
        ("slovenian-3", "tarzs"),
    ]
    assert services.rules_label(tournament) == "Tarok zveza Slovenije (TARZS)"


def test_a_house_rules_set_is_frozen_at_the_start(club, started):
    friday = HouseRules.objects.create(
        club=club,
        variant="slovenian-4",
        name="Friday",
        preset="tarzs",
        overrides={"radelci": True, "radelc_penalty": -100},
    )
    tournament = started(4, rules_choice=f"house-{friday.pk}")
    # Changed after the start: round 2 still plays the rules frozen at the start.
    friday.overrides = {"radelci": False}
    friday.save()
    (table,) = tables_of(tournament, 1)
    klop(table, **dict(zip(seated(table), [5, 10, 20, 35], strict=True)))
    services.sync_tournament(tournament)
    (table2,) = tables_of(tournament, 2)
    for session in (table.session, table2.session):
        assert session.house_rules_name == "Friday"
        assert (session.preset, session.rules["radelc_penalty"]) == ("tarzs", -100)
        assert session.rules["radelci"] is True


def test_rules_the_game_does_not_have_are_refused_at_their_field(make_tournament, club):
    other = HouseRules.objects.create(club=club, variant="czech", name="Praha", preset="seed")
    with pytest.raises(ServiceError) as refused:
        make_tournament(rules_choice="fft")
    assert refused.value.field == "rules"
    with pytest.raises(ServiceError) as refused:
        make_tournament(rules_choice=f"house-{other.pk}")
    assert refused.value.field == "rules"
    assert "Praha" in refused.value.message


# --- A corrected hand after its round ---------------------------------------------------------


def _edit(table, number, data, admin):
    hand = Hand.objects.get(session=table.session, number=number)
    return hands.edit_hand(hand, data, hand.version, admin, change_closed=True)


def test_a_correction_after_the_round_recomputes_tells_and_keeps_the_next_draw(
    started, organiser, django_capture_on_commit_callbacks
):
    tournament = started(4)
    (table,) = tables_of(tournament, 1)
    a, b, c, d = seated(table)
    klop(table, **{a: 5, b: 10, c: 20, d: 35})
    services.sync_tournament(tournament)
    (table2,) = tables_of(tournament, 2)
    drawn = seated(table2)
    points = {p.registration.player.name: p.points for p in table.placements.all()}
    assert points == {a: D(3), b: D(2), c: D(1), d: D(0)}
    # The scorer swapped Ana's and Dani's piles: the organiser corrects it after the round.
    with django_capture_on_commit_callbacks(execute=True):
        _edit(
            table,
            1,
            {"contract": "klop", "points_by_player": {a: 35, b: 10, c: 20, d: 5}},
            organiser,
        )
    points = {p.registration.player.name: p.points for p in table.placements.all()}
    assert points == {a: D(0), b: D(2), c: D(1), d: D(3)}
    standings = {s.registration.player.name: s.points for s in services.standings(tournament)}
    assert standings == {a: D(0), b: D(2), c: D(1), d: D(3)}
    assert seated(tables_of(tournament, 2)[0]) == drawn  # round 2 stays as drawn
    (told,) = services.unseen_events(tournament)
    assert (told.kind, told.round_number, told.table_number) == (Event.Kind.CORRECTED, 1, 1)


def game(table, **points):
    return record(table, {"contract": "game", "announcer": None, "points_by_player": points})


def _knockout_of_four(started):
    tournament = started(4, variant="slovenian-2", hands_per_table=1)
    m1, m2 = tables_of(tournament, 1)
    (x1, y1), (x2, y2) = seated(m1), seated(m2)
    game(m1, **{x1: 40, y1: 30})
    game(m2, **{x2: 40, y2: 30})
    services.sync_tournament(tournament)
    return tournament, m1, (x1, y1), (x2, y2)


def test_a_changed_knockout_winner_redraws_the_next_match_without_a_hand(
    started, organiser, django_capture_on_commit_callbacks
):
    tournament, m1, (x1, y1), (x2, _y2) = _knockout_of_four(started)
    assert seated(tables_of(tournament, 2)[0]) == [x1, x2]
    flipped = {"contract": "game", "announcer": None, "points_by_player": {x1: 30, y1: 40}}
    with django_capture_on_commit_callbacks(execute=True):
        _edit(m1, 1, flipped, organiser)
    assert seated(tables_of(tournament, 2)[0]) == [y1, x2]
    kinds = [e.kind for e in services.unseen_events(tournament)]
    assert kinds == [Event.Kind.KNOCKOUT_REDRAWN, Event.Kind.CORRECTED]


def test_a_changed_knockout_winner_after_the_next_match_began_is_the_organisers_call(
    started, organiser, django_capture_on_commit_callbacks
):
    tournament, m1, (x1, y1), (x2, _y2) = _knockout_of_four(started)
    (final,) = tables_of(tournament, 2)
    # The final has begun (a redeal: no deal, so it does not finish the match).
    record(final, {"contract": "redeal"})
    flipped = {"contract": "game", "announcer": None, "points_by_player": {x1: 30, y1: 40}}
    with django_capture_on_commit_callbacks(execute=True):
        _edit(m1, 1, flipped, organiser)
    assert seated(tables_of(tournament, 2)[0]) == [x1, x2]  # kept until he decides
    kinds = [e.kind for e in services.unseen_events(tournament)]
    assert kinds == [Event.Kind.KNOCKOUT_DECIDE, Event.Kind.CORRECTED]


# --- One registration per person --------------------------------------------------------------


def test_a_walk_in_of_a_member_registered_online_is_refused_never_name_2(
    make_tournament, people, club
):
    tournament = make_tournament()
    bor = people[1]
    bor.last_name = "Zupan"
    bor.save()
    services.register(tournament, bor, now=CREATED)
    with pytest.raises(ServiceError) as refused:
        services.add_walk_in(tournament, name="Bor  zupan", now=at(18, 40))
    assert refused.value.field == "name"
    assert "Bor Zupan registered online already" in refused.value.message
    assert not Player.objects.filter(club=club, name__istartswith="Bor").exists()


def test_a_member_whose_name_the_organiser_added_at_the_door_is_told_it_is_his(
    make_tournament, people, club
):
    tournament = make_tournament()
    services.add_walk_in(tournament, name="Ana", now=CREATED)
    with pytest.raises(ServiceError) as refused:
        services.register(tournament, people[0], now=CREATED)
    assert "added by the organiser at the door" in refused.value.message
    for user in people[1:4]:
        services.confirm_presence(services.register(tournament, user, now=CREATED), now=at(18, 50))
    services.start_tournament(tournament, now=START)
    names = sorted(Player.objects.filter(club=club).values_list("name", flat=True))
    assert names == ["Ana", "Bor", "Cene", "Dani"]
