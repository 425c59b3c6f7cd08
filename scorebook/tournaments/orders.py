"""The rankings a `groups` draw and a knockout's seeds may follow (RULES.md §8.3, §8.5): the
order of registration, or an order another app names.

The series app imports the tournaments app (a series reads its tournaments), so the
tournaments app cannot import the series app: the series app registers its standing and its
rating here in its AppConfig.ready(), and the draw asks this registry by the name the
tournament stores (`Tournament.draw_order`; "" is the order of registration).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scorebook.models import Player
from scorebook.tournaments.models import Registration, Tournament


@dataclass(frozen=True)
class Order:
    """A ranking a tournament may be drawn by. `applies` says whether this tournament has one
    (it is in such a series); `best_first` sorts its players (in the order of registration),
    keeping those it does not rank after the others, as they came, and all of them as they
    came where it does not apply; `missing` is the refusal when it does not apply."""

    name: str
    label: object  # a lazy translation: said in the reader's language
    applies: Callable[[Tournament], bool]
    best_first: Callable[[Tournament, Sequence[Player]], list[Player]]
    missing: object


_ORDERS: dict[str, Order] = {}


def register(order: Order) -> None:
    _ORDERS[order.name] = order


def named(name: str) -> Order | None:
    return _ORDERS.get(name)


def choices() -> list[tuple[str, object]]:
    """The registered orders as a form offers them (the order of registration is "")."""
    return [(order.name, order.label) for order in _ORDERS.values()]


def by_registration(players: Sequence[Registration]) -> list[Registration]:
    return sorted(players, key=lambda r: (r.registered_at, r.pk))


def ranked(tournament: Tournament, players: Sequence[Registration]) -> list[Registration]:
    """`players` best first by the tournament's chosen ranking; by the order of registration
    when it chose none, or when the series it chose left the tournament before the start."""
    in_order = by_registration(players)
    order = named(tournament.draw_order)
    if order is None:
        return in_order
    # best_first keeps them as they came where the order does not apply: no second ask.
    by_player = {r.player_id: r for r in in_order}
    return [by_player[p.pk] for p in order.best_first(tournament, [r.player for r in in_order])]
