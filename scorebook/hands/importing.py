"""Importing a sheet (HANDS.md) as a new session: checked whole, scored before the transaction,
its players found on the roster or added to it."""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import rules
from rules.problems import Problem, Problems
from rules.reader import Sheet, read_hand
from rules.scoring import MAX_HANDS, read_sheet
from scorebook.errors import Refusal, ServiceError
from scorebook.hands.scoring import entries, running_after, score_hands
from scorebook.hands.session import lock_players
from scorebook.hands.stored import stored_hand
from scorebook.models import Club, Entry, Hand, Player, Session, SessionSeat, season_on
from scorebook.signals import announce_hands_changed


class SheetProblems(ServiceError):
    """A sheet that cannot be imported; `problems` lists every reason, and `messages` says
    each with its hand counted from 1 ("hand 4: points: …")."""

    def __init__(self, problems: Sequence[Any]):
        messages = [describe_problem(problem) for problem in problems]
        super().__init__("\n".join(messages))
        self.problems = list(problems)
        self.messages = messages


# What one sheet may be: its text (the import form's cap) and its hands (the engine's, one
# session's worth: a longer sheet is refused before any of its hands is read).
MAX_SHEET_BYTES = 2_000_000


MAX_IMPORT_HANDS = MAX_HANDS


_HAND_PATH = re.compile(r"^hands\[(\d+)\]\.?(.*)$")


def describe_problem(problem: Problem | Refusal) -> str:
    """A sheet problem with its hand number counted from 1: ``hands[3].points`` → "hand 4:
    points: …"."""
    match = _HAND_PATH.match(problem.path)
    if match is None:
        return str(problem)
    number = int(match.group(1)) + 1
    rest = match.group(2)
    where = _("hand %(number)d") % {"number": number}
    if rest:
        where = f"{where}: {rest}"
    return f"{where}: {problem.message}"


def _check_import_roster(club: Club, sheet: Sheet) -> tuple[dict[str, Player | None], list[str]]:
    """Each of the sheet's players with his roster player (None: new to the roster), and what
    is wrong with the names."""
    messages = []
    roster: dict[str, Player | None] = {}
    max_length = Player._meta.get_field("name").max_length
    for i, name in enumerate(sheet.players):
        where = f"players[{i}]"
        if " ".join(name.split()) != name or len(name) > max_length:
            messages.append(
                _("%(where)s: %(name)s is not a name for the roster.")
                % {"where": where, "name": name}
            )
            continue
        if name.casefold() in {other.casefold() for other in roster}:
            messages.append(
                _("%(where)s: %(name)s is another player's name spelt otherwise.")
                % {"where": where, "name": name}
            )
            continue
        player = club.players.filter(name__iexact=name).first()
        if player is not None and player.name != name:
            messages.append(
                _("%(where)s: %(name)s is on the roster as %(roster)s; use that spelling.")
                % {"where": where, "name": name, "roster": player.name}
            )
        roster[name] = player
    return roster, messages


def _seat_imported(club: Club, roster: Mapping[str, Player | None]) -> list[Player]:
    """The sheet's players, in its order, inside the import's transaction: the roster players
    locked (their hands are stored by name, so a rename waits) and the new ones added. A name
    renamed or added since the sheet was checked refuses the import."""
    locked = lock_players([player for player in roster.values() if player is not None])
    seated = []
    for name, player in roster.items():
        if player is None:
            try:
                with transaction.atomic():
                    player = Player.objects.create(club=club, name=name)
            except IntegrityError:
                player = None
        elif locked.get(player.pk) is None or locked[player.pk].name != name:
            player = None
        if player is None:
            raise SheetProblems(
                [
                    Refusal(
                        "",
                        _("%(name)s changed on the roster meanwhile; import again.")
                        % {"name": name},
                    )
                ]
            )
        seated.append(player)
    return seated


def _read_import(club: Club, data: Any) -> tuple[Sheet, dict[str, Player | None]]:
    """The sheet read by the engine, every hand of it, and its players with their roster
    players; raises SheetProblems with everything wrong."""
    problems: list[Any] = Problems()
    sheet = read_sheet(data, problems)
    if sheet is not None:
        for i, raw in enumerate(data["hands"]):
            read_hand(raw, problems, f"hands[{i}]", sheet)
    roster: dict[str, Player | None] = {}
    if sheet is not None:
        roster, wrong_names = _check_import_roster(club, sheet)
        problems += [Refusal("", message) for message in wrong_names]
    if problems:
        raise SheetProblems(problems)
    return sheet, roster


def _score_import(data: Any, sheet: Sheet, roster: Mapping[str, Player | None], user):
    """The sheet's frozen rules and its hands, scored and ready to insert (no session yet)."""
    variant = sheet.variant
    rules_json = data.get("rules") or {}
    frozen = dict(rules.resolve_rules(variant.id, rules_json))
    frozen.setdefault("preset", rules_json.get("preset", variant.default_preset))
    table = Sheet(variant, variant.rules(frozen), tuple(roster))
    hand_jsons = [stored_hand(variant.id, frozen, roster, raw) for raw in data["hands"]]
    try:
        scores = score_hands(
            table, list(enumerate(hand_jsons, start=1)), running_after(table, None)
        )
    except rules.RulesError as exc:
        raise SheetProblems(exc.problems) from None
    hands = [
        Hand(
            number=number,
            data=hand_json,
            score=score,
            rules_version=str(rules.RULES_VERSION),
            created_by=user,
            changed_by=user,
        )
        for number, (hand_json, score) in enumerate(zip(hand_jsons, scores, strict=True), 1)
    ]
    return frozen, hands


def import_sheet(
    club: Club, data: Any, user, *, date: datetime.date | None = None, table_label: str = ""
) -> Session:
    """A sheet (HANDS.md) as a new open session of `club`, every hand scored and stored.

    The whole sheet is checked first; if anything is wrong nothing is stored and SheetProblems
    lists every problem ("hand 4: points: …"). Players missing from the roster are added to it,
    as a club moving from paper expects; a name on the roster spelt otherwise is a problem.
    A sheet holds at most MAX_IMPORT_HANDS hands. It is scored before the transaction, which
    only inserts (the write lock of SQLite is held for the whole transaction).
    """

    sheet, roster = _read_import(club, data)
    frozen, hands = _score_import(data, sheet, roster, user)
    date = date or timezone.localdate()
    with transaction.atomic():
        seated = _seat_imported(club, roster)
        session = Session(
            club=club,
            season=season_on(club, date),  # filed by its date, as a session started here is
            variant=sheet.variant.id,
            rules=frozen,
            house_rules_name=sheet.house_rules,  # kept though the club has no set of that name
            date=date,
            table_label=table_label,
            created_by=user,
            confirmation=club.confirmation,  # its hands come in unconfirmed
        )
        session._history_user = user
        session.save()
        SessionSeat.objects.bulk_create(
            SessionSeat(session=session, player=player, position=position)
            for position, player in enumerate(seated, start=1)
        )
        for hand in hands:
            hand.session_id = session.pk
        Hand.objects.bulk_create(hands)
        Hand.history.bulk_history_create(hands, default_user=user)
        seats = {player.name: player.pk for player in seated}
        Entry.objects.bulk_create(entry for hand in hands for entry in entries(hand, seats))
        announce_hands_changed(session)
    return session
