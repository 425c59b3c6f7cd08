"""A small club with a known history, written hand by hand (entries as the services write
them), so the league numbers can be checked against figures worked out on paper."""

from __future__ import annotations

import datetime
from decimal import Decimal

import pytest

from scorebook.models import Entry, Hand, Season, Session, SessionSeat


def add_session(club, variant, date, seated, *, season=None, table="", closing=None):
    session = Session.objects.create(
        club=club,
        variant=variant,
        rules={},
        date=date,
        table_label=table,
        season=season,
        is_closed=closing is not None,
        closing=closing or {},
    )
    SessionSeat.objects.bulk_create(
        SessionSeat(session=session, player=p, position=i) for i, p in enumerate(seated, 1)
    )
    return session


def add_hand(session, number, amounts, *, contract="two", declarer=None, voided=False):
    """A hand of `session` with one entry per player in `amounts` ({player: amount})."""
    players = {p.name: p for p in session.seated_players()}
    data = {"format": 1, "variant": session.variant, "contract": contract}
    data["players"] = list(amounts)
    if declarer:
        data["declarer"] = declarer
    hand = Hand.objects.create(
        session=session, number=number, data=data, rules_version="test", voided=voided
    )
    Entry.objects.bulk_create(
        Entry(hand=hand, player=players[name], amount=Decimal(amount))
        for name, amount in amounts.items()
    )
    return hand


@pytest.fixture
def history(club, players):
    """Three sessions of the golden club (see test_golden.py for the numbers on paper).

    A: 1 Nov, Slovenian, closed (Autumn) — Ana, Bor, Cene, Dani
       1 two, Ana with Cene, won:   Ana +30, Bor 0, Cene +30, Dani 0
       2 three, Bor alone, lost:    Ana 0, Bor −40, Cene 0, Dani 0
       3 redeal:                    all 0 (no rating change)
       4 one, Dani, VOIDED:         Dani +50 (left out of everything)
       5 klop:                      Ana −20, Bor −10, Cene 0, Dani −30
    B: 8 Dec, Slovenian, open (Winter) — Ana, Bor, Cene, Eva
       1 solo-three, Eva, won:      Ana 0, Bor 0, Cene 0, Eva +70
       2 adjustment (a revoke):     Ana −10, Bor 0, Cene 0, Eva 0
    C: 8 Dec, Czech, open (Winter) — Ana, Bor, Cene, Dani
       1 first-obligation, Bor:     Ana −10, Bor +30, Cene −10, Dani −10
    """
    ana, bor, cene, dani, eva = players
    autumn = Season.objects.create(club=club, name="Autumn", starts_on=datetime.date(2026, 9, 1))
    winter = Season.objects.create(club=club, name="Winter", starts_on=datetime.date(2026, 12, 1))
    a = add_session(
        club,
        "slovenian-4",
        datetime.date(2026, 11, 1),
        [ana, bor, cene, dani],
        season=autumn,
        table="Window",
        closing={
            "lines": [],
            "totals": {"Ana": 10, "Bor": -50, "Cene": 30, "Dani": -30},
            "settlement": {
                "nets": {"Ana": 80, "Bor": -160, "Cene": 160, "Dani": -80},
                "transfers": [
                    {"from": "Bor", "to": "Cene", "amount": 160},
                    {"from": "Dani", "to": "Ana", "amount": 80},
                ],
            },
        },
    )
    add_hand(a, 1, {"Ana": 30, "Bor": 0, "Cene": 30, "Dani": 0}, declarer="Ana")
    add_hand(a, 2, {"Ana": 0, "Bor": -40, "Cene": 0, "Dani": 0}, contract="three", declarer="Bor")
    add_hand(a, 3, {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 0}, contract="redeal")
    add_hand(
        a,
        4,
        {"Ana": 0, "Bor": 0, "Cene": 0, "Dani": 50},
        contract="one",
        declarer="Dani",
        voided=True,
    )
    add_hand(a, 5, {"Ana": -20, "Bor": -10, "Cene": 0, "Dani": -30}, contract="klop")
    b = add_session(
        club, "slovenian-4", datetime.date(2026, 12, 8), [ana, bor, cene, eva], season=winter
    )
    add_hand(
        b, 1, {"Ana": 0, "Bor": 0, "Cene": 0, "Eva": 70}, contract="solo-three", declarer="Eva"
    )
    add_hand(b, 2, {"Ana": -10, "Bor": 0, "Cene": 0, "Eva": 0}, contract="adjustment")
    c = add_session(
        club, "czech", datetime.date(2026, 12, 8), [ana, bor, cene, dani], season=winter
    )
    add_hand(
        c,
        1,
        {"Ana": -10, "Bor": 30, "Cene": -10, "Dani": -10},
        contract="first-obligation",
        declarer="Bor",
    )
    return {"A": a, "B": b, "C": c, "autumn": autumn, "winter": winter}


def grow(club, players, sessions: int, hands: int, start=datetime.date(2025, 1, 1)):
    """More closed Slovenian evenings of the four first players, `hands` each."""
    seated = players[:4]
    names = [p.name for p in seated]
    for s in range(sessions):
        session = add_session(
            club,
            "slovenian-4",
            start + datetime.timedelta(days=s),
            seated,
            closing={"totals": {}, "settlement": {"nets": {n: 0 for n in names}, "transfers": []}},
        )
        for h in range(1, hands + 1):
            declarer = names[h % 4]
            amounts = {n: 0 for n in names}
            amounts[declarer] = 20 if (s + h) % 3 else -20
            add_hand(session, h, amounts, declarer=declarer)
