"""How fast the engine scores a long sheet, against merely parsing the same JSON.

    python bench/rules_bench.py [--hands 10000]

For each family it builds a 10,000-hand sheet of varied, valid hands (seeded, so every run
scores the same sheet), then measures in the same run, rounds interleaved, best of each:
``json.loads`` of the sheet's text (plain parsing), ``rules.jsontext.loads`` of it (the
engine's bounded reading; its depth scan, ``jsontext.nesting``, shown apart) and
``rules.score_sheet`` of the parsed data. It prints hands per second and two ratios to plain
parsing: scoring alone, and the engine's whole work (bounded reading + scoring), whose target
is at most 12: the stricter reading counts on the engine's side. The sheet's hands are drawn
from 500 distinct ones; the scoring time includes freeing the result (tens of thousands of
rows, lines and dicts), as a caller that drops it pays too.

Beside them, a floor: "objects" makes again, from the finished result's own values and with
no rule applied, the objects ``score_sheet`` returns (each hand with its bonuses, its lines,
its result, its row and running totals), and ``floor÷parse`` is the bounded reading plus
that. No engine returning those objects can cost less; what lies between it and
``engine÷parse`` is the rules: checking every field of every hand, and scoring it.

A sheet holds at most ``rules.scoring.MAX_HANDS`` hands (1,000); to time a longer one the
bench lifts that limit in this process only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import (  # noqa: E402
    Bonus,
    Line,
    Result,
    RulesError,
    SheetRow,
    jsontext,
    score_hand,
    score_sheet,
    scoring,
    variants,
)

NAMES = ["Ana", "Bor", "Cene", "Dani", "Eva"]
FAMILY_VARIANT = {
    "slovenian": "slovenian-4",
    "czech": "czech",
    "zwanzigerrufen": "zwanzigerrufen",
    "french": "french-4",
}


def candidate(rng: random.Random, variant, preset: str) -> dict:
    """A plausible hand from what the variant declares; the caller keeps only valid ones."""
    rules = variant.rules({"preset": preset})
    players = NAMES[: variant.player_counts[0]]
    contract = rng.choice(sorted(set(rules.contracts) - {"redeal", "adjustment"}))
    spec = rules.contracts[contract]
    declarer = rng.choice(players)
    hand = {"contract": contract}
    for field in sorted(spec.fields):
        if field not in spec.required and rng.random() < 0.5:
            continue
        if field == "declarer":
            hand[field] = declarer
        elif field == "partner":
            hand[field] = rng.choice([p for p in players if p != declarer])
        elif field == "announcer":
            hand[field] = rng.choice(players)
        elif field == "points":
            hand[field] = rng.randint(20, variant.card_points - 10)
        elif field == "made":
            hand[field] = rng.random() < 0.7
        elif field == "level":
            hand[field] = rng.randint(1, 3)
        elif field == "oudlers":
            hand[field] = rng.randint(0, 3)
        elif field == "contra":
            hand[field] = {"game": rng.choice([0, 0, 0, 1])}
        elif field == "points_by_player":
            cuts = sorted(rng.randint(0, variant.card_points) for _ in players[1:])
            edges = [0, *cuts, variant.card_points]
            hand[field] = {p: edges[i + 1] - edges[i] for i, p in enumerate(players)}
    bonuses = []
    for name in sorted(spec.bonuses):
        if rng.random() < 0.8:
            continue
        bonus_spec = variant.bonus_specs[name]
        bonus = {"name": name, "announced": bonus_spec.announce and rng.random() < 0.3}
        if bonus_spec.player:
            bonus["player"] = rng.choice(players)
        if bonus_spec.levels:
            bonus["level"] = bonus_spec.levels[0]
        bonuses.append(bonus)
    if bonuses:
        hand["bonuses"] = bonuses
    return hand


def sheet_for(family: str, count: int, seed: int = 1) -> dict:
    variant = next(v for v in variants() if v.id == FAMILY_VARIANT[family])
    preset = "tarzs" if family == "slovenian" else variant.default_preset
    rng = random.Random(seed)
    players = NAMES[: variant.player_counts[0]]
    head = {"format": 1, "variant": variant.id, "rules": {"preset": preset}, "players": players}
    pool = []
    while len(pool) < 500:
        hand = candidate(rng, variant, preset)
        try:
            score_hand({**head, **hand, "players": players})
        except RulesError:
            continue
        pool.append(hand)
    return {**head, "hands": [rng.choice(pool) for _ in range(count)]}


def rebuilt(result) -> list:
    """The objects of a scored sheet made again from their own values, no rule applied (the
    floor above); with the collector paused, as the engine has it."""
    with scoring.collector_paused():
        rows = []
        for row in result.rows:
            played, hand = row.result, row.result.hand
            bonuses = tuple(Bonus(*bonus) for bonus in hand.bonuses)
            lines = tuple(
                Line(ln.item, ln.words, dict(ln.amounts), ln.multiplier) for ln in played.lines
            )
            radelci = None if played.radelci is None else dict(played.radelci)
            again = Result(hand._replace(bonuses=bonuses), dict(played.amounts), lines, radelci)
            rows.append(SheetRow(row.number, row.dealer, again, dict(row.totals)))
        return rows


def floor_of(result, rounds: int) -> dict[str, float]:
    return best_of({"objects": lambda: rebuilt(result)}, rounds)


def best_of(fns: dict, rounds: int) -> dict[str, float]:
    """The best time of each function over ``rounds`` rounds, taken in turn within a round so
    that a noisy machine slows them alike. CPU time of this process: what another process
    on the same machine takes is not counted."""
    times: dict[str, list[float]] = {name: [] for name in fns}
    for _ in range(rounds):
        for name, fn in fns.items():
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
    return {name: min(t) for name, t in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    scoring.MAX_HANDS = max(scoring.MAX_HANDS, args.hands)  # this process only: see above
    registered = {v.family for v in variants()}
    print(
        f"{'family':<16}{'hands/s':>10}{'parse ms':>10}{'read ms':>9}{'depth ms':>10}"
        f"{'score ms':>10}{'score÷parse':>13}{'engine÷parse':>14}{'objects ms':>12}"
        f"{'floor÷parse':>13}"
    )
    for family in FAMILY_VARIANT:
        if family not in registered:
            continue
        text = json.dumps(sheet_for(family, args.hands))
        data = jsontext.loads(text)
        t = best_of(
            {
                "parse": lambda: json.loads(text),  # noqa: B023
                "read": lambda: jsontext.loads(text),  # noqa: B023
                "depth": lambda: jsontext.nesting(text),  # noqa: B023
                "score": lambda: score_sheet(data),  # noqa: B023
            },
            args.rounds,
        )
        # Apart, after: a result kept alive while json.loads runs makes the collector walk it,
        # which would slow the parsing every ratio divides by.
        t |= floor_of(score_sheet(data), args.rounds)
        print(
            f"{family:<16}{args.hands / t['score']:>10,.0f}{t['parse'] * 1000:>10.1f}"
            f"{t['read'] * 1000:>9.1f}{t['depth'] * 1000:>10.1f}{t['score'] * 1000:>10.1f}"
            f"{t['score'] / t['parse']:>13.1f}{(t['read'] + t['score']) / t['parse']:>14.1f}"
            f"{t['objects'] * 1000:>12.1f}{(t['read'] + t['objects']) / t['parse']:>13.1f}"
        )


if __name__ == "__main__":
    main()
