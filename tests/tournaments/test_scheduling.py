"""Registration, waiting list, presence confirmation and the start, with a clock the test sets.

The tournament starts on Saturday 5 December 2026 at 19:00 in Ljubljana.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.core.management import call_command

from scorebook.services import ServiceError
from scorebook.tournaments import services
from scorebook.tournaments.models import Status
from tests.tournaments.helpers import CREATED, START, at


def names(registrations) -> list[str]:
    return [r.user.first_name for r in registrations]


def test_places_then_waiting_list_in_order_of_registration(make_tournament, people):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:6]]
    assert [r.has_place for r in regs] == [True, True, True, True, False, False]
    assert services.status_of(regs[0]) == "place"
    assert services.status_of(regs[4]) == "waiting"
    with pytest.raises(ServiceError, match="already registered"):
        services.register(tournament, people[0], now=CREATED)


def test_registration_closes_at_the_start_by_default(make_tournament, people):
    tournament = make_tournament()
    assert services.registration_closes_at(tournament) == START
    services.register(tournament, people[0], now=at(18, 59, 59))
    with pytest.raises(ServiceError, match="closed"):
        services.register(tournament, people[1], now=START)


def test_registration_closes_when_the_organiser_says(make_tournament, people):
    tournament = make_tournament(registration_closes_at=at(12, 0))
    services.register(tournament, people[0], now=at(11, 59, 59))
    with pytest.raises(ServiceError, match="closed"):
        services.register(tournament, people[1], now=at(12, 0))
    with pytest.raises(ServiceError, match="at the start at the latest") as refused:
        make_tournament(registration_closes_at=at(19, 1))
    assert refused.value.field == "registration_closes_at"


def test_a_tournament_may_start_today_but_not_in_the_past(make_tournament):
    assert make_tournament(now=at(9, 0)).starts_at == START
    with pytest.raises(ServiceError, match="later time"):
        make_tournament(now=START)


def test_members_only_unless_open_to_all(make_tournament, make_user):
    stranger = make_user("tomo")
    members_only = make_tournament()
    with pytest.raises(ServiceError, match="members"):
        services.register(members_only, stranger, now=CREATED)
    open_one = make_tournament(name="Open cup", open_to_all=True)
    assert services.register(open_one, stranger, now=CREATED).has_place


def test_cancelling_a_place_moves_the_first_waiting_player_up(make_tournament, people):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:6]]
    # Eva and Fran wait; Eva confirmed nothing yet. Bor cancels at 18:30 on the day.
    services.cancel_registration(regs[1], now=at(18, 30))
    for r in regs:
        r.refresh_from_db()
    assert regs[1].cancelled_at is not None and not regs[1].has_place
    assert regs[4].has_place  # Eva moves up ...
    assert regs[4].confirmed_at is None  # ... and must still confirm
    assert not regs[5].has_place  # Fran still waits
    # Eva's place is a place like any other: unconfirmed at the start, she loses it.
    for r in (regs[0], regs[2], regs[3]):
        services.confirm_presence(r, now=at(18, 50))
    services.start_tournament(tournament, now=START)
    regs[4].refresh_from_db()
    assert regs[4].absent and not regs[4].has_place


def test_cancel_any_time_before_the_start_but_not_after(make_tournament, people):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:5]]
    services.cancel_registration(regs[0], now=at(18, 59, 59))
    with pytest.raises(ServiceError, match="too late"):
        services.cancel_registration(regs[1], now=START)


def test_signing_up_again_after_cancelling_goes_to_the_back(make_tournament, people):
    tournament = make_tournament(capacity=4)
    ana, *_, eva = (services.register(tournament, u, now=CREATED) for u in people[:5])
    services.cancel_registration(ana, now=CREATED)
    again = services.register(tournament, people[0], now=CREATED)
    assert not again.has_place  # Eva moved up into Ana's place
    eva.refresh_from_db()
    assert eva.has_place


def test_confirmation_window_is_the_last_15_minutes_for_places_and_waiting(make_tournament, people):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:5]]
    with pytest.raises(ServiceError, match="18:45"):
        services.confirm_presence(regs[0], now=at(18, 44, 59))
    services.confirm_presence(regs[0], now=at(18, 45))
    eva = services.confirm_presence(regs[4], now=at(18, 58))  # waiting, she confirms too
    assert eva.confirmed_at == at(18, 58)
    with pytest.raises(ServiceError, match="until the start"):
        services.confirm_presence(regs[1], now=START)


def test_at_the_start_confirmed_waiting_players_take_freed_places_in_order_of_confirmation(
    make_tournament, people
):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:8]]
    ana, bor, cene, dani, eva, fran, gal, hana = regs
    # Bor and Dani (places) never confirm. Of the waiting list, Gal confirms first, then Eva;
    # Fran and Hana do not confirm.
    services.confirm_presence(ana, now=at(18, 46))
    services.confirm_presence(cene, now=at(18, 47))
    services.confirm_presence(gal, now=at(18, 48))
    services.confirm_presence(eva, now=at(18, 55))
    tournament = services.start_tournament(tournament, now=START)
    assert tournament.status == Status.RUNNING
    active = tournament.registrations.filter(cancelled_at=None).select_related("user")
    assert sorted(names(active.filter(has_place=True))) == ["Ana", "Cene", "Eva", "Gal"]
    assert sorted(names(active.filter(absent=True))) == ["Bor", "Dani"]
    # Waiting players who did not confirm stay waiting.
    assert sorted(names(active.filter(has_place=False, absent=False))) == ["Fran", "Hana"]
    table = tournament.round_set.get().tables.get()
    assert sorted(p.name for p in table.session.seated_players()) == ["Ana", "Cene", "Eva", "Gal"]


def test_only_the_earliest_confirmed_waiting_players_get_the_freed_places(make_tournament, people):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:7]]
    for r in regs[:3]:
        services.confirm_presence(r, now=at(18, 50))
    # One place is freed (Dani); Gal confirmed before Fran and Eva.
    services.confirm_presence(regs[6], now=at(18, 51))
    services.confirm_presence(regs[5], now=at(18, 52))
    services.confirm_presence(regs[4], now=at(18, 53))
    services.start_tournament(tournament, now=START)
    placed = tournament.registrations.filter(has_place=True).select_related("user")
    assert sorted(names(placed)) == ["Ana", "Bor", "Cene", "Gal"]


def test_too_few_confirmed_players_cancel_and_everybody_registered_is_emailed(
    make_tournament, people, django_capture_on_commit_callbacks
):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:6]]
    services.cancel_registration(regs[5], now=CREATED)  # Fran cancelled: not told again
    for r in regs[:3]:
        services.confirm_presence(r, now=at(18, 50))
    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.start_tournament(tournament, now=START)
    assert tournament.status == Status.CANCELLED
    assert not tournament.round_set.exists()
    assert sorted(m.to[0] for m in mail.outbox) == [
        "ana@example.org",
        "bor@example.org",
        "cene@example.org",
        "dani@example.org",
        "eva@example.org",
    ]
    assert mail.outbox[0].subject == "Advent cup is cancelled"
    assert "5\xa0Dec\xa02026 at 19:00" in mail.outbox[0].body


def test_cancelled_early_start_mails_the_announced_start(
    make_tournament, people, django_capture_on_commit_callbacks
):
    tournament = make_tournament(capacity=4)
    services.register(tournament, people[0], now=CREATED)
    with django_capture_on_commit_callbacks(execute=True):
        tournament = services.start_tournament(tournament, now=at(18, 50))
    assert tournament.status == Status.CANCELLED
    assert tournament.starts_at == START
    assert "5\xa0Dec\xa02026 at 19:00" in mail.outbox[0].body


def test_admin_may_start_early_once_confirmation_opens(make_tournament, people):
    tournament = make_tournament(capacity=4)
    regs = [services.register(tournament, u, now=CREATED) for u in people[:4]]
    with pytest.raises(ServiceError, match="confirmation opens"):
        services.start_tournament(tournament, now=at(18, 44))
    for r in regs:
        services.confirm_presence(r, now=at(18, 46))
    tournament = services.start_tournament(tournament, now=at(18, 50))
    assert tournament.status == Status.RUNNING
    assert tournament.starts_at == at(18, 50)
    with pytest.raises(ServiceError, match="already started"):
        services.start_tournament(tournament, now=at(18, 51))


def test_tick_starts_tournaments_whose_start_has_passed(make_tournament, people, capsys):
    tournament = make_tournament(capacity=4)
    for u in people[:4]:
        services.confirm_presence(services.register(tournament, u, now=CREATED), now=at(18, 50))
    assert services.process_due(now=at(18, 59)) == []
    done = services.process_due(now=at(19, 0, 30))
    assert [(t.pk, outcome) for t, outcome in done] == [(tournament.pk, "in play")]
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING
    assert tournament.starts_at == START  # a late tick does not move the start
    # The command runs the same processing with the real clock: nothing left to do.
    call_command("tournament_tick")
    assert "Advent cup" not in capsys.readouterr().out
