"""The hands of a sheet as HTML rows, written in Python rather than in a template.

The sheet is the page every phone at the table polls and the answer to every save. Through
Django's template engine its rows cost about 0.7 ms a hand (a 60-hand evening: 40 ms, thirty
trivial pages; bench/save_bench.py), so they are written here, from each hand's stored row, in
one pass. (A save and a poll now answer with a few rows only, the latest or the changed
ones: views/hands.py.) Everything that comes from the club (names, notes, reasons, the
engine's lines) goes through escape(); the markup is the one templates/scorebook/
sheet_table.html lays out around it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from rules.scoring import amount_of
from scorebook.hands import line_text, stored_note_text
from scorebook.templatetags.amounts import amount

# One stored hand as the sheet reads it: number, voided, void reason, stored row.
StoredRow = tuple[int, bool, str, Mapping[str, Any]]


class Rows(NamedTuple):
    html: SafeString
    totals: list[Any]  # after the last hand, before any closing lines
    radelci: Mapping[str, int]  # held after the last hand
    played: int  # hands not voided
    unscored: list[int]  # numbers of hands without a stored row


def sheet_rows(
    hands: Iterable[StoredRow],
    names: Sequence[str],
    edit_url: Callable[[int], str],
    void_url: Callable[[int], str],
    can_change: bool,
    before: Mapping[str, Any] | None = None,
    replace_in: str = "",
) -> Rows:
    """The <tbody> of each hand: amounts with radelci gained and used, running totals, and the
    paper note that opens onto the engine's lines, the dealer and (`can_change`) the links to
    edit or void the hand. `before` is the stored row of the hand before the first of `hands`
    (None: they start the sheet): its totals and radelci held are where they continue from.
    `replace_in` (a CSS selector of the sheet on a polling phone): each <tbody> replaces the
    one of its hand there (htmx out-of-band), and only there."""
    seats = [(name, escape(name)) for name in names]
    gained = f'<span class="radelc" title="{escape(_("radelc"))}">○</span>'
    used = f'<span class="radelc used" title="{escape(_("radelc used"))}">⊘</span>'
    blank_cells = '<td class="num">–</td>' * len(names)
    colspan = len(names)
    edit, void, voided_word = escape(_("Edit")), escape(_("Void")), escape(_("voided"))
    dealt_by = _("dealt by %(dealer)s")  # translated once, not once a row
    out: list[str] = []
    start = (before or {}).get("running") or {}
    held: Mapping[str, int] = start.get("carry") or {}
    totals: list[Any] = [amount_of(start.get("totals", {}).get(name, 0)) for name in names]
    within = escape(replace_in)
    played = 0
    unscored = []
    for number, voided, void_reason, score in hands:
        if voided or "amounts" not in score:
            if not voided:
                unscored.append(number)
            summary = f"{voided_word}: {escape(void_reason)}" if voided else ""
            out.append(
                f'<tbody class="hand voided" id="hand-{number}"{_replacing(within, number)}><tr>'
                f'<th scope="row" rowspan="2">{number}</th>{blank_cells}</tr>'
                f'<tr class="note"><td colspan="{colspan}"><details><summary>{summary}'
                "</summary></details></td></tr></tbody>"
            )
            continue
        played += 1
        running, amounts = score["running"], score["amounts"]
        after = running["carry"] or {}
        cells = []
        for index, name in enumerate(names):
            total = amount_of(running["totals"].get(name, 0))
            totals[index] = total
            if name in amounts:
                value = amount_of(amounts[name])
                negative = " negative" if value < 0 else ""
                shown = f'<span class="amount{negative}">{amount(value)}</span>'
            else:
                shown = '<span class="muted">·</span>'
            change = after.get(name, held.get(name, 0)) - held.get(name, 0)
            if change > 0:
                shown += gained * change
            elif change < 0:
                shown += used * -change
            cells.append(
                f'<td class="num">{shown}<br><small class="total">{amount(total)}</small></td>'
            )
        held = after
        out.append(
            f'<tbody class="hand" id="hand-{number}"{_replacing(within, number)}><tr>'
            f'<th scope="row" rowspan="2">{number}</th>{"".join(cells)}</tr>'
            f'<tr class="note"><td colspan="{colspan}"><details>'
            f"<summary>{escape(stored_note_text(score['note']))}</summary>"
            f"{_lines(score['lines'], seats)}{_dealer(dealt_by, score['dealer'])}"
        )
        if can_change:
            out.append(
                f'<p class="actions"><a href="{edit_url(number)}">{edit}</a> '
                f'<a href="{void_url(number)}">{void}</a></p>'
            )
        out.append("</details></td></tr></tbody>")
    return Rows(mark_safe("".join(out)), totals, held, played, unscored)


def _replacing(within: str, number: int) -> str:
    return f' hx-swap-oob="outerHTML:{within} #hand-{number}"' if within else ""


def _lines(lines: Sequence[list[Any]], seats) -> str:
    if not lines:
        return ""
    items = []
    for stored in lines:
        text, line = line_text(stored), stored[1]
        scores = " · ".join(
            f"{escaped} {amount(amount_of(line[name]))}" for name, escaped in seats if name in line
        )
        items.append(f'<li>{escape(text)}<br><small class="score">{scores}</small></li>')
    return f'<ul class="lines">{"".join(items)}</ul>'


def _dealer(dealt_by: str, dealer: str) -> str:
    if not dealer:
        return ""
    return f'<small class="muted">{escape(dealt_by % {"dealer": dealer})}</small>'
