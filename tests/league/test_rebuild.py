"""rebuild_ratings: incremental after a change gives exactly what a full rebuild gives."""

import datetime
import uuid
from decimal import Decimal

from django.core.management import call_command

from scorebook import hands
from scorebook import services as hand_services
from scorebook.league import services
from scorebook.league.models import ContractTally, PlayerSession, Rating, StaleFamily

from .conftest import add_hand, add_session


def snapshot(club):
    return (
        sorted(
            Rating.objects.filter(club=club).values_list(
                "family", "player__name", "rating", "hands"
            )
        ),
        sorted(
            PlayerSession.objects.filter(club=club).values_list(
                "session_id",
                "player__name",
                "hands",
                "total",
                "declared",
                "won",
                "rating_after",
                "rated_after",
                "closed_total",
                "net",
            )
        ),
        sorted(
            ContractTally.objects.filter(club=club).values_list(
                "session_id", "player__name", "contract", "declared", "won"
            )
        ),
    )


def assert_same_as_full(club):
    incremental = snapshot(club)
    services.rebuild_ratings(club, full=True)
    assert incremental == snapshot(club)


def test_nothing_changed_reads_nothing(club, history):
    assert services.rebuild_ratings(club) == 7  # every hand that is not voided
    assert services.rebuild_ratings(club) == 0
    assert services.rebuild_ratings(club, "slovenian") == 0


def test_a_new_hand_reads_only_its_session(club, history):
    services.rebuild_ratings(club)
    add_hand(
        history["C"],
        2,
        {"Ana": 30, "Bor": -10, "Cene": -10, "Dani": -10},
        declarer="Ana",
        contract="solo",
    )
    assert services.rebuild_ratings(club, "czech") == 2
    assert_same_as_full(club)
    assert Rating.objects.get(family="czech", player__name="Ana").hands == 2


def test_an_edit_in_an_old_session_rebuilds_from_there(club, history):
    services.rebuild_ratings(club)
    hand = history["A"].hands.get(number=2)
    entry = hand.entries.get(player__name="Bor")
    entry.amount = Decimal(40)  # Bor won after all
    entry.save()
    hand.version += 1
    hand.save()
    assert services.rebuild_ratings(club, "slovenian") == 6  # A's four and B's two
    assert_same_as_full(club)
    assert Rating.objects.get(family="slovenian", player__name="Bor").rating > Decimal("1500")


def test_a_session_dated_earlier_is_rated_first(club, history, players):
    services.rebuild_ratings(club)
    before = Rating.objects.get(family="slovenian", player__name="Ana").rating
    early = add_session(club, "slovenian-4", datetime.date(2026, 10, 1), players[:4])
    add_hand(early, 1, {"Ana": 50, "Bor": 0, "Cene": 0, "Dani": 0}, declarer="Ana")
    services.rebuild_ratings(club)
    assert_same_as_full(club)
    assert Rating.objects.get(family="slovenian", player__name="Ana").rating != before
    # Its line is the first of Ana's evenings: rating after it 1512 (beat three at 1500).
    first = PlayerSession.objects.filter(player__name="Ana").order_by("date").first()
    assert (first.session_id, round(first.rating_after, 2)) == (early.pk, 1512.0)


def test_a_deleted_or_moved_session_is_noticed(club, history):
    services.rebuild_ratings(club)
    history["A"].delete()
    services.rebuild_ratings(club)
    assert_same_as_full(club)
    assert Rating.objects.get(family="slovenian", player__name="Eva").rating == Decimal("1512.00")
    history["B"].date = datetime.date(2027, 1, 1)
    history["B"].save()
    services.rebuild_ratings(club)
    assert_same_as_full(club)


def test_with_the_hand_services(
    club, session, players, members, django_capture_on_commit_callbacks
):
    """Recorded, then voided through scorebook.services: the change marks the family stale,
    and the ratings follow before a league page reads them."""
    user = members["scorekeeper"]
    with django_capture_on_commit_callbacks(execute=True):
        hand = hands.record_hand(
            session,
            {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39},
            uuid.uuid4(),
            user,
        )
    assert not Rating.objects.filter(club=club).exists()  # saving did not wait for them
    services.ensure_current(club)
    got = dict(Rating.objects.filter(club=club).values_list("player__name", "rating"))
    # Ana and Cene +24 each beat Bor and Dani: +8 and −8.
    assert got == {
        "Ana": Decimal("1508.00"),
        "Bor": Decimal("1492.00"),
        "Cene": Decimal("1508.00"),
        "Dani": Decimal("1492.00"),
    }
    assert not StaleFamily.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        hands.void_hand(hand, "wrong table", hand.version, user)
    services.ensure_current(club)
    assert not Rating.objects.filter(club=club).exists()
    assert not PlayerSession.objects.filter(club=club).exists()


def test_a_mark_made_during_a_rebuild_survives_it(club, history, monkeypatch):
    """A hand saved while a page rebuilds marks again; that mark is not wiped out."""
    services.mark_stale(club, "slovenian")
    real = services.rebuild_ratings

    def rebuild_while_a_hand_is_saved(*args, **kwargs):
        read = real(*args, **kwargs)
        services.mark_stale(club, "slovenian")  # a newer mark
        return read

    monkeypatch.setattr(services, "rebuild_ratings", rebuild_while_a_hand_is_saved)
    services.ensure_current(club)
    assert StaleFamily.objects.filter(club=club, family="slovenian").exists()


def test_closing_reaches_the_ledger(club, session, members):
    user = members["scorekeeper"]
    hands.record_hand(
        session,
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39},
        uuid.uuid4(),
        user,
    )
    services.rebuild_ratings(club)
    hand_services.close_session(session, user)
    nets = dict(PlayerSession.objects.filter(session=session).values_list("player__name", "net"))
    # Pairwise (RULES.md §7): N × total − sum = 4 × 24 − 48 = 48 for Ana and Cene, −48 else.
    assert nets == {
        "Ana": Decimal("48.00"),
        "Bor": Decimal("-48.00"),
        "Cene": Decimal("48.00"),
        "Dani": Decimal("-48.00"),
    }
    hand_services.reopen_session(session, members["admin"])
    assert set(PlayerSession.objects.filter(session=session).values_list("net", flat=True)) == {
        None
    }


def test_command_prints_one_line_per_player(club, history, capsys):
    call_command("rebuild_ratings", club.slug)
    assert capsys.readouterr().out.splitlines() == [
        "slovenian\tCene\t1518.21\t4",
        "slovenian\tEva\t1512.18\t1",
        "slovenian\tAna\t1502.95\t4",
        "slovenian\tDani\t1484.54\t3",
        "slovenian\tBor\t1482.12\t4",
        "czech\tBor\t1512.00\t1",
        "czech\tAna\t1496.00\t1",
        "czech\tCene\t1496.00\t1",
        "czech\tDani\t1496.00\t1",
    ]


def test_a_renamed_declarer_keeps_his_contracts(club, history, players):
    """Hands keep the name at the table; the roster may have renamed the player since."""
    bor = players[1]
    bor.name = "Borut"
    bor.save()
    services.rebuild_ratings(club, full=True)
    declared = sorted(
        PlayerSession.objects.filter(player=bor).values_list("session__date", "family", "declared")
    )
    assert [(f, n) for _d, f, n in declared] == [("slovenian", 1), ("czech", 1), ("slovenian", 0)]


def test_radelci_used_and_left(club, players, members):
    """TARZS plays with radelci: a klop gives each player one; Ana then wins a two with hers
    (used), the others still hold theirs at the end (left)."""
    session = hand_services.start_session(
        club=club, variant_id="slovenian-4", preset="tarzs", players=players[:4], user=None
    )
    user = members["scorekeeper"]
    hands.record_hand(
        session,
        {"contract": "klop", "points_by_player": {"Ana": 10, "Bor": 20, "Cene": 20, "Dani": 20}},
        uuid.uuid4(),
        user,
    )
    hands.record_hand(
        session,
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 40},
        uuid.uuid4(),
        user,
    )
    services.rebuild_ratings(club, "slovenian")
    rows = {r.name: (r.radelci_used, r.radelci_left) for r in services.standings(club, "slovenian")}
    assert rows == {"Ana": (1, 0), "Bor": (0, 1), "Cene": (0, 1), "Dani": (0, 1)}
