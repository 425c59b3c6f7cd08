"""The one way a public page, feed, calendar, sitemap or link preview names a player (issue 30).

Each roster player is shown by his full name, his initials ("A. K.", a digit added where two
of the club's collide) or not at all ("Player 3", numbered on each page in the order the page
names them, never a database id). Nobody is shown until somebody chose: the default is hidden
(scorebook.public.models). A person linked to players of several clubs is shown by the most
private of his choices: a club where nobody chose for him names him hidden, and does not make
him hidden elsewhere, since that is no choice of his.

Names inside stored hands and lines ("Bor: I play", a line's amounts, the dealer) go through
the same mapping (`line`, `note`); an adjustment's reason never shows, nor does any text
typed at the table.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _

from rules.words import Phrase, Say
from scorebook.models import Club, Player
from scorebook.public.models import PRIVACY, PublicName, Shown

# A person's key on a page: a roster player's id, or ("registration", id) for a member
# registered for a tournament before the club had a player of his.
Key = Any


def initials(name: str) -> str:
    """ "Ana Kovač" -> "A. K."; "Jean-Luc Petit" -> "J. P."; a word without a letter is left out."""
    letters = [next((c for c in word if c.isalpha()), "") for word in name.split()]
    letters = [c.upper() for c in letters if c]
    return " ".join(f"{c}." for c in letters) or "?"


def most_private(choices: Iterable[str]) -> str:
    return min(choices, key=lambda shown: PRIVACY[Shown(shown)], default=Shown.HIDDEN)


class Naming:
    """The names of one page. Built once for the page (two queries), asked for every name on it.

    `persons`: a series' persons (scorebook.series), each his roster players with the one he
    is shown as first. A series spans clubs: a player of another club is named by his own
    choice there (hidden if nobody chose), and a person matched across clubs by the most
    private choice of any of his players."""

    def __init__(
        self,
        club: Club,
        extra: Sequence[tuple[Key, str, str]] = (),
        persons: Iterable[Sequence[int]] = (),
    ):
        self.club = club
        # key -> (name at the table, how it is shown)
        self._people: dict[Key, tuple[str, str]] = {}
        self._numbers: dict[Key, int] = {}
        self._load()
        for key, name, shown in extra:
            self._people[key] = (name, shown)
        self._add_persons([list(person) for person in persons])
        self._initials = self._initials_without_collisions()

    def _load(self) -> None:
        rows = list(
            Player.objects.filter(club=self.club).values_list(
                "pk", "name", "user_id", "public_name__shown"
            )
        )
        users = {user for _pk, _name, user, _shown in rows if user is not None}
        elsewhere: dict[int, list[str]] = defaultdict(list)
        for user, shown in (
            PublicName.objects.filter(player__user_id__in=users)
            .exclude(player__club=self.club)
            .values_list("player__user_id", "shown")
        ):
            elsewhere[user].append(shown)
        self.user_players = {user: pk for pk, _name, user, _shown in rows if user is not None}
        for pk, name, user, shown in rows:
            own = shown or Shown.HIDDEN
            self._people[pk] = (name, most_private([own, *elsewhere.get(user, [])]))

    def _add_persons(self, persons: list[list[int]]) -> None:
        unknown = {pk for person in persons for pk in person if pk not in self._people}
        if unknown:
            self._people.update(_elsewhere(unknown))
        for person in persons:
            if person and person[0] in self._people:
                choices = [self._people[pk][1] for pk in person if pk in self._people]
                self._people[person[0]] = (self._people[person[0]][0], most_private(choices))

    def _initials_without_collisions(self) -> dict[Key, str]:
        groups: dict[str, list[Key]] = defaultdict(list)
        for key in sorted(self._people, key=str):
            name, shown = self._people[key]
            if shown == Shown.INITIALS:
                groups[initials(name)].append(key)
        out = {}
        for said, keys in groups.items():
            for i, key in enumerate(keys, start=1):
                out[key] = said if len(keys) == 1 else f"{said} {i}"
        return out

    # --- the naming function ---------------------------------------------------------------

    def name(self, key: Key) -> str:
        """How the page names this person: every name a public page shows comes from here."""
        name, shown = self._people.get(key, ("", Shown.HIDDEN))
        if shown == Shown.FULL and name:
            return name
        if shown == Shown.INITIALS and name:
            return self._initials[key]
        if key not in self._numbers:
            self._numbers[key] = len(self._numbers) + 1
        return _("Player %(number)d") % {"number": self._numbers[key]}

    def is_shown(self, key: Key) -> bool:
        """Whether the person is named at all: a hidden one has no public page."""
        return self._people.get(key, ("", Shown.HIDDEN))[1] != Shown.HIDDEN

    def registration(self, registration) -> str:
        """A tournament registrant: his player, else the player of his account in the club."""
        if registration.player_id is not None:
            return self.name(registration.player_id)
        player = self.user_players.get(registration.user_id)
        if player is not None:
            return self.name(player)
        return self.name(("registration", registration.pk))

    # --- names inside a sheet ---------------------------------------------------------------

    def seats(self, seat_names: Mapping[str, int]) -> dict[str, str]:
        """The seated names (name -> player id, in seat order) -> the names the page shows,
        asked in seat order, so a table's hidden players are numbered as they sit."""
        return {name: self.name(pk) for name, pk in seat_names.items()}

    def line(self, words: Phrase, seats: Mapping[str, str]) -> str:
        """A stored line's words (rules.words, as a StoredRow reads them) with the seated
        names as the page names them."""
        return "".join(piece.text() for piece in _public_phrase(words, seats))

    def note(self, words: Phrase, seats: Mapping[str, str]) -> str:
        return " ".join(piece.text() for piece in _public_phrase(words, seats))


def _elsewhere(players: Collection[int]) -> dict[Key, tuple[str, str]]:
    """Players of any club: each by his own choice, made more private by any other choice of
    the person linked to him (two queries)."""
    rows = list(
        Player.objects.filter(pk__in=players).values_list(
            "pk", "name", "user_id", "public_name__shown"
        )
    )
    users = {user for _pk, _name, user, _shown in rows if user is not None}
    others: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for user, pk, shown in PublicName.objects.filter(player__user_id__in=users).values_list(
        "player__user_id", "player_id", "shown"
    ):
        others[user].append((pk, shown))
    return {
        pk: (
            name,
            most_private(
                [shown or Shown.HIDDEN, *(s for other, s in others.get(user, []) if other != pk)]
            ),
        )
        for pk, name, user, shown in rows
    }


def _public_phrase(words: Phrase, seats: Mapping[str, str]) -> list[Say]:
    swap = _swapper(seats)
    return [_public_say(piece, swap) for piece in words]


def _swapper(seats: Mapping[str, str]):
    """Every seated name, as a whole word, replaced at once (two names may swap)."""
    names = sorted((name for name in seats if name), key=len, reverse=True)
    if not names:
        return lambda text: text
    pattern = re.compile(r"(?<!\w)(" + "|".join(map(re.escape, names)) + r")(?!\w)")
    return lambda text: pattern.sub(lambda m: seats[m.group(1)], text)


# A literal kept from before words were stored ("adjustment: he left early"): its reason goes.
_LITERAL_REASON = re.compile(r"^(adjustment):.*$", re.IGNORECASE | re.DOTALL)


def _public_say(say: Say, swap) -> Say:
    if say.id == "line.adjustment-reason":
        return Say("line.adjustment")
    if say.id == "text":
        text = str(say.params.get("text", ""))
        return Say("text", text=swap(_LITERAL_REASON.sub(r"\1", text)))
    return Say(say.id, **{key: _public_value(value, swap) for key, value in say.params.items()})


def _public_value(value: Any, swap) -> Any:
    if isinstance(value, Say):
        return _public_say(value, swap)
    if isinstance(value, str):
        return swap(value)
    return value
