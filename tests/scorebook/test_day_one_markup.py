"""Day one at a club (issue 26), in the rendered HTML: roles on wrappers, not on lists; the
Czech declarations open; "Final ranking" only once there is one; the tournament's "Game"."""

from __future__ import annotations

import datetime
import re
import uuid
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from scorebook import hands, services
from scorebook.tournaments.models import Status, Tournament

pytestmark = pytest.mark.django_db

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
# A list's items are only items inside a list: a role on <ul>/<ol> takes that away (axe
# `listitem`, `aria-allowed-role`). The role goes on an element around it.
LIST_WITH_ROLE = re.compile(r"<(ul|ol)\b[^>]*\brole=", re.S)


def test_no_template_puts_a_role_on_a_list():
    found = [
        f"{path.relative_to(TEMPLATES)}: {m.group(0)}"
        for path in TEMPLATES.rglob("*.html")
        for m in LIST_WITH_ROLE.finditer(path.read_text())
    ]
    assert not found, found


def test_messages_and_errors_are_announced_from_around_their_lists(
    client, club, members, session, client_as
):
    login = client.post(reverse("login"), {"username": "saso", "password": "wrong"})
    html = login.content.decode()
    assert '<div role="alert"><ul class="errorlist">' in html
    assert not LIST_WITH_ROLE.search(html)

    scorekeeper = client_as(members["scorekeeper"])
    hands.record_hand(
        session, {"contract": "three", "declarer": "Ana", "points": 40}, uuid.uuid4(), None
    )
    kw = {"club": club.slug, "session": session.pk, "number": 1}
    void = scorekeeper.post(reverse("scorebook:hand_void", kwargs=kw), {"reason": ""})
    html = void.content.decode()
    assert '<div role="alert"><ul class="errorlist" id="id_reason_error">' in html

    # A message after a redirect (a season added): a status region around the list.
    page = client_as(members["admin"]).post(
        reverse("scorebook:season_add", kwargs={"club": club.slug}),
        {"name": "Winter", "starts_on": "2026-10-01", "ends_on": "2027-03-31"},
        follow=True,
    )
    html = page.content.decode()
    assert "Season Winter added." in html
    assert '<div role="status"><ul class="messages">' in html
    assert not LIST_WITH_ROLE.search(html)


def test_czech_declarations_are_open_when_the_contract_takes_them(
    club, players, members, client_as
):
    session = services.start_session(
        club=club, variant_id="czech", preset="seed", players=players[:4],
        user=members["scorekeeper"],
    )  # fmt: skip
    client = client_as(members["scorekeeper"])
    kw = {"club": club.slug, "session": session.pk}
    html = client.get(reverse("scorebook:hand_new", kwargs=kw)).content.decode()
    assert '<details class="group fold " id="id_declarations" open>' in html


def test_final_ranking_is_linked_only_after_the_last_round(club, members, client_as):
    tournament = Tournament.objects.create(
        club=club,
        name="Advent cup",
        variant="slovenian-4",
        table_size=4,
        starts_at=timezone.now() - datetime.timedelta(hours=1),
        capacity=8,
        status=Status.RUNNING,
    )
    client = client_as(members["admin"])
    kw = {"club": club.slug, "tournament": tournament.pk}
    detail = reverse("scorebook:tournaments:detail", kwargs=kw)
    ranking = reverse("scorebook:tournaments:ranking", kwargs=kw)
    assert f'href="{ranking}"' not in client.get(detail).content.decode()
    Tournament.objects.filter(pk=tournament.pk).update(status=Status.FINISHED)
    assert f'href="{ranking}"' in client.get(detail).content.decode()


def test_the_tournament_form_labels_the_game_igra_in_slovenian(club, members, client_as):
    client = client_as(members["admin"], HTTP_ACCEPT_LANGUAGE="sl")
    client.cookies["django_language"] = "sl"
    html = client.get(reverse("scorebook:tournaments:create", kwargs={"club": club.slug}))
    assert re.search(r'<label for="id_variant">Igra</label>', html.content.decode())


def test_the_hand_forms_signs_and_contras_are_named(tarzs, members, client_as):
    """Screen readers heard "Change the sign" for every amount, "–" for no bonus and
    "Contra" for every bonus: each now names whose amount, or which bonus."""
    client = client_as(members["scorekeeper"])
    kw = {"club": tarzs.club.slug, "session": tarzs.pk}
    html = client.get(reverse("scorebook:hand_new", kwargs=kw)).content.decode()
    assert re.search(
        r'<label for="id_bonus-trula_1"><span aria-hidden="true">–</span>'
        r'<span class="visually-hidden">no bonus</span></label>',
        html,
    )
    contras = re.findall(r'id="id_bonus-([\w-]+)-contra" aria-label="([^"]*)"', html)
    assert ("trula", "Contra on trula") in contras, contras
    assert len({name for _, name in contras}) == len(contras) > 1
    preview = reverse("scorebook:hand_preview", kwargs=kw) + "?part=fields"
    html = client.post(preview, {"contract": "adjustment"}).content.decode()
    names = re.findall(r'data-sign-of="id_adj-\d" aria-label="([^"]*)"', html)
    assert names == [f"Change the sign of {n}'s amount" for n in ("Ana", "Bor", "Cene", "Dani")]


def test_each_members_role_select_has_a_label_of_its_own(club, members, client_as):
    html = (
        client_as(members["admin"])
        .get(reverse("scorebook:members", kwargs={"club": club.slug}))
        .content.decode()
    )
    selects = re.findall(r'<select name="role" id="(role-\d+)"', html)
    assert len(selects) == 3
    for select in selects:
        assert re.search(rf'<label for="{select}">Role of \w+</label>', html), select
