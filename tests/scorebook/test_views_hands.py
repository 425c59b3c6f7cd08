"""The sheet and the hand form: record per family, idempotent saves, problems at the fields."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse

from scorebook import hands, roster, services
from scorebook.models import Entry, Hand

pytestmark = pytest.mark.django_db


def start(club, players, members, variant, seats, preset=None):
    import rules

    return services.start_session(
        club=club,
        variant_id=variant,
        preset=preset or rules.get_variant(variant).default_preset,
        players=players[:seats],
        user=members["scorekeeper"],
    )


def url(name, session, **kwargs):
    return reverse(name, kwargs={"club": session.club.slug, "session": session.pk, **kwargs})


def post_hand(client, session, fields, client_id=None):
    data = {"client_id": client_id or str(uuid.uuid4()), **fields}
    return client.post(url("scorebook:hand_new", session), data)


def sheet_cells(client, session) -> list[list[str]]:
    """The sheet's table as text: a row per hand (its amounts), then the totals row."""
    html = client.get(url("scorebook:sheet", session)).content.decode()
    rows = []
    for body in re.findall(r'<tbody class="hand[^"]*"[^>]*>(.*?)</tbody>', html, re.S):
        first = body.split("</tr>")[0]
        rows.append(re.findall(r'<span class="amount[^"]*">([^<]*)</span>', first))
    foot = html.split("<tfoot>")[1]
    rows.append(re.findall(r"<strong[^>]*>([^<]*)</strong>", foot))
    return rows


# (variant, seats, preset, posted fields, amounts in seat order, a line of the engine)
FAMILIES = [
    (
        "slovenian-4",
        4,
        "seed",
        {
            "contract": "three",
            "declarer": "1",
            "partner": "3",
            "points": "40",
            "bonus-trula": "silent",
        },
        ["25", "0", "25", "0"],
        "trula silent 10",
    ),
    (
        "slovenian-3",
        3,
        "seed",
        {"contract": "klop", "pbp-1": "10", "pbp-2": "25", "pbp-3": "35"},
        ["-10", "-25", "-35"],
        "klop 25",
    ),
    (
        "slovenian-2",
        2,
        "seed",
        {"contract": "game", "announcer": "1", "pbp-1": "40", "pbp-2": "30"},
        ["10", "-10"],
        "Ana announced and won",
    ),
    (
        "czech",
        4,
        "seed",
        {"contract": "trojka", "declarer": "2", "level": "2", "points": "40", "decl-trul": "2"},
        ["-15", "45", "-15", "-15"],
        "Bor: trul 5",
    ),
    (
        "zwanzigerrufen",
        4,
        "seed",
        {
            "contract": "rufer",
            "declarer": "4",
            "partner": "1",
            "points": "40",
            "bonus-pagat-ultimo": "announced",
        },
        ["1", "-1", "-1", "1"],
        "pagat ultimo announced 2",
    ),
    (
        "french-4",
        4,
        "fft",
        {
            "contract": "garde",
            "declarer": "1",
            "oudlers": "2",
            "points": "45",
            "bonus-poignee-1": "simple",
        },
        ["234", "-78", "-78", "-78"],
        "poignée simple 20",
    ),
    (
        "french-5",
        5,
        "fft",
        {
            "contract": "petite",
            "declarer": "5",
            "partner": "2",
            "oudlers": "1",
            "points_side": "defenders",
            "points": "39",
        },
        ["-26", "26", "-26", "-26", "52"],
        "petite 52, 51 needed",
    ),
]


@pytest.mark.parametrize(
    "variant,seats,preset,fields,amounts,line", FAMILIES, ids=[f[0] for f in FAMILIES]
)
def test_scorekeeper_records_a_hand_and_the_sheet_shows_it(
    variant, seats, preset, fields, amounts, line, club, players, members, client_as
):
    session = start(club, players, members, variant, seats, preset)
    client = client_as(members["scorekeeper"])
    form = client.get(url("scorebook:hand_new", session))
    assert form.status_code == 200
    preview = client.post(url("scorebook:hand_preview", session), fields)
    assert line in preview.content.decode()

    response = post_hand(client, session, fields)
    assert response.status_code == 302, response.content.decode()[:3000]
    # Without JavaScript: to the sheet, at the hand just added.
    assert response["Location"] == url("scorebook:sheet", session) + "#hand-1"
    hand = Hand.objects.get(session=session)
    assert hand.number == 1
    cells = sheet_cells(client, session)
    expected = [a.replace("-", "−") for a in amounts]  # a real minus sign on the sheet
    assert cells[0] == expected
    assert cells[-1] == expected  # the totals after one hand
    assert line in client.get(url("scorebook:sheet", session)).content.decode()


def test_the_form_round_trips_a_stored_hand(club, players, members, client_as):
    """Editing shows the stored hand in the form: saving it unchanged stores the same JSON."""
    session = start(club, players, members, "slovenian-4", 4, "tarzs")
    client = client_as(members["scorekeeper"])
    fields = {
        "contract": "two",
        "declarer": "2",
        "partner": "4",
        "points": "38",
        "contra": "1",
        "bonus-pagat-ultimo": "announced",
        "bonus-pagat-ultimo-contra": "1",
        "bonus-kings": "silent-defenders",
        "bonus-mondfang-player": "3",
    }
    assert post_hand(client, session, fields).status_code == 302
    hand = Hand.objects.get(session=session)
    stored = dict(hand.data)
    edit = client.get(url("scorebook:hand_edit", session, number=1))
    assert edit.status_code == 200
    html = edit.content.decode()
    assert 'name="bonus-kings" id="id_bonus-kings_3" value="silent-defenders" checked' in html
    response = client.post(
        url("scorebook:hand_edit", session, number=1),
        {**fields, "version": str(hand.version)},
    )
    assert response.status_code == 302
    hand.refresh_from_db()
    assert hand.data == stored
    assert hand.version == 2


def test_a_double_post_records_one_hand(session, members, client_as):
    client = client_as(members["scorekeeper"])
    fields = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
    client_id = str(uuid.uuid4())
    first = post_hand(client, session, fields, client_id)
    second = post_hand(client, session, fields, client_id)
    assert first.status_code == second.status_code == 302
    assert Hand.objects.filter(session=session).count() == 1
    assert Entry.objects.filter(hand__session=session).count() == 4


def test_an_htmx_save_answers_the_refreshed_sheet_in_one_round_trip(session, members, client_as):
    """The phone saves with htmx: the answer is the sheet page with the new hand in it and the
    sheet's address for the browser's history, not a redirect to fetch it again."""
    client = client_as(members["scorekeeper"])
    fields = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
    client_id = str(uuid.uuid4())
    answers = [
        client.post(
            url("scorebook:hand_new", session),
            {"client_id": client_id, **fields},
            HTTP_HX_REQUEST="true",
        )
        for _tap in range(2)  # a double tap
    ]
    for answer in answers:
        assert answer.status_code == 200
        assert answer["HX-Push-Url"] == url("scorebook:sheet", session)
        assert answer["HX-Reswap"] == "innerHTML show:#hand-1:top"  # the new hand in view
        html = answer.content.decode()
        assert "<h1>Sheet</h1>" in html
        assert html.count('<tbody class="hand"') == 1
        assert '<span class="amount">15</span>' in html  # three 10 + difference 5
    assert Hand.objects.filter(session=session).count() == 1


def test_a_refused_htmx_save_answers_the_form_with_the_problem_at_its_field(
    session, members, client_as
):
    client = client_as(members["scorekeeper"])
    fields = {"contract": "three", "declarer": "1", "partner": "3", "points": "80"}
    answer = client.post(url("scorebook:hand_new", session), fields, HTTP_HX_REQUEST="true")
    assert answer.status_code == 422
    assert "HX-Push-Url" not in answer
    html = answer.content.decode()
    assert 'id="id_points_error"' in html
    assert 'value="80"' in html
    assert not Hand.objects.filter(session=session).exists()


def test_bad_input_is_422_with_the_engines_message_at_the_field(session, members, client_as):
    client = client_as(members["scorekeeper"])
    fields = {
        "contract": "three",
        "declarer": "1",
        "partner": "1",
        "points": "95",
        "bonus-trula": "announced",
        "bonus-trula-contra": "1",
    }
    response = post_hand(client, session, fields)
    assert response.status_code == 422
    html = response.content.decode()
    # Each problem sits in the error list of its own field, and what was typed is still there.
    assert re.search(r'id="id_points_error"><li>must be between 0 and 70</li>', html), html
    assert re.search(r'id="id_partner_error"><li>the partner cannot be the declarer</li>', html)
    assert 'name="points" id="id_points" value="95"' in html
    assert 'value="announced" checked' in html
    assert not Hand.objects.exists()


def test_a_problem_in_a_bonus_is_shown_at_that_bonus(club, players, members, client_as):
    session = start(club, players, members, "slovenian-4", 4, "seed")
    client = client_as(members["scorekeeper"])
    fields = {
        "contract": "three",
        "declarer": "1",
        "points": "40",
        "bonus-trula": "silent",
        "bonus-kings": "defenders-announced",
    }
    # seed rules: the defenders cannot announce, so the chip is not even offered.
    response = post_hand(client, session, fields)
    assert response.status_code == 422
    assert 'id="id_bonus-kings_error"' in response.content.decode()
    fields["bonus-kings"] = "silent"
    fields["bonus-kings-contra"] = "1"  # a contra on a silent bonus
    response = post_hand(client, session, fields)
    assert response.status_code == 422
    html = response.content.decode()
    assert re.search(
        r'id="id_bonus-kings-contra_error"><li>only an announced bonus can have a contra', html
    ), html
    assert not Hand.objects.exists()


def test_text_for_a_number_is_refused_at_the_field(session, members, client_as):
    client = client_as(members["scorekeeper"])
    response = post_hand(client, session, {"contract": "three", "declarer": "1", "points": "x"})
    assert response.status_code == 422
    assert 'id="id_points_error"><li>Enter a number.</li>' in response.content.decode()


def test_a_viewer_cannot_open_the_form_or_record(session, members, client_as):
    client = client_as(members["viewer"])
    assert client.get(url("scorebook:hand_new", session)).status_code == 403
    fields = {"contract": "three", "declarer": "1", "points": "40"}
    assert post_hand(client, session, fields).status_code == 403
    assert client.get(url("scorebook:sheet", session)).status_code == 200
    assert not Hand.objects.exists()


@pytest.mark.parametrize(
    "name", ["scorebook:sheet", "scorebook:hand_new", "scorebook:hand_preview"]
)
def test_another_clubs_member_gets_404(name, session, members, client_as):
    client = client_as(members["outsider"])
    target = url(name, session)
    response = client.post(target, {}) if name.endswith("preview") else client.get(target)
    assert response.status_code == 404


def test_another_clubs_session_in_my_club_url_is_404(club, other_club, members, client_as):
    import datetime

    from scorebook.models import Session

    theirs = Session.objects.create(
        club=other_club, variant="slovenian-4", rules={}, date=datetime.date(2026, 11, 1)
    )
    client = client_as(members["admin"])
    for name in ("scorebook:sheet", "scorebook:hand_new"):
        assert client.get(url(name, theirs).replace("zagreb", "ljubljana")).status_code == 404


def test_preview_returns_the_engines_lines_or_problems(session, members, client_as):
    client = client_as(members["scorekeeper"])
    fields = {
        "contract": "three",
        "declarer": "1",
        "partner": "3",
        "points": "40",
        "bonus-trula": "silent",
    }
    response = client.post(url("scorebook:hand_preview", session), fields, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="hand-result"')
    assert "three 10 + difference 5" in html and "trula silent 10" in html
    assert "+25 three tr." in html
    fields["points"] = "71"
    html = client.post(url("scorebook:hand_preview", session), fields).content.decode()
    assert "Points: must be between 0 and 70" in html  # named by its label
    assert not Hand.objects.exists()


def test_changing_the_contract_redraws_its_fields(session, members, client_as):
    client = client_as(members["scorekeeper"])
    target = url("scorebook:hand_preview", session) + "?part=fields"
    html = client.post(target, {"contract": "solo-two", "declarer": "2"}).content.decode()
    assert 'id="hand-fields"' in html and 'hx-swap-oob="true"' in html
    assert 'name="partner"' not in html  # solo: no partner row
    html = client.post(target, {"contract": "beggar", "declarer": "2"}).content.decode()
    assert 'name="made"' in html and 'name="points"' not in html


def test_the_sheet_polls_and_answers_204_while_nothing_changed(session, members, client_as):
    client = client_as(members["viewer"])
    page = client.get(url("scorebook:sheet", session)).content.decode()
    assert 'hx-trigger="every 5s"' in page
    since = re.search(r"\?since=(\w+)", page).group(1)
    poll = client.get(url("scorebook:sheet", session) + f"?since={since}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 204
    hands.record_hand(
        session,
        {"contract": "three", "declarer": "Ana", "points": 40},
        uuid.uuid4(),
        members["scorekeeper"],
    )
    poll = client.get(url("scorebook:sheet", session) + f"?since={since}", HTTP_HX_REQUEST="true")
    assert poll.status_code == 200
    html = poll.content.decode()
    # The table alone, with the new hand's row in it: what the polling phone swaps in.
    assert 'id="sheet"' in html and 'id="hand-1"' in html
    assert "<html" not in html
    assert f"since={since}" not in html  # the next poll asks from the new state


def test_radelci_circles_on_the_sheet(club, players, members, client_as):
    session = start(club, players, members, "slovenian-4", 4, "tarzs")
    client = client_as(members["scorekeeper"])
    assert (
        post_hand(
            client, session, {"contract": "beggar", "declarer": "1", "made": "yes"}
        ).status_code
        == 302
    )
    html = client.get(url("scorebook:sheet", session)).content.decode()
    row = html.split('id="hand-1"')[1].split("</tbody>")[0]
    assert row.count('class="radelc"') == 4  # everybody gets one after a beggar
    assert 'class="radelci"' in html


def test_edit_a_changed_hand_is_refused_and_shows_the_newer_version(session, members, client_as):
    client = client_as(members["scorekeeper"])
    fields = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}
    assert post_hand(client, session, fields).status_code == 302
    hand = Hand.objects.get(session=session)
    hands.edit_hand(
        hand,
        {"contract": "three", "declarer": "Ana", "partner": "Cene", "points": 50},
        1,
        members["admin"],
    )
    response = client.post(
        url("scorebook:hand_edit", session, number=1), {**fields, "points": "45", "version": "1"}
    )
    assert response.status_code == 409
    html = response.content.decode()
    assert "Somebody changed this hand meanwhile" in html
    assert 'id="newer"' in html and "three 10 + difference 15" in html
    assert 'name="points" id="id_points" value="45"' in html  # what was typed is kept
    assert 'name="version" value="2"' in html
    hand.refresh_from_db()
    assert hand.data["points"] == 50


def test_void_asks_for_a_reason_and_strikes_the_hand(session, members, client_as):
    client = client_as(members["scorekeeper"])
    post_hand(client, session, {"contract": "three", "declarer": "1", "points": "40"})
    target = url("scorebook:hand_void", session, number=1)
    assert client.get(target).status_code == 200
    response = client.post(target, {"reason": " ", "version": "1"})
    assert response.status_code == 422
    assert "Say why the hand is voided." in response.content.decode()
    response = client.post(target, {"reason": "misdeal", "version": "1"})
    assert response.status_code == 302
    hand = Hand.objects.get(session=session)
    assert hand.voided and hand.void_reason == "misdeal"
    html = client.get(url("scorebook:sheet", session)).content.decode()
    assert "voided: misdeal" in html
    assert sheet_cells(client, session)[-1] == ["0", "0", "0", "0"]


def test_a_closed_session_takes_no_new_hand(session, members, client_as):
    services.close_session(session)
    client = client_as(members["scorekeeper"])
    response = post_hand(client, session, {"contract": "three", "declarer": "1", "points": "40"})
    assert response.status_code == 302
    assert not Hand.objects.exists()


def _form_for(hand: dict):
    """The form a scorekeeper would see for a stored `hand`, read back into a hand."""
    from types import SimpleNamespace

    from scorebook.handform.mapping import HandForm

    session = SimpleNamespace(variant=hand["variant"], rules=hand.get("rules") or {})
    seats = list(hand["players"])
    form = HandForm(session, seats, HandForm.values_from_hand(session, seats, hand))
    return form


@pytest.mark.django_db(False)
def test_every_valid_hand_survives_the_form():
    """What the form shows for a stored hand (editing) gives back a hand scored the same."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    import rules
    from tests.rules.test_properties import hands

    @settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def check(data):
        hand = data.draw(hands())
        try:
            expected = rules.score_hand(hand)
        except rules.RulesError:
            return
        form = _form_for(hand)
        back = form.hand_data()
        assert not form.errors, (hand, form.errors)
        again = rules.score_hand(
            {"variant": hand["variant"], "rules": hand["rules"], "players": hand["players"], **back}
        )
        assert dict(again.amounts) == dict(expected.amounts), (hand, back)
        # The form lists the bonuses in the variant's order; the lines follow that order.
        assert sorted(line.text for line in again.lines) == sorted(
            line.text for line in expected.lines
        )

    check()


def test_without_javascript_the_refresh_button_redraws_the_fields(session, members, client_as):
    client = client_as(members["scorekeeper"])
    fields = {"contract": "beggar", "declarer": "2", "points": "40", "_refresh": "1"}
    response = post_hand(client, session, fields)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="made"' in html and 'name="points"' not in html
    assert 'value="beggar" checked' in html
    assert not Hand.objects.exists()


def test_an_adjustment_without_javascript_takes_a_typed_minus(session, members, client_as):
    """The ± beside each amount is shown by its script only (it does nothing without one);
    without JavaScript the keyboard's minus is read, either minus sign."""
    client = client_as(members["scorekeeper"])
    html = post_hand(client, session, {"contract": "adjustment", "_refresh": "1"}).content.decode()
    assert 'data-sign-of="id_adj-1" aria-label="Change the sign of Ana\'s amount" hidden>' in html
    fields = {"contract": "adjustment", "adj-1": "−7,5", "adj-2": "7.5", "adj_reason": "x"}
    assert post_hand(client, session, fields).status_code == 302
    adjustments = Hand.objects.get(session=session).data["adjustments"]
    assert [(a["player"], a["amount"]) for a in adjustments] == [("Ana", -7.5), ("Bor", 7.5)]


def test_a_fifth_player_sits_out(club, players, members, client_as):
    session = start(club, players, members, "slovenian-4", 5, "seed")
    client = client_as(members["scorekeeper"])
    html = client.get(url("scorebook:hand_new", session)).content.decode()
    assert 'name="sits_out" id="id_sits_out_1" value="1" checked' in html  # in turn
    fields = {
        "contract": "klop",
        "sits_out": "3",
        "pbp-1": "10",
        "pbp-2": "20",
        "pbp-4": "30",
        "pbp-5": "10",
    }
    response = post_hand(client, session, fields)
    assert response.status_code == 302, response.content.decode()
    hand = Hand.objects.get(session=session)
    assert hand.data["players"] == ["Ana", "Bor", "Dani", "Eva"]
    html = client.get(url("scorebook:hand_new", session)).content.decode()
    assert 'name="sits_out" id="id_sits_out_2" value="2" checked' in html
    # Who sits out redraws the fields: Cene is dealt in again, Bor is not.
    target = url("scorebook:hand_preview", session) + "?part=fields"
    html = client.post(target, {"contract": "klop", "sits_out": "2"}).content.decode()
    assert 'name="pbp-3"' in html and 'name="pbp-2"' not in html


def test_czech_declarations_stay_open_with_one_ticked(club, players, members, client_as):
    # Open from the start when the contract takes them (issue 26; tests/scorebook/
    # test_day_one_markup.py), and still open once one is ticked.
    session = start(club, players, members, "czech", 4, "seed")
    client = client_as(members["scorekeeper"])
    fields = {"contract": "solo", "declarer": "1", "points": "40", "decl-trul": "2"}
    html = client.post(url("scorebook:hand_new", session), {**fields, "_refresh": "1"})
    assert '<details class="group fold " id="id_declarations" open>' in html.content.decode()


# --- Count cards (RULES.md §5) -----------------------------------------------------------------

# Pagat, mond, škis and the four kings, three queens and a low card: 11 cards, S = 48,
# 3 groups of three (−6) and two cards left over (−1): 41.
SLOVENIAN_PILE = [
    "tarok-1", "tarok-21", "tarok-22",
    "hearts-king", "diamonds-king", "spades-king", "clubs-king",
    "hearts-queen", "spades-queen", "clubs-queen", "hearts-1",
]  # fmt: skip


def test_the_count_cards_helper_shows_the_deck_folded_next_to_the_points(
    session, members, client_as
):
    html = client_as(members["scorekeeper"]).get(url("scorebook:hand_new", session))
    html = html.content.decode()
    assert '<details class="group fold card-counter" id="id_cards"' in html
    assert '<details class="group fold card-counter" id="id_cards" open' not in html
    assert html.index('name="points"') < html.index('id="id_cards"')
    chips = re.findall(r'<input type="checkbox" name="cards" id="id_card_([\w-]+)"', html)
    assert len(chips) == 54 and chips[0] == "tarok-1"
    labels = re.findall(r'<label for="id_card_[\w-]+">([^<]*)</label>', html)
    assert labels[:3] == ["I", "II", "III"] and labels[20:22] == ["XXI", "Škis"]
    assert ["K♥", "Q♥", "C♥", "J♥", "1♥"] == labels[22:27] and "7♣" in labels
    assert "Use these points" in html


def test_count_cards_fills_the_points_with_the_engines_count(session, members, client_as):
    from rules import counting

    client = client_as(members["scorekeeper"])
    fields = {
        "contract": "three",
        "declarer": "1",
        "partner": "3",
        "points": "12",
        "points_side": "defenders",
        "cards": SLOVENIAN_PILE,
    }
    assert counting.count("slovenian-4", SLOVENIAN_PILE).points == 41
    # With htmx: the fields come back with the count in them, and the live score with them.
    target = url("scorebook:hand_preview", session) + "?part=count"
    html = client.post(target, fields, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="hand-fields"' in html and 'hx-swap-oob="true"' in html
    assert 'name="points" id="id_points" value="41"' in html
    assert 'name="points_side" id="id_points_side" value="defenders" checked' not in html
    assert "41 points, trula complete, kings complete, 11 cards" in html
    assert "three 10 + difference 6" in html  # 41 − 35: the engine's own line
    assert 'value="tarok-21" checked' in html  # the ticked cards stay ticked, the fold open
    assert '<details class="group fold card-counter" id="id_cards" open' in html
    # Ticking a card shows the count so far.
    part = url("scorebook:hand_preview", session) + "?part=cards"
    html = client.post(part, {**fields, "cards": SLOVENIAN_PILE[:3]}).content.decode()
    assert html.lstrip().startswith('<div id="card-count"')
    assert "13 points, trula complete, 3 cards" in html
    # Without JavaScript: the same form again with the points filled and nothing lost.
    response = post_hand(client, session, {**fields, "_count": "1"})
    assert response.status_code == 200
    html = response.content.decode()
    assert 'name="points" id="id_points" value="41"' in html
    assert 'name="declarer" id="id_declarer_1" value="1" checked' in html
    assert 'name="partner" id="id_partner_4" value="3" checked' in html
    assert "three 10 + difference 6" in html
    assert not Hand.objects.exists()
    # Saved as it stands: the declarer's side took 41.
    response = post_hand(client, session, {**fields, "points": "41", "points_side": ""})
    assert response.status_code == 302
    assert Hand.objects.get(session=session).data["points"] == 41


def test_count_cards_fills_the_french_oudlers(club, players, members, client_as):
    session = start(club, players, members, "french-4", 4)
    client = client_as(members["scorekeeper"])
    pile = ["tarok-1", "tarok-22", "hearts-king", "hearts-queen", "clubs-7", "tarok-5"]
    # 4.5 + 4.5 + 4.5 + 3.5 + 0.5 + 0.5 = 18
    fields = {"contract": "garde", "declarer": "1", "oudlers": "0", "cards": pile}
    target = url("scorebook:hand_preview", session) + "?part=count"
    html = client.post(target, fields, HTTP_HX_REQUEST="true").content.decode()
    assert 'name="points" id="id_points" value="18"' in html
    assert 'name="oudlers" id="id_oudlers_3" value="2" checked' in html
    assert "18 points, oudlers 2, 6 cards" in html
    assert re.search(r'<label for="id_card_tarok-22">Excuse</label>', html)
    assert len(re.findall(r'name="cards" id="id_card_', html)) == 78
    half = client.post(target, {**fields, "cards": [*pile, "clubs-8"]}).content.decode()
    assert 'value="18.5"' in half and "18.5 points, oudlers 2, 7 cards" in half


def test_an_unknown_or_repeated_card_is_the_engines_problem_at_the_cards(
    session, members, client_as
):
    client = client_as(members["scorekeeper"])
    target = url("scorebook:hand_preview", session) + "?part=count"
    fields = {"contract": "three", "declarer": "1", "points": "30"}
    html = client.post(target, {**fields, "cards": ["tarok-1", "tarok-1", "joker-9"]})
    html = html.content.decode()
    assert 'id="id_cards_error"' in html
    assert 'name="points" id="id_points" value="30"' in html  # left as typed
    assert "tarok-1&#x27; is in the pile twice" in html
    assert "joker-9&#x27; is not a card of the Slovenian tarok deck" in html
    html = client.post(target, fields).content.decode()
    assert "Tick the cards the declarer&#x27;s side took." in html


def test_count_cards_while_editing_a_hand_changes_nothing_until_saved(session, members, client_as):
    client = client_as(members["scorekeeper"])
    hand = hands.record_hand(
        session,
        {"contract": "three", "declarer": "Ana", "points": 30},
        uuid.uuid4(),
        members["scorekeeper"],
    )
    edit = url("scorebook:hand_edit", session, number=1)
    html = client.get(edit).content.decode()
    assert "?hand=1&amp;part=count" in html and "?hand=1&amp;part=cards" in html
    fields = {"contract": "three", "declarer": "1", "points": "30", "version": hand.version}
    target = url("scorebook:hand_preview", session) + "?hand=1&part=count"
    html = client.post(target, {**fields, "cards": SLOVENIAN_PILE}).content.decode()
    assert 'name="points" id="id_points" value="41"' in html
    response = client.post(edit, {**fields, "cards": SLOVENIAN_PILE, "_count": "1"})
    assert response.status_code == 200
    assert 'name="points" id="id_points" value="41"' in response.content.decode()
    hand.refresh_from_db()
    assert hand.data["points"] == 30 and hand.version == 1


def test_the_sheet_shows_what_the_club_typed_as_text_never_as_markup(
    club, players, members, client_as
):
    """The sheet's rows are written in Python, not by the template engine: a name or a reason
    with markup in it must still come out as text."""
    roster.rename_player(player=players[0], name="<b>Ana</b>")
    session = start(club, players, members, "slovenian-4", 4, "tarzs")
    keeper = members["scorekeeper"]
    two = {"contract": "two", "declarer": "<b>Ana</b>", "partner": "Cene", "points": 40}
    hands.record_hand(session, two, uuid.uuid4(), keeper)
    voided = hands.record_hand(session, two, uuid.uuid4(), keeper)
    hands.void_hand(voided, "<script>alert(1)</script>", voided.version, keeper)
    html = client_as(keeper).get(url("scorebook:sheet", session)).content.decode()
    assert "<b>Ana</b>" not in html
    assert "<script>alert(1)</script>" not in html
    assert "&lt;b&gt;Ana&lt;/b&gt; 25" in html  # in the lines of hand 1
    assert "dealt by &lt;b&gt;Ana&lt;/b&gt;" in html
    assert "voided: &lt;script&gt;alert(1)&lt;/script&gt;" in html
