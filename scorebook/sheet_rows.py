"""The hands of a sheet as HTML rows, written in Python rather than in a template.

The sheet is the page every phone at the table polls and the answer to every save. Through
Django's template engine its rows cost about 0.7 ms a hand (a 60-hand evening: 40 ms, thirty
trivial pages; bench/save_bench.py), so they are written here, from each hand's stored row as
the hand pipeline reads it (scorebook.hands.StoredRow), in one pass. (A save and a poll now
answer with a few rows only, the latest or the changed ones: views/hands.py.) Everything that
comes from the club (names, notes, reasons, the engine's lines) goes through escape(); the
markup is the one templates/scorebook/sheet_table.html lays out around it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from scorebook.hands import StoredLine, StoredRow
from scorebook.templatetags.amounts import amount

if TYPE_CHECKING:
    from rules.variant import Carried


class Rows(NamedTuple):
    html: SafeString
    totals: list[Any]  # after the last hand, before any closing lines
    held: Mapping[str, int]  # what each player holds of the carried state after the last hand
    played: int  # hands not voided
    unscored: list[int]  # numbers of hands without a stored row


def sheet_rows(
    hands: Iterable[StoredRow],
    names: Sequence[str],
    edit_url: Callable[[int], str],
    void_url: Callable[[int], str],
    can_change: bool,
    before: StoredRow | None = None,
    replace_in: str = "",
    carried: Carried | None = None,
) -> Rows:
    """The <tbody> of each hand: amounts with what the hand gained and used of the carried
    state (`carried`, the game's Carried: radelci), running totals, and the paper note that
    opens onto the engine's lines, the dealer and (`can_change`) the links to edit or void the
    hand. `before` is the stored row of the hand before the first of `hands` (None: they start
    the sheet): its totals and what it held are where they continue from. `replace_in` (a CSS
    selector of the sheet on a polling phone): each <tbody> replaces the one of its hand there
    (htmx out-of-band), and only there."""
    return _Writer(names, edit_url, void_url, can_change, replace_in, carried).rows(hands, before)


class _Writer:
    """What every row of one answer shares, escaped and translated once, not once a row."""

    def __init__(self, names, edit_url, void_url, can_change, replace_in, carried):
        self.names = names
        self.seats = [(name, escape(name)) for name in names]
        self.gained, self.used = _marks(carried)
        self.blank_cells = '<td class="num">–</td>' * len(names)
        self.colspan = len(names)
        self.edit_url, self.void_url, self.can_change = edit_url, void_url, can_change
        self.edit, self.void = escape(_("Edit")), escape(_("Void"))
        self.voided_word = escape(_("voided"))
        self.dealt_by = _("dealt by %(dealer)s")
        self.within = escape(replace_in)

    def rows(self, hands: Iterable[StoredRow], before: StoredRow | None) -> Rows:
        out: list[str] = []
        held: Mapping[str, int] = {} if before is None else before.held
        start = {} if before is None else before.totals
        totals: list[Any] = [start.get(name, 0) for name in self.names]
        played = 0
        unscored = []
        for row in hands:
            if row.voided or row.amounts is None:
                if not row.voided:
                    unscored.append(row.number)
                out.append(self._struck(row))
                continue
            played += 1
            out.append(self._scored(row, held, totals))
            held = row.held
        return Rows(mark_safe("".join(out)), totals, held, played, unscored)

    def _head(self, row: StoredRow, css: str) -> str:
        replacing = f' hx-swap-oob="outerHTML:{self.within} #hand-{row.number}"'
        return (
            f'<tbody class="{css}" id="hand-{row.number}"{replacing if self.within else ""}><tr>'
            f'<th scope="row" rowspan="2">{row.number}</th>'
        )

    def _struck(self, row: StoredRow) -> str:
        """A voided hand's row (or one without a stored row): no amounts."""
        summary = f"{self.voided_word}: {escape(row.void_reason)}" if row.voided else ""
        return (
            f"{self._head(row, 'hand voided')}{self.blank_cells}</tr>"
            f'<tr class="note"><td colspan="{self.colspan}"><details><summary>{summary}'
            "</summary></details></td></tr></tbody>"
        )

    def _scored(self, row: StoredRow, held: Mapping[str, int], totals: list[Any]) -> str:
        """A scored hand's row; `totals` becomes the running totals after it."""
        cells = []
        after, amounts, held_after = row.totals, row.amounts, row.held
        for index, name in enumerate(self.names):
            totals[index] = after.get(name, 0)
            shown = self._amount(amounts, name) + self._change(held_after, held, name)
            cells.append(
                f'<td class="num">{shown}<br>'
                f'<small class="total">{amount(totals[index])}</small></td>'
            )
        actions = ""
        if self.can_change:
            actions = (
                f'<p class="actions"><a href="{self.edit_url(row.number)}">{self.edit}</a> '
                f'<a href="{self.void_url(row.number)}">{self.void}</a></p>'
            )
        return (
            f"{self._head(row, 'hand')}{''.join(cells)}</tr>"
            f'<tr class="note"><td colspan="{self.colspan}"><details>'
            f"<summary>{escape(row.note_text)}</summary>"
            f"{self._lines(row.lines)}{self._dealer(row.dealer)}{actions}"
            "</details></td></tr></tbody>"
        )

    @staticmethod
    def _amount(amounts: Mapping[str, Any], name: str) -> str:
        if name not in amounts:
            return '<span class="muted">·</span>'
        value = amounts[name]
        negative = " negative" if value < 0 else ""
        return f'<span class="amount{negative}">{amount(value)}</span>'

    def _change(self, after: Mapping[str, int], held: Mapping[str, int], name: str) -> str:
        """A mark for each one the player gained of the carried state, or used of it."""
        change = after.get(name, held.get(name, 0)) - held.get(name, 0)
        if change > 0:
            return self.gained * change
        return self.used * -change if change < 0 else ""

    def _lines(self, lines: Sequence[StoredLine]) -> str:
        if not lines:
            return ""
        items = []
        for line in lines:
            scores = " · ".join(
                f"{escaped} {amount(line.amounts[name])}"
                for name, escaped in self.seats
                if name in line.amounts
            )
            items.append(f'<li>{escape(line.text)}<br><small class="score">{scores}</small></li>')
        return f'<ul class="lines">{"".join(items)}</ul>'

    def _dealer(self, dealer: str) -> str:
        if not dealer:
            return ""
        return f'<small class="muted">{escape(self.dealt_by % dict(dealer=dealer))}</small>'


def _marks(carried: Carried | None) -> tuple[str, str]:
    """The marks of one gained and one used of the carried state (the game's Carried: a
    radelc, a radelc used), titled with its words; none for a game that carries nothing. The
    class names are the stylesheet's for any carried count (radelci were the first)."""
    if carried is None:
        return "", ""
    gained = escape(str(carried.gained))
    used = escape(str(carried.used))
    return (
        f'<span class="radelc" title="{gained}">{escape(carried.mark)}</span>',
        f'<span class="radelc used" title="{used}">{escape(carried.used_mark)}</span>',
    )
