"""The draw (RULES.md §8.3, §8.5): who sits at which table of each round, and who has a bye.

The algorithms are the pure modules `scorebook.tournaments.seating` (random, groups, Swiss,
teammates apart, byes) and `knockout` (seeds and bracket); this module gives them the facts
from the database (registration ids, the standing's tiers, who met whom, who had a bye, the
teams) and seats what they draw. The draw uses random.Random seeded from the tournament's
`seed` and the round number, so a draw can be replayed. Each table is a scorebook Session
made with `scorebook.services.start_session`: its hands are recorded with the ordinary hand
form.
"""

from __future__ import annotations

import datetime
import random

from django.utils import timezone

from scorebook import services as core
from scorebook.tournaments import knockout, orders, seating
from scorebook.tournaments.models import (
    DrawMode,
    Placement,
    Registration,
    Round,
    Table,
    Tournament,
)
from scorebook.tournaments.services.ranking import swiss_tiers
from scorebook.tournaments.services.variants import family_sizes, family_variant, table_rules


def draw_first_round(tournament: Tournament, players: list[Registration], now, user) -> Round:
    """Round 1: `random`, or `groups` by the ranking the organiser named (RULES.md §8.3: the
    order of registration, or a series' standing or rating); a knockout's bracket (§8.5)."""
    if tournament.is_knockout:
        return _draw_knockout_first(tournament, players, now, user)
    rng = _rng(tournament, 1)
    by_id = {r.pk: r for r in players}
    size, sizes = tournament.table_size, family_sizes(tournament.variant)
    team_of = _teams(players)
    if tournament.draw_mode == DrawMode.GROUPS:
        ordered = [r.pk for r in orders.ranked(tournament, players)]
        drawn = seating.draw_groups(ordered, size, sizes, rng, team_of=team_of)
    else:
        drawn = seating.draw_random(sorted(by_id), size, sizes, rng, team_of=team_of)
    return _seat(tournament, 1, drawn, by_id, now, user)


def draw_next_round(tournament: Tournament, previous: Round, now, user) -> Round | None:
    """The round after `previous` (just completed), or None when the tournament is over: the
    knockout's winners meet; `random` draws anew; `swiss` and `groups` seat the standing."""
    if tournament.is_knockout:
        return _draw_knockout_next(tournament, previous, now, user)
    if previous.number >= tournament.rounds:
        return None
    number = previous.number + 1
    players = list(still_playing(tournament))
    by_id = {r.pk: r for r in players}
    size, sizes = tournament.table_size, family_sizes(tournament.variant)
    facts = {"had_bye": _had_bye(tournament), "team_of": _teams(players)}
    tiers = swiss_tiers(tournament, players)
    rng = _rng(tournament, number)
    if tournament.draw_mode == DrawMode.RANDOM:
        drawn = seating.draw_random(sorted(by_id), size, sizes, rng, standing=tiers, **facts)
    else:
        met = _met(tournament)
        drawn = seating.draw_swiss(tiers, size, sizes, rng, met=met, **facts)
    return _seat(tournament, number, drawn, by_id, now, user)


def still_playing(tournament: Tournament):
    """Who is seated in the next draw: everybody with a place who has not withdrawn."""
    return (
        tournament.registrations.filter(cancelled_at=None, has_place=True, withdrawn_at=None)
        .exclude(player=None)
        .select_related("player", "team")
        .order_by("pk")
    )


def _teams(players) -> dict[int, int]:
    return {r.pk: r.team_id for r in players if r.team_id}


def _had_bye(tournament: Tournament) -> set[int]:
    byes = Placement.objects.filter(round__tournament=tournament, table=None)
    return set(byes.values_list("registration_id", flat=True))


def _met(tournament: Tournament) -> list[list[int]]:
    """The tables of every round so far, as registration ids: who met whom."""
    tables: dict[int, list[int]] = {}
    seated = Placement.objects.filter(round__tournament=tournament).exclude(table=None)
    for table_id, registration_id in seated.values_list("table_id", "registration_id"):
        tables.setdefault(table_id, []).append(registration_id)
    return list(tables.values())


def _seat(tournament, number: int, drawn: seating.Draw, by_id, now, user) -> Round:
    """Open the drawn tables in order and give the byes."""
    rnd = Round.objects.create(tournament=tournament, number=number, drawn_at=now)
    for table_number, ids in enumerate(drawn.tables, start=1):
        _open_table(tournament, rnd, table_number, [by_id[i] for i in ids], now, user)
    Placement.objects.bulk_create(
        Placement(round=rnd, table=None, registration=by_id[i]) for i in drawn.byes
    )
    return rnd


def swiss_order(tournament: Tournament, number: int) -> list[Registration]:
    """Players for round `number` > 1, best first: the standing's tiers with every tie-break
    of RULES.md §8.4, each tier in the round's seeded random order."""
    players = list(still_playing(tournament))
    by_id = {r.pk: r for r in players}
    order = seating.standing_order(swiss_tiers(tournament, players), _rng(tournament, number))
    return [by_id[i] for i in order]


def _rng(tournament: Tournament, number: int) -> random.Random:
    return random.Random(tournament.seed * 1000 + number)


def _open_table(tournament, rnd, number, group, now, user, slot=None) -> Table:
    session = _table_session(tournament, group, now, user)
    table = Table.objects.create(
        round=rnd, number=number, session=session, ends_at=_ends_at(tournament, now)
    )
    _place(table, group, slot)
    return table


def _table_session(tournament: Tournament, group, now, user):
    """A table's sheet: the game of its size, the tournament's rules, `group` in seat order."""
    variant_id = family_variant(tournament.variant, len(group))
    preset, overrides, rules_name = table_rules(tournament, variant_id)
    return core.start_session(
        club=tournament.club,
        variant_id=variant_id,
        preset=preset,
        overrides=overrides,
        house_rules_name=rules_name,
        players=[r.player for r in group],
        user=user,
        date=timezone.localtime(now, tournament.tz).date(),
        confirmation=tournament.confirmation,
    )


def _ends_at(tournament: Tournament, now) -> datetime.datetime | None:
    if not tournament.is_timed:
        return None
    return now + datetime.timedelta(minutes=tournament.round_minutes)


def _place(table: Table, group, slot) -> None:
    Placement.objects.bulk_create(
        Placement(round=table.round, table=table, registration=r, seat=seat, slot=slot)
        for seat, r in enumerate(group, start=1)
    )


def _draw_knockout_first(tournament, players, now, user) -> Round:
    """Seeds in a seeded random order (`groups`: by the ranking the organiser named); when
    the count is not a power of two the first seeds have a bye (they go straight to round 2)."""
    if tournament.draw_mode == DrawMode.GROUPS:
        seeds = knockout.seeds(orders.ranked(tournament, players))
    else:
        seeds = knockout.seeds(sorted(players, key=lambda r: r.pk), _rng(tournament, 1))
    rnd = Round.objects.create(tournament=tournament, number=1, drawn_at=now)
    table_number = 0
    for slot, match in enumerate(knockout.first_round(seeds)):
        if len(match) == 2:
            table_number += 1
            _open_table(tournament, rnd, table_number, list(match), now, user, slot=slot)
        else:
            Placement.objects.create(
                round=rnd, table=None, registration=match[0], slot=slot, advanced=True
            )
    return rnd


def _draw_knockout_next(tournament, previous: Round, now, user) -> Round | None:
    winners = list(
        previous.placements.filter(advanced=True)
        .select_related("registration__player")
        .order_by("slot")
    )
    matches = knockout.next_round([w.registration for w in winners])
    if not matches:
        return None
    rnd = Round.objects.create(tournament=tournament, number=previous.number + 1, drawn_at=now)
    for slot, match in enumerate(matches):
        _open_table(tournament, rnd, slot + 1, list(match), now, user, slot=slot)
    return rnd


def replace_table(tournament: Tournament, table: Table, group: list[Registration], now, user):
    """Seat `group` at `table` afresh (a table with no hand yet): its empty session goes, a
    new one with the same number takes its place. Returns the new table."""
    rnd, number = table.round, table.number
    slot = table.placements.values_list("slot", flat=True).first()
    session = table.session
    table.delete()
    session.delete()
    return _open_table(tournament, rnd, number, group, now, user, slot=slot)


def replay_table(tournament: Tournament, table: Table, group: list[Registration], now, user):
    """A knockout match played again (RULES.md §8.2, the organiser's "replay"): `group` sits
    at a fresh sheet under the same table, which is open again. Returns the old sheet, which
    the caller keeps as the record of what was played."""
    old = table.session
    slot = table.placements.values_list("slot", flat=True).first()
    table.placements.all().delete()
    table.session = _table_session(tournament, group, now, user)
    table.finished_at, table.ended_by_tap = None, False
    table.ends_at = _ends_at(tournament, now)
    table.save(update_fields=["session", "finished_at", "ended_by_tap", "ends_at"])
    _place(table, group, slot)
    return old


def reseat_match(tournament, table: Table, winner: Registration, losers: set[int], now):
    """A corrected knockout match: its new winner takes the old winner's seat next round."""
    group = [p.registration for p in table.placements.select_related("registration__player")]
    group = [winner if r.pk in losers else r for r in group]
    return replace_table(tournament, table, group, now, None)


def reseated_order(tournament: Tournament, table: Table) -> list[Registration]:
    """The table's players in a new seeded order (the organiser reseats before a hand)."""
    group = [p.registration for p in table.placements.select_related("registration__player")]
    rng = random.Random(tournament.seed * 1000 + table.round.number * 100 + table.number)
    for _ in range(10):  # a shuffle that changes nobody's seat is no reseating
        order = list(group)
        rng.shuffle(order)
        if order != group:
            return order
    return group[1:] + group[:1]
