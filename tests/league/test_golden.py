"""The golden club of conftest.history, its numbers worked out on paper.

Ratings (RULES.md §6, K = 24, start 1500). Slovenian: hands A1, A2, A5, B1 are rated; A3 is a
redeal, A4 is voided, B2 is an adjustment. A1 from 1500 all round: Ana beats Bor and Dani and
ties Cene, Σ(S − E) = 0.5 + 0 + 0.5 = 1, change 24 × 1 / 3 = +8 → 1508; Bor −8 → 1492. A2
(Bor alone lost; Bor 1492 against Ana 1508, Cene 1508, Dani 1492): E = 0.4770 twice and 0.5,
Σ(S − E) = −1.4540, change −11.632 → 1480.368. After A5 and B1 the figures below.
"""

from decimal import Decimal

from scorebook.league import services
from scorebook.league.models import Rating


def ratings(club, family):
    return {
        r.player.name: (str(r.rating), r.hands)
        for r in Rating.objects.filter(club=club, family=family).select_related("player")
    }


def test_ratings_follow_the_hands_in_date_order(club, history):
    services.rebuild_ratings(club)
    assert ratings(club, "slovenian") == {
        "Ana": ("1502.95", 4),
        "Bor": ("1482.12", 4),
        "Cene": ("1518.21", 4),
        "Dani": ("1484.54", 3),
        "Eva": ("1512.18", 1),
    }
    # One Czech hand: Bor beats all three, +24 × 3 × 0.5 / 3 = +12; the others −4.
    assert ratings(club, "czech") == {
        "Ana": ("1496.00", 1),
        "Bor": ("1512.00", 1),
        "Cene": ("1496.00", 1),
        "Dani": ("1496.00", 1),
    }


def table(rows):
    return [
        (r.name, r.sessions, r.hands, r.total, r.per_hand, r.declared, r.won, r.won_rate)
        for r in rows
    ]


def test_standings_all_time(club, history):
    services.rebuild_ratings(club)
    rows = services.standings(club, "slovenian")
    D = Decimal
    assert table(rows) == [
        ("Eva", 1, 1, D("70"), D("70.00"), 1, 1, 100),
        ("Cene", 2, 4, D("30"), D("7.50"), 0, 0, None),
        ("Ana", 2, 4, D("0"), D("0.00"), 1, 1, 100),
        # Dani's voided +50 counts nowhere.
        ("Dani", 1, 3, D("-30"), D("-10.00"), 0, 0, None),
        ("Bor", 2, 4, D("-50"), D("-12.50"), 1, 0, 0),
    ]
    assert [str(r.rating) for r in rows] == ["1512.18", "1518.21", "1502.95", "1484.54", "1482.12"]


def test_standings_per_season_and_sorted(club, history):
    services.rebuild_ratings(club)
    autumn = services.standings(club, "slovenian", history["autumn"])
    assert [(r.name, r.hands, r.total) for r in autumn] == [
        ("Cene", 3, Decimal("30")),
        ("Ana", 3, Decimal("10")),
        ("Dani", 3, Decimal("-30")),
        ("Bor", 3, Decimal("-50")),
    ]
    winter = services.standings(club, "slovenian", history["winter"], sort="name", descending=False)
    assert [(r.name, r.total) for r in winter] == [
        ("Ana", Decimal("-10")),
        ("Bor", Decimal("0")),
        ("Cene", Decimal("0")),
        ("Eva", Decimal("70")),
    ]
    by_rating = services.standings(club, "slovenian", sort="rating")
    assert [r.name for r in by_rating] == ["Cene", "Eva", "Ana", "Dani", "Bor"]


def test_contracts_declared_and_won(club, history):
    services.rebuild_ratings(club)
    stats = services.contract_stats(club, "slovenian")
    assert [(c["contract"], c["declared"], c["won"], c["rate"]) for c in stats] == [
        ("solo-three", 1, 1, 100),
        ("three", 1, 0, 0),
        ("two", 1, 1, 100),
    ]


def test_ledger_balance_is_the_sum_of_nets(club, history, players):
    services.rebuild_ratings(club)
    rows = services.ledger_rows(club, [history["A"]])
    assert [(p["player"].name, p["total"], p["net"], p["balance"]) for p in rows[0]["players"]] == [
        ("Ana", Decimal("10.00"), Decimal("80.00"), Decimal("80.00")),
        ("Bor", Decimal("-50.00"), Decimal("-160.00"), Decimal("-160.00")),
        ("Cene", Decimal("30.00"), Decimal("160.00"), Decimal("160.00")),
        ("Dani", Decimal("-30.00"), Decimal("-80.00"), Decimal("-80.00")),
    ]


def test_player_summary_and_head_to_head(club, history, players):
    services.rebuild_ratings(club)
    ana = players[0]
    data = services.player_summary(club, ana)
    assert data["summary"] == {
        "sessions": 3,
        "hands": 5,
        "total": Decimal("-10"),
        "declared": 1,
        "won": 1,
    }
    # Three evenings: one best and one worst (B and C tie at −10; the later id comes first).
    assert [(line.session_id, line.total) for line in data["best"]] == [
        (history["A"].pk, Decimal("10.00"))
    ]
    assert [(line.session_id, line.total) for line in data["worst"]] == [
        (history["C"].pk, Decimal("-10.00"))
    ]
    assert [
        (o["player__name"], o["met"], o["ahead"], o["behind"], o["difference"])
        for o in data["opponents"]
    ] == [
        ("Bor", 3, 1, 2, Decimal("10")),
        ("Cene", 3, 0, 2, Decimal("-30")),
        ("Dani", 2, 1, 0, Decimal("40")),
        ("Eva", 1, 0, 1, Decimal("-80")),
    ]
    # The running total after each evening, in date order (B and C share a date: id order).
    assert [(d.isoformat(), f, r) for d, f, r, _rating in data["history"]] == [
        ("2026-11-01", "slovenian", Decimal("10")),
        ("2026-12-08", "slovenian", Decimal("0")),
        ("2026-12-08", "czech", Decimal("-10")),
    ]
