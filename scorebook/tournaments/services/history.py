"""The tournament's history in the reader's words: each event is stored as a kind and numbers
(round, table, minutes, players), and said when read, in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext as _

from scorebook.tournaments.models import Event, Tournament


def event_text(event: Event) -> str:
    names = ", ".join(r.name for r in event.registrations.all())
    where = {"round": event.round_number, "table": event.table_number}
    texts = {
        Event.Kind.CORRECTED: _(
            "Round %(round)s · table %(table)s: a hand was changed after the round; its "
            "result and the standings are recomputed, a round already drawn stays drawn."
        ),
        Event.Kind.KNOCKOUT_REDRAWN: _(
            "Round %(round)s · table %(table)s is redrawn: the match before it has another winner."
        ),
        Event.Kind.KNOCKOUT_DECIDE: _(
            "Round %(round)s · table %(table)s has begun, but the match before it has another "
            "winner now: decide whether it is replayed or kept."
        ),
        Event.Kind.KNOCKOUT_REPLAYED: _(
            "Round %(round)s · table %(table)s is replayed by the director's decision: "
            "%(names)s play it again; its earlier hands are voided."
        ),
        Event.Kind.KNOCKOUT_KEPT: _(
            "Round %(round)s · table %(table)s is kept as played, by the director's decision."
        ),
        Event.Kind.ENDED: _("Round %(round)s · table %(table)s ended by the director."),
        Event.Kind.MORE_MINUTES: _("Round %(round)s · table %(table)s: %(minutes)s more minutes."),
        Event.Kind.RESEATED: _("Round %(round)s · table %(table)s reseated."),
        Event.Kind.WITHDRAWN: _("%(names)s withdrawn."),
        Event.Kind.SUBSTITUTE: _("%(names)s comes in as a substitute."),
        Event.Kind.PRESENCE: _("Presence confirmed by the director: %(names)s."),
        Event.Kind.PRESENCE_UNDONE: _("Presence undone by the director: %(names)s."),
        Event.Kind.LATE_HAND: _("Round %(round)s · table %(table)s: a hand after the time."),
    }
    return texts[event.kind] % {**where, "minutes": event.minutes, "names": names}


def history(tournament: Tournament, limit: int = 30) -> list[tuple[Event, str]]:
    """The latest events, latest first, each with its words."""
    events = tournament.events.prefetch_related("registrations__player", "registrations__user")
    return [(event, event_text(event)) for event in events[:limit]]
