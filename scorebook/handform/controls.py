"""The controls of the hand form, resolved for generic templates: nothing variant-specific is
decided in HTML."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Option:
    value: str
    label: str
    checked: bool = False
    name: str = ""  # what a screen reader says when the label is a sign ("–": "no bonus")


@dataclass
class Widget:
    """One control of the hand form, resolved for a generic template (nothing variant-specific
    is decided in HTML). kind: choice (radio chips), checks (checkbox chips), select, number,
    text, check (one checkbox), group (a fieldset of widgets). A number is a text input with a
    keypad (`inputmode`) and the parser's `pattern`: Chromium's type=number turns "40,5" into
    "405"."""

    kind: str
    name: str
    label: str
    options: list[Option] = field(default_factory=list)
    value: str = ""
    errors: list[str] = field(default_factory=list)
    children: list[Widget] = field(default_factory=list)
    help: str = ""
    inputmode: str = ""
    pattern: str = ""
    # A number that may be negative gets a ± button (static/scorebook/hand_form.js): iOS's decimal
    # keypad has no minus key.
    signed: bool = False
    css: str = ""
    open: bool = False  # a fold shown open
    groups: list[Any] = field(default_factory=list)  # the card counter's chips by suit
    # The control's accessible name when its label alone is the same for many ("Contra").
    aria_label: str = ""
    html: str = ""  # the control drawn (handform.widgets.drawn), once it is built

    @property
    def id(self) -> str:
        return "id_" + re.sub(r"[^\w-]", "_", self.name)
