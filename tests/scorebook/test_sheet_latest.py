"""The sheet late in the evening (issue 17): a save and the sheet page answer with the latest
rows and the evening's totals, the older rows come when asked for, and a poll answers only
what changed since the phone's version: as cheap at hand 40 as at hand 12."""

from __future__ import annotations

import itertools
import re
import uuid

import pytest
from django.urls import reverse

from scorebook import hands, services

pytestmark = pytest.mark.django_db

LATEST = 10  # rows a save and the sheet page answer with

BEGGAR = {"contract": "beggar", "declarer": "Ana", "made": True}
TWO = {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 38}
TWO_LOST = {"contract": "two", "declarer": "Bor", "partner": "Dani", "points": 30}
THREE = {"contract": "three", "declarer": "Ana", "partner": "Bor", "points": 40}
# A beggar as hand 5 gives everybody a radelc, and hand 6 (the first of the latest rows of a
# 15-hand sheet) crosses out Ana's: a row shows radelci won and used against the row before it.
EVENING = [THREE, TWO, THREE, TWO_LOST, BEGGAR, TWO, TWO_LOST, THREE]
FORM = {"contract": "three", "declarer": "1", "partner": "3", "points": "40"}


def play(session, count: int) -> None:
    for data in itertools.islice(itertools.cycle(EVENING), count):
        hands.record_hand(session, data, uuid.uuid4(), None)


def url(name: str, session, **kwargs) -> str:
    return reverse(name, kwargs={"club": session.club.slug, "session": session.pk, **kwargs})


def save(client, session):
    """The scorekeeper taps "Save the hand" on a phone without the outbox (htmx)."""
    fields = {**FORM, "client_id": str(uuid.uuid4())}
    return client.post(url("scorebook:hand_new", session), fields, HTTP_HX_REQUEST="true")


def poll(client, session, since: str):
    return client.get(url("scorebook:sheet", session) + f"?since={since}", HTTP_HX_REQUEST="true")


def bodies(html: str) -> list[str]:
    """Each hand's <tbody>, as the phone gets it (without the attribute that swaps it in)."""
    found = re.findall(r'<tbody class="hand[^"]*" id="hand-\d+"[^>]*>.*?</tbody>', html, re.S)
    return [re.sub(r' hx-swap-oob="[^"]*"', "", body) for body in found]


def swaps(html: str) -> list[str]:
    """Where each piece of a poll's answer goes on the phone (htmx out-of-band)."""
    return re.findall(r'hx-swap-oob="([^"]*)"', html)


def only_at(since: str) -> str:
    """What a phone's sheet holds while it shows the version `since`."""
    return f"#sheet:has(#sheet-poll[data-version=&#x27;{since}&#x27;])"


def numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<tbody class="hand[^"]*" id="hand-(\d+)"', html)]


def totals(html: str) -> list[str]:
    return re.findall(r"<strong[^>]*>([^<]*)</strong>", html.split("<tfoot")[1])


def since_of(html: str) -> str:
    return re.search(r"\?since=(\w+)", html).group(1)


def whole_sheet(client, session) -> str:
    return client.get(url("scorebook:sheet", session) + "?all=1").content.decode()


# --- A save, the sheet page, the older rows ------------------------------------------------


def test_a_save_answers_with_the_latest_rows_and_the_evenings_totals(tarzs, members, client_as):
    play(tarzs, 15)
    client = client_as(members["scorekeeper"])
    answer = save(client, tarzs)
    assert answer.status_code == 200
    assert answer["HX-Reswap"] == "innerHTML show:#hand-16:top"
    html = answer.content.decode()
    assert numbers(html) == list(range(7, 17))
    whole = whole_sheet(client, tarzs)
    assert totals(html) == totals(whole)  # the whole evening's, not the ten rows'
    assert bodies(html) == bodies(whole)[-LATEST:]  # radelci won and used as on the whole sheet
    # The session's actions and the next hand, as on the sheet page.
    assert "Record a hand" in html and "Close the session" in html
    # The older rows: loaded when scrolled to or tapped, a plain link without JavaScript.
    sheet = url("scorebook:sheet", tarzs)
    assert f'hx-get="{sheet}?before=7" hx-trigger="click, revealed"' in html
    assert f'href="{sheet}?all=1#hand-6"' in html
    # Its rows come with the save, not read again: the version it polls with is the sheet's.
    assert since_of(html) == since_of(client.get(sheet).content.decode())
    assert poll(client, tarzs, since_of(html)).status_code == 204


def test_a_save_early_in_the_evening_answers_with_every_row(tarzs, members, client_as):
    play(tarzs, 3)
    client = client_as(members["scorekeeper"])
    html = save(client, tarzs).content.decode()
    assert numbers(html) == [1, 2, 3, 4]
    whole = whole_sheet(client, tarzs)
    assert bodies(html) == bodies(whole) and totals(html) == totals(whole)
    assert "Earlier hands" not in html


def test_the_older_rows_load_before_the_latest_as_on_the_whole_sheet(tarzs, members, client_as):
    play(tarzs, 15)
    client = client_as(members["viewer"])
    page = client.get(url("scorebook:sheet", tarzs)).content.decode()
    assert numbers(page) == list(range(6, 16))
    older_url = re.search(r'hx-get="([^"]*\?before=\d+)"', page).group(1)
    older = client.get(older_url, HTTP_HX_REQUEST="true").content.decode()
    assert numbers(older) == list(range(1, 6))
    assert bodies(older) + bodies(page) == bodies(whole_sheet(client, tarzs))


def test_without_javascript_older_opens_the_whole_sheet(tarzs, members, client_as):
    play(tarzs, 15)
    client = client_as(members["viewer"])
    page = client.get(url("scorebook:sheet", tarzs)).content.decode()
    link = re.search(r'<a role="button"[^>]*href="([^"]*)"[^>]*>↑ Earlier hands</a>', page, re.S)
    whole = client.get(link.group(1).split("#")[0]).content.decode()
    assert numbers(whole) == list(range(1, 16))
    assert "?before=" not in whole  # nothing left to load
    assert totals(whole) == totals(page)


def test_a_short_evening_has_no_older_rows(tarzs, members, client_as):
    play(tarzs, LATEST)
    page = client_as(members["viewer"]).get(url("scorebook:sheet", tarzs)).content.decode()
    assert numbers(page) == list(range(1, LATEST + 1))
    assert "Earlier hands" not in page


def test_without_javascript_a_save_goes_to_the_sheet_at_the_new_hand(tarzs, members, client_as):
    play(tarzs, 15)
    client = client_as(members["scorekeeper"])
    fields = {**FORM, "client_id": str(uuid.uuid4())}
    answer = client.post(url("scorebook:hand_new", tarzs), fields)
    assert answer["Location"] == url("scorebook:sheet", tarzs) + "#hand-16"
    assert 16 in numbers(client.get(answer["Location"]).content.decode())


def test_an_edited_hand_is_shown_where_it_is_on_the_whole_sheet(tarzs, members, client_as):
    play(tarzs, 15)
    client = client_as(members["scorekeeper"])
    hand = tarzs.hands.get(number=3)
    edit = url("scorebook:hand_edit", tarzs, number=3)
    fields = {**FORM, "version": hand.version}
    answer = client.post(edit, fields)
    assert answer["Location"] == url("scorebook:sheet", tarzs) + "?all=1#hand-3"
    answer = client.post(edit, {**fields, "version": hand.version + 1}, HTTP_HX_REQUEST="true")
    assert answer["HX-Reswap"] == "innerHTML show:#hand-3:top"
    assert numbers(answer.content.decode()) == list(range(1, 16))


# --- The poll --------------------------------------------------------------------------------


def test_a_poll_is_204_until_a_hand_comes_then_only_that_row_and_the_totals(
    tarzs, members, client_as
):
    play(tarzs, 15)
    viewer = client_as(members["viewer"])
    since = since_of(viewer.get(url("scorebook:sheet", tarzs)).content.decode())
    assert poll(viewer, tarzs, since).status_code == 204
    play(tarzs, 1)  # another phone records hand 16
    answer = poll(viewer, tarzs, since)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert numbers(html) == [16]
    # After the last row the phone shows, with the next poll; the foot; the old poll out. Only
    # on a phone that still shows that version: an answer overtaken by another (a save's, a
    # second poll's) adds the hand no second time.
    polled = f"#sheet-poll[data-version=&#x27;{since}&#x27;]"
    assert swaps(html) == [
        f"beforebegin:{polled}",
        f"outerHTML:{only_at(since)} tfoot",
        f"delete:{polled}",
    ]
    whole = whole_sheet(viewer, tarzs)
    assert bodies(html) == bodies(whole)[-1:]
    assert totals(html) == totals(whole)
    assert since_of(html) != since
    assert poll(viewer, tarzs, since_of(html)).status_code == 204


def test_a_poll_after_an_edit_replaces_that_row_and_the_ones_after_it(tarzs, members, client_as):
    play(tarzs, 15)
    viewer = client_as(members["viewer"])
    since = since_of(viewer.get(url("scorebook:sheet", tarzs)).content.decode())
    hand = tarzs.hands.get(number=13)
    hands.edit_hand(hand, {**THREE, "points": 60}, hand.version, members["scorekeeper"])
    html = poll(viewer, tarzs, since).content.decode()
    # Each in place of its own row (its running totals moved): nothing is added.
    assert numbers(html) == [13, 14, 15]
    assert swaps(html)[:3] == [f"outerHTML:{only_at(since)} #hand-{n}" for n in (13, 14, 15)]
    whole = whole_sheet(viewer, tarzs)
    assert bodies(html) == bodies(whole)[-3:]
    assert totals(html) == totals(whole)


@pytest.mark.parametrize("change", ["void hand 2", "close", "bad version"])
def test_a_poll_after_a_bigger_change_gets_the_latest_rows_afresh(
    change, tarzs, members, client_as
):
    play(tarzs, 15)
    viewer = client_as(members["viewer"])
    since = since_of(viewer.get(url("scorebook:sheet", tarzs)).content.decode())
    if change == "void hand 2":  # the rows of 14 hands moved: more than the phone shows
        hand = tarzs.hands.get(number=2)
        hands.void_hand(hand, "misdeal", hand.version, members["scorekeeper"])
    elif change == "close":
        services.close_session(session=tarzs)
    else:
        since = "12_x"
    answer = poll(viewer, tarzs, since)
    assert answer.status_code == 200
    html = answer.content.decode()
    assert html.lstrip().startswith('<div id="sheet" class="overflow-auto" hx-swap-oob="true">')
    assert numbers(html) == list(range(6, 16))
    assert totals(html) == totals(whole_sheet(viewer, tarzs))


def test_a_poll_of_a_sheet_without_hands_is_204_until_the_first(tarzs, members, client_as):
    viewer = client_as(members["viewer"])
    since = since_of(viewer.get(url("scorebook:sheet", tarzs)).content.decode())
    assert poll(viewer, tarzs, since).status_code == 204
    play(tarzs, 1)
    html = poll(viewer, tarzs, since).content.decode()
    # The table afresh: its "no hand yet" row goes.
    assert 'id="sheet"' in html and numbers(html) == [1]
    assert "No hand has been recorded yet." not in html


# --- What it costs -------------------------------------------------------------------------

SAVE_STATEMENTS = 16  # login session, user, membership+club, session+seats; then 12 to commit
# Nearly every poll: login session, user, membership+club, then whether anything changed.
UNCHANGED_POLL_STATEMENTS = 4
POLL_STATEMENTS = 6  # ... and when something did: session+seats, the changed rows


@pytest.mark.parametrize("evening", [12, 40])
def test_a_save_and_a_poll_cost_as_many_statements_at_hand_40_as_at_hand_12(
    evening, tarzs, members, client_as, django_assert_max_num_queries
):
    play(tarzs, evening)
    client = client_as(members["scorekeeper"])
    since = since_of(client.get(url("scorebook:sheet", tarzs)).content.decode())
    with django_assert_max_num_queries(UNCHANGED_POLL_STATEMENTS):
        assert poll(client, tarzs, since).status_code == 204
    with django_assert_max_num_queries(SAVE_STATEMENTS):
        assert numbers(save(client, tarzs).content.decode())[-1] == evening + 1
    with django_assert_max_num_queries(POLL_STATEMENTS):
        assert numbers(poll(client, tarzs, since).content.decode()) == [evening + 1]


def test_a_save_outside_a_tournament_leaves_no_table_to_check(
    tarzs, members, client_as, django_capture_on_commit_callbacks
):
    """Most sessions are no tournament's table: their saves ask nothing more after the commit
    (a table's last hand still finishes it: tests/tournaments/test_rounds.py)."""
    client = client_as(members["scorekeeper"])
    with django_capture_on_commit_callbacks() as after_commit:
        assert save(client, tarzs).status_code == 200
    assert after_commit == []


def test_a_poll_of_another_clubs_sheet_is_404_however_unchanged(
    tarzs, other_club, members, client_as
):
    """The quick answer to an unchanged sheet asks the club first: another club's session
    in my club's address (or in its own) is no sheet at all, never a 204."""
    play(tarzs, 3)
    since = since_of(
        client_as(members["viewer"]).get(url("scorebook:sheet", tarzs)).content.decode()
    )
    outsider = client_as(members["outsider"])  # an admin of the other club
    mine = reverse("scorebook:sheet", kwargs={"club": other_club.slug, "session": tarzs.pk})
    for address in (mine, url("scorebook:sheet", tarzs)):
        answer = outsider.get(f"{address}?since={since}", HTTP_HX_REQUEST="true")
        assert answer.status_code == 404, address
