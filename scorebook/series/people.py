"""Who is who in a series (RULES.md §8.6): its players, grouped into persons by account and by
the series' admins' matches (scorebook.series.persons), and the matches themselves.

A player is told by mail when he is matched, if he has an account with an address.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

from scorebook.collation import sort_key
from scorebook.errors import ServiceError
from scorebook.language import mail_language
from scorebook.models import Player
from scorebook.series import persons
from scorebook.series.models import (
    ChangeCause,
    EntryState,
    ImportedRating,
    PlayerMatch,
    Series,
    SeriesTournament,
)
from scorebook.tournaments.models import Registration

log = logging.getLogger(__name__)


@dataclass
class Universe:
    """The players a series knows (who played one of its tournaments, was imported or
    matched), each with his club, name and account, and the persons they make."""

    series: Series
    players: dict[int, Player] = field(default_factory=dict)
    groups: dict[int, frozenset] = field(default_factory=dict)

    def person(self, pid: int) -> frozenset:
        return self.groups.get(pid) or frozenset({pid})

    def shown(self, person: frozenset, latest: int | None = None) -> int:
        """The roster player a person is shown as: his in the series' club, else the one who
        played his latest tournament (`latest`), else the first."""
        own = sorted(p for p in person if self._club(p) == self.series.club_id)
        if own:
            return own[0]
        return latest if latest in person else min(person)

    def names(self) -> dict[int, str]:
        """Each player's name as the lists sort it (scorebook.collation)."""
        return {pid: sort_key(p.name) for pid, p in self.players.items()}

    def _club(self, pid: int) -> int | None:
        player = self.players.get(pid)
        return player.club_id if player is not None else None


def played_ids(series: Series) -> set[int]:
    """Every roster player of the series' tournaments: registered, or in their stored results
    (a substitute, say, who never registered)."""
    entries = SeriesTournament.objects.filter(season__series=series, state=EntryState.JOINED)
    registered = Registration.objects.filter(
        tournament__in=entries.values("tournament_id"), cancelled_at=None, player__isnull=False
    )
    ids = set(registered.values_list("player_id", flat=True))
    for inputs in entries.values_list("inputs", flat=True):
        ids.update(pid for _place, pid in inputs.get("ranking", []))
        for tables in inputs.get("rounds", []):
            ids.update(pid for table in tables for pid, _total in table)
    return ids


def universe(series: Series) -> Universe:
    matches = list(series.matches.values_list("player_id", "other_id"))
    ids = played_ids(series)
    ids.update(ImportedRating.objects.filter(series=series).values_list("player_id", flat=True))
    ids.update(pid for pair in matches for pid in pair)
    players = {p.pk: p for p in Player.objects.filter(pk__in=ids).select_related("club")}
    accounts = {pid: p.user_id for pid, p in players.items()}
    groups = persons.persons(players, accounts, [m for m in matches if set(m) <= set(players)])
    return Universe(series, players, groups)


def _accounts(found: Universe) -> dict[int, int | None]:
    return {pid: p.user_id for pid, p in found.players.items()}


def match(series: Series, one: Player, other: Player, user) -> PlayerMatch:
    """Make one person of two roster players (and of everybody matched with either)."""
    from scorebook.series import compute  # compute groups players with this module: a cycle

    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series.pk)
        found = universe(series)
        for player in (one, other):
            if player.pk not in found.players:
                raise ServiceError(_("Pick players of the series."), "player")
        if one.pk == other.pk or found.person(one.pk) == found.person(other.pk):
            raise ServiceError(_("These two are one person already."), "other")
        mine, theirs = found.person(one.pk), found.person(other.pk)
        if persons.would_join_two_accounts(mine, theirs, _accounts(found)):
            raise ServiceError(
                _("Each of them has an account of his own: two accounts are two persons."),
                "other",
            )
        low, high = sorted((one, other), key=lambda p: p.pk)
        try:
            with transaction.atomic():
                made = PlayerMatch.objects.create(
                    series=series, player=low, other=high, made_by=user
                )
        except IntegrityError:
            raise ServiceError(_("These two are one person already."), "other") from None
        compute.recompute(series, ChangeCause.MATCH)
        _tell(series, [p for p in (one, other) if p.user_id], one, other)
    return made


def unmatch(found: PlayerMatch) -> None:
    """Undo a match: the two are separate persons again, unless other matches still join them."""
    from scorebook.series import compute  # a cycle, as in match()

    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=found.series_id)
        PlayerMatch.objects.filter(pk=found.pk).delete()
        compute.recompute(series, ChangeCause.MATCH)


def possible_matches(series: Series) -> list[tuple[Player, Player]]:
    """Same names in two clubs, not one person yet and not two accounts: offered, never made;
    each pair with the series' own club's player first (else in roster order)."""
    found = universe(series)
    names = {pid: p.name for pid, p in found.players.items()}
    clubs = {pid: p.club_id for pid, p in found.players.items()}
    groups = {pid: found.person(pid) for pid in found.players}
    pairs = persons.possible_matches(names, clubs, groups, _accounts(found))
    offered = [(found.players[a], found.players[b]) for a, b in pairs]
    return [(b, a) if b.club_id == series.club_id else (a, b) for a, b in offered]


def _tell(series: Series, told: Iterable[Player], one: Player, other: Player) -> None:
    """After the commit, a mail to each matched player who has an account with an address."""
    recipients = [(p.user, p.club) for p in told if p.user.email]

    def send() -> None:
        for user, club in recipients:
            with translation.override(mail_language(user, club)):
                context = {"series": series, "one": one, "other": other, "user": user}
                subject = "".join(
                    render_to_string("series/match_subject.txt", context).splitlines()
                )
                body = render_to_string("series/match_email.txt", context)
            try:
                send_mail(subject, body, None, [user.email])
            except (smtplib.SMTPException, OSError):
                log.exception("the match mail to user %s was not sent", user.pk)

    transaction.on_commit(send, robust=True)
