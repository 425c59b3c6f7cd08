"""Rows a module makes once (tests/conftest.py's `built_once`, as test_access and the public
pages do) are, at the start of each of its tests, as they were made: what one test changes, in
the database or on its copies in memory, is undone before the next."""

import pytest

from tests.conftest import new_club, new_players

# The two tests run in this order, on one worker (make test and make test-fast: loadgroup).
pytestmark = pytest.mark.xdist_group("rows-made-once")
RAN = []


@pytest.fixture(scope="module")
def made(built_once) -> dict:
    club = new_club()
    return {"club": club, "players": new_players(club)}


def test_a_test_changes_the_rows_in_the_database_and_in_memory(here):
    from scorebook.models import Player

    here["club"].name = "Renamed"
    here["club"].save()
    here["players"][0].delete()  # also sets this copy's pk to None
    Player.objects.create(club=here["club"], name="Zala")
    RAN.append("changed")


def test_the_next_test_finds_them_as_made(here):
    from scorebook.models import Club, Player

    assert RAN == ["changed"]  # it ran after the one that changed them
    assert here["club"].name == "Ljubljana Tarock"
    assert list(Club.objects.values_list("name", flat=True)) == ["Ljubljana Tarock"]
    names = list(Player.objects.order_by("pk").values_list("name", flat=True))
    assert names == ["Ana", "Bor", "Cene", "Dani", "Eva"]
    assert here["players"][0].pk == Player.objects.get(name="Ana").pk
