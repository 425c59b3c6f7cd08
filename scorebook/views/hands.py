"""The sheet of a session and the hand form: record, preview, edit and void a hand."""

from __future__ import annotations

import datetime
import uuid
from functools import wraps
from typing import Any, NamedTuple

from django.contrib import messages
from django.db import transaction
from django.db.models import Max
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from scorebook import confirmations, hands, textinput
from scorebook.access import can_change_closed, can_change_hands, club_view, get_for_club
from scorebook.errors import ServiceError
from scorebook.handform.counter import card_counter, use_card_count
from scorebook.handform.mapping import TOP, HandForm
from scorebook.handform.values import Values
from scorebook.handform.widgets import redraw_widgets, widgets
from scorebook.models import Hand, Role, Session
from scorebook.outbox import Status
from scorebook.sheet_rows import Rows, sheet_rows
from scorebook.views.offline import is_outbox, outbox_answer, outbox_login

FORM_METHODS = ("GET", "HEAD", "POST")
UNPROCESSABLE = 422
CONFLICT = 409


# --- The sheet ----------------------------------------------------------------------------

# The rows the sheet opens on and a save answers with: the evening's latest hands, as many
# however long it runs (issue 17). The older ones load when the phone scrolls up to them.
LATEST_ROWS = 10
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.UTC)
MICROSECOND = datetime.timedelta(microseconds=1)


class SheetVersion(NamedTuple):
    """What a phone showing the sheet has seen: when a hand last changed, the last hand, and
    whether the session was closed. It polls with it (`?since=`) and is answered with what
    changed since, or 204."""

    changed: datetime.datetime | None
    last: int
    closed: bool

    def token(self) -> str:
        micros = 0 if self.changed is None else (self.changed - EPOCH) // MICROSECOND
        return f"{micros}_{self.last}_{int(self.closed)}"

    @classmethod
    def read(cls, token: str) -> SheetVersion | None:
        """The version in a poll's `since`, or None for one this server did not write."""
        try:
            micros, last, closed = (int(part) for part in token.split("_"))
            changed = EPOCH + micros * MICROSECOND if micros else None
        except (ValueError, OverflowError):
            return None
        return cls(changed, last, bool(closed))


def _version(part: hands.SheetPart, session: Session) -> str:
    return SheetVersion(part.changed, part.last, session.is_closed).token()


def _hand_urls(session: Session):
    """Builders of each row's edit and void addresses from one reverse() each: a sheet of 60
    hands would otherwise spend a third of its rendering resolving 120 URLs."""
    kwargs = {"club": session.club.slug, "session": session.pk, "number": 0}
    edit = reverse("scorebook:hand_edit", kwargs=kwargs).rsplit("/0/", 1)
    void = reverse("scorebook:hand_void", kwargs=kwargs).rsplit("/0/", 1)
    return (
        lambda number: f"{edit[0]}/{number}/{edit[1]}",
        lambda number: f"{void[0]}/{number}/{void[1]}",
    )


def _rows(request, session: Session, names, stored, before=None, replace_in="") -> Rows:
    edit_url, void_url = _hand_urls(session)
    can_change = can_change_hands(request.membership, session)
    carried = hands.game(session).carried
    return sheet_rows(stored, names, edit_url, void_url, can_change, before, replace_in, carried)


def _foot(session: Session, names: list[str], rows: Rows) -> dict[str, Any]:
    """The sheet's foot: the closing lines of a closed session, what each player holds of the
    state the game carries (radelci) and the totals, after the last of `rows` (the session's
    last hand)."""
    closing: list[tuple[str, list[Any]]] = []
    final = rows.totals
    stored = hands.stored_closing(session)
    if stored is not None:
        closing = [(line.text, [line.amounts.get(name) for name in names]) for line in stored.lines]
        final = [stored.totals.get(name, 0) for name in names]
    carried = hands.game(session).carried
    return {
        "final_totals": final,
        "closing": closing,
        "carried": carried,
        "held": [range(rows.held.get(name, 0)) for name in names] if carried else None,
    }


def sheet_context(
    request, session: Session, latest: int | None = None, part: hands.SheetPart | None = None
) -> dict[str, Any]:
    """The sheet read from each hand's stored row: showing it never replays the session.
    `latest`: only the last so many rows, the older ones behind a link that loads them;
    `part`: those rows as a save holds them already (record_hand's `latest`), not read again."""
    names = list(session.seat_names)
    part = part or hands.latest_rows(session, latest)
    rows = _rows(request, session, names, part.rows, part.before)
    first = part.rows[0].number if part.rows else 1
    return {
        "session": session,
        "names": names,
        "rows": rows,
        **_foot(session, names, rows),
        "problems": [
            _("Hand %(number)d could not be scored; edit or void it.") % {"number": number}
            for number in rows.unscored
        ],
        "state": _version(part, session),
        # The first hand shown, when the hands before it are not.
        "older": first if first > 1 else None,
        "variant_label": hands.game(session).label,
        "confirmations": confirmations.on_sheet(request, session, first),
    }


def _session(request, pk: int) -> Session:
    """The club's session with its seats, in one statement (none: read with the membership,
    club_view(seated=True)), or 404."""
    seated = getattr(request, "seated", None)
    if seated is not None and seated.pk == pk:
        return seated
    session = hands.seated_session(club=request.club, pk=pk) or get_for_club(
        Session, request.club, pk=pk
    )
    session.club = request.club
    return session


def _shows_rows(request) -> bool:
    """Whether a sheet request shows rows: all but a poll, most of which are answered 204
    from the membership and one statement more, with no seat read."""
    return not (request.htmx and "since" in request.GET)


@club_view(role=Role.VIEWER, seated=_shows_rows)
def sheet(request, session):
    """The sheet: its latest rows (`?all`: every row), a poll's changes (`?since`), or the
    rows older than those a phone shows (`?before`)."""
    if request.htmx and "since" in request.GET:
        return _changes(request, session, SheetVersion.read(request.GET["since"]))
    session = _session(request, session)
    if request.htmx and "before" in request.GET:
        return _older(request, session, request.GET["before"])
    context = sheet_context(request, session, None if "all" in request.GET else LATEST_ROWS)
    template = "scorebook/sheet_table.html" if request.htmx else "scorebook/sheet.html"
    return render(request, template, context)


def _changes(request, pk: int, seen: SheetVersion | None):
    """A poll: 204 when nothing changed since the phone's version; the rows that did and the
    foot when a few did (each in place, a new hand after the last: htmx out-of-band); the
    latest rows afresh when more did, the session was closed or reopened, or the phone
    showed no hand yet. As quick at the end of the evening as at its start, and quickest
    when nothing changed, the answer to nearly every poll: one statement after the login's."""
    since = EPOCH if seen is None else seen.changed or EPOCH
    if seen is not None and hands.unchanged_since(request.club, pk, since, seen.closed):
        return HttpResponse(status=204)
    session = _session(request, pk)
    part = None
    if seen is not None and seen.closed == session.is_closed:
        part = hands.rows_changed_since(session, since, LATEST_ROWS)
    if part is not None and not part.rows:
        return HttpResponse(status=204)  # nothing new: the phone keeps its rows (and open ones)
    if part is None or not seen.last:  # (no hand yet: its "no hand" row goes too)
        context = {**sheet_context(request, session, LATEST_ROWS), "oob": True}
        return render(request, "scorebook/sheet_table.html", context)
    names = list(session.seat_names)
    # Where the phone's sheet still shows its version: no answer overtaken by another swaps in.
    at = f"#sheet-poll[data-version='{seen.token()}']"
    within = f"#sheet:has({at})"
    shown = [row for row in part.rows if row.number <= seen.last]
    new = [row for row in part.rows if row.number > seen.last]
    replaced = _rows(request, session, names, shown, part.before, replace_in=within)
    added = _rows(request, session, names, new, shown[-1] if shown else part.before)
    context = {
        "session": session,
        "names": names,
        "replaced": replaced.html,
        "added": added.html,
        **_foot(session, names, added if new else replaced),
        "state": _version(part, session),
        "at": at,
        "within": within,
        "confirmations": confirmations.on_poll(
            request, session, [row[0] for row in shown], [row[0] for row in new]
        ),
    }
    return render(request, "scorebook/sheet_changes.html", context)


def _older(request, session: Session, before: str):
    """The rows of the hands before hand `before`, in place of the link that asked for them."""
    try:
        number = textinput.number(before, whole=True)
    except textinput.InputError:
        raise Http404 from None
    part = hands.rows_before(session, number or 0)
    return HttpResponse(_rows(request, session, list(session.seat_names), part.rows).html)


# --- The hand form --------------------------------------------------------------------------


def _form(session: Session, values: Values) -> HandForm:
    return HandForm(session, list(session.seat_names), values)


def _stored_form(session: Session, hand: Hand) -> HandForm:
    """The form showing a stored hand, for editing it."""
    names = list(session.seat_names)
    return HandForm(session, names, HandForm.values_from_hand(session, names, hand.data))


def _new_values(session: Session) -> Values:
    form = _form(session, Values())
    played = session.hands.filter(voided=False).count() if form.needs_sitting_out else 0
    return form.opening_values(played)


def _posted_uuid(request, name: str) -> str:
    """The posted UUID at `name` in its one spelling, or "" when it is missing or no UUID."""
    try:
        return str(uuid.UUID(request.POST.get(name, "")))
    except ValueError:
        return ""


def _client_id(request) -> str:
    return _posted_uuid(request, "client_id") or str(uuid.uuid4())


def _problems(form: HandForm) -> dict[str, Any]:
    """Every problem of a refused save, for the preview under the fields, each naming its
    field by its label ("Points: required")."""
    return {"problems": form.problem_list}


def _preview(session: Session, form: HandForm, hand: Hand | None) -> dict[str, Any]:
    """The engine's lines for the hand as it stands in the form, or its problems."""
    data = form.hand_data()
    problems = [form.named(k, m) for k, ms in form.errors.items() if k != "cards" for m in ms]
    if problems:  # a problem of the cards is shown at the cards only
        return {"problems": problems}
    if hand is not None and hand.voided:
        return {}
    try:
        scored = hands.preview(session, data, None if hand is None else hand.number)
    except ServiceError as exc:
        return {"problems": form.described(exc.problems)}
    result = scored.result
    return {
        "result_lines": [(line.text, line.amounts) for line in result.lines],
        "result_amounts": [(seat.name, result.amounts.get(seat.name)) for seat in form.seats],
        "note": scored.note,
    }


def _redrawn(session: Session, form: HandForm, hand: Hand | None) -> dict[str, Any]:
    """The preview after the fields are only redrawn (a contract chosen, "Show the fields of
    this contract", the card count used): the score once the hand is complete, but no problem
    yet, at a field or under them: nothing is saved, and the fields may not be typed in yet.
    A problem of the ticked cards stays at the cards."""
    preview = _preview(session, form, hand)
    form.errors = {key: msgs for key, msgs in form.errors.items() if key == "cards"}
    return {} if "problems" in preview else preview


def _form_context(request, session, form, *, hand=None, client_id="", preview=None, **extra):
    kwargs = {"club": request.club.slug, "session": session.pk}
    preview_url = reverse("scorebook:hand_preview", kwargs=kwargs) + (
        f"?hand={hand.number}&" if hand is not None else "?"
    )
    return {
        "session": session,
        "form": form,
        "redraw_widgets": redraw_widgets(form),
        "widgets": widgets(form),
        "hand": hand,
        "client_id": client_id,
        "preview": preview or {},
        "preview_url": preview_url.rstrip("?&"),
        "cards_url": preview_url + "part=cards",
        "count_url": preview_url + "part=count",
        "sheet_url": reverse("scorebook:sheet", kwargs=kwargs),
        "save_htmx": format_html(
            'hx-post="{}" hx-target="body" hx-swap="innerHTML show:window:top"', request.path
        ),
        "variant_label": form.variant.label,
        **extra,
    }


def _only_redraws(request) -> bool:
    """A submit that only redraws the form (without JavaScript): the fields of the contract
    just chosen (`_refresh`), or the card points filled from the ticked cards (`_count`)."""
    return "_count" in request.POST or "_refresh" in request.POST


def _refreshing(request, form) -> bool:
    """_only_redraws, the card count put into the form's fields when it was asked for."""
    if "_count" in request.POST:
        use_card_count(form)
    return _only_redraws(request)


def in_the_sessions_lock(view):
    """A POST that records a new hand holds its session's lock from its first read to its
    commit: the membership, the seats and the hands it meets are read once, under the lock
    (hands.lock_for_save), and the hand is stored in the same transaction (issue 25).
    Outermost but for the outbox's login check: club_view reads the membership inside."""

    @wraps(view)
    def wrapper(request, club: str, session: int, **kwargs):
        saves = request.method == "POST" and not _only_redraws(request)
        if not (saves and request.user.is_authenticated):
            return view(request, club=club, session=session, **kwargs)
        with transaction.atomic():
            hands.lock_for_save(request.user, club, session)
            return view(request, club=club, session=session, **kwargs)

    return wrapper


def _to_sheet(
    request,
    session,
    new_hand: int | None = None,
    changed_hand: int | None = None,
    part: hands.SheetPart | None = None,
):
    """Back to the sheet after a change. An htmx save gets the sheet page in this very
    answer, its address pushed into the browser's history: one round trip from the table.
    Without JavaScript: redirect, so that reloading the sheet sends nothing again.
    A `new_hand` is scrolled into view among the latest rows, which is all a save answers
    with however long the evening (`part`: those rows, as the save read them); a
    `changed_hand` (edited, voided) on the whole sheet, wherever it is in it. The page is
    rendered once the view has returned: after the commit of a save that holds its lock."""
    url = reverse("scorebook:sheet", kwargs={"club": request.club.slug, "session": session.pk})
    hand = new_hand or changed_hand
    if request.htmx:
        latest = LATEST_ROWS if changed_hand is None else None
        context = sheet_context(request, session, latest, part)
        response = TemplateResponse(request, "scorebook/sheet.html", context)
        response["HX-Push-Url"] = url
        if hand:
            response["HX-Reswap"] = f"innerHTML show:#hand-{hand}:top"
        return response
    if changed_hand:
        return redirect(f"{url}?all=1#hand-{changed_hand}")
    return redirect(f"{url}#hand-{new_hand}" if new_hand else url)


def _refused_closed(request, session):
    message = _("This session is closed; its hands cannot be changed.")
    if is_outbox(request):
        return outbox_answer(CONFLICT, Status.CLOSED, message)
    messages.error(request, message)
    return _to_sheet(request, session)


def _save(form: HandForm, save, keep: tuple[type[ServiceError], ...] = ()) -> Any:
    """Run `save` with the form's hand, the problems of a refusal put at their fields; None
    when the form could not be read or the save was refused. A `keep` refusal is raised: not
    a problem of the form (the edit page shows the newer version of a changed hand)."""
    data = form.hand_data()
    if form.errors:
        return None
    try:
        return save(data)
    except keep:
        raise
    except ServiceError as exc:
        form.add_problems(exc.problems)
        return None


# What the outbox is told of a new hand refused as a whole (anything else: CONFLICT).
REFUSAL_STATUS = {
    hands.SessionClosed: Status.CLOSED,
    hands.RepeatDiffers: Status.DIFFERS,
    hands.JustRecorded: Status.DUPLICATE,
}


def _record(request, session, form, client_id) -> tuple[Hand | None, hands.Refused | None]:
    """Record the posted new hand: (the hand, None); or (None, the refusal) of a hand refused
    as a whole, its message above the fields; or (None, None) with the problems at them."""
    confirmed = request.POST.get("confirm_repeat") == "1"

    # An htmx save answers with the sheet: its latest rows come with the hand.
    latest = LATEST_ROWS if request.htmx and not is_outbox(request) else 0

    def record(data):
        return hands.record_hand(
            session,
            data,
            client_id,
            request.user,
            device=_posted_uuid(request, "device_id"),
            confirm_repeat=confirmed,
            locked=True,  # in_the_sessions_lock
            latest=latest,
        )

    try:
        return _save(form, record, keep=(hands.Refused,)), None
    except hands.Refused as exc:
        form.error(TOP, exc.message)
        return None, exc


def _outbox_refusal(form: HandForm, refusal: hands.Refused | None):
    """A new hand refused, as the outbox reads it: the reason in words, and where it is a
    problem of the hand, each problem at its form field."""
    if refusal is None:
        message = "\n".join(form.problem_list)
        return outbox_answer(UNPROCESSABLE, Status.INVALID, message, errors=form.errors)
    number = {"number": refusal.hand.number} if hasattr(refusal, "hand") else {}
    status = REFUSAL_STATUS.get(type(refusal), Status.CONFLICT)
    return outbox_answer(CONFLICT, status, refusal.message, **number)


def _recorded(request, session, hand: Hand):
    if is_outbox(request):
        return JsonResponse(
            {"status": Status.RECORDED, "number": hand.number, "repeat": hand.repeat}
        )
    return _to_sheet(request, session, new_hand=hand.number, part=getattr(hand, "latest", None))


@outbox_login
@in_the_sessions_lock
@club_view(role=Role.SCOREKEEPER, methods=FORM_METHODS, seated=True)
def hand_new(request, session):
    session = _session(request, session)
    if session.is_closed:  # even an admin only edits or voids the hands of a closed session
        return _refused_closed(request, session)
    status, preview, refusal = 200, None, None
    if request.method == "POST":
        client_id = _client_id(request)
        form = _form(session, Values(request.POST))
        if _refreshing(request, form):  # without JavaScript: the fields and the score
            preview = _redrawn(session, form, None)
        else:
            hand, refusal = _record(request, session, form, client_id)
            if hand is not None:
                return _recorded(request, session, hand)
            if is_outbox(request):
                return _outbox_refusal(form, refusal)
            status, preview = CONFLICT if refusal else UNPROCESSABLE, _problems(form)
            if isinstance(refusal, hands.RepeatDiffers):
                client_id = str(uuid.uuid4())  # entered again from this form: a new hand
    else:
        client_id = str(uuid.uuid4())
        form = _form(session, _new_values(session))
    number = (session.hands.aggregate(m=Max("number"))["m"] or 0) + 1
    context = _form_context(
        request,
        session,
        form,
        client_id=client_id,
        number=number,
        preview=preview,
        device_id=_posted_uuid(request, "device_id"),
        # "Record it again" sends the same fields with confirm_repeat.
        just_recorded=refusal.hand if isinstance(refusal, hands.JustRecorded) else None,
    )
    # Rendered once the view has returned: after a refused save has left its lock.
    return TemplateResponse(request, "scorebook/hand_form.html", context, status=status)


@club_view(role=Role.SCOREKEEPER, methods=("POST",))
def hand_preview(request, session):
    session = get_for_club(Session, request.club, pk=session)
    hand = None
    if request.GET.get("hand"):
        try:
            number = textinput.number(request.GET["hand"], whole=True)
        except textinput.InputError:
            raise Http404 from None
        hand = get_object_or_404(Hand, session=session, number=number)
    form = _form(session, Values(request.POST))
    part = request.GET.get("part")
    if part == "cards":  # a card ticked: the count so far
        return render(request, "scorebook/_card_count.html", {"widget": card_counter(form)})
    if part == "count":  # "Use these points": the fields with the count in them, and the score
        use_card_count(form)
        part = "fields"
    preview = _redrawn(session, form, hand) if part == "fields" else _preview(session, form, hand)
    context = _form_context(request, session, form, hand=hand, preview=preview)
    if part == "fields":
        return render(request, "scorebook/hand_form_fields.html", {**context, "oob": True})
    return render(request, "scorebook/hand_result.html", context)


def _posted_version(request) -> int:
    """The hand's version the form was opened with; 0 (no version: the save is refused as
    stale) when the field is missing or not a whole number."""
    try:
        return textinput.number(request.POST.get("version"), whole=True) or 0
    except textinput.InputError:
        return 0


def _get_hand(session: Session, number: int) -> Hand:
    return get_object_or_404(Hand, session=session, number=number)


@club_view(role=Role.SCOREKEEPER, methods=FORM_METHODS)
def hand_edit(request, session, number):
    session = get_for_club(Session, request.club, pk=session)
    hand = _get_hand(session, number)
    if not can_change_hands(request.membership, session):
        return _refused_closed(request, session)
    if request.method != "POST":
        form = _stored_form(session, hand)
        context = {"preview": _preview(session, form, hand), "version": hand.version}
        return _edit_page(request, session, hand, form, context)
    form = _form(session, Values(request.POST))
    if _refreshing(request, form):
        context = {"preview": _redrawn(session, form, hand), "version": _posted_version(request)}
        return _edit_page(request, session, hand, form, context)
    change_closed = can_change_closed(request.membership)
    try:
        saved = _save(
            form,
            lambda data: hands.edit_hand(
                hand, data, _posted_version(request), request.user, change_closed=change_closed
            ),
            keep=(hands.HandChanged, hands.HandVoided),
        )
    except hands.HandVoided as exc:
        hand.refresh_from_db()
        context = {"session": session, "hand": hand, "message": exc.message}
        return render(request, "scorebook/hand_voided.html", context, status=CONFLICT)
    except hands.HandChanged as exc:
        form.error(TOP, exc.message)
        return _edit_page(request, session, hand, form, _newer(session, exc.current), CONFLICT)
    if saved is None:
        context = {**_problems(form), "version": _posted_version(request)}
        return _edit_page(request, session, hand, form, context, UNPROCESSABLE)
    messages.success(request, _("Hand %(number)d is changed.") % {"number": hand.number})
    return _to_sheet(request, session, changed_hand=hand.number)


def _newer(session: Session, stale: Hand) -> dict[str, Any]:
    """What the edit page shows when somebody saved the hand meanwhile: the newer version,
    scored; saving again means saving over it, knowingly."""
    return {
        "newer": _preview(session, _stored_form(session, stale), stale),
        "stale": stale,
        "version": stale.version,
    }


def _edit_page(request, session, hand, form, context, status=200):
    preview = context.pop("preview") if "preview" in context else _problems(form)
    context = _form_context(
        request, session, form, hand=hand, number=hand.number, preview=preview, **context
    )
    return render(request, "scorebook/hand_form.html", context, status=status)


@club_view(role=Role.SCOREKEEPER, methods=FORM_METHODS)
def hand_void(request, session, number):
    session = get_for_club(Session, request.club, pk=session)
    hand = _get_hand(session, number)
    if not can_change_hands(request.membership, session):
        return _refused_closed(request, session)
    error = ""
    status = 200
    reason = request.POST.get("reason", "")
    # hands.void_hand bounds the length and folds whitespace (a pasted tab or line break)
    # into spaces; any other control character, a NUL above all, would reach the database.
    if request.method == "POST" and textinput.has_control_characters(reason, multiline=True):
        error, status = textinput.control_message(), UNPROCESSABLE
    elif request.method == "POST":
        try:
            hands.void_hand(
                hand,
                reason,
                _posted_version(request),
                request.user,
                change_closed=can_change_closed(request.membership),
            )
        except hands.HandChanged as exc:
            error, status = exc.message, CONFLICT
            hand = exc.current
        except ServiceError as exc:
            error, status = exc.message, UNPROCESSABLE
        else:
            messages.success(request, _("Hand %(number)d is voided.") % {"number": hand.number})
            return _to_sheet(request, session, changed_hand=hand.number)
    return render(
        request,
        "scorebook/hand_void.html",
        {"session": session, "hand": hand, "reason": reason, "error": error},
        status=status,
    )
