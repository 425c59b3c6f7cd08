"""Slovenian tarok for 4, 3 and 2 players (RULES.md §1, seed 004).

Entries follow the paper sheet: the declarer and the partner each get the hand's amount and
the defenders nothing (klop and two players excepted), so a hand is not zero-sum and the
session is settled pairwise (§7). Radelci are carried from hand to hand.
"""

from __future__ import annotations

import functools
from typing import Any

from rules import labels
from rules.counting import PIPS_54, Deck, in_threes
from rules.items import (
    LOST,
    SHARED_PHRASES,
    bonus_value,
    bonus_words,
    contra_words,
    multiplier,
)
from rules.model import DECLARER, DEFENDERS, Bonus, Hand, Line
from rules.problems import Problems, field_name
from rules.variant import (
    MAX_SWITCH_NUMBER,
    NOBODY,
    BonusSpec,
    Carried,
    Contract,
    Played,
    Rules,
    Switch,
    Variant,
    contract,
    contract_words,
)
from rules.words import Phrase, Say

WIN = 35  # the declarer's side wins with more than 35 of the 70 card points
CARD_POINTS = 70
DECK = Deck("slovenian", tuple(range(1, 23)), PIPS_54, in_threes)
# Two players take all 54 cards: their piles, each counted as §5 says, add up to 70 or 71.
TWO_PLAYER_TOTALS = (70, 71)

NORMAL = ("three", "two", "one")  # with a called king
SOLOS = ("solo-three", "solo-two", "solo-one")  # four players only
SCORED_BY_POINTS = NORMAL + SOLOS + ("solo-without",)
SCORED_BY_MADE = ("piccolo", "beggar", "open-beggar", "colour-valat", "valat")
RADELC_CONTRACTS = frozenset(
    {"klop", "beggar", "solo-without", "open-beggar", "colour-valat", "valat"}
)
RADELC: Phrase = (Say("line.radelc"),)  # ", radelc ×2"
# What a sheet shows of the radelci each player holds (RULES.md §1.4).
RADELCI = Carried(Say("carry.radelci"), Say("carry.radelc"), Say("carry.radelc-used"))
# In the federation's table solo without is worth a fixed 80, won or lost, no difference.
FIXED_BY_PRESET = {"tarzs": frozenset({"solo-without"})}

SEED_VALUES = {
    "three": 10,
    "two": 20,
    "one": 30,
    "solo-three": 20,
    "solo-two": 30,
    "solo-one": 40,
    "solo-without": 50,
    "piccolo": 60,
    "beggar": 70,
    "open-beggar": 80,
}
TARZS_VALUES = {
    "three": 10,
    "two": 20,
    "one": 30,
    "solo-three": 40,
    "solo-two": 50,
    "solo-one": 60,
    "beggar": 70,
    "solo-without": 80,
    "open-beggar": 90,
    "colour-valat": 125,
    "valat": 500,
}
SEED_BONUSES = {
    "trula": (10, 20),
    "kings": (10, 20),
    "pagat-ultimo": (25, 50),
    "trulapagat": (50, 70),
    "valat": (250, 500),
}
TARZS_BONUSES = {
    "trula": (10, 20),
    "kings": (10, 20),
    "pagat-ultimo": (25, 50),
    "king-ultimo": (10, 20),
    "valat": (250, 500),
}
ALL_CONTRACTS = SCORED_BY_POINTS + SCORED_BY_MADE
ALL_BONUSES = ("trula", "kings", "pagat-ultimo", "trulapagat", "king-ultimo", "valat")


def _read_values(value: Any, path: str, problems: Problems, current: dict) -> dict:
    """``values``: contract -> value, merged over the preset's table; its keys are the
    contracts the rules allow, so a club may add piccolo to the federation's table."""
    if not isinstance(value, dict):
        problems.add(path, "not-an-object")
        return current
    merged = dict(current)
    for key, number in value.items():
        if not isinstance(key, str) or key not in ALL_CONTRACTS:
            problems.add(
                f"{path}.{field_name(key)}",
                "unknown-contract",
                value=key,
                known=", ".join(ALL_CONTRACTS),
            )
        elif type(number) is not int or number < 0:
            problems.add(f"{path}.{key}", "at-least", low=0)
        elif number > MAX_SWITCH_NUMBER:
            problems.add(f"{path}.{key}", "at-most", high=MAX_SWITCH_NUMBER)
        else:
            merged[key] = number
    return merged


def _read_bonus_values(value: Any, path: str, problems: Problems, current: dict) -> dict:
    """``bonus_values``: bonus -> [silent, announced], merged over the preset's table."""
    if not isinstance(value, dict):
        problems.add(path, "not-an-object")
        return current
    merged = dict(current)
    for key, pair in value.items():
        if not isinstance(key, str) or key not in ALL_BONUSES:
            problems.add(
                f"{path}.{field_name(key)}",
                "unknown-bonus",
                value=key,
                known=", ".join(ALL_BONUSES),
            )
        elif (
            not isinstance(pair, list | tuple)
            or len(pair) != 2
            or any(type(v) is not int or not 0 <= v <= MAX_SWITCH_NUMBER for v in pair)
        ):
            problems.add(
                f"{path}.{key}",
                "bad-switch-value",
                value=pair,
                known=f"[silent, announced], whole numbers from 0 to {MAX_SWITCH_NUMBER}",
            )
        else:
            merged[key] = tuple(pair)
    return merged


SWITCHES = {
    s.name: s
    for s in (
        Switch("values", read_map=_read_values, keys=ALL_CONTRACTS, key_words=contract_words),
        Switch(
            "bonus_values",
            read_map=_read_bonus_values,
            keys=ALL_BONUSES,
            key_words=labels.BONUSES.__getitem__,
            pair=True,
        ),
        Switch("round_difference", choices=(1, 5)),
        Switch("contra_scope", choices=("hand", "item")),
        Switch("max_contra", choices=(3, 4)),
        Switch("defenders_announce", choices=(True, False)),
        Switch("klop_scoring", choices=("seed", "tarzs")),
        Switch("mondfang", low=0),
        Switch("radelci", choices=(True, False)),
        Switch("radelc_penalty", high=0),
        Switch("settlement", choices=("pairwise", "average")),
    )
}

PRESETS = {
    "seed": {
        "values": SEED_VALUES,
        "bonus_values": SEED_BONUSES,
        "round_difference": 1,
        "contra_scope": "hand",
        "max_contra": 3,
        "defenders_announce": False,
        "klop_scoring": "seed",
        "mondfang": 0,
        "radelci": False,
        "radelc_penalty": 0,
        "settlement": "pairwise",
    },
    "tarzs": {
        "values": TARZS_VALUES,
        "bonus_values": TARZS_BONUSES,
        "round_difference": 5,
        "contra_scope": "item",
        "max_contra": 4,
        "defenders_announce": True,
        "klop_scoring": "tarzs",
        "mondfang": 21,
        "radelci": True,
        "radelc_penalty": 0,
        "settlement": "pairwise",
    },
}

BONUS_SPECS = {
    "trula": BonusSpec("trula"),
    "kings": BonusSpec("kings"),
    "pagat-ultimo": BonusSpec("pagat-ultimo", silent_fail=True),
    "king-ultimo": BonusSpec("king-ultimo", silent_fail=True),
    "trulapagat": BonusSpec("trulapagat"),
    "valat": BonusSpec("valat"),
    "mondfang": BonusSpec("mondfang", announce=False, player=True),
}


def round_difference(difference: int, step: int) -> int:
    """|points − 35| to the nearest multiple of ``step`` (3 → 5 when the step is 5).

    >>> round_difference(3, 5), round_difference(-13, 5), round_difference(4, 1)
    (5, 15, 4)
    """
    difference = abs(difference)
    return (difference + step // 2) // step * step


class SlovenianTarok(Variant):
    """What the Slovenian variants share: the family, its name and its deck."""

    family = "slovenian"
    family_label = labels.FAMILIES["slovenian"]
    card_points = CARD_POINTS
    deck = DECK


class Slovenian(SlovenianTarok):
    presets = PRESETS
    default_preset = "seed"
    switches = SWITCHES
    bonus_specs = BONUS_SPECS
    hand_fields = Variant.hand_fields | {"radelci"}
    uses_radelci = True
    zero_sum = False

    def __init__(self, players: int):
        self.id = f"slovenian-{players}"
        self.player_counts = (players,)

    def contracts(self, rules: Rules) -> dict[str, Contract]:
        four = self.player_counts == (4,)
        values = rules["values"]
        bonuses = [b for b in rules["bonus_values"] if four or b != "king-ultimo"]
        mondfang = ("mondfang",) if rules["mondfang"] else ()
        out = {}
        for cid in ALL_CONTRACTS:
            if cid not in values or (cid in SOLOS and not four):
                continue
            if cid in NORMAL:
                out[cid] = contract(
                    cid,
                    "declarer points",
                    "partner contra" if four else "contra",
                    bonuses + list(mondfang),
                )
            elif cid in SCORED_BY_POINTS:
                solo_bonuses = [b for b in bonuses if b != "king-ultimo"]
                out[cid] = contract(cid, "declarer points", "contra", solo_bonuses + list(mondfang))
            else:
                out[cid] = contract(cid, "declarer made", "contra", mondfang)
        out["klop"] = contract("klop", "points_by_player", "tricks_by_player")
        return out

    def max_contra(self, rules: Rules) -> int:
        return rules["max_contra"]

    def defenders_may_announce(self, rules: Rules) -> bool:
        return rules["defenders_announce"]

    def settlement_method(self, rules: Rules) -> str:
        return rules["settlement"]

    def check(self, hand: Hand, rules: Rules, problems: Problems, path: str) -> None:
        if hand.points_by_player is not None:
            total = sum(hand.points_by_player.values())
            if total > CARD_POINTS:
                problems.add(
                    f"{path}points_by_player", "points-total", total=total, high=CARD_POINTS
                )
            _check_tricks(hand, problems, path)
        trulapagat = hand.bonus("trulapagat")
        if trulapagat is not None:
            for i, bonus in enumerate(hand.bonuses):
                if bonus.name in ("trula", "pagat-ultimo") and bonus.side == trulapagat.side:
                    problems.add(
                        f"{path}bonuses[{i}].name",
                        "trulapagat-and-part",
                        bonus=labels.BONUSES[bonus.name],
                    )

    # -- radelci ---------------------------------------------------------------------------

    def keeps_radelci(self, rules) -> bool:
        return bool(rules.get("radelci"))

    def carried(self, rules) -> Carried | None:
        return RADELCI if self.keeps_radelci(rules) else None

    def held(self, carry: dict[str, int] | None) -> dict[str, int]:
        return carry or {}

    def start_carry(self, players: tuple[str, ...], rules: Rules) -> dict[str, int] | None:
        return dict.fromkeys(players, 0) if rules["radelci"] else None

    def carry_of(self, hand: Hand, rules: Rules) -> dict[str, int] | None:
        if not rules["radelci"]:
            return None
        return {p: (hand.radelci or {}).get(p, 0) for p in hand.players}

    def closing_lines(self, players, carry, rules: Rules) -> list[Line]:
        penalty = rules["radelc_penalty"]
        if carry is None or not penalty:
            return []
        return [
            Line(
                "radelc-penalty",
                (Say("line.radelc-penalty", count=n, penalty=penalty),),
                {player: n * penalty},
            )
            for player, n in carry.items()
            if n
        ]

    # -- scoring ---------------------------------------------------------------------------

    def score(self, hand: Hand, rules: Rules, carry: dict[str, int] | None):
        lines, carry, _used = self.play(hand, rules, carry)
        return lines, carry

    def play(self, hand: Hand, rules: Rules, carry: dict[str, int] | None) -> Played:
        # Only the declarer's own radelci matter; klop has no declarer and is never doubled.
        radelc = carry is not None and carry.get(hand.declarer, 0) > 0
        if hand.contract == "klop":
            lines, won = self._klop(hand, rules), False
        else:
            lines, won = self._declared(hand, rules, radelc)
        used = frozenset({hand.declarer}) if radelc and won else NOBODY
        if carry is not None and (used or hand.contract in RADELC_CONTRACTS):
            carry = dict(carry)  # a new carry: the one before this hand stays as it was
            for player in used:
                carry[player] -= 1
            if hand.contract in RADELC_CONTRACTS:
                for player in hand.players:
                    carry[player] = carry.get(player, 0) + 1
        mondfang = hand.bonus("mondfang")
        if mondfang is not None:
            lines.append(_mondfang(mondfang, rules))
        return Played(lines, carry, used)

    def _declared(self, hand: Hand, rules: Rules, radelc: bool) -> tuple[list[Line], bool]:
        """The declarer's side's lines, doubled by a radelc, and whether it won."""
        side = hand.declarer_side
        bonus_values = rules["bonus_values"]
        game_level = hand.contra
        valat = hand.bonus("valat")
        if valat is not None and valat.made:
            # A made valat replaces the game, the difference and every other bonus.
            level = valat.contra or game_level
            value = bonus_value(valat, *bonus_values["valat"])
            if valat.side == DEFENDERS:
                value = -value
            text = _bonus_words(valat, value, level, radelc)
            return [_line("valat", text, side, value, level, radelc)], valat.side == DECLARER
        base = rules["values"][hand.contract]
        difference = None  # a contract of fixed value
        if hand.contract in SCORED_BY_MADE:
            won = bool(hand.made)
        elif hand.contract in FIXED_BY_PRESET.get(rules.preset, ()):
            won = hand.points > WIN
        else:
            won = hand.points > WIN
            difference = round_difference(hand.points - WIN, rules["round_difference"])
        text = _game_words(hand.contract, base, difference, won, game_level, radelc)
        value = base if difference is None else base + difference
        if not won:
            value = -value
        lines = [_line("game", text, side, value, game_level, radelc)]
        hand_scope = rules["contra_scope"] == "hand"
        for bonus in _with_trulapagat(hand.bonuses, bonus_values):
            if bonus.name == "mondfang":
                continue
            value = bonus_value(bonus, *bonus_values[bonus.name])
            if bonus.side == DEFENDERS:
                value = -value
            level = bonus.contra or (game_level if hand_scope else 0)
            text = _bonus_words(bonus, value, level, radelc)
            lines.append(_line(bonus.name, text, side, value, level, radelc))
        return lines, won

    def _klop(self, hand: Hand, rules: Rules) -> list[Line]:
        points = hand.points_by_player
        tricks = hand.tricks_by_player or {}
        empty = {p for p in hand.players if tricks.get(p, points[p]) == 0}
        if rules["klop_scoring"] == "tarzs":
            full = {p for p in hand.players if points[p] > WIN}
            if full or empty:
                return [
                    Line(
                        "klop",
                        (_klop_state(p, full, empty),),
                        {p: -70 if p in full else 70 if p in empty else 0},
                    )
                    for p in hand.players
                ]
            step = rules["round_difference"]
            return [
                Line(
                    "klop",
                    (Say("line.klop-points", points=points[p]),),
                    {p: -round_difference(points[p], step)},
                )
                for p in hand.players
            ]
        return [
            Line(
                "klop",
                (
                    Say("line.klop-no-trick")
                    if p in empty
                    else Say("line.klop-points", points=points[p]),
                ),
                {p: 10 if p in empty else -points[p]},
            )
            for p in hand.players
        ]


def _klop_state(player: str, full: set, empty: set) -> Say:
    if player in full:
        return Say("line.klop-full")
    if player in empty:
        return Say("line.klop-empty")
    return Say("line.klop-points", points=0)


def _line(
    item: str, text: Phrase, side: tuple[str, ...], value: int, level: int, radelc: bool
) -> Line:
    """A line of the declarer's side: each of its players gets ``value`` times the contra
    (the paper sheet), doubled once more when the declarer holds a radelc."""
    times = multiplier(level) * 2 if radelc else multiplier(level)
    return Line(item, text, dict.fromkeys(side, value * times), times)


# The words of the lines: shared, as ``rules.items`` says.


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _game_words(
    contract: str, value: int, difference: int | None, won: bool, level: int, radelc: bool
) -> Phrase:
    """ "two 20 + difference 5", "beggar 70 lost, contra ×2, radelc ×2"."""
    what = labels.CONTRACTS[contract]
    if difference is None:
        words = (Say("line.value", what=what, value=value),)
    else:
        words = (Say("line.value-difference", what=what, value=value, difference=difference),)
    return _then(words if won else words + LOST, level, radelc)


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _bonus_words(bonus: Bonus, value: int, level: int, radelc: bool) -> Phrase:
    """ "trula announced 20, contra ×2, radelc ×2"."""
    return _then(bonus_words(bonus, value), level, radelc)


def _then(text: Phrase, level: int, radelc: bool) -> Phrase:
    """A line's words, then its contra, then the radelc that doubles it."""
    text += contra_words(level)
    return text + RADELC if radelc else text


def _mondfang(bonus: Bonus, rules: Rules) -> Line:
    """Never multiplied and never doubled: the player who played the mond pays on his own."""
    value = rules["mondfang"]
    return Line("mondfang", _penalty_words("mondfang", value), {bonus.player: -value})


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _penalty_words(bonus: str, value: int) -> Phrase:
    """ "mondfang −21": shared, as ``rules.items`` says."""
    return (Say("line.penalty", what=labels.BONUSES[bonus], value=value),)


def _with_trulapagat(bonuses: tuple[Bonus, ...], bonus_values) -> tuple[Bonus, ...]:
    """A silent trula and a silent pagat ultimo made by one side score as one silent
    trulapagat, where the rules have it (50 instead of 10 + 25)."""
    if "trulapagat" not in bonus_values:
        return bonuses
    trula = next((b for b in bonuses if b.name == "trula"), None)
    pagat = next((b for b in bonuses if b.name == "pagat-ultimo"), None)
    if (
        trula is None
        or pagat is None
        or trula.side != pagat.side
        or trula.announced
        or pagat.announced
        or not trula.made
        or not pagat.made
    ):
        return bonuses
    merged = Bonus("trulapagat", side=trula.side)
    return tuple(merged if b is trula else b for b in bonuses if b is not pagat)


class SlovenianTwo(SlovenianTarok):
    """Two players, each counting his own pile; "I play" doubles a win and triples a loss."""

    id = "slovenian-2"
    player_counts = (2,)
    presets = {"seed": {"settlement": "pairwise"}, "tarzs": {"settlement": "pairwise"}}
    default_preset = "seed"
    switches = {"settlement": SWITCHES["settlement"]}
    zero_sum = True

    def contracts(self, rules: Rules) -> dict[str, Contract]:
        return {"game": contract("game", "points_by_player", "announcer")}

    def check_entered(self, hand: Hand, rules: Rules, problems: Problems, path: str) -> None:
        """All 54 cards are taken: the two piles add up to 70 or 71 (RULES.md §1.6). Only for
        a hand being entered; one recorded before this check keeps its score."""
        if hand.points_by_player is None:
            return
        total = sum(hand.points_by_player.values())
        if total not in TWO_PLAYER_TOTALS:
            low, high = TWO_PLAYER_TOTALS
            problems.add(
                f"{path}points_by_player",
                "slovenian-2-points-total",
                total=total,
                low=low,
                high=high,
            )

    def settlement_method(self, rules: Rules) -> str:
        return rules["settlement"]

    def score(self, hand: Hand, rules: Rules, carry: Any):
        first, second = hand.players
        points = hand.points_by_player
        if hand.announcer is not None:
            player = hand.announcer
            other = second if player == first else first
            p = points[player]
            if p > WIN:
                value, text = (p - WIN) * 2, Say("line.two-won", player=player, points=p)
            else:
                value = -3 * max(1, WIN - p)
                text = Say("line.two-lost", player=player, shortfall=max(1, WIN - p))
        else:
            player, other = (first, second) if points[first] >= points[second] else (second, first)
            value = points[player] - WIN if points[player] != points[other] else 0
            value = max(value, 0)
            text = Say("line.two-points", player=player, points=points[player], other=points[other])
        return [Line("game", (text,), {player: value, other: -value})], carry


def _check_tricks(hand: Hand, problems: Problems, path: str) -> None:
    """Klop: card points come in tricks, so a player with points took one (RULES.md §11)."""
    tricks = hand.tricks_by_player or {}
    for player, points in hand.points_by_player.items():
        if points > 0 and tricks.get(player) == 0:
            problems.add(f"{path}points_by_player.{player}", "no-trick-points", points=points)


VARIANTS = (Slovenian(4), Slovenian(3), SlovenianTwo())
