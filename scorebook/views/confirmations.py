"""Confirmed hands (issue 27): the other side's word on a hand, at the table or on his own
phone; the hands waiting for a player; the club's disputes; a player's PIN.

Thin views over scorebook.confirmations. Every form is a plain POST form (it works without
JavaScript) that comes back to the page it was sent from; a refusal shows its reason on the
page with the status it is (403 not this person's word, 409 the hand is not waiting or it
changed, 422 bad input), and nothing changes.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from scorebook import confirmations, textinput
from scorebook.access import club_view, membership_of
from scorebook.confirmations import Refused
from scorebook.hands import seated_session
from scorebook.models import Club, Hand, Role, Session
from scorebook.textinput import PlainTextForm

FORM = ("GET", "HEAD", "POST")
# What "confirm all shown" sends at most: far more than an evening's hands waiting.
MAX_SHOWN = 200
# Where a form goes back to once the word is said.
BACK = ("sheet", "session", "list")


def table_view(methods: tuple[str, ...] = ("GET", "HEAD")) -> Callable:
    """A session's confirmation pages: for the club's members, whatever their role, and for a
    tournament's registrant seated at that table though he is no member. Anybody else gets
    404, as from club_view; the anonymous the login page. The view gets the session (with
    its seats, and its table if it is one), `request.membership` (None for the registrant)
    and `request.table_club`, the session's club."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @require_http_methods(list(methods))
        @wraps(view)
        def wrapper(request: HttpRequest, club: str, session: int, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            membership = membership_of(request, club)
            request.membership = membership
            if membership is not None:
                request.club = membership.club
                found = seated_session(club=membership.club, pk=session)
                table_club = membership.club
            else:
                found, table_club = _seated_registrant(request.user, club, session)
            if found is None:
                raise Http404
            found.club = request.table_club = table_club
            return view(request, found, *args, **kwargs)

        wrapper.required_role = Role.VIEWER  # the role matrix test reads it
        return wrapper

    return decorator


def _seated_registrant(user, slug: str, pk: int) -> tuple[Session | None, Club | None]:
    """The tournament table `pk` of the club `slug` where `user` is a registrant seated."""
    from scorebook.tournaments.models import Placement

    seated = Placement.objects.filter(
        table__session_id=pk, table__session__club__slug=slug, registration__user=user
    )
    if not seated.exists():
        return None, None
    return seated_session(pk=pk), Club.objects.get(slug=slug)


def _at_table(request) -> bool:
    """Whether this phone may take another player's word: a scorekeeper's of the club."""
    membership = request.membership
    return membership is not None and membership.has_role(Role.SCOREKEEPER)


def _posted_int(request, name: str) -> int:
    try:
        return textinput.number(request.POST.get(name), whole=True) or 0
    except textinput.InputError:
        return 0


def _back(request, session: Session) -> str:
    """The page a form was sent from: the sheet (the default), the session's page, or the
    list of the hands waiting for the reader (always, for a registrant: the only one his)."""
    where = request.POST.get("back") or request.GET.get("back") or "sheet"
    if request.membership is None or where not in BACK:
        where = "list" if request.membership is None else "sheet"
    name = {"sheet": "sheet", "session": "session", "list": "session_confirmations"}[where]
    kwargs = {"club": session.club.slug, "session": session.pk}
    return reverse(f"scorebook:{name}", kwargs=kwargs)


def _context(request, session: Session, **extra) -> dict:
    return {
        "session": session,
        "table_club": session.club,
        "back": request.POST.get("back") or request.GET.get("back") or "",
        "back_url": _back(request, session),
        **extra,
    }


def _refused(request, session: Session, message: str, status: int) -> HttpResponse:
    context = _context(request, session, error=message)
    return render(request, "scorebook/hand_confirm.html", context, status=status)


# --- One hand --------------------------------------------------------------------------------


@table_view(methods=FORM)
def hand_confirm(request, session, number):
    """One hand's word: the reader's own (his phone), or the phone passed at the table to a
    player of the other side, who taps his name. GET shows the hand; POST says the word (the
    service reads the hand and decides whose word it is: a confirmation costs no more)."""
    if not confirmations.asks(session):  # said on the page; a word posted is refused
        status = 409 if request.method == "POST" else 200
        return _refused(request, session, _("This session asks for no confirmations."), status)
    if request.method == "POST":
        return _say(request, session, number)
    return _hand_page(request, session, number)


def _hand_page(request, session, number, status: int = 200, **said) -> HttpResponse:
    """The hand with its form; `said`: a refused word's message (`error`), its field and
    what was typed."""
    found = confirmations.read(session, request.user, Q(number=number))
    hand = found.of(number)
    if hand is None:
        raise Http404
    own = found.me is not None and found.me in hand.allowed
    if not own and not _at_table(request):
        reason = _("You are at no seat of this table.")
        if found.me is not None:
            reason = _("You are on the side of the player who recorded it.")
        return _refused(request, session, said.get("error") or reason, 403)
    context = _context(
        request,
        session,
        hand=hand,
        own=own,
        me=found.me,
        pin=not own and confirmations.same_phone_policy(session) == "pin",
        **{"reason": "", "chosen": "", **said},
    )
    return render(request, "scorebook/hand_confirm.html", context, status=status)


def _say(request, session, number: int) -> HttpResponse:
    answer, reason = request.POST.get("answer"), request.POST.get("reason", "")
    how = {
        "player": request.POST.get("player") or None,
        "pin": request.POST.get("pin", ""),
        "device": request.POST.get("device_id", ""),
        "at_table": _at_table(request),
    }
    version = _posted_int(request, "version")
    try:
        if answer == "correct":
            word = confirmations.confirm(session, number, version, request.user, **how)
        elif answer == "wrong":
            word = confirmations.dispute(session, number, version, request.user, reason, **how)
        else:
            raise confirmations.BadInput(_("Tap “Correct” or “Something is wrong”."))
    except Refused as exc:
        if isinstance(exc, confirmations.NoHand):
            raise Http404 from None
        typed = {"reason": reason, "chosen": how["player"] or ""}
        return _hand_page(
            request, session, number, exc.status, error=exc.message, field=exc.field, **typed
        )
    messages.success(request, _said(number, word))
    return redirect(_back(request, session))


def _said(number: int, word) -> str:
    if word.state == confirmations.State.DISPUTED:
        return _("Hand %(number)d is disputed; the club's admins will look at it.") % {
            "number": number
        }
    return _("Hand %(number)d is confirmed.") % {"number": number}


# --- The hands waiting for the reader -------------------------------------------------------------


@table_view(methods=FORM)
def session_confirmations(request, session):
    """The hands of the session waiting for the reader's word, each with its line and one tap;
    POST confirms all of those shown at once."""
    asks = confirmations.asks(session)
    status = 200
    if request.method == "POST":
        status = _confirm_all(request, session, asks)
        if status == 302:
            return redirect(_back(request, session))
    found = confirmations.waiting_for(session, request.user) if asks else None
    mine = [hand for hand in found.states if hand.mine] if found else []
    still_open = [hand for hand in found.states if hand.open] if found else []
    context = _context(
        request,
        session,
        asks=found is not None,
        seated=found is not None and _seated(session, request.user),
        mine=mine,
        others=[(hand, confirmations.describe(hand)) for hand in still_open if not hand.mine],
        back=request.GET.get("back", "list"),
    )
    return render(request, "scorebook/session_confirmations.html", context, status=status)


def _seated(session: Session, user) -> bool:
    return session.seats.filter(player__user=user).exists()


def _confirm_all(request, session, asks: bool) -> int:
    """Confirm the hands posted as `hand=NUMBER:VERSION`; the status of the answer (302:
    done, with what was refused said above the sheet)."""
    if not asks:
        messages.error(request, _("This session asks for no confirmations."))
        return 409
    versions = _posted_versions(request)
    if not versions:
        messages.error(request, _("No hand was shown to confirm."))
        return 422
    try:
        done, refused = confirmations.confirm_all(
            session, request.user, versions, request.POST.get("device_id", "")
        )
    except Refused as exc:
        messages.error(request, exc.message)
        return exc.status
    if done:
        messages.success(
            request,
            ngettext("%(count)d hand confirmed.", "%(count)d hands confirmed.", len(done))
            % {"count": len(done)},
        )
    for message in refused:
        messages.warning(request, message)
    return 302 if done else 409


def _posted_versions(request) -> dict[int, int]:
    """{number: version} of the posted `hand` values ("12:1"); anything else is left out."""
    versions = {}
    for value in request.POST.getlist("hand")[:MAX_SHOWN]:
        number, _colon, version = str(value).partition(":")
        if number.isascii() and number.isdigit() and version.isascii() and version.isdigit():
            if len(number) < 10 and len(version) < 10:
                versions[int(number)] = int(version)
    return versions


# --- Disputes ---------------------------------------------------------------------------------


@club_view(role=Role.ADMIN)
def disputes(request):
    """Every disputed hand of the club, the organiser's tournament tables' too, with what was
    recorded and what the disputer said: accepted as recorded here, or edited."""
    return render(request, "scorebook/disputes.html", _disputes_context(request))


def _disputes_context(request, **extra) -> dict:
    disputed = []
    for session, states in confirmations.disputed(request.club):
        for hand in states:
            disputed.append((session, hand, confirmations.describe(hand)))
    return {"disputed": disputed, **extra}


@club_view(role=Role.ADMIN, methods=("POST",))
def hand_resolve(request, session, number):
    """An admin accepts a disputed hand as it was recorded: it is confirmed, in his name."""
    found = seated_session(club=request.club, pk=session)
    if found is None or not Hand.objects.filter(session=found, number=number).exists():
        raise Http404
    found.club = request.club
    try:
        confirmations.resolve(found, number, _posted_int(request, "version"), request.user)
    except Refused as exc:
        context = _disputes_context(request, error=exc.message)
        return render(request, "scorebook/disputes.html", context, status=exc.status)
    messages.success(request, _("Hand %(number)d is accepted as recorded.") % {"number": number})
    return redirect("scorebook:disputes", club=request.club.slug)


# --- A player's PIN -------------------------------------------------------------------------------


class PinForm(PlainTextForm, forms.Form):
    pin = forms.CharField(
        label=gettext_lazy("New PIN"),
        max_length=4,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )
    again = forms.CharField(
        label=gettext_lazy("The same PIN again"),
        max_length=4,
        widget=forms.PasswordInput(attrs={"inputmode": "numeric", "autocomplete": "off"}),
    )

    def clean(self):
        data = super().clean()
        pin = data.get("pin")
        if pin and not confirmations.PIN.fullmatch(pin):
            self.add_error("pin", _("A PIN is four digits."))
        elif pin and data.get("again") != pin:
            self.add_error("again", _("The two PINs differ."))
        return data


@login_required
@require_http_methods(list(FORM))
def confirmation_pin(request):
    """The reader's four-digit PIN, which a tournament may ask for when he confirms a hand on
    another player's phone: set, changed or removed here, on his own."""
    removing = request.method == "POST" and "remove" in request.POST
    form = PinForm(request.POST if request.method == "POST" and not removing else None)
    if removing:
        confirmations.clear_pin(request.user)
        messages.success(request, _("Your PIN is removed."))
        return redirect("scorebook:confirmation_pin")
    if form.is_bound and form.is_valid():
        confirmations.set_pin(request.user, form.cleaned_data["pin"])
        messages.success(request, _("Your PIN is set."))
        return redirect("scorebook:confirmation_pin")
    context = {"form": form, "has_pin": confirmations.has_pin(request.user)}
    return render(
        request, "scorebook/confirmation_pin.html", context, status=422 if form.is_bound else 200
    )
