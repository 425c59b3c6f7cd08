"""A fifth game needs nothing but its Variant: the acceptance test of the one-home design.

The toy game below is declared here only and registered through the engine's public registry
(and unregistered again by its fixture, so no other test sees it). Through the web, with no
change outside rules/ and this module, it gets a start page, a hand form, a live score, a
sheet, a settlement, its exports and the league's pages.

The game: three players, one contract. The declarer counts his card points; he wins with
more than half of the deck's 70, and the difference, doubled, is paid by each opponent.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.urls import reverse

import rules
from rules.counting import PIPS_54, Deck, in_threes
from rules.model import Line
from rules.variant import Variant, contract
from scorebook.models import Player

PLAYERS = ["Ana", "Bor", "Cene"]


class Toy(Variant):
    id = "toy-3"
    label = "Toy tarok, 3 players"
    family = "toy"
    family_label = "Toy tarok"
    player_counts = (3,)
    card_points = 70
    deck = Deck("toy", tuple(range(1, 23)), PIPS_54, in_threes)
    presets = {"plain": {}}
    default_preset = "plain"

    def contracts(self, rules):
        return {"game": contract("game", required="declarer points")}

    def contract_label(self, contract_id):
        return {"game": "toy game"}.get(contract_id, super().contract_label(contract_id))

    def score(self, hand, rules, carry):
        difference = (hand.points - 35) * 2
        opponents = [p for p in hand.players if p != hand.declarer]
        amounts = {hand.declarer: difference * len(opponents)}
        amounts.update({p: -difference for p in opponents})
        return [Line("game", f"toy game, difference {difference:+}", amounts)], carry


@pytest.fixture
def toy():
    variant = rules.register(Toy())
    yield variant
    rules.unregister(variant.id)


@pytest.fixture
def keeper_client(club, members, client_as):
    for name in PLAYERS:
        Player.objects.create(club=club, name=name)
    return client_as(members["admin"])


def club_url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def start_toy_session(client, club):
    page = client.get(club_url("session_start", club)).content.decode()
    assert 'value="toy-3"' in page
    seats = {
        f"seat_{i}": str(Player.objects.get(name=name).pk)
        for i, name in enumerate(PLAYERS, start=1)
    }
    response = client.post(
        club_url("session_start", club),
        {"variant": "toy-3", "date": "2026-11-30", "preset": "", **seats},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    return int(re.search(r"/sessions/(\d+)/", response["Location"]).group(1))


def seat(name: str) -> str:
    """A seated player as the hand form posts him: by his seat."""
    return str(PLAYERS.index(name) + 1)


def test_a_toy_variant_is_played_through_the_web(toy, club, keeper_client):
    client = keeper_client
    session = start_toy_session(client, club)

    form = client.get(club_url("hand_new", club, session=session)).content.decode()
    assert "toy game" in form
    hand = {"contract": "game", "declarer": seat("Bor"), "points": "41"}
    preview = client.post(club_url("hand_preview", club, session=session), hand)
    assert preview.status_code == 200
    assert "+24" in preview.content.decode() and "−12" in preview.content.decode()

    saved = client.post(
        club_url("hand_new", club, session=session), {**hand, "client_id": str(uuid.uuid4())}
    )
    assert saved.status_code == 302
    second = {"contract": "game", "declarer": seat("Ana"), "points": "30"}
    client.post(
        club_url("hand_new", club, session=session), {**second, "client_id": str(uuid.uuid4())}
    )

    sheet = client.get(club_url("sheet", club, session=session)).content.decode()
    assert "toy game" in sheet
    # Hand 1: Bor 41 points, difference +12 from each: Ana −12, Bor +24, Cene −12.
    # Hand 2: Ana 30 points, difference −10 to each: Ana −20, Bor +10, Cene +10.
    exported = json.loads(
        client.get(club_url("session_export_json", club, session=session)).content
    )
    assert exported["variant"] == "toy-3" and len(exported["hands"]) == 2
    csv = client.get(club_url("session_export_csv", club, session=session)).content.decode()
    assert "Total,-32,34,-2" in csv.replace("\r\n", "\n")

    settlement = client.get(club_url("session_settlement", club, session=session))
    assert settlement.status_code == 200
    assert client.post(club_url("session_close", club, session=session)).status_code == 302

    standings = client.get(reverse("scorebook:league:standings", kwargs={"club": club.slug}))
    assert standings.status_code == 200 and "Toy tarok" in standings.content.decode()
    ledger = client.get(reverse("scorebook:league:ledger", kwargs={"club": club.slug}))
    assert ledger.status_code == 200 and "Toy tarok, 3 players" in ledger.content.decode()
    from scorebook.models import Player

    bor = Player.objects.get(name="Bor")
    page = client.get(
        reverse("scorebook:league:player", kwargs={"club": club.slug, "player": bor.pk})
    )
    assert page.status_code == 200


def test_the_toy_variant_is_gone_after_its_test(club, keeper_client):
    assert "toy-3" not in [variant.id for variant in rules.variants()]
    page = keeper_client.get(club_url("session_start", club)).content.decode()
    assert 'value="toy-3"' not in page
