"""``python -m rules``: score a hand or a sheet, or count a pile, from the shell (HANDS.md).

Exit status: 0 scored; 1 input that is not readable JSON within the limits of
``rules.jsontext`` (or a file that cannot be read), one line on standard error; 2 a hand or
sheet that breaks the rules, one line per problem. Never a traceback for any input.
"""

from __future__ import annotations

import argparse
import json
import sys
from decimal import Decimal
from typing import Any

from rules import jsontext, words
from rules.counting import count, split_card_words
from rules.problems import RulesError
from rules.scoring import SheetResult, score_hand, score_sheet
from rules.variant import get_variant

USAGE_ERROR, RULES_BROKEN = 1, 2
MAX_BYTES = 2_000_000  # as the web import: a sheet of 1,000 hands is a few hundred KB


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a hand or a sheet (JSON)")
    score.add_argument("file", help="a JSON file, or - for standard input")
    score.add_argument("--text", action="store_true", help="print a readable table")
    score.add_argument(
        "--lang",
        choices=words.LANGUAGES,
        default=words.ENGLISH,
        help="the language of the words (lines, table, problems); default en",
    )
    score.add_argument(
        "--indent", type=int, metavar="N", help="indent the JSON by N spaces (default: compact)"
    )
    counter = commands.add_parser("count", help="count the card points of a pile")
    counter.add_argument("--variant", required=True)
    counter.add_argument("cards", nargs="+", help="pagat, XXI, škis, 'hearts king', kh, 10s …")
    args = parser.parse_args(argv)
    with words.speaking(getattr(args, "lang", words.ENGLISH)):
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        if args.command == "count":
            return _count(args.variant, split_card_words(args.cards))
        return _score(args.file, args.text, args.indent)
    except RulesError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        return RULES_BROKEN


def _score(path: str, text: bool, indent: int | None = None) -> int:
    try:
        raw = _read(path)
    except OSError as error:
        print(f"{path}: cannot be read: {error.strerror or error}", file=sys.stderr)
        return USAGE_ERROR
    try:
        data = jsontext.loads(raw, max_bytes=MAX_BYTES)
    except jsontext.UnreadableJSON as error:
        print(f"{path}: {error.problems[0]}", file=sys.stderr)
        return USAGE_ERROR
    result = score_sheet(data) if isinstance(data, dict) and "hands" in data else score_hand(data)
    if text:
        print(_table(result))
    else:
        # Compact unless asked: an indent makes json use its pure-Python encoder, the
        # costliest part of scoring a long sheet from the shell.
        print(json.dumps(result.to_json(), ensure_ascii=False, indent=indent, default=_number))
    return 0


def _read(path: str) -> bytes | str:
    """The text of the file (``-``: standard input), at most one byte over the limit."""
    if path == "-":
        stream = getattr(sys.stdin, "buffer", sys.stdin)
        return stream.read(MAX_BYTES + 1)
    with open(path, "rb") as f:
        return f.read(MAX_BYTES + 1)


def _number(value: Any) -> Any:
    """Decimal amounts (hundredths) as JSON numbers."""
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(type(value).__name__)


def _count(variant: str, cards: list[str]) -> int:
    pile = count(variant, cards)
    print(f"{pile.points} points in {len(pile.cards)} cards")
    if variant.startswith("french"):
        print(f"oudlers: {pile.oudlers}")
    else:
        print(f"trula: {'complete' if pile.trula else 'incomplete'}")
    print(f"kings: {'all four' if pile.kings else 'not all four'}")
    return 0


def _signed(value: Any) -> str:
    text = words.number(value, words.current_language())
    return f"+{text}" if value > 0 else text


def _contract(hand: Any) -> str:
    return str(get_variant(hand.variant).contract_label(hand.contract))


def _say(key: str, **params: Any) -> str:
    return words.Say(f"cli.{key}", **params).text()


def _table(result: Any) -> str:
    if not isinstance(result, SheetResult):
        players = list(result.amounts)
        rows = [
            [line.text, *[_signed(line.amounts.get(p, 0)) for p in players]]
            for line in result.lines
        ]
        rows.append([_say("total"), *[_signed(result.amounts[p]) for p in players]])
        return _grid(["", *players], rows)
    players = list(result.players)
    rows = []
    for row in result.rows:
        amounts = row.result.amounts
        rows.append(
            [
                f"{row.number} {_contract(row.result.hand)}",
                *[_signed(amounts[p]) if p in amounts else "" for p in players],
            ]
        )
    for line in result.closing:
        rows.append([line.text, *[_signed(line.amounts.get(p, 0)) for p in players]])
    rows.append([_say("total"), *[_signed(result.totals[p]) for p in players]])
    rows.append([_say("net"), *[_signed(result.settlement.nets[p]) for p in players]])
    table = _grid([_say("hand"), *players], rows)
    transfers = [
        _say("pays", payer=t.payer, payee=t.payee, amount=t.amount)
        for t in result.settlement.transfers
    ]
    return "\n".join([table, "", *transfers])


def _grid(header: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = []
    for r in [header, *rows]:
        cells = [str(r[0]).ljust(widths[0])]
        cells += [str(c).rjust(w) for c, w in zip(r[1:], widths[1:], strict=True)]
        lines.append("  ".join(cells))
    return "\n".join(lines)
