"""French tarot for 3, 4 and 5 players (RULES.md §4, seed 003, FFT 2012), preset ``fft``.

Everything a hand scores is gathered into one unit per defender, signed from the taker's side:
the game ``(25 + |difference|) × multiplier``, petit au bout ``±10 × multiplier``, each poignée
``±20/30/40`` for the side that wins the hand and the chelem, neither multiplied. Each item is
one line, split as the FFT splits the unit: the taker gets it once for each defender (less the
partner's share at five), the called partner once, each defender pays it once. Zero-sum; the
session is settled against the average (§7).
"""

from __future__ import annotations

import functools
import math
from types import MappingProxyType
from typing import Any

from rules import labels
from rules.counting import Deck, less_a_half_each
from rules.items import BY_DEFENDERS, LOST, SHARED_PHRASES, bonus_words
from rules.model import DECLARER, DEFENDERS, Amount, Bonus, Hand, Line
from rules.problems import Problems
from rules.variant import BonusSpec, Contract, Rules, Variant, contract
from rules.words import Phrase, Say

CARD_POINTS = 91
# 21 trumps and the excuse, and ten pip cards a suit; each card half a point less (RULES.md §5).
DECK = Deck(
    "french",
    tuple(range(1, 23)),
    dict.fromkeys(
        ("hearts", "diamonds", "spades", "clubs"), tuple(str(n) for n in range(10, 0, -1))
    ),
    less_a_half_each,
    fool="Excuse",
    trumps_label=Say("deck.french-trumps"),
)
THRESHOLDS = {0: 56, 1: 51, 2: 41, 3: 36}  # points needed by the oudlers in the taker's tricks
MULTIPLIERS = {"petite": 1, "garde": 2, "garde-sans": 4, "garde-contre": 6}
BASE = 25
PETIT_AU_BOUT = 10
CHELEM_SILENT, CHELEM_ANNOUNCED, CHELEM_FAILED = 200, 400, 200
POIGNEE_LEVELS = ("simple", "double", "triple")
POIGNEE_VALUES = {"simple": 20, "double": 30, "triple": 40}
# Trumps a poignée shows (the excuse counts as one), by the number of players dealt in.
POIGNEE_TRUMPS = {
    3: {"simple": 13, "double": 15, "triple": 18},
    4: {"simple": 10, "double": 13, "triple": 15},
    5: {"simple": 8, "double": 10, "triple": 13},
}
TRUMPS = 22  # 21 trumps and the excuse
BONUSES = ("petit-au-bout", "poignee", "chelem")


def threshold(oudlers: int) -> int:
    return THRESHOLDS[oudlers]


def difference(points: Amount, needed: int) -> int:
    """|points − threshold| as a whole number: a half point rounds away from the threshold,
    up when the contract is made, down when it is not (41.5 of 41 made by 1, 40.5 lost by 1).

    >>> from decimal import Decimal
    >>> difference(Decimal("41.5"), 41), difference(Decimal("40.5"), 41), difference(56, 51)
    (1, 1, 5)
    """
    signed = points - needed
    return abs(math.ceil(signed) if signed >= 0 else math.floor(signed))


def chelem_value(bonus: Bonus) -> int:
    """For the chelem's own side: announced and made +400, made without announcing +200,
    announced and failed −200 (not the −400 of §0's rule for a failed announcement)."""
    if not bonus.made:
        return -CHELEM_FAILED
    return CHELEM_ANNOUNCED if bonus.announced else CHELEM_SILENT


def split(hand: Hand, unit: Amount) -> dict[str, Amount]:
    """One unit per defender, signed from the taker's side (RULES.md §4): each defender pays
    ``unit``, a called partner gets ``unit`` and the taker the rest (3u at four, 2u at three,
    2u with a partner or 4u alone at five), so the line sums to zero."""
    defenders = hand.defenders
    partner = hand.partner
    amounts: dict[str, Amount] = {hand.declarer: unit * (len(defenders) - (partner is not None))}
    if partner is not None:
        amounts[partner] = unit
    for player in defenders:
        amounts[player] = -unit
    return amounts


class French(Variant):
    family = "french"
    family_label = labels.FAMILIES["french"]
    card_points = CARD_POINTS
    deck = DECK
    trula_bonus = None  # petit, 21 and excuse are told as oudlers
    shows_oudlers = True
    half_points = True
    side_words = MappingProxyType(labels.FRENCH_SIDES)
    role_words = MappingProxyType(labels.FRENCH_ROLES)
    presets = {"fft": {}}
    default_preset = "fft"
    switches: dict = {}
    zero_sum = True

    def __init__(self, players: int):
        self.id = f"french-{players}"
        self.player_counts = (players,)
        trumps = POIGNEE_TRUMPS[players]
        self.bonus_specs = {
            "petit-au-bout": BonusSpec("petit-au-bout", announce=False),
            "poignee": BonusSpec(
                "poignee",
                announce=False,
                player=True,
                levels=POIGNEE_LEVELS,
                per_player=True,
                level_words=tuple(
                    Say(
                        "line.poignee-level",
                        level=labels.POIGNEE_LEVELS[level],
                        trumps=trumps[level],
                    )
                    for level in POIGNEE_LEVELS
                ),
            ),
            "chelem": BonusSpec("chelem"),
        }

    def contracts(self, rules: Rules) -> dict[str, Contract]:
        optional = "partner" if self.player_counts == (5,) else ""
        return {
            cid: contract(cid, "declarer points oudlers", optional, BONUSES) for cid in MULTIPLIERS
        }

    def max_contra(self, rules: Rules) -> int:
        return 0

    def defenders_may_announce(self, rules: Rules) -> bool:
        return False  # only the taker announces a chelem; poignées and petit au bout are not

    def check(self, hand: Hand, rules: Rules, problems: Problems, path: str) -> None:
        players = len(hand.players)
        points, oudlers = hand.points, hand.oudlers
        if players == 4 and points != int(points):
            # Tricks of four cards and a dog of six: a four-player pile is always whole.
            problems.add(f"{path}points", "french-whole-points")
        # The pile holds its oudlers (4.5 each) and lacks the others, in half points; the excuse
        # kept by the other side is paid for with a half-point card (FFT 5: chelem with 87).
        low = oudlers * 9
        high = CARD_POINTS * 2 - (3 - oudlers) * 9 + (oudlers < 3)
        if not low <= points * 2 <= high:
            problems.add(
                f"{path}oudlers",
                "french-oudlers-points",
                oudlers=oudlers,
                points=points,
                low=_half(low),
                high=_half(high),
            )
        made = points >= threshold(oudlers)
        shown = []
        for i, bonus in enumerate(hand.bonuses):
            if bonus.name == "poignee":
                shown.append(POIGNEE_TRUMPS[players][bonus.level])
            elif bonus.name == "chelem" and bonus.made and made != (bonus.side == DECLARER):
                problems.add(
                    f"{path}bonuses[{i}].made",
                    "french-chelem-result",
                    side=labels.SIDES[bonus.side],
                    result=labels.word("made") if made else labels.word("lost"),
                )
        if sum(shown) > TRUMPS:
            trumps = POIGNEE_TRUMPS[players]
            problems.add(
                f"{path}bonuses",
                "french-poignee-trumps",
                total=sum(shown),
                players=players,
                simple=trumps["simple"],
                double=trumps["double"],
                triple=trumps["triple"],
            )

    def score(self, hand: Hand, rules: Rules, carry: Any) -> tuple[list[Line], Any]:
        times = MULTIPLIERS[hand.contract]
        needed = threshold(hand.oudlers)
        made = hand.points >= needed
        unit = (BASE + difference(hand.points, needed)) * times
        text = _game_words(hand.contract, hand.points, hand.oudlers)
        lines = [Line("game", text, split(hand, unit if made else -unit), times)]
        winners = DECLARER if made else DEFENDERS
        for bonus in hand.bonuses:
            if bonus.name == "petit-au-bout":
                value = PETIT_AU_BOUT * times
                by_defenders = bonus.side != DECLARER
                text = _petit_au_bout_words(times, by_defenders)
                amounts = split(hand, -value if by_defenders else value)
                lines.append(Line("petit-au-bout", text, amounts, times))
            elif bonus.name == "poignee":
                value = POIGNEE_VALUES[bonus.level]
                text = _poignee_words(bonus.level, bonus.player, winners)
                lines.append(Line("poignee", text, split(hand, value if made else -value)))
            elif bonus.name == "chelem":
                value = chelem_value(bonus)
                text = bonus_words(bonus, value)
                if bonus.side != DECLARER:
                    value = -value
                lines.append(Line("chelem", text, split(hand, value)))
        return lines, carry


# The words of the lines: shared, as ``rules.items`` says.


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _game_words(contract: str, points: Amount, oudlers: int) -> Phrase:
    """ "garde 45, 41 needed with 2 oudlers: (25 + difference 4) ×2" (``points`` as the
    reader gives them: whole, or a Decimal ending in .5, so that equal points read alike)."""
    needed = threshold(oudlers)
    text = (
        Say(
            "line.french-game",
            contract=labels.CONTRACTS[contract],
            points=points,
            needed=needed,
            oudlers=oudlers,
            difference=difference(points, needed),
            multiplier=MULTIPLIERS[contract],
        ),
    )
    return text if points >= needed else text + LOST


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _petit_au_bout_words(times: int, by_defenders: bool) -> Phrase:
    what = labels.BONUSES["petit-au-bout"]
    text = (Say("line.value-times", what=what, value=PETIT_AU_BOUT, times=times),)
    return text + BY_DEFENDERS if by_defenders else text


@functools.lru_cache(maxsize=SHARED_PHRASES)
def _poignee_words(level: str, player: str, winners: str) -> Phrase:
    return (
        Say(
            "line.poignee",
            bonus=labels.BONUSES["poignee"],
            level=labels.POIGNEE_LEVELS[level],
            value=POIGNEE_VALUES[level],
            player=player,
            side=labels.SIDES[winners],
        ),
    )


def _half(doubled: int) -> int | str:
    """Twice a number of points, as the number: 27 → "13.5".

    >>> _half(27), _half(26)
    ('13.5', 13)
    """
    return doubled // 2 if doubled % 2 == 0 else f"{doubled // 2}.5"


VARIANTS = tuple(French(players) for players in (3, 4, 5))
