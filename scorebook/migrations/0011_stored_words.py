"""Stored rows keep the engine's words as ids and values, not English text (issue 14).

A row stored before held each line and its note as English text. Each session is replayed
from its stored hands, row after row from the running state stored before each one, and a
row takes the replayed words only where the replay gives the very amounts stored: no amount is
changed. A row the replay does not give back (a rule changed since it was scored) keeps its
English words as a literal (the glossary's ``text`` entry), so nothing stored is lost.
"""

import re

from django.db import migrations

# Closing lines are radelc penalties: "unused radelci 2 × -50".
PENALTY = re.compile(r"unused radelci (\d+) × (-?\d+)")


def _literal(text):
    return [["text", {"text": text}]]


def _is_text_row(score):
    lines = score.get("lines") or []
    return isinstance(score.get("note"), str) or any(isinstance(line[0], str) for line in lines)


def _replay(sheet, data, running):
    """The row the engine gives this stored hand from `running`, or None."""
    from rules.problems import Problems
    from rules.reader import read_hand
    from rules.scoring import play

    problems = Problems()
    own = {k: v for k, v in data.items() if k not in ("format", "variant", "rules")}
    if list(own.get("players", ())) == list(sheet.players):
        del own["players"]
    try:
        read = read_hand(own, problems, "", sheet, entered=False)
        if problems:
            return None
        return play(sheet.variant, sheet.rules, sheet.players, read[2], running)[0]
    except Exception:  # a hand the engine no longer reads keeps its text
        return None


def _words_of(score, row):
    """The stored row with words instead of text: from the replay where its amounts agree."""
    from rules.notes import note
    from rules.scoring import amount_json
    from rules.words import phrase_json

    lines = score.get("lines") or []
    if row is not None:
        fresh = [
            [phrase_json(line.words), {n: amount_json(a) for n, a in line.amounts.items()}]
            for line in row.result.lines
        ]
        same = [amounts for _, amounts in fresh] == [amounts for _, amounts in lines]
        if same and {n: amount_json(a) for n, a in row.result.amounts.items()} == score.get(
            "amounts"
        ):
            return {**score, "lines": fresh, "note": phrase_json(note(row.result))}
    return {
        **score,
        "lines": [
            [_literal(words) if isinstance(words, str) else words, amounts]
            for words, amounts in lines
        ],
        "note": _literal(score["note"]) if isinstance(score.get("note"), str) else score["note"],
    }


def _closing_words(closing):
    lines = []
    for line in closing.get("lines") or []:
        if isinstance(line, list):
            lines.append(line)
            continue
        match = PENALTY.fullmatch(line.get("text", ""))
        words = (
            [["line.radelc-penalty", {"count": int(match[1]), "penalty": int(match[2])}]]
            if match
            else _literal(line.get("text", ""))
        )
        lines.append([words, line.get("amounts", {})])
    return {**closing, "lines": lines}


def forwards(apps, schema_editor):
    import rules
    from rules.reader import Sheet
    from rules.scoring import Running, start

    Session = apps.get_model("scorebook", "Session")
    Hand = apps.get_model("scorebook", "Hand")
    SessionSeat = apps.get_model("scorebook", "SessionSeat")
    for session in Session.objects.all().iterator():
        if session.closing and session.closing.get("lines"):
            session.closing = _closing_words(session.closing)
            session.save(update_fields=["closing"])
        hands = list(Hand.objects.filter(session=session).order_by("number"))
        if not any(_is_text_row(hand.score) for hand in hands):
            continue
        players = tuple(
            SessionSeat.objects.filter(session=session)
            .order_by("position")
            .values_list("player__name", flat=True)
        )
        try:
            variant = rules.get_variant(session.variant)
            sheet = Sheet(variant, variant.rules(session.rules), players)
            running = start(sheet.variant, sheet.rules, players)
        except Exception:  # a session the engine cannot read: its rows keep their text
            sheet = running = None
        for hand in hands:
            score = hand.score or {}
            if _is_text_row(score):
                row = (
                    None if sheet is None or running is None else _replay(sheet, hand.data, running)
                )
                hand.score = _words_of(score, row)
                hand.save(update_fields=["score"])
            try:
                running = Running.from_json(score["running"]) if "running" in score else None
            except Exception:
                running = None


class Migration(migrations.Migration):
    dependencies = [("scorebook", "0010_languages")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
