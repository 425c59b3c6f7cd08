"""The draw (RULES.md §8): who sits at which table of each round, and who has a bye.

The draw uses random.Random seeded from the tournament's `seed` and the round number, so a
draw can be replayed. A Swiss round seats the players in order (round 1 at random, later
rounds by the standings); a knockout seeds a bracket. Each table is a scorebook Session made
with `scorebook.services.start_session`: its hands are recorded with the ordinary hand form.
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Iterable

from django.utils import timezone

from scorebook import services as core
from scorebook.tournaments.models import (
    DrawMode,
    Placement,
    Registration,
    Round,
    Table,
    Tournament,
)
from scorebook.tournaments.services.ranking import players_with_totals
from scorebook.tournaments.services.variants import family_variant, table_rules, table_sizes


def draw_first_round(tournament: Tournament, players: list[Registration], now, user) -> Round:
    """Round 1: a Swiss round in a seeded random order, or a knockout's seeded bracket."""
    if tournament.is_knockout:
        return _draw_knockout_first(tournament, players, now, user)
    return _draw_swiss(tournament, 1, _random_order(tournament, 1, players), now, user)


def draw_next_round(tournament: Tournament, previous: Round, now, user) -> Round | None:
    """The round after `previous` (just completed), or None when the tournament is over: the
    knockout's winners meet, or a Swiss round seats the standings' order until the last."""
    if tournament.is_knockout:
        return _draw_knockout_next(tournament, previous, now, user)
    if previous.number < tournament.rounds:
        number = previous.number + 1
        if tournament.draw_mode == DrawMode.RANDOM:
            order = _random_order(tournament, number, still_playing(tournament))
        else:  # swiss, and groups after round 1 (RULES.md §8.3)
            order = swiss_order(tournament, number)
        return _draw_swiss(tournament, number, order, now, user)
    return None


def still_playing(tournament: Tournament):
    """Who is seated in the next draw: everybody with a place who has not withdrawn."""
    return players_with_totals(tournament).filter(withdrawn_at=None)


def _rng(tournament: Tournament, number: int) -> random.Random:
    return random.Random(tournament.seed * 1000 + number)


def _random_order(tournament: Tournament, number: int, players: Iterable[Registration]):
    players = sorted(players, key=lambda r: r.pk)
    _rng(tournament, number).shuffle(players)
    return players


def _open_table(tournament, rnd, number, group, now, user, slot=None) -> Table:
    variant_id = family_variant(tournament.variant, len(group))
    preset, overrides, rules_name = table_rules(tournament, variant_id)
    session = core.start_session(
        club=tournament.club,
        variant_id=variant_id,
        preset=preset,
        overrides=overrides,
        house_rules_name=rules_name,
        players=[r.player for r in group],
        user=user,
        date=timezone.localtime(now, tournament.tz).date(),
    )
    ends_at = (
        now + datetime.timedelta(minutes=tournament.round_minutes) if tournament.is_timed else None
    )
    table = Table.objects.create(round=rnd, number=number, session=session, ends_at=ends_at)
    Placement.objects.bulk_create(
        Placement(round=rnd, table=table, registration=r, seat=seat, slot=slot)
        for seat, r in enumerate(group, start=1)
    )
    return table


def _draw_swiss(tournament, number: int, order: list[Registration], now, user) -> Round:
    """Seat `order` (best first) at tables in that order; the remainder either forms the last,
    smaller table or sits out with a bye. Byes go to the lowest who have not had one yet."""
    rnd = Round.objects.create(tournament=tournament, number=number, drawn_at=now)
    sizes, byes = table_sizes(tournament, len(order))
    order = list(order)
    sitting_out: list[Registration] = []
    if byes:
        had_bye = set(
            Placement.objects.filter(round__tournament=tournament, table=None).values_list(
                "registration_id", flat=True
            )
        )
        for registration in reversed(order):
            if len(sitting_out) < byes and registration.pk not in had_bye:
                sitting_out.append(registration)
        for registration in reversed(order):
            if len(sitting_out) < byes and registration not in sitting_out:
                sitting_out.append(registration)
        order = [r for r in order if r not in sitting_out]
    start = 0
    for table_number, size in enumerate(sizes, start=1):
        _open_table(tournament, rnd, table_number, order[start : start + size], now, user)
        start += size
    Placement.objects.bulk_create(
        Placement(round=rnd, table=None, registration=r) for r in sitting_out
    )
    return rnd


def swiss_order(tournament: Tournament, number: int) -> list[Registration]:
    """Players for round `number` > 1, best first: placement points, then total units, then a
    seeded random order (RULES.md §8)."""
    players = list(still_playing(tournament))
    rng = _rng(tournament, number)
    draw = {r.pk: rng.random() for r in players}
    return sorted(players, key=lambda r: (-r.total_points, -r.total_units, draw[r.pk]))


def bracket_positions(size: int) -> list[int]:
    """Seeds in bracket order for a bracket of `size` (a power of two): 1, 8, 4, 5, 2, 7, 3, 6
    for 8, so seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        order = [s for seed in order for s in (seed, 2 * len(order) + 1 - seed)]
    return order


def _draw_knockout_first(tournament, players, now, user) -> Round:
    """Seeds in a seeded random order; when the count is not a power of two the first seeds
    have a bye (they go straight to round 2)."""
    seeds = _random_order(tournament, 1, players)
    size = 1
    while size < len(seeds):
        size *= 2
    positions = bracket_positions(size)
    rnd = Round.objects.create(tournament=tournament, number=1, drawn_at=now)
    table_number = 0
    for slot in range(size // 2):
        a, b = positions[2 * slot], positions[2 * slot + 1]
        group = [seeds[s - 1] for s in (a, b) if s <= len(seeds)]
        if len(group) == 2:
            table_number += 1
            _open_table(tournament, rnd, table_number, group, now, user, slot=slot)
        else:
            Placement.objects.create(
                round=rnd, table=None, registration=group[0], slot=slot, advanced=True
            )
    return rnd


def _draw_knockout_next(tournament, previous: Round, now, user) -> Round | None:
    winners = list(
        previous.placements.filter(advanced=True)
        .select_related("registration__player")
        .order_by("slot")
    )
    if len(winners) < 2:
        return None
    rnd = Round.objects.create(tournament=tournament, number=previous.number + 1, drawn_at=now)
    for slot in range(len(winners) // 2):
        group = [winners[2 * slot].registration, winners[2 * slot + 1].registration]
        _open_table(tournament, rnd, slot + 1, group, now, user, slot=slot)
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
