"""Counting cards (RULES.md §5): the ticked cards are counted by rules.counting, never here."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

import rules
from rules.fields import POINTS, field_of_kind
from rules.model import DECLARER
from scorebook.handform.controls import Option, Widget
from scorebook.handform.mapping import CARDS, HandForm

SUIT_SIGNS = {"hearts": "♥", "diamonds": "♦", "spades": "♠", "clubs": "♣"}
RED_SUITS = ("hearts", "diamonds")


def suit_names() -> dict[str, str]:
    return {
        "hearts": _("Hearts"),
        "diamonds": _("Diamonds"),
        "spades": _("Spades"),
        "clubs": _("Clubs"),
    }


@dataclass
class CardGroup:
    key: str
    label: str
    options: list[Option]
    red: bool = False


def count_cards(form: HandForm):
    """The engine's count of the ticked cards (None when none is ticked); an unknown or
    repeated card is the engine's problem at the "cards" field."""
    cards = [c for c in form.values.getlist(CARDS) if c]
    if not cards:
        return None
    try:
        return form.variant.count(cards)
    except rules.RulesError as exc:
        for problem in exc.problems:
            form.error(CARDS, problem.message)
        return None


def use_card_count(form: HandForm):
    """Fill the card points (and the oudlers, where the contract counts them) with the count
    of the ticked cards: the declarer's side's own pile, so the points are the declarer's
    side's."""
    counted = count_cards(form)
    if counted is None:
        if not form.errors.get(CARDS):
            form.error(CARDS, _("Tick the cards the declarer's side took."))
        return None
    for field in form.fields.values():
        # The card points whatever the contract (the counter is theirs), the rest if it has them.
        if field.counted and (field.kind is POINTS or form.uses_field(field)):
            form.values.set(field.home, getattr(counted, field.counted))
            if field.kind is POINTS:  # the pile counted is the declarer's side's
                form.values.set(field.key(1), DECLARER)
    return counted


def card_counter(form: HandForm) -> Widget | None:
    """The folded "Count cards" helper next to the card points: the variant's deck as chips."""
    if not form.uses_field(field_of_kind(POINTS, form.fields)):
        return None
    variant = form.variant
    ticked = set(form.values.getlist(CARDS))
    deck = variant.deck.cards()

    def chips(prefix: str) -> list[Option]:
        return [Option(c, variant.card_label(c), c in ticked) for c in deck if c.startswith(prefix)]

    groups = [CardGroup("taroks", variant.trumps_label, chips("tarok-"))]
    for suit, name in suit_names().items():
        groups.append(
            CardGroup(suit, f"{name} {SUIT_SIGNS[suit]}", chips(suit + "-"), red=suit in RED_SUITS)
        )
    counted = count_cards(form)
    errors = form.errors.get(CARDS, [])
    return Widget(
        "cards",
        CARDS,
        _("Count cards"),
        errors=errors,
        value="" if counted is None else ", ".join(variant.count_summary(counted)),
        help=_("Tap the cards the declarer's side took."),
        css="card-counter",
        open=bool(ticked) or bool(errors),
        groups=groups,
    )
