"""Names in the reader's alphabet (issue 14): Č after C in Slovenian, CH after H in Czech,
Ä with A in German, accents with their letters in French; the same on SQLite and PostgreSQL,
since the order is made in Python (scorebook.collation), not by the database."""

import datetime
import re

import pytest
from django.conf import settings
from django.urls import reverse

from scorebook.collation import alphabetical, sort_key
from scorebook.models import Entry, Hand, Player, Session, SessionSeat

PICKED = ["Zala", "Čarli", "Cene", "Šime", "Sara", "Ana"]


def url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


@pytest.mark.parametrize(
    "language, names, expected",
    [
        ("sl", PICKED, ["Ana", "Cene", "Čarli", "Sara", "Šime", "Zala"]),
        # English has no Č: it is a C with an accent, sorted by the letters that follow.
        ("en", PICKED, ["Ana", "Čarli", "Cene", "Sara", "Šime", "Zala"]),
        ("sl", ["Žan", "Zoran", "Ćiril", "Čedo", "Cvetka", "Đuro", "Dušan"],
         ["Cvetka", "Čedo", "Ćiril", "Dušan", "Đuro", "Zoran", "Žan"]),
        # Czech: CH is one letter after H; Ř after R; Á É Í with their base letters.
        ("cs", ["Chrudoš", "Ivan", "Hana", "Řehoř", "Rudolf", "Šárka", "Sára", "Ábel", "Adam",
                "Íva", "Igor", "Cyril", "Čeněk"],
         ["Ábel", "Adam", "Cyril", "Čeněk", "Hana", "Chrudoš", "Igor", "Íva", "Ivan", "Rudolf",
          "Řehoř", "Sára", "Šárka"]),
        # German: ä ö ü with a o u, ß as ss.
        ("de", ["Zorn", "Otto", "Öl", "Ohm", "Ärger", "Abel", "Müller", "Mumm", "Straße",
                "Strauß", "Strasse"],
         ["Abel", "Ärger", "Müller", "Mumm", "Ohm", "Öl", "Otto", "Strasse", "Straße", "Strauß",
          "Zorn"]),
        # French: accents and the cedilla with their base letters.
        ("fr", ["Zoé", "Étienne", "Eric", "Émile", "Çelik", "Cyril", "Céline", "Ève"],
         ["Çelik", "Céline", "Cyril", "Émile", "Eric", "Étienne", "Ève", "Zoé"]),
    ],
)  # fmt: skip
def test_names_sort_in_the_alphabet_of_the_language(language, names, expected):
    assert alphabetical(names, language) == expected


@pytest.mark.parametrize("language", ["sl", "cs", "de", "fr", "en"])
def test_case_does_not_change_the_order(language):
    names = ["bor", "Ana", "cene", "BOR", "Čarli", "ana"]
    ordered = alphabetical(names, language)
    assert [name.lower() for name in ordered] == [
        name.lower() for name in alphabetical([n.lower() for n in names], language)
    ]
    # Lower case first among names that differ only by case, and never two names tied.
    assert ordered.index("ana") < ordered.index("Ana")
    assert sort_key("Ana", language) != sort_key("ana", language)


def test_an_accent_only_breaks_a_tie():
    assert alphabetical(["Cené", "Cene", "Cenek"], "fr") == ["Cene", "Cené", "Cenek"]


def test_the_active_language_is_the_default():
    from django.utils import translation

    with translation.override("sl"):
        assert alphabetical(PICKED)[:3] == ["Ana", "Cene", "Čarli"]
    with translation.override("en"):
        assert alphabetical(PICKED)[:3] == ["Ana", "Čarli", "Cene"]


# --- On the pages -----------------------------------------------------------------------------


@pytest.fixture
def picked(club):
    return [Player.objects.create(club=club, name=name) for name in PICKED]


def in_language(client, language):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def order_on_page(html: str, names: list[str], pattern: str) -> list[str]:
    """`names` in the order the page shows them in `pattern` (a regex with {name})."""
    found = {}
    for name in names:
        match = re.search(pattern.format(name=re.escape(name)), html)
        assert match, f"{name} is not on the page"
        found[name] = match.start()
    return sorted(names, key=found.get)


@pytest.mark.django_db
def test_the_roster_in_slovenian_puts_c_caron_after_c(club, members, picked, client_as):
    client = in_language(client_as(members["viewer"]), "sl")
    html = client.get(url("roster", club)).content.decode()
    shown = order_on_page(html, PICKED, r"<td>{name}\b")
    assert shown == ["Ana", "Cene", "Čarli", "Sara", "Šime", "Zala"]


@pytest.mark.django_db
def test_the_roster_in_english_reads_c_caron_as_c(club, members, picked, client_as):
    client = in_language(client_as(members["viewer"]), "en")
    html = client.get(url("roster", club)).content.decode()
    assert order_on_page(html, PICKED, r"<td>{name}\b")[:3] == ["Ana", "Čarli", "Cene"]


@pytest.mark.django_db
def test_archived_players_stay_at_the_end_of_the_roster(club, members, picked, client_as):
    Player.objects.filter(name="Ana").update(archived=True)
    client = in_language(client_as(members["viewer"]), "sl")
    html = client.get(url("roster", club)).content.decode()
    shown = order_on_page(html, PICKED, r"<td>{name}\b")
    assert shown == ["Cene", "Čarli", "Sara", "Šime", "Zala", "Ana"]


@pytest.mark.django_db
def test_the_seat_pickers_of_a_new_session_are_in_slovenian_order(club, members, picked, client_as):
    client = in_language(client_as(members["scorekeeper"]), "sl")
    html = client.get(url("session_start", club)).content.decode()
    seat = html[html.index('name="seat_1"') : html.index("</select>", html.index('name="seat_1"'))]
    shown = re.findall(r'<option value="\d+">([^<]+)</option>', seat)
    assert shown == ["Ana", "Cene", "Čarli", "Sara", "Šime", "Zala"]


@pytest.mark.django_db
def test_the_merge_picker_is_in_slovenian_order(club, members, picked, client_as):
    client = in_language(client_as(members["admin"]), "sl")
    zala = Player.objects.get(name="Zala")
    html = client.get(url("player_edit", club, player=zala.pk)).content.decode()
    into = html[html.index('name="into"') : html.index("</select>", html.index('name="into"'))]
    shown = re.findall(r'<option value="\d+">([^<]+)</option>', into)
    assert shown == ["Ana", "Cene", "Čarli", "Sara", "Šime"]


@pytest.mark.django_db
def test_members_are_listed_in_czech_order(club, members, make_user, client_as):
    from scorebook.models import Membership, Role

    for username in ["hugo", "chrudos", "cyril", "ivan"]:
        Membership.objects.create(user=make_user(username), club=club, role=Role.VIEWER)
    client = in_language(client_as(members["admin"]), "cs")
    html = client.get(url("members", club)).content.decode()
    names = ["alma", "cyril", "hugo", "chrudos", "ivan", "saso", "vida"]
    assert order_on_page(html, names, r'class="member-name">{name}\b') == names


@pytest.mark.django_db
def test_standings_break_ties_in_slovenian_order(club, members, picked, client_as):
    from scorebook.league import services

    session = Session.objects.create(
        club=club,
        variant="slovenian-4",
        rules={"preset": "seed"},
        date=datetime.date(2026, 11, 27),
        created_by=members["scorekeeper"],
    )
    seated = [Player.objects.get(name=n) for n in ["Zala", "Čarli", "Cene", "Šime"]]
    for position, player in enumerate(seated, start=1):
        SessionSeat.objects.create(session=session, player=player, position=position)
    # One hand that leaves everybody level: only the names can order the table.
    hand = Hand.objects.create(
        session=session,
        number=1,
        data={"format": 1, "variant": "slovenian-4", "contract": "redeal"},
        rules_version="test",
    )
    Entry.objects.bulk_create(Entry(hand=hand, player=p, amount=0) for p in seated)
    services.rebuild_ratings(club)
    client = in_language(client_as(members["viewer"]), "sl")
    page = reverse("scorebook:league:standings", kwargs={"club": club.slug})
    html = client.get(page, {"family": "slovenian", "sort": "name", "dir": "asc"}).content.decode()
    names = ["Cene", "Čarli", "Šime", "Zala"]
    assert order_on_page(html, names, r">{name}</a>") == names
