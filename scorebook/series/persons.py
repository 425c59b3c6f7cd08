"""One person across the clubs of a series (RULES.md §8.6), no Django: roster players are one
person when they are linked to one account, or when the series' admins matched them.

A match is a link, not a merge: each club keeps its player. Matches are transitive (a person is
a connected group of roster players), undone by removing the match, and refused where they
would make one person of two accounts. Names alone never join two players: a same name is only
offered as a possible match.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Hashable, Iterable, Mapping


class _Groups:
    """Union–find over roster player ids."""

    def __init__(self) -> None:
        self.parent: dict[Hashable, Hashable] = {}

    def find(self, item: Hashable) -> Hashable:
        self.parent.setdefault(item, item)
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def join(self, one: Hashable, other: Hashable) -> None:
        self.parent[self.find(one)] = self.find(other)


def persons(
    players: Iterable[Hashable],
    accounts: Mapping[Hashable, Hashable | None],
    matches: Iterable[tuple[Hashable, Hashable]],
) -> dict[Hashable, frozenset]:
    """{player: the players that are the same person (himself included)}."""
    groups = _Groups()
    by_account: dict[Hashable, Hashable] = {}
    for player in players:
        groups.find(player)
        account = accounts.get(player)
        if account is not None:
            if account in by_account:
                groups.join(player, by_account[account])
            by_account[account] = player
    for one, other in matches:
        groups.join(one, other)
    members: dict[Hashable, set] = {}
    for player in list(groups.parent):
        members.setdefault(groups.find(player), set()).add(player)
    return {player: frozenset(members[groups.find(player)]) for player in groups.parent}


def accounts_of(group: Iterable[Hashable], accounts: Mapping[Hashable, Hashable | None]) -> set:
    return {accounts[p] for p in group if accounts.get(p) is not None}


def would_join_two_accounts(
    one: frozenset, other: frozenset, accounts: Mapping[Hashable, Hashable | None]
) -> bool:
    """Whether matching a player of `one` with a player of `other` (two persons) would make one
    person of two different accounts: refused, since each account is a person of its own."""
    return len(accounts_of(one | other, accounts)) > 1


def same_name(name: str) -> str:
    """A name as a possible match compares it: letters' case and accents' composition aside."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def possible_matches(
    names: Mapping[Hashable, str],
    clubs: Mapping[Hashable, Hashable],
    grouping: Mapping[Hashable, frozenset],
    accounts: Mapping[Hashable, Hashable | None],
) -> list[tuple[Hashable, Hashable]]:
    """Pairs of players of two clubs with the same name who are not one person yet and could
    be (not two accounts): offered to the series' admins, never applied."""
    by_name: dict[str, list[Hashable]] = {}
    for player, name in names.items():
        by_name.setdefault(same_name(name), []).append(player)
    pairs, offered = [], set()
    for group in by_name.values():
        for i, one in enumerate(group):
            for other in group[i + 1 :]:
                mine, theirs = grouping[one], grouping[other]
                if clubs[one] == clubs[other] or mine == theirs:
                    continue
                if frozenset((mine, theirs)) in offered:
                    continue  # the same two persons, by other roster players
                if not would_join_two_accounts(mine, theirs, accounts):
                    offered.add(frozenset((mine, theirs)))
                    pairs.append((one, other))
    return pairs
