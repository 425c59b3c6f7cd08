"""The sheet of a session and the hand form: record, preview, edit and void a hand."""

from __future__ import annotations

import hashlib
import uuid
from typing import Any

from django.contrib import messages
from django.db.models import Count, Max
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

import rules
from rules.scoring import amount_of
from scorebook import hand_form, services, sheets, textinput
from scorebook.access import club_view, get_for_club
from scorebook.models import Hand, Role, Session
from scorebook.sheet_rows import sheet_rows

FORM_METHODS = ("GET", "HEAD", "POST")
UNPROCESSABLE = 422
CONFLICT = 409


# --- The sheet ----------------------------------------------------------------------------


def _sheet_state(session: Session) -> str:
    """Changes whenever the sheet would look different: a polling phone compares it."""
    agg = session.hands.aggregate(n=Count("id"), changed=Max("changed_at"), v=Max("version"))
    return _state(agg["n"], agg["changed"], agg["v"], session.is_closed)


def _state(count: int, changed: Any, version: Any, closed: bool) -> str:
    raw = f"{count}|{changed}|{version}|{closed}"
    return hashlib.sha1(raw.encode()).hexdigest()[:12]


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


def sheet_context(request, session: Session) -> dict[str, Any]:
    """The sheet read from each hand's stored row: showing it never replays the session."""
    names = list(session.seat_names)
    edit_url, void_url = _hand_urls(session)
    membership = request.membership
    hands = list(
        session.hands.order_by("number").values_list(
            "number", "voided", "void_reason", "score", "changed_at", "version"
        )
    )
    # The polling state from the same rows (what _sheet_state's query would say).
    state = _state(
        len(hands),
        max((hand[4] for hand in hands), default=None),
        max((hand[5] for hand in hands), default=None),
        session.is_closed,
    )
    rows = sheet_rows(
        (hand[:4] for hand in hands),
        names,
        edit_url,
        void_url,
        can_change=membership.has_role(Role.SCOREKEEPER)
        and (not session.is_closed or membership.has_role(Role.ADMIN)),
    )
    closing: list[tuple[str, list[Any]]] = []
    final = rows.totals
    if session.is_closed and session.closing:
        closing = [
            (line["text"], [_amount_or_none(line["amounts"].get(name)) for name in names])
            for line in session.closing["lines"]
        ]
        final = [amount_of(session.closing["totals"].get(name, 0)) for name in names]
    variant = rules.get_variant(session.variant)
    uses_radelci = variant.uses_radelci and bool(session.rules.get("radelci"))
    return {
        "session": session,
        "names": names,
        "rows": rows,
        "final_totals": final,
        "closing": closing,
        "radelci": [range(rows.radelci.get(name, 0)) for name in names] if uses_radelci else None,
        "problems": [
            _("Hand %(number)d could not be scored; edit or void it.") % {"number": number}
            for number in rows.unscored
        ],
        "state": state,
        "variant_label": variant.label,
    }


def _amount_or_none(value: Any) -> Any:
    return None if value is None else amount_of(value)


@club_view(role=Role.VIEWER)
def sheet(request, session):
    session = get_for_club(Session, request.club, pk=session)
    if request.htmx and request.GET.get("since") == _sheet_state(session):
        return HttpResponse(status=204)  # nothing new: htmx leaves the table (and open rows)
    context = sheet_context(request, session)
    template = "scorebook/sheet_table.html" if request.htmx else "scorebook/sheet.html"
    return render(request, template, context)


# --- The hand form --------------------------------------------------------------------------


def _seat_names(session: Session) -> list[str]:
    return list(session.seat_names)


def _new_values(session: Session, seat_names: list[str]) -> hand_form.Values:
    values = hand_form.Values()
    form = hand_form.HandForm(session, seat_names, values)
    values.set("contract", form.default_contract)
    values.set("contra", 0)
    if form.needs_sitting_out:
        # The seats sit out in turn; the scorekeeper changes it with one tap when it differs.
        played = session.hands.filter(voided=False).count()
        values.set("sits_out", form.seats[played % len(form.seats)].value)
    return values


def _client_id(request) -> str:
    try:
        return str(uuid.UUID(request.POST.get("client_id", "")))
    except ValueError:
        return str(uuid.uuid4())


def _preview(session: Session, form: hand_form.HandForm, hand: Hand | None) -> dict[str, Any]:
    """The engine's lines for the hand as it stands in the form, or its problems."""
    data = form.hand_data()
    errors = [msgs for key, msgs in form.errors.items() if key != "cards"]  # shown at the cards
    if errors:
        return {"problems": [m for msgs in errors for m in msgs]}
    if hand is not None and hand.voided:
        return {}
    names = [seat.name for seat in form.seats]
    hand_json = services.build_hand_json(session, data)
    sheet = sheets.engine_sheet(session)
    number = None if hand is None else hand.number
    try:
        row, _running = sheets.score_next(
            hand_json=hand_json, sheet=sheet, running=sheets.running_before(session, sheet, number)
        )
    except rules.RulesError as exc:
        return {"problems": [str(p) for p in exc.problems]}
    except sheets.Unscored:
        return {"problems": [_("A hand before this one could not be scored; edit or void it.")]}
    result = row.result
    return {
        "result_lines": [(line.text, line.amounts) for line in result.lines],
        "result_amounts": [(name, result.amounts.get(name)) for name in names],
        "note": hand_form.note(result),
    }


def _form_context(request, session, form, *, hand=None, client_id="", preview=None, **extra):
    kwargs = {"club": request.club.slug, "session": session.pk}
    preview_url = reverse("scorebook:hand_preview", kwargs=kwargs) + (
        f"?hand={hand.number}&" if hand is not None else "?"
    )
    return {
        "session": session,
        "form": form,
        "redraw_widgets": hand_form.redraw_widgets(form),
        "widgets": hand_form.widgets(form),
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


def _refreshing(request, form) -> bool:
    """A submit that only redraws the form (without JavaScript): the fields of the contract
    just chosen, or the card points filled from the ticked cards."""
    if "_count" in request.POST:
        hand_form.use_card_count(form)
        return True
    return "_refresh" in request.POST


def _to_sheet(request, session, new_hand: int | None = None):
    """Back to the sheet after a change. An htmx save gets the refreshed sheet page in this
    very answer, its address pushed into the browser's history: one round trip from the
    table. Without JavaScript: redirect, so that reloading the sheet sends nothing again.
    A `new_hand` is scrolled into view, at the foot of a long sheet where it was added."""
    url = reverse("scorebook:sheet", kwargs={"club": request.club.slug, "session": session.pk})
    anchor = f"hand-{new_hand}" if new_hand else ""
    if request.htmx:
        response = render(request, "scorebook/sheet.html", sheet_context(request, session))
        response["HX-Push-Url"] = url
        if anchor:
            response["HX-Reswap"] = f"innerHTML show:#{anchor}:top"
        return response
    return redirect(f"{url}#{anchor}" if anchor else url)


def _refused_closed(request, session):
    messages.error(request, _("This session is closed; its hands cannot be changed."))
    return _to_sheet(request, session)


@club_view(role=Role.SCOREKEEPER, methods=FORM_METHODS)
def hand_new(request, session):
    session = get_for_club(Session, request.club, pk=session)
    if session.is_closed:
        return _refused_closed(request, session)
    names = _seat_names(session)
    status = 200
    preview = None
    if request.method == "POST":
        client_id = _client_id(request)
        form = hand_form.HandForm(session, names, hand_form.Values(request.POST))
        if not _refreshing(request, form):
            data = form.hand_data()
            if not form.errors:
                try:
                    hand = services.record_hand(session, data, client_id, request.user)
                except rules.RulesError as exc:
                    form.add_problems(exc.problems)
                except services.ServiceError as exc:
                    form.error(exc.field or hand_form.TOP, exc.message)
                else:
                    return _to_sheet(request, session, new_hand=hand.number)
            status = UNPROCESSABLE
            preview = {"problems": [m for msgs in form.errors.values() for m in msgs]}
        else:  # without JavaScript: the fields of the contract just chosen, and the score
            preview = _preview(session, form, None)
    else:
        client_id = str(uuid.uuid4())
        form = hand_form.HandForm(session, names, _new_values(session, names))
    number = (session.hands.aggregate(m=Max("number"))["m"] or 0) + 1
    context = _form_context(
        request, session, form, client_id=client_id, number=number, preview=preview
    )
    return render(request, "scorebook/hand_form.html", context, status=status)


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
    form = hand_form.HandForm(session, _seat_names(session), hand_form.Values(request.POST))
    part = request.GET.get("part")
    if part == "cards":  # a card ticked: the count so far
        widget = hand_form.card_counter(form)
        return render(request, "scorebook/_card_count.html", {"widget": widget})
    if part == "count":  # "Use these points": the fields with the count in them, and the score
        hand_form.use_card_count(form)
        part = "fields"
    preview = _preview(session, form, hand)
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
    is_admin = request.membership.has_role(Role.ADMIN)
    if session.is_closed and not is_admin:
        return _refused_closed(request, session)
    names = _seat_names(session)
    status = 200
    stale = None
    version = hand.version
    if request.method == "POST":
        form = hand_form.HandForm(session, names, hand_form.Values(request.POST))
        version = _posted_version(request)
        if not _refreshing(request, form):
            data = form.hand_data()
            if not form.errors:
                try:
                    services.edit_hand(hand, data, version, request.user, is_admin=is_admin)
                except services.HandChanged as exc:
                    stale = exc.current
                    form.error(hand_form.TOP, exc.message)
                    status = CONFLICT
                except rules.RulesError as exc:
                    form.add_problems(exc.problems)
                except services.ServiceError as exc:
                    form.error(exc.field or hand_form.TOP, exc.message)
                else:
                    messages.success(
                        request, _("Hand %(number)d is changed.") % {"number": hand.number}
                    )
                    return _to_sheet(request, session)
            if status == 200:
                status = UNPROCESSABLE
    else:
        form = hand_form.HandForm(
            session, names, hand_form.HandForm.values_from_hand(session, names, hand.data)
        )
    newer = None
    if stale is not None:
        newer = _preview(
            session,
            hand_form.HandForm(
                session, names, hand_form.HandForm.values_from_hand(session, names, stale.data)
            ),
            stale,
        )
        # Saving again means saving over the newer version, knowingly.
        version = stale.version
    if status == 200:
        preview = _preview(session, form, hand)
    else:
        preview = {"problems": [m for msgs in form.errors.values() for m in msgs]}
    context = _form_context(
        request,
        session,
        form,
        hand=hand,
        number=hand.number,
        version=version,
        newer=newer,
        stale=stale,
        preview=preview,
    )
    return render(request, "scorebook/hand_form.html", context, status=status)


@club_view(role=Role.SCOREKEEPER, methods=FORM_METHODS)
def hand_void(request, session, number):
    session = get_for_club(Session, request.club, pk=session)
    hand = _get_hand(session, number)
    is_admin = request.membership.has_role(Role.ADMIN)
    if session.is_closed and not is_admin:
        return _refused_closed(request, session)
    error = ""
    status = 200
    reason = request.POST.get("reason", "")
    # services.void_hand bounds the length and folds whitespace (a pasted tab or line break)
    # into spaces; any other control character, a NUL above all, would reach the database.
    if request.method == "POST" and textinput.has_control_characters(reason, multiline=True):
        error, status = textinput.control_message(), UNPROCESSABLE
    elif request.method == "POST":
        version = _posted_version(request)
        try:
            services.void_hand(hand, reason, version, request.user, is_admin=is_admin)
        except services.HandChanged as exc:
            error, status = exc.message, CONFLICT
            hand = exc.current
        except services.ServiceError as exc:
            error, status = exc.message, UNPROCESSABLE
        else:
            messages.success(request, _("Hand %(number)d is voided.") % {"number": hand.number})
            return _to_sheet(request, session)
    return render(
        request,
        "scorebook/hand_void.html",
        {"session": session, "hand": hand, "reason": reason, "error": error},
        status=status,
    )
