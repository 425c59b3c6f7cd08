import uuid

from django.urls import reverse

import rules
from scorebook import hands, services
from scorebook.models import Session


def url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def seat_data(*players):
    return {f"seat_{n}": p.pk for n, p in enumerate(players, start=1)}


def test_the_form_offers_every_variant_of_the_engine(club, members, client_as):
    response = client_as(members["scorekeeper"]).get(url("session_start", club))
    offered = [value for value, _ in response.context["form"].fields["variant"].choices]
    assert offered == [v.id for v in rules.variants()]


def test_start_a_session_with_players_in_seat_order(club, players, members, client_as):
    ana, bor, cene, dani, _ = players
    data = {"variant": "slovenian-4", "preset": "", "date": "2026-11-29", "table_label": "A"}
    response = client_as(members["scorekeeper"]).post(
        url("session_start", club), {**data, **seat_data(dani, ana, cene, bor)}
    )
    assert response.status_code == 302
    session = Session.objects.get(table_label="A")
    assert session.seated_players() == [dani, ana, cene, bor]
    assert session.rules["preset"] == rules.get_variant("slovenian-4").default_preset
    assert response["Location"] == url("session", club, session=session.pk)


def test_wrong_seats_are_an_error_next_to_the_seats(club, players, members, client_as):
    client = client_as(members["scorekeeper"])
    base = {"variant": "slovenian-4", "date": "2026-11-29"}
    response = client.post(url("session_start", club), {**base, **seat_data(*players[:3])})
    assert response.status_code == 422
    assert "needs 4 or 5 players" in response.content.decode()
    twice = seat_data(players[0], players[1], players[2])
    twice["seat_4"] = players[0].pk
    response = client.post(url("session_start", club), {**base, **twice})
    assert response.status_code == 422
    assert "only take one seat" in response.content.decode()
    assert not Session.objects.exists()


def six_players(club, players):
    from scorebook.models import Player

    return [*players, Player.objects.create(club=club, name="Fran")]


def start(client, club, variant, seats, label):
    data = {"variant": variant, "date": "2026-11-29", "table_label": label}
    return client.post(url("session_start", club), {**data, **seat_data(*seats)})


def test_a_three_player_game_starts_with_one_who_sits_out(club, players, members, client_as):
    response = start(client_as(members["scorekeeper"]), club, "slovenian-3", players[:4], "S3")
    assert response.status_code == 302
    assert Session.objects.get(table_label="S3").seated_players() == players[:4]


def test_a_five_player_game_starts_with_a_table_of_six(club, players, members, client_as):
    seats = six_players(club, players)
    response = start(client_as(members["scorekeeper"]), club, "french-5", seats, "F5")
    assert response.status_code == 302
    assert Session.objects.get(table_label="F5").seated_players() == seats


def test_the_form_seats_the_largest_table_any_variant_has(club, members, client_as):
    form = client_as(members["scorekeeper"]).get(url("session_start", club)).context["form"]
    largest = max(max(v.table_sizes()) for v in rules.variants())
    assert [f.name for f in form.seat_fields()] == [f"seat_{n}" for n in range(1, largest + 1)]
    assert f"seat_{largest + 1}" not in form.fields


def test_a_seat_past_the_variants_table_is_refused_at_that_seat(club, players, members, client_as):
    seats = six_players(club, players)
    response = start(client_as(members["scorekeeper"]), club, "slovenian-4", seats, "X")
    assert response.status_code == 422
    errors = response.context["form"].errors
    assert list(errors) == ["seat_6"]
    assert "seats at most 5 players" in errors["seat_6"][0]
    assert not Session.objects.exists()


def test_a_preset_the_variant_lacks_is_an_error_at_the_preset(club, players, members, client_as):
    variant = rules.get_variant("slovenian-4")
    all_presets = {name for v in rules.variants() for name in v.presets}
    # Another variant's preset where there is one (French "fft"), else a name nobody has.
    foreign = sorted(all_presets - set(variant.presets)) or ["no-such-preset"]
    response = client_as(members["scorekeeper"]).post(
        url("session_start", club),
        {"variant": "slovenian-4", "preset": foreign[0], "date": "2026-11-29"}
        | seat_data(*players[:4]),
    )
    assert response.status_code == 422
    assert response.context["form"].errors["preset"]


def test_session_page_lists_seats_hands_and_totals(club, players, members, client_as):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
    )
    hand = hands.record_hand(
        session,
        {"contract": "two", "declarer": "Ana", "partner": "Cene", "points": 39},
        uuid.uuid4(),
        None,
    )
    response = client_as(members["viewer"]).get(url("session", club, session=session.pk))
    page = response.content.decode()
    assert response.status_code == 200
    for name in ("Ana", "Bor", "Cene", "Dani"):
        assert name in page
    ana_amount = hand.entries.get(player__name="Ana").amount
    assert f"{ana_amount:.0f}" in page
    assert "1 hand" in page
    assert "Close the session" not in page  # a viewer may not
    # The sheet itself (the sheet page's table, polled the same way), not a second table.
    assert page.count("<table") == 1
    assert '<table class="sheet hands">' in page and 'id="hand-1"' in page
    sheet = reverse("scorebook:sheet", kwargs={"club": club.slug, "session": session.pk})
    assert f'hx-get="{sheet}?since=' in page
    assert "+" + f"{ana_amount:.0f} two" in page  # the row's paper note
    for name in ("session_settlement", "session_export_csv", "session_export_json"):
        assert url(name, club, session=session.pk) in page
    assert url("session_history", club, session=session.pk) not in page  # admins only


def test_session_page_links_for_scorekeepers_and_admins(club, players, members, client_as):
    session = services.start_session(
        club=club, variant_id="slovenian-4", preset="seed", players=players[:4], user=None
    )
    page = client_as(members["scorekeeper"]).get(url("session", club, session=session.pk))
    page = page.content.decode()
    assert reverse("scorebook:hand_new", kwargs={"club": club.slug, "session": session.pk}) in page
    assert "Close the session" in page and "Reopen the session" not in page
    services.close_session(session=session)
    page = client_as(members["admin"]).get(url("session", club, session=session.pk))
    page = page.content.decode()
    assert "Reopen the session" in page and "Record a hand" not in page
    assert url("session_history", club, session=session.pk) in page


def test_close_and_reopen(club, session, members, client_as):
    client_as(members["scorekeeper"]).post(url("session_close", club, session=session.pk))
    session.refresh_from_db()
    assert session.is_closed and session.closed_at
    client_as(members["admin"]).post(url("session_reopen", club, session=session.pk))
    session.refresh_from_db()
    assert not session.is_closed
