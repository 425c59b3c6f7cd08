"""How fast the engine scores a long sheet, against merely parsing the same JSON.

    python bench/rules_bench.py [--hands 10000]

For each family it builds a 10,000-hand sheet of varied, valid hands (seeded, so every run
scores the same sheet), then measures in the same run: ``json.loads`` of the sheet's text and
``rules.score_sheet`` of the parsed data (best of several rounds each). It prints hands per
second and the ratio scoring : parsing. The target is a ratio of at most 10.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import RulesError, score_hand, score_sheet, variants  # noqa: E402

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


def best(fn, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    registered = {v.family for v in variants()}
    print(f"{'family':<16}{'hands/s':>12}{'parse ms':>10}{'score ms':>10}{'ratio':>8}")
    for family in FAMILY_VARIANT:
        if family not in registered:
            continue
        text = json.dumps(sheet_for(family, args.hands))
        data = json.loads(text)
        parse = best(lambda: json.loads(text), args.rounds)  # noqa: B023
        score = best(lambda: score_sheet(data), args.rounds)  # noqa: B023
        print(
            f"{family:<16}{args.hands / score:>12,.0f}{parse * 1000:>10.1f}"
            f"{score * 1000:>10.1f}{score / parse:>8.1f}"
        )


if __name__ == "__main__":
    main()
