"""Strange input never reaches a server error, and a refused request stores nothing.

The numbered tests are the attacks found on the hand form (a logged-in scorekeeper posting to a
Slovenian-4 session); the fuzz tests post random text to every form.
"""

from __future__ import annotations

import time
import uuid

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorebook import services
from scorebook.forms import PlayerForm
from scorebook.models import Club, Entry, Hand, Membership, Season, Session

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
THREE = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
NUMBER_MESSAGE = "Enter a number."
RANGE_MESSAGE = "Enter an amount between −1,000,000 and 1,000,000."
CONTROL_MESSAGE = "Remove the control characters (such as NUL) from this text."


def url(name, session, **kwargs):
    return reverse(name, kwargs={"club": session.club.slug, "session": session.pk, **kwargs})


def club_url(name, club):
    return reverse(name, kwargs={"club": club.slug})


def post_hand(client, session, fields):
    return client.post(
        url("scorebook:hand_new", session), {"client_id": str(uuid.uuid4()), **fields}
    )


def adjustment(**amounts) -> dict[str, str]:
    """An adjustment hand: adjustment(adj_1="5") -> {"contract": "adjustment", "adj-1": "5"}."""
    return {"contract": "adjustment", **{k.replace("_", "-", 1): v for k, v in amounts.items()}}


def stored(session):
    """What a refused request must leave as it was: every hand and entry of the session."""
    hands = list(
        Hand.objects.filter(session=session)
        .order_by("number")
        .values_list("number", "version", "voided", "void_reason", "data")
    )
    entries = sorted(
        Entry.objects.filter(hand__session=session).values_list("hand__number", "player", "amount")
    )
    return hands, entries


def error_at(html: str, field: str, message: str) -> bool:
    return f'id="id_{field}_error"><li>{message}</li>' in html


@pytest.fixture
def keeper(members, client_as):
    return client_as(members["scorekeeper"])


@pytest.fixture
def recorded(session, keeper):
    """The session with one valid hand recorded through the form."""
    assert post_hand(keeper, session, THREE).status_code == 302
    return Hand.objects.get(session=session, number=1)


# --- 7, 8, 9, 13: numbers --------------------------------------------------------------------


@pytest.mark.parametrize(
    "amount, message",
    [
        ("1e30", NUMBER_MESSAGE),  # 7: an exponent was an InvalidOperation
        ("1e5000", NUMBER_MESSAGE),  # 8
        ("1e20", NUMBER_MESSAGE),  # 9: a PostgreSQL overflow, a REAL on SQLite
        ("2000000", RANGE_MESSAGE),  # 9: the cap only checked decimals
        ("-1000000.01", RANGE_MESSAGE),
        ("9" * 5000, NUMBER_MESSAGE),
        ("12.345", "Enter an amount with at most two decimals."),
        ("NaN", NUMBER_MESSAGE),
        ("١٢", NUMBER_MESSAGE),  # digits of another script
    ],
)
def test_a_strange_adjustment_is_refused_at_its_field(session, recorded, keeper, amount, message):
    before = stored(session)
    response = post_hand(keeper, session, adjustment(adj_1=amount, adj_2="5"))
    assert response.status_code == 422
    assert error_at(response.content.decode(), "adj-1", message)
    assert stored(session) == before


def test_a_huge_adjustment_is_refused_on_edit_and_in_the_preview(session, recorded, keeper):
    before = stored(session)
    fields = {**adjustment(adj_1="1e5000"), "version": str(recorded.version)}
    response = keeper.post(url("scorebook:hand_edit", session, number=1), fields)
    assert response.status_code == 422
    assert error_at(response.content.decode(), "adj-1", NUMBER_MESSAGE)
    response = keeper.post(url("scorebook:hand_preview", session), adjustment(adj_1="1e5000"))
    assert response.status_code == 200
    assert NUMBER_MESSAGE in response.content.decode()
    assert stored(session) == before


@pytest.mark.parametrize("view", ["scorebook:hand_new", "scorebook:hand_preview"])
def test_thousands_of_digits_of_defenders_points_are_refused(session, keeper, view, recorded):
    # 8: int() of more than 4300 digits was a ValueError.
    before = stored(session)
    fields = {**THREE, "points": "9" * 5000, "points_side": "defenders"}
    response = keeper.post(url(view, session), {"client_id": str(uuid.uuid4()), **fields})
    assert response.status_code in (200, 422)
    assert NUMBER_MESSAGE in response.content.decode()
    assert stored(session) == before


@pytest.mark.parametrize("view", ["scorebook:hand_new", "scorebook:hand_preview"])
def test_a_nine_byte_exponent_costs_no_time(session, keeper, view):
    # 13: int(Decimal("1e1000000")) took 22–45 s of CPU.
    started = time.perf_counter()
    response = keeper.post(
        url(view, session), {"client_id": str(uuid.uuid4()), **THREE, "points": "1e1000000"}
    )
    assert time.perf_counter() - started < 1
    assert response.status_code in (200, 422)
    assert NUMBER_MESSAGE in response.content.decode()
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    "points, side, stored_points",
    [("40,5", "", 40.5), ("50.5", "defenders", 40.5), ("41", "defenders", 50), ("+45", "", 45)],
)
def test_typed_numbers_reach_the_engine_exactly(
    club, players, members, keeper, points, side, stored_points
):
    # A three-player French pile may end in a half point: the comma, and the defenders' side,
    # stay exact.
    session = services.start_session(
        club=club, variant_id="french-3", preset="fft", players=players[:3], user=members["admin"]
    )
    fields = {"contract": "garde", "declarer": "1", "oudlers": "2", "points_side": side}
    assert post_hand(keeper, session, {**fields, "points": points}).status_code == 302
    assert Hand.objects.get(session=session).data["points"] == stored_points


def test_a_real_minus_is_read_as_a_minus(session, keeper):
    response = post_hand(keeper, session, {**THREE, "points": "−12"})
    assert response.status_code == 422
    assert error_at(response.content.decode(), "points", "must be between 0 and 70")
    assert not Hand.objects.exists()


def test_a_strange_version_or_hand_number_is_no_server_error(session, recorded, keeper):
    before = stored(session)
    for version in ("9" * 5000, "1e9", "99999999999999999999", "-1", "\x00"):
        fields = {**THREE, "points": "41", "version": version}
        response = keeper.post(url("scorebook:hand_edit", session, number=1), fields)
        assert response.status_code == 409  # stale: the newer version is shown
        response = keeper.post(
            url("scorebook:hand_void", session, number=1), {"reason": "x", "version": version}
        )
        assert response.status_code == 409
    preview = url("scorebook:hand_preview", session)
    for number in ("9" * 5000, "1e3", "99999999999999999999", "-1", "x"):
        assert keeper.post(f"{preview}?hand={number}", THREE).status_code == 404
    assert stored(session) == before


# --- 10: text ---------------------------------------------------------------------------------


def test_a_nul_in_an_adjustment_reason_is_refused_at_its_field(session, recorded, keeper):
    # 10: PostgreSQL refuses a NUL in JSON: a DataError.
    before = stored(session)
    response = post_hand(keeper, session, {**adjustment(adj_1="5"), "adj_reason": "re\x00voke"})
    assert response.status_code == 422
    assert error_at(response.content.decode(), "adj_reason", CONTROL_MESSAGE)
    response = post_hand(keeper, session, {**adjustment(adj_1="5"), "adj_reason": "r" * 201})
    assert response.status_code == 422
    assert error_at(response.content.decode(), "adj_reason", "Keep this under 201 characters.")
    assert stored(session) == before


def test_a_nul_in_a_void_reason_is_refused_at_its_field(session, recorded, keeper):
    before = stored(session)
    target = url("scorebook:hand_void", session, number=1)
    response = keeper.post(target, {"reason": "mis\x00deal", "version": str(recorded.version)})
    assert response.status_code == 422
    assert f'id="id_reason_error"><li>{CONTROL_MESSAGE}' in response.content.decode()
    assert stored(session) == before
    # A pasted tab is whitespace, folded into a space as ever.
    response = keeper.post(target, {"reason": "mis\tdeal", "version": str(recorded.version)})
    assert response.status_code == 302
    assert Hand.objects.get(pk=recorded.pk).void_reason == "mis deal"


# --- The extremes that are allowed -------------------------------------------------------------


def test_a_million_either_way_is_stored_and_every_page_shows_it(
    session, players, members, keeper, client_as
):
    response = post_hand(
        keeper, session, {**adjustment(adj_1="1000000.00", adj_2="−1000000,00"), "adj_reason": "x"}
    )
    assert response.status_code == 302
    amounts = dict(Entry.objects.filter(hand__session=session).values_list("player", "amount"))
    assert amounts[players[0].pk] == 1_000_000 and amounts[players[1].pk] == -1_000_000
    assert keeper.get(url("scorebook:hand_edit", session, number=1)).status_code == 200
    assert keeper.get(url("scorebook:sheet", session)).status_code == 200
    assert keeper.get(url("scorebook:session_settlement", session)).status_code == 200
    assert keeper.post(url("scorebook:session_close", session)).status_code == 302
    assert Session.objects.get(pk=session.pk).is_closed
    assert keeper.get(url("scorebook:session", session)).status_code == 200
    for player in players[:2]:
        page = reverse(
            "scorebook:league:player", kwargs={"club": session.club.slug, "player": player.pk}
        )
        assert client_as(members["viewer"]).get(page).status_code == 200


# --- Fuzz: the hand form ------------------------------------------------------------------------

STRANGE = [
    "",
    " ",
    "0",
    "-0",
    "40",
    "40,5",
    "−12",
    "1e30",
    "1e5000",
    "1e1000000",
    "9" * 5000,
    "NaN",
    "-inf",
    "1000000",
    "-1000000.00",
    "1000000.01",
    "0.005",
    "99999999999999999999",
    "\x00",
    "a\x1bb",
    "١٢",
    "1_000",
    "0x10",
    "defenders",
    "1",
    "5",
]
strange_text = st.one_of(st.sampled_from(STRANGE), st.text(max_size=30))
HAND_KEYS = [
    "declarer",
    "partner",
    "points",
    "points_side",
    "contra",
    "bonus-trula",
    "bonus-trula-contra",
    "dealer",
    "adj-1",
    "adj-2",
    "adj-3",
    "adj-4",
    "adj_reason",
    "pbp-1",
    "cards",
]
hand_posts = st.fixed_dictionaries(
    {
        "contract": st.sampled_from(["three", "adjustment", "klop", "x\x00"]),
        "points": strange_text,
        "adj-1": strange_text,
    },
    optional={key: strange_text for key in HAND_KEYS if key not in ("points", "adj-1")},
)


@FUZZ
@given(fields=hand_posts)
def test_fuzz_the_hand_form_never_fails_and_a_refusal_stores_nothing(session, keeper, fields):
    before = stored(session)
    count = len(before[0])
    preview = keeper.post(url("scorebook:hand_preview", session), fields)
    assert preview.status_code == 200
    assert stored(session) == before
    response = post_hand(keeper, session, fields)
    if response.status_code == 302:
        assert Hand.objects.filter(session=session).count() == count + 1
        for amount in Entry.objects.filter(hand__session=session).values_list("amount", flat=True):
            assert abs(amount) <= 1_000_000
    else:
        assert response.status_code == 422
        assert stored(session) == before


# --- Fuzz: the forms of scorebook/forms.py, through their views ---------------------------------


def has_control(text: str) -> bool:
    return any(ord(c) < 32 or 127 <= ord(c) < 160 for c in text)


@FUZZ
@given(
    username=strange_text,
    email=st.one_of(strange_text, st.just("a@" + "b" * 300 + ".org")),
    role=st.one_of(st.sampled_from(["viewer", "scorekeeper", "admin"]), strange_text),
)
@example(username="\tFçY", email="", role="viewer")  # a tab before the name: stripped, added
def test_fuzz_adding_a_member(club, members, client_as, username, email, role):
    before = Membership.objects.count()
    response = client_as(members["admin"]).post(
        club_url("scorebook:member_add", club), {"username": username, "email": email, "role": role}
    )
    if response.status_code == 302:
        assert Membership.objects.count() == before + 1
        # Stored without a control character (a leading or trailing one, which Python counts
        # as white space, is stripped like a space: "\tAna" is "Ana").
        assert not has_control(Membership.objects.latest("pk").user.username)
    else:
        assert response.status_code == 200
        assert Membership.objects.count() == before


@FUZZ
@given(
    name=strange_text,
    starts=st.one_of(st.just("2026-10-01"), strange_text),
    ends=st.one_of(st.just(""), st.just("2026-09-01"), strange_text),
)
def test_fuzz_adding_a_season(club, members, client_as, name, starts, ends):
    before = Season.objects.count()
    response = client_as(members["admin"]).post(
        club_url("scorebook:season_add", club), {"name": name, "starts_on": starts, "ends_on": ends}
    )
    if response.status_code == 302:
        assert Season.objects.count() == before + 1
        assert not has_control(Season.objects.latest("pk").name)  # stripped like a club's
    else:
        assert response.status_code == 200
        assert Season.objects.count() == before


@settings(FUZZ, max_examples=10)  # each answer draws the ~600 time zones
@given(
    name=strange_text,
    slug=st.one_of(st.from_regex(r"[a-z]{1,8}", fullmatch=True), strange_text),
    time_zone=st.one_of(st.just("Europe/Ljubljana"), strange_text),
)
def test_fuzz_creating_a_club(members, client_as, name, slug, time_zone):
    before = Club.objects.count()
    response = client_as(members["viewer"]).post(
        reverse("scorebook:club_create"), {"name": name, "slug": slug, "time_zone": time_zone}
    )
    if response.status_code == 302:
        assert Club.objects.count() == before + 1
        # Stored without a control character (a leading or trailing one, which Python counts
        # as white space, is stripped like a space).
        assert not has_control(Club.objects.latest("pk").name)
    else:
        assert response.status_code == 200
        assert Club.objects.count() == before


@FUZZ
@given(
    table=strange_text,
    notes=st.one_of(strange_text, st.just("x" * 2001)),
    date=st.one_of(st.just("2026-11-27"), strange_text),
    season=strange_text,
    seat=strange_text,
)
def test_fuzz_starting_a_session(
    club, players, members, client_as, table, notes, date, season, seat
):
    before = Session.objects.count()
    fields = {"variant": "slovenian-4", "date": date, "table_label": table, "notes": notes}
    fields |= {f"seat_{i}": str(p.pk) for i, p in enumerate(players[:3], start=1)}
    fields |= {"seat_4": seat, "season": season}
    response = client_as(members["scorekeeper"]).post(
        club_url("scorebook:session_start", club), fields
    )
    if response.status_code == 302:
        assert Session.objects.count() == before + 1
        started = Session.objects.latest("pk")  # stripped like a club's name
        assert not has_control(started.table_label) and len(started.notes) <= 2000
    else:
        assert response.status_code == 422  # refused, at its field
        assert Session.objects.count() == before


@FUZZ
@given(name=strange_text)
def test_fuzz_the_player_form(name):
    form = PlayerForm({"name": name})
    if form.is_valid():
        assert 0 < len(form.cleaned_data["name"]) <= 60
        assert not has_control(form.cleaned_data["name"])
    else:
        assert form.errors["name"]


def test_a_control_character_is_refused_at_its_field_and_notes_keep_their_lines(
    club, players, members, client_as
):
    client = client_as(members["scorekeeper"])
    fields = {"variant": "slovenian-4", "date": "2026-11-27"}
    fields |= {f"seat_{i}": str(p.pk) for i, p in enumerate(players[:4], start=1)}
    response = client.post(
        club_url("scorebook:session_start", club),
        {**fields, "table_label": "Table\x1b[2J", "notes": "x" * 2001},
    )
    assert response.status_code == 422
    html = response.content.decode()
    assert error_at(html, "table_label", CONTROL_MESSAGE)
    assert 'id="id_notes_error"><li>Ensure this value has at most 2000 characters' in html
    assert not Session.objects.exists()
    response = client.post(
        club_url("scorebook:session_start", club),
        {**fields, "notes": "Ana late\r\n\tBor brought cake"},
    )
    assert response.status_code == 302
    assert Session.objects.get().notes == "Ana late\r\n\tBor brought cake"


def test_an_email_longer_than_the_accounts_column_is_refused_at_its_field(
    club, members, client_as, django_user_model
):
    # A valid address of 310 characters: the form field took up to 320, the column 254.
    email = "a@" + ".".join(["b" * 60] * 5) + ".org"
    users = django_user_model.objects.count()
    response = client_as(members["admin"]).post(
        club_url("scorebook:member_add", club),
        {"username": "newbie", "email": email, "role": "viewer"},
    )
    assert response.status_code == 200
    assert 'id="id_email_error"' in response.content.decode()
    assert django_user_model.objects.count() == users


@pytest.mark.parametrize("number", ["99999999999999999999", "9" * 5000])
def test_an_id_too_large_for_the_database_is_404(session, recorded, members, client_as, number):
    club = session.club.slug
    admin = client_as(members["admin"])
    base = f"/c/{club}"
    for path in (
        f"{base}/league/players/{number}/",
        f"{base}/seasons/{number}/",
        f"{base}/sessions/{number}/",
        f"{base}/sessions/{session.pk}/hands/{number}/",
        f"{base}/sessions/{session.pk}/hands/{number}/void/",
    ):
        assert admin.get(path).status_code == 404, path
    for path in (f"{base}/members/{number}/role/", f"{base}/members/{number}/remove/"):
        assert admin.post(path, {"role": "viewer"}).status_code == 404, path
    league = reverse("scorebook:league:ledger", kwargs={"club": club})
    assert admin.get(league, {"page": number}).status_code == 200
    standings = reverse("scorebook:league:standings", kwargs={"club": club})
    assert admin.get(standings, {"season": number, "family": "slovenian"}).status_code == 404
