"""RULES.md §8.6: one person across clubs, by one account or by the series' admins' matches."""

from __future__ import annotations

from scorebook.series.persons import persons, possible_matches, would_join_two_accounts


def test_one_account_makes_one_person_and_matches_are_transitive():
    # Players 1 (club A) and 2 (club B) share account 7; 3 is matched with 2, 4 with 3.
    grouping = persons([1, 2, 3, 4, 5], {1: 7, 2: 7}, [(2, 3), (3, 4)])
    assert grouping[1] == grouping[4] == frozenset({1, 2, 3, 4})
    assert grouping[5] == frozenset({5})


def test_undoing_a_match_splits_the_person_again():
    assert persons([1, 2, 3], {}, [(1, 2), (2, 3)])[1] == frozenset({1, 2, 3})
    after = persons([1, 2, 3], {}, [(1, 2)])
    assert after[1] == frozenset({1, 2}) and after[3] == frozenset({3})


def test_a_match_between_two_accounts_is_refused_also_through_others():
    accounts = {1: 7, 3: 8}
    grouping = persons([1, 2, 3], accounts, [(1, 2)])
    assert would_join_two_accounts(grouping[2], grouping[3], accounts)
    assert not would_join_two_accounts(grouping[2], frozenset({4}), accounts)


def test_a_same_name_in_two_clubs_is_offered_not_in_one_club_nor_twice():
    names = {1: "Ana Novak", 2: "ana  novak", 3: "Ana Novak", 4: "Bor", 5: "Ana Novak"}
    clubs = {1: "a", 2: "b", 3: "a", 4: "b", 5: "c"}
    accounts = {1: 7, 5: 8}
    grouping = persons(names, accounts, [(3, 2)])
    offered = possible_matches(names, clubs, grouping, accounts)
    # 1 and 5 are two accounts; 2 and 3 are one person already; 1 and 3 are of one club;
    # 3–5 are the same two persons as 2–5, offered once.
    assert offered == [(1, 2), (2, 5)]
