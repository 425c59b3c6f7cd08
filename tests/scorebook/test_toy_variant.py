"""A fifth game needs nothing but its Variant: the acceptance test of the one-home design.

The toy game below is declared here only and registered through the engine's public registry
(and unregistered again by its fixture, so no other test sees it). Through the web, with no
change outside rules/ and this module, it gets a start page, a hand form, a live score, a
sheet, a settlement, its exports and the league's pages.

The game: three players, one contract. The declarer counts his card points; he wins with
more than half of the deck's 70, and the difference, doubled, is paid by each opponent.

It has a field of its own and a state it carries of its own, told to nothing outside this
module (rules/fields.py describes the kinds they are of): each player may count the bells in
his tricks (0 to 4; each bell is worth 1 from each other player), and a declarer who wins
earns a star, which a lost game of his spends again. The sheet shows the stars gained and
spent, and what each player holds.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.urls import reverse

import rules
from rules.counting import PIPS_54, Deck, in_threes
from rules.fields import BY_CONTRACT, BY_PLAYER, INTEGER, Field
from rules.model import Line
from rules.variant import Carried, Variant, contract
from scorebook import roster
from scorebook.models import Hand, Player

PLAYERS = ["Ana", "Bor", "Cene"]

# The toy's own field: a whole number for each player, its words on the form its own.
BELLS = Field(
    "bells",
    BY_PLAYER,
    BY_CONTRACT,
    0,
    4,
    "bells.{player}",
    form={"bells": "Bells of each player", "bells-{seat}": "Bells of {name}"},
    values=INTEGER,
)
STARS = Carried("Stars", "star earned", "star spent", mark="★", used_mark="☆")


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
    own_fields = (BELLS,)

    def contracts(self, rules):
        return {"game": contract("game", required="declarer points", optional="bells")}

    def contract_label(self, contract_id):
        return {"game": "toy game"}.get(contract_id, super().contract_label(contract_id))

    def score(self, hand, rules, carry):
        difference = (hand.points - 35) * 2
        opponents = [p for p in hand.players if p != hand.declarer]
        amounts = {hand.declarer: difference * len(opponents)}
        amounts.update({p: -difference for p in opponents})
        lines = [Line("game", f"toy game, difference {difference:+}", amounts)]
        bells = hand.own_fields.get("bells") or {}
        if any(bells.values()):
            total = sum(bells.values())
            paid = {p: n * len(hand.players) - total for p, n in bells.items()}
            lines.append(Line("bells", f"bells, {total} in all", paid))
        return lines, self._stars(hand, carry, won=difference > 0)

    @staticmethod
    def _stars(hand, carry, won):
        stars = dict(carry or dict.fromkeys(hand.players, 0))
        if won:
            stars[hand.declarer] += 1
        elif stars[hand.declarer]:
            stars[hand.declarer] -= 1
        return stars

    def start_carry(self, players, rules):
        return dict.fromkeys(players, 0)

    def carried(self, rules):
        return STARS

    def held(self, carry):
        return carry or {}


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


def errors_at(page: str, key: str) -> list[str]:
    """The problems the form shows at its input `key`."""
    found = re.search(rf'<ul class="errorlist" id="id_{key}_error">(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", found.group(1)) if found else []


def hand_row(page: str, number: int) -> str:
    return page.split(f'id="hand-{number}"')[1].split("</tbody>")[0]


def test_the_toys_own_field_and_carried_state_go_through_the_web(toy, club, keeper_client):
    client = keeper_client
    session = start_toy_session(client, club)
    new_hand = club_url("hand_new", club, session=session)

    # The form asks the toy's own field, in its own words: a number for each player.
    form = client.get(new_hand).content.decode()
    assert "Bells of each player" in form
    assert all(f'name="bells-{seat(name)}"' in form for name in PLAYERS)

    # Its problems are at its inputs: half a bell is the form's to refuse, nine bells the
    # engine's (out of the field's range), each at the player's input and named by its label.
    hand = {"contract": "game", "declarer": seat("Bor"), "points": "41"}
    typed = {"bells-1": "1", "bells-2": "1,5", "bells-3": "2"}
    refused = client.post(new_hand, {**hand, **typed, "client_id": str(uuid.uuid4())})
    assert refused.status_code == 422
    assert errors_at(refused.content.decode(), "bells-2") == ["Enter a whole number."]
    typed["bells-2"] = "9"
    refused = client.post(new_hand, {**hand, **typed, "client_id": str(uuid.uuid4())})
    assert refused.status_code == 422
    page = refused.content.decode()
    assert errors_at(page, "bells-2") == ["must be between 0 and 4"]
    assert "Bells of Bor: must be between 0 and 4" in page
    assert 'name="bells-3" id="id_bells-3" value="2"' in page  # what was typed stays

    # Hand 1: Bor makes 41, the bells Ana 1, Bor 0, Cene 2 (3 in all, 1 from each other
    # player a bell): Ana −12 + 0, Bor +24 − 3, Cene −12 + 3; Bor earns a star.
    # Hand 2: Bor makes 30 and loses 10 to each: his star is spent.
    # Hand 3: Ana makes 40 and wins 10 from each: she earns a star.
    typed["bells-2"] = "0"
    played = [
        {**hand, **typed},
        {"contract": "game", "declarer": seat("Bor"), "points": "30"},
        {"contract": "game", "declarer": seat("Ana"), "points": "40"},
    ]
    for fields in played:
        saved = client.post(new_hand, {**fields, "client_id": str(uuid.uuid4())})
        assert saved.status_code == 302, saved.content.decode()[:2000]

    # The JSON: the stored hand and the export hold the field as HANDS.md holds a map.
    first = Hand.objects.get(session_id=session, number=1)
    assert first.data["bells"] == {"Ana": 1, "Bor": 0, "Cene": 2}
    exported = json.loads(
        client.get(club_url("session_export_json", club, session=session)).content
    )
    assert exported["hands"][0]["bells"] == {"Ana": 1, "Bor": 0, "Cene": 2}
    assert "bells" not in exported["hands"][1]

    # The stored row: the bells' line and amounts, and the stars carried after each hand.
    assert first.score["amounts"] == {"Ana": -12, "Bor": 21, "Cene": -9}
    assert first.score["lines"][1][1] == {"Ana": 0, "Bor": -3, "Cene": 3}
    rows = Hand.objects.filter(session_id=session).order_by("number")
    assert [row.score["running"]["carry"] for row in rows] == [
        {"Ana": 0, "Bor": 1, "Cene": 0},
        {"Ana": 0, "Bor": 0, "Cene": 0},
        {"Ana": 1, "Bor": 0, "Cene": 0},
    ]

    # The sheet: the bells' line under hand 1, a star earned and spent where they were, and
    # the stars each player holds in its foot.
    sheet = client.get(club_url("sheet", club, session=session)).content.decode()
    earned = '<span class="radelc" title="star earned">★</span>'
    spent = '<span class="radelc used" title="star spent">☆</span>'
    assert "bells, 3 in all" in hand_row(sheet, 1)
    assert hand_row(sheet, 1).count(earned) == 1 and spent not in hand_row(sheet, 1)
    assert hand_row(sheet, 2).count(spent) == 1 and earned not in hand_row(sheet, 2)
    assert hand_row(sheet, 3).count(earned) == 1
    foot = sheet.split("<tfoot")[1].split("</tfoot>")[0]
    assert 'title="Stars"' in foot
    assert re.findall(r'<td class="num">((?:<span class="radelc">★</span>)*)</td>', foot) == [
        '<span class="radelc">★</span>',
        "",
        "",
    ]

    # The printed sheet: a circle for each star earned, a crossed one where it was spent, and
    # those held, each read out by the toy's words.
    paper = client.get(club_url("sheet_print", club, session=session)).content.decode()
    assert paper.count('<span class="circle" role="img" aria-label="star earned">') == 2 + 1
    assert paper.count('<span class="circle used" role="img" aria-label="star spent">') == 1
    assert '<td class="note">Stars</td>' in paper

    # Editing refills it; renaming a player renames him in it (the field names players).
    edit = client.get(club_url("hand_edit", club, session=session, number=1)).content.decode()
    assert 'name="bells-3" id="id_bells-3" value="2"' in edit
    roster.rename_player(player=Player.objects.get(name="Cene"), name="Cvetka")
    first.refresh_from_db()
    assert first.data["bells"] == {"Ana": 1, "Bor": 0, "Cvetka": 2}


def test_the_toy_variant_is_gone_after_its_test(club, keeper_client):
    assert "toy-3" not in [variant.id for variant in rules.variants()]
    page = keeper_client.get(club_url("session_start", club)).content.decode()
    assert 'value="toy-3"' not in page
