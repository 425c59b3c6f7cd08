"""Two tables save their last hands at the same moment: the next round is drawn once."""

import threading

import pytest
from django.db import close_old_connections, connection

from scorebook.tournaments.models import Placement, Round, Status, Table
from tests.tournaments.helpers import klop, seated


@pytest.mark.django_db(transaction=True)
def test_last_hands_of_a_round_saved_at_once_draw_the_next_round_once(started):
    if connection.vendor == "sqlite":
        assert "memory" not in str(connection.settings_dict["NAME"])
    tournament = started(8, rounds=2)
    tables = list(Round.objects.get(tournament=tournament, number=1).tables.all())
    barrier = threading.Barrier(len(tables))
    errors: list[BaseException] = []

    def play(table):
        try:
            a, b, c, d = seated(table)
            barrier.wait(timeout=10)
            # Saving the hand commits, and the save signal finishes the table after the commit.
            klop(table, **{a: 5, b: 10, c: 20, d: 35})
        except BaseException as exc:
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=play, args=(t,)) for t in tables]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    assert Table.objects.filter(round__number=1, finished_at=None).count() == 0
    assert Round.objects.filter(tournament=tournament).count() == 2
    assert Table.objects.filter(round__number=2).count() == 2
    assert Placement.objects.filter(round__number=2).count() == 8
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING
