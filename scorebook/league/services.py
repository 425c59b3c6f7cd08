"""League history: ratings rebuilt from the hands, and the reads behind the league pages.

`rebuild_ratings` is the only writer of this app's tables. It walks a family's hands in a
fixed order — session date, then session id, then hand number — so the same hands always give
the same ratings, and it keeps one small row per player per session (`PlayerSession`,
`ContractTally`). The pages aggregate those rows in the database; none of them reads the whole
history of hands or entries, so a page costs the same with 100 hands as with 100,000.
"""

from __future__ import annotations

import datetime
import json
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import (
    Count,
    F,
    FloatField,
    Max,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Window,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

import rules
from rules.ratings import START, update
from scorebook.amounts import cents
from scorebook.collation import sort_key
from scorebook.hands import evaluate_session
from scorebook.league.models import (
    ContractTally,
    LeagueSession,
    PlayerSession,
    Rating,
    StaleFamily,
)
from scorebook.models import (
    WITH_TABLE,
    Club,
    Entry,
    Hand,
    Player,
    Season,
    Session,
    SessionSeat,
)


def family_variants() -> dict[str, list[str]]:
    """Family -> its variant ids, in the engine's order."""
    families: dict[str, list[str]] = {}
    for variant in rules.variants():
        families.setdefault(variant.family, []).append(variant.id)
    return families


def _family(family: str) -> list[rules.Variant]:
    return [variant for variant in rules.variants() if variant.family == family]


def family_label(family: str) -> str:
    """The family's name, a league's heading: "Slovenian tarok"."""
    return next((v.family_label for v in _family(family)), family)


def keeps_radelci(club: Club, family: str, season: Season | None = None) -> bool:
    """Whether any of the club's sessions of the family (in the season, if given) kept radelci,
    as its variant says of the rules it froze: then the standings show the radelci used and
    left. A family whose games never keep radelci asks no query."""
    variants = {v.id: v for v in _family(family)}
    if not any(v.keeps_radelci(preset) for v in variants.values() for preset in v.presets.values()):
        return False
    sessions = Session.objects.filter(club=club, variant__in=variants)
    if season is not None:
        sessions = sessions.filter(season=season)
    pairs = sessions.order_by().values_list("variant", "rules").distinct()
    return any(variants[variant].keeps_radelci(rules or {}) for variant, rules in pairs)


def family_of(variant_id: str) -> str:
    return rules.get_variant(variant_id).family


def contract_label(family: str, contract: str) -> str:
    """A contract in its game's words (the family's variants share them)."""
    variant = next(iter(_family(family)), None)
    return variant.contract_label(contract) if variant else contract


def _before(date, session_id: int, key: str = "session_id") -> Q:
    """Rows of sessions that come before (date, session id) in the rating order; `key` names
    the session id (`id` on Session itself)."""
    return Q(date__lt=date) | Q(date=date, **{f"{key}__lt": session_id})


# --- Rebuild ------------------------------------------------------------------------------


def rebuild_ratings(club: Club, family: str | None = None, *, full: bool = False) -> int:
    """Bring ratings and league summaries of `club` (one family, or all) up to date with its
    hands; returns how many hands were read.

    Pages call it through `ensure_current` once a hand was recorded, edited or voided: it
    finds the earliest session whose hands changed since the last rebuild (or that was added,
    moved to another date or deleted) and recomputes from there on, starting from the ratings
    stored before it. `full` recomputes the family from its first hand; both give the same
    result.
    """
    families = [family] if family else list(family_variants())
    read = 0
    with transaction.atomic():
        # One rebuild of a club at a time (PostgreSQL: the row lock; SQLite: the write lock).
        list(Club.objects.select_for_update().filter(pk=club.pk).values_list("pk", flat=True))
        for name in families:
            read += _rebuild_family(club, name, full)
    return read


def mark_stale(club: Club, family: str) -> None:
    """Note that a family's hands changed: one write, whatever the club's history (every save
    of a hand pays for it, so an UPDATE first, and an INSERT only for the first mark)."""
    now = timezone.now()
    marks = StaleFamily.objects.filter(club=club, family=family)
    if marks.update(marked_at=now):
        return
    try:
        with transaction.atomic():
            StaleFamily.objects.create(club=club, family=family, marked_at=now)
    except IntegrityError:  # another save marked it a moment ago
        marks.update(marked_at=now)


def ensure_current(club: Club) -> None:
    """Rebuild what changed since the last rebuild, before a league page reads.

    A mark made while the rebuild runs has a newer time and survives it, so the next page
    rebuilds again: no change is ever left out.
    """
    for family, marked_at in StaleFamily.objects.filter(club=club).values_list(
        "family", "marked_at"
    ):
        rebuild_ratings(club, family)
        StaleFamily.objects.filter(club=club, family=family, marked_at=marked_at).delete()


def _family_sessions(club: Club, family: str) -> QuerySet[Session]:
    return Session.objects.filter(club=club, variant__in=family_variants()[family])


# How far back from the newest change seen by the last rebuild to look for hands changed
# since: a transaction that stamped its hand earlier but committed later is still found.
CHANGE_MARGIN = datetime.timedelta(minutes=10)


def _first_stale(club: Club, family: str, sessions: QuerySet[Session]):
    """(date, session id) of the earliest session to rebuild, or None when all is current.

    Stale: a session new since the last rebuild, moved to another date or deleted, or one
    whose hands' count or newest `changed_at` differ from what the rebuild saw (a hand
    recorded, edited or voided). Only the sessions with a hand changed near or after the
    newest change seen are counted again, so this stays cheap on a long history.
    """
    seen = {
        row[0]: row[1:]
        for row in LeagueSession.objects.filter(club=club, family=family).values_list(
            "session_id", "date", "hand_count", "last_changed"
        )
    }
    stale = []
    present = set()
    for session_id, date in sessions.values_list("id", "date"):
        present.add(session_id)
        before = seen.get(session_id)
        if before is None or before[0] != date:
            stale.append((date, session_id))
        if before is not None and before[0] != date:
            stale.append((before[0], session_id))  # it moved: rebuild from where it was
    stale.extend((row[0], sid) for sid, row in seen.items() if sid not in present)
    marks = [row[2] for row in seen.values() if row[2] is not None]
    recent = Hand.objects.filter(session__in=sessions)
    if marks:
        recent = recent.filter(changed_at__gte=max(marks) - CHANGE_MARGIN)
    recent_ids = set(recent.order_by().values_list("session_id", flat=True).distinct())
    for session_id, date, n, changed in (
        sessions.filter(id__in=recent_ids)
        .annotate(n=Count("hands"), changed=Max("hands__changed_at"))
        .values_list("id", "date", "n", "changed")
    ):
        if seen.get(session_id) != (date, n, changed):
            stale.append((date, session_id))
    return min(stale) if stale else None


def _rebuild_family(club: Club, family: str, full: bool) -> int:
    """Recompute a family's league rows from its first stale session on (all of them when
    `full`): forget the rows from there, read the sessions, walk their hands, write."""
    sessions = _family_sessions(club, family)
    start = None if full else _first_stale(club, family, sessions)
    if not full and start is None:
        return 0
    later, state = _forget_from(club, family, sessions, start)
    history = _read_sessions(club, later)
    walk = _walk_hands(later, history.names, state)
    _write_sessions(club, family, history, walk, _radelci_of(history))
    _write_tallies(club, family, history, walk)
    _write_ratings(club, family, walk)
    return walk.read


def _forget_from(
    club: Club, family: str, sessions: QuerySet[Session], start
) -> tuple[QuerySet[Session], dict[int, tuple[float, int]]]:
    """Delete the league rows from `start` (None: the family's first session) on; returns the
    sessions to walk again and each player's (rating, hands rated) before them."""
    if start is None:
        later = sessions
        state: dict[int, tuple[float, int]] = {}
        redo = Q(club=club, family=family)
    else:
        date, session_id = start
        # A list of ids, not a subquery: the database then reads only these sessions' rows.
        later = Session.objects.filter(
            pk__in=list(
                sessions.exclude(_before(date, session_id, "id")).values_list("pk", flat=True)
            )
        )
        state = _state_before(club, family, date, session_id)
        redo = Q(club=club, family=family) & ~_before(date, session_id)
    PlayerSession.objects.filter(redo).delete()
    LeagueSession.objects.filter(redo).delete()
    tallies_of = ContractTally.objects.filter(club=club, family=family)
    (tallies_of.filter(session__in=later) if start else tallies_of).delete()
    return later, state


@dataclass
class _Sessions:
    """What the rebuild reads of the sessions it walks, besides their hands."""

    # In rating order, each with: id, date, season_id, n (its hands), changed (the newest
    # change of a hand), is_closed, closing, rules, variant.
    rows: list[Any]
    totals: dict[tuple[int, int], Decimal]  # (session id, player id) -> sum of his entries
    seats: dict[int, dict[str, int]]  # session id -> seated name -> player id
    names: dict[str, int]  # the roster: lower-case name -> player id


def _read_sessions(club: Club, later: QuerySet[Session]) -> _Sessions:
    names = {
        name.lower(): pid
        for pid, name in Player.objects.filter(club=club).values_list("pk", "name")
    }
    rows = list(
        later.annotate(n=Count("hands"), changed=Max("hands__changed_at"))
        .order_by("date", "id")
        .values_list(
            "id",
            "date",
            "season_id",
            "n",
            "changed",
            "is_closed",
            "closing",
            "rules",
            "variant",
            named=True,
        )
    )
    # Totals are the database's sum of the entries, not added up here.
    totals = {
        (row["hand__session_id"], row["player_id"]): row["total"]
        for row in Entry.objects.filter(hand__session__in=later, hand__voided=False)
        .values("hand__session_id", "player_id")
        .annotate(total=Sum("amount"))
    }
    seats: dict[int, dict[str, int]] = defaultdict(dict)
    for session_id, player_id, name in SessionSeat.objects.filter(session__in=later).values_list(
        "session_id", "player_id", "player__name"
    ):
        seats[session_id][name] = player_id
    return _Sessions(rows, totals, seats, names)


@dataclass
class _Walk:
    """The Elo walk's outcome: ratings after the last hand, and per session its evenings and
    declared contracts."""

    ratings: dict[int, float]
    rated: dict[int, int]  # player id -> hands rated
    evenings: dict[int, dict[int, _Evening]] = field(default_factory=dict)
    # (session id, declarer id, contract) -> [declared, won]
    tallies: dict[tuple[int, int, str], list[int]] = field(default_factory=dict)
    read: int = 0


def _walk_hands(
    later: QuerySet[Session], names: Mapping[str, int], state: Mapping[int, tuple[float, int]]
) -> _Walk:
    """The Elo walk: one pass over the hands in rating order, from the ratings in `state`. An
    evening's rating is the one after its last hand, so each session is closed off when the
    next one starts. A row that is no deal (a redeal, an adjustment) is not rated."""
    walk = _Walk(
        ratings={pid: r for pid, (r, _n) in state.items()},
        rated={pid: n for pid, (_r, n) in state.items()},
    )
    ratings, rated = walk.ratings, walk.rated
    current_session, evening = None, {}

    def close_evening() -> None:
        for pid, e in evening.items():
            e.rating_after, e.rated_after = ratings.get(pid, START), rated.get(pid, 0)

    for hand in _hands_in_order(later):
        walk.read += 1
        if hand.session_id != current_session:
            close_evening()
            current_session = hand.session_id
            evening = walk.evenings.setdefault(current_session, {})
        for pid in hand.amounts:
            evening.setdefault(pid, _Evening())
        if not rules.get_variant(hand.variant).is_deal(hand.contract):
            continue
        ratings.update(update(ratings, hand.amounts))
        for pid in hand.amounts:
            rated[pid] = rated.get(pid, 0) + 1
            evening[pid].hands += 1
        declarer = hand.declarer_id(names)
        if declarer is not None:
            won = hand.amounts[declarer] > 0
            evening[declarer].declared += 1
            evening[declarer].won += won
            tally = walk.tallies.setdefault((hand.session_id, declarer, hand.contract), [0, 0])
            tally[0] += 1
            tally[1] += won
    close_evening()
    return walk


def _write_sessions(
    club: Club,
    family: str,
    history: _Sessions,
    walk: _Walk,
    radelci: Mapping[tuple[int, int], tuple[int, int]],
) -> None:
    """One LeagueSession per session walked (what the next rebuild compares against) and one
    PlayerSession per player of it."""
    marks, lines = [], []
    for session_id, date, season_id, n, changed, is_closed, closing, *_rest in history.rows:
        marks.append(
            LeagueSession(
                session_id=session_id,
                club=club,
                family=family,
                date=date,
                hand_count=n,
                last_changed=changed,
            )
        )
        seats = history.seats[session_id]
        closed = closing_by_player(closing, seats) if is_closed else {}
        for pid, e in walk.evenings.get(session_id, {}).items():
            closed_total, net = closed.get(pid, (None, None))
            used, left = radelci.get((session_id, pid), (0, 0))
            lines.append(
                PlayerSession(
                    session_id=session_id,
                    player_id=pid,
                    club=club,
                    family=family,
                    season_id=season_id,
                    date=date,
                    hands=e.hands,
                    total=history.totals.get((session_id, pid), Decimal(0)),
                    declared=e.declared,
                    won=e.won,
                    radelci_used=used,
                    radelci_left=left,
                    rating_after=e.rating_after,
                    rated_after=e.rated_after,
                    closed_total=closed_total,
                    net=net,
                )
            )
    LeagueSession.objects.bulk_create(marks, batch_size=500)
    PlayerSession.objects.bulk_create(lines, batch_size=500)


def _write_tallies(club: Club, family: str, history: _Sessions, walk: _Walk) -> None:
    season_of = {row.id: row.season_id for row in history.rows}
    ContractTally.objects.bulk_create(
        (
            ContractTally(
                session_id=session_id,
                player_id=pid,
                club=club,
                family=family,
                season_id=season_of[session_id],
                contract=contract,
                declared=declared,
                won=won,
            )
            for (session_id, pid, contract), (declared, won) in walk.tallies.items()
        ),
        batch_size=500,
    )


def _write_ratings(club: Club, family: str, walk: _Walk) -> None:
    Rating.objects.filter(club=club, family=family).delete()
    Rating.objects.bulk_create(
        Rating(
            club=club,
            family=family,
            player_id=pid,
            rating=Decimal(f"{rating:.2f}"),
            hands=walk.rated.get(pid, 0),
        )
        for pid, rating in walk.ratings.items()
    )


def _radelci_of(history: _Sessions) -> dict[tuple[int, int], tuple[int, int]]:
    """The radelci of the walked sessions that play with them."""
    return _radelci(
        [row.id for row in history.rows if _keeps_radelci(row.variant, row.rules)], history.seats
    )


def _keeps_radelci(variant_id: str, session_rules: Mapping[str, Any]) -> bool:
    return rules.get_variant(variant_id).keeps_radelci(session_rules)


def _radelci(
    session_ids: list[int], seats: Mapping[int, Mapping[str, int]]
) -> dict[tuple[int, int], tuple[int, int]]:
    """(session id, player id) -> (radelci used, radelci left) for sessions that keep radelci.
    Entries do not say who held a radelc, so these sessions go through the engine's sheet
    (scorebook.hands.evaluate_session), which carries them hand to hand."""
    if not session_ids:
        return {}
    out = {}
    for session in Session.objects.filter(pk__in=session_ids):
        try:
            _hands, sheet = evaluate_session(session, closed=False)
        except rules.RulesError:
            continue  # a stored hand this engine no longer reads: no radelci to show
        held: dict[str, int] = {}
        used: dict[str, int] = {}
        for row in sheet.rows:
            for name in row.result.radelci_used:
                used[name] = used.get(name, 0) + 1
            held.update(row.result.radelci or {})
        for name, pid in seats[session.pk].items():
            out[(session.pk, pid)] = (used.get(name, 0), held.get(name, 0))
    return out


@dataclass
class _Evening:
    hands: int = 0
    declared: int = 0
    won: int = 0
    rating_after: float = START
    rated_after: int = 0


@dataclass
class _HandRow:
    session_id: int
    variant: str
    contract: str
    declarer: str | None
    players: Any  # the hand's `players`, read only when the declarer's name is not found
    amounts: dict[int, float] = field(default_factory=dict)
    entry_order: list[int] = field(default_factory=list)

    def declarer_id(self, names: Mapping[str, int]) -> int | None:
        """The declarer's player: by name on the roster, or, for a player renamed since, by
        his place in the hand's `players` (entries are written in that order)."""
        if not self.declarer:
            return None
        pid = names.get(self.declarer.lower())
        if pid in self.amounts:
            return pid
        players = _names(self.players)
        if self.declarer in players and len(players) == len(self.entry_order):
            return self.entry_order[players.index(self.declarer)]
        return None


def _hands_in_order(sessions: QuerySet[Session]) -> Iterable[_HandRow]:
    """The hands of `sessions` that are not voided, in rating order, each with its entries.

    Two streams read side by side (hands and entries in the same order), so memory stays
    flat however long the history.
    """
    order = ("session__date", "session_id", "number")
    hands = (
        Hand.objects.filter(session__in=sessions, voided=False)
        .order_by(*order)
        .values_list(
            "id",
            "session_id",
            "session__variant",
            KT("data__contract"),
            KT("data__declarer"),
            KT("data__players"),
        )
        .iterator(chunk_size=2000)
    )
    entries = (
        Entry.objects.filter(hand__session__in=sessions, hand__voided=False)
        .order_by(*(f"hand__{o}" for o in order), "id")
        # Floats: Elo and "won" only compare amounts, and two-place decimals compare the
        # same as floats; it spares a Decimal per entry on a long history.
        .values_list("hand_id", "player_id", Cast("amount", FloatField()))
        .iterator(chunk_size=8000)
    )
    pending = next(entries, None)
    for hand_id, session_id, variant, contract, declarer, players in hands:
        row = _HandRow(session_id, variant, contract or "", declarer, players)
        while pending is not None and pending[0] == hand_id:
            row.amounts[pending[1]] = pending[2]
            row.entry_order.append(pending[1])
            pending = next(entries, None)
        yield row


def _names(players: Any) -> list[str]:
    if isinstance(players, list):
        return players
    if not players:
        return []
    try:
        value = json.loads(players)
    except ValueError:
        return []
    return value if isinstance(value, list) else []


def _state_before(club: Club, family: str, date, session_id: int) -> dict[int, tuple[float, int]]:
    """Each player's rating and hands rated after the last session before (date, id)."""
    latest = (
        PlayerSession.objects.filter(club=club, family=family, player=OuterRef("pk"))
        .filter(_before(date, session_id))
        .order_by("-date", "-session_id")
    )
    rows = (
        Player.objects.filter(club=club)
        .annotate(
            r=Subquery(latest.values("rating_after")[:1], output_field=FloatField()),
            n=Subquery(latest.values("rated_after")[:1]),
        )
        .filter(r__isnull=False)
        .values_list("pk", "r", "n")
    )
    return {pid: (r, n) for pid, r, n in rows}


def closing_by_player(
    closing: Mapping[str, Any] | None, seats: Mapping[str, int]
) -> dict[int, tuple[Decimal | None, Decimal | None]]:
    """Player id -> (closed total, settlement net) from a session's `closing`."""
    if not closing:
        return {}
    totals = closing.get("totals") or {}
    nets = (closing.get("settlement") or {}).get("nets") or {}
    out = {}
    for name, pid in seats.items():
        total = totals.get(name)
        net = nets.get(name)
        out[pid] = (
            None if total is None else cents(total),
            None if net is None else cents(net),
        )
    return out


def refresh_closing(session: Session) -> None:
    """Copy a session's closing totals and nets into its league rows (on close and reopen)."""
    seats = dict(
        SessionSeat.objects.filter(session=session).values_list("player__name", "player_id")
    )
    closed = closing_by_player(session.closing, seats) if session.is_closed else {}
    for line in PlayerSession.objects.filter(session=session):
        line.closed_total, line.net = closed.get(line.player_id, (None, None))
        line.save(update_fields=["closed_total", "net"])


# --- Reads for the pages ----------------------------------------------------------------------
# Each function runs a fixed number of queries over the per-session rows above.


def families_played(club: Club) -> list[str]:
    """The variant families the club has sessions of, in the engine's order."""
    variants = set(
        # order_by(): Session's default ordering would make DISTINCT run over (variant, date, id)
        Session.objects.filter(club=club).order_by().values_list("variant", flat=True).distinct()
    )
    return [family for family, ids in family_variants().items() if variants & set(ids)]


@dataclass
class Standing:
    player_id: int
    name: str
    sessions: int
    hands: int
    total: Decimal
    declared: int
    won: int
    rating: Decimal | None
    rated: int
    radelci_used: int = 0
    radelci_left: int = 0

    @property
    def per_hand(self) -> Decimal | None:
        return cents(self.total / self.hands) if self.hands else None

    @property
    def won_rate(self) -> int | None:
        return round(100 * self.won / self.declared) if self.declared else None


SORT_KEYS = {
    "name": lambda s: sort_key(s.name),
    "sessions": lambda s: s.sessions,
    "hands": lambda s: s.hands,
    "total": lambda s: s.total,
    "per_hand": lambda s: s.per_hand if s.per_hand is not None else Decimal("-1e12"),
    "declared": lambda s: s.declared,
    "won": lambda s: s.won_rate if s.won_rate is not None else -1,
    "rating": lambda s: s.rating if s.rating is not None else Decimal(0),
    "radelci_used": lambda s: s.radelci_used,
    "radelci_left": lambda s: s.radelci_left,
}


def standings(
    club: Club, family: str, season: Season | None = None, sort: str = "total", descending=True
) -> list[Standing]:
    """One row per player who played the family (in the season, if given), sorted by `sort`
    then by name. The rating is the current one: ratings run across seasons."""
    lines = PlayerSession.objects.filter(club=club, family=family)
    if season is not None:
        lines = lines.filter(season=season)
    ratings = {
        pid: (rating, hands)
        for pid, rating, hands in Rating.objects.filter(club=club, family=family).values_list(
            "player_id", "rating", "hands"
        )
    }
    rows = [
        Standing(
            player_id=row["player_id"],
            name=row["player__name"],
            sessions=row["sessions"],
            hands=row["hands"] or 0,
            total=row["total"] or Decimal(0),
            declared=row["declared"] or 0,
            won=row["won"] or 0,
            rating=ratings.get(row["player_id"], (None, 0))[0],
            rated=ratings.get(row["player_id"], (None, 0))[1],
            radelci_used=row["radelci_used"] or 0,
            radelci_left=row["radelci_left"] or 0,
        )
        for row in lines.values("player_id", "player__name").annotate(
            sessions=Count("id"),
            hands=Sum("hands"),
            total=Sum("total"),
            declared=Sum("declared"),
            won=Sum("won"),
            radelci_used=Sum("radelci_used"),
            radelci_left=Sum("radelci_left"),
        )
    ]
    key = SORT_KEYS.get(sort, SORT_KEYS["total"])
    rows.sort(key=lambda s: sort_key(s.name))
    rows.sort(key=key, reverse=descending)
    return rows


def contract_stats(club: Club, family: str, season: Season | None = None) -> list[dict]:
    """Per contract: hands declared, how many were won, the success rate."""
    tallies = ContractTally.objects.filter(club=club, family=family)
    if season is not None:
        tallies = tallies.filter(season=season)
    rows = []
    for row in tallies.values("contract").annotate(declared=Sum("declared"), won=Sum("won")):
        rows.append(
            {
                "contract": row["contract"],
                "label": contract_label(family, row["contract"]),
                "declared": row["declared"],
                "won": row["won"],
                "rate": round(100 * row["won"] / row["declared"]) if row["declared"] else None,
            }
        )
    rows.sort(key=lambda r: (-r["declared"], r["label"]))
    return rows


def ledger_rows(club: Club, sessions: list[Session]) -> list[dict]:
    """The closed `sessions` (one ledger page, newest first) with each player's total, net and
    balance after the session: the sum of his nets over all closed sessions up to it."""
    if not sessions:
        return []
    ids = [s.pk for s in sessions]
    lines: dict[int, dict[int, PlayerSession]] = defaultdict(dict)
    for line in PlayerSession.objects.filter(session_id__in=ids):
        lines[line.session_id][line.player_id] = line
    oldest = sessions[-1]
    balance = {
        row["player_id"]: row["balance"] or Decimal(0)
        for row in PlayerSession.objects.filter(club=club, session__is_closed=True)
        .filter(_before(oldest.date, oldest.pk))
        .values("player_id")
        .annotate(balance=Sum("net"))
    }
    rows = []
    for session in reversed(sessions):  # oldest first, to carry the balance forward
        players = []
        for seat in session.seats.all():
            line = lines[session.pk].get(seat.player_id)
            net = line.net if line is not None else None
            if net is not None:
                balance[seat.player_id] = balance.get(seat.player_id, Decimal(0)) + net
            players.append(
                {
                    "player": seat.player,
                    "total": (
                        line.closed_total
                        if line is not None and line.closed_total is not None
                        else (line.total if line is not None else None)
                    ),
                    "net": net,
                    "balance": balance.get(seat.player_id, Decimal(0)),
                }
            )
        rows.append(
            {
                "session": session,
                "variant": session.variant_label,
                "players": players,
                "transfers": (session.closing or {}).get("settlement", {}).get("transfers", []),
            }
        )
    rows.reverse()
    return rows


def player_summary(club: Club, player: Player) -> dict[str, Any]:
    """Everything the player page shows, in a fixed number of queries."""
    lines = PlayerSession.objects.filter(club=club, player=player)
    summary = lines.aggregate(
        sessions=Count("id"),
        hands=Sum("hands"),
        total=Sum("total"),
        declared=Sum("declared"),
        won=Sum("won"),
    )
    # Up to three of each, and never the same evening in both lists: with four evenings,
    # the two best and the two worst.
    k = min(3, max(1, (summary["sessions"] or 0) // 2))
    by_total = lines.select_related(f"session__{WITH_TABLE}")
    best = list(by_total.order_by("-total", "-date", "-session_id")[:k])
    worst = [
        line for line in by_total.order_by("total", "-date", "-session_id")[:k] if line not in best
    ]
    # The running total of each family over time, summed by the database in date order:
    # units of different games are never added together.
    history = list(
        lines.annotate(
            running=Window(
                Sum("total"),
                partition_by=[F("family")],
                order_by=[F("date").asc(), F("session_id").asc()],
            )
        )
        .order_by("date", "session_id")
        .values_list("date", "family", "running", "rating_after")
    )
    ratings = list(
        Rating.objects.filter(club=club, player=player).values_list("family", "rating", "hands")
    )
    contracts = [
        {
            **row,
            "label": contract_label(row["family"], row["contract"]),
            "family_label": family_label(row["family"]),
        }
        for row in ContractTally.objects.filter(club=club, player=player)
        .values("family", "contract")
        .annotate(declared=Sum("declared"), won=Sum("won"))
        .order_by("family", "-declared", "contract")
    ]
    return {
        "summary": summary,
        "best": best,
        "worst": worst,
        "history": history,
        "ratings": [(family_label(family), rating, hands) for family, rating, hands in ratings],
        "contracts": contracts,
        "opponents": head_to_head(club, player),
    }


HEAD_TO_HEAD = 5


def head_to_head(club: Club, player: Player, limit: int = HEAD_TO_HEAD) -> list[dict]:
    """The players met most often: evenings together, evenings the player finished ahead of
    each, and the sum of (his total − theirs) over those evenings."""
    # Read from the player's own evenings (his index), joined to everybody's line of the same
    # session; his own line is among them and is dropped below.
    others = "session__league_lines"
    rows = (
        PlayerSession.objects.filter(club=club, player=player)
        .values(f"{others}__player_id", f"{others}__player__name")
        .annotate(
            met=Count("id"),
            ahead=Count("id", filter=Q(total__gt=F(f"{others}__total"))),
            behind=Count("id", filter=Q(total__lt=F(f"{others}__total"))),
            difference=Sum(F("total") - F(f"{others}__total")),
        )
        .order_by()
    )
    found = [
        {
            "player_id": row[f"{others}__player_id"],
            "player__name": row[f"{others}__player__name"],
            "met": row["met"],
            "ahead": row["ahead"],
            "behind": row["behind"],
            "difference": row["difference"],
        }
        for row in rows
        if row[f"{others}__player_id"] != player.pk
    ]
    # Ties in the reader's alphabet, which the database does not know: every opponent is read
    # (a club's players, not its hands).
    found.sort(key=lambda row: (-row["met"], sort_key(row["player__name"])))
    return found[:limit]
