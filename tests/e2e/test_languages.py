"""Each game recorded on a 360 px phone in its players' language (issue 14): the contract
chips, the live score's lines and the sheet read the game's own words, dates and numbers are
written the way that language writes them, and no page scrolls sideways.

The words are written out here, as rules/glossary.csv and locale/*/LC_MESSAGES/django.po give
them: a test that asked the glossary for its words would pass whatever they said. Choosing the
language with the switcher and keeping it is tests/e2e/test_language_switch.py; typing "40,5"
into the points is tests/e2e/test_decimal_input.py.
"""

import datetime

import pytest
from django.conf import settings
from playwright.sync_api import expect

import rules
from scorebook import services
from scorebook.models import Profile
from tests.e2e.test_language_switch import NARROW, fits
from tests.e2e.test_record_hand import chip, log_in, sheet_url

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

EVENING = datetime.date(2026, 11, 27)


@pytest.fixture
def narrow(phone):
    """The Pixel 7 page of conftest.py, 360 px wide: the narrowest phone a club brings."""
    phone.set_viewport_size(NARROW)
    return phone


def start(club, players, members, variant: str, seats: int):
    return services.start_session(
        club=club,
        variant_id=variant,
        preset=rules.get_variant(variant).default_preset,
        players=players[:seats],
        user=members["scorekeeper"],
        date=EVENING,
    )


def choose_by_cookie(page, live_server, language: str) -> None:
    """The language cookie, as the header's switcher sets it on this phone."""
    page.context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}]
    )


def contracts(page) -> list[str]:
    return page.locator("fieldset#id_contract > label").all_inner_texts()


def record_from_the_sheet(page, session, language: str, sheet: str, record: str, hand: str):
    """Open the sheet (its heading `sheet`) and tap `record` to the form of a new `hand`."""
    page.goto(sheet_url(session))
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", name=sheet)).to_be_visible()
    page.get_by_role("button", name=record).click()
    expect(page.get_by_role("heading", name=hand)).to_be_visible()


def saved_to_the_sheet(page, save: str, sheet: str) -> None:
    """Tap `save`; the sheet answers, hand 1's itemised lines open."""
    fits(page)  # the form with its live score
    page.get_by_role("button", name=save).click()
    expect(page.get_by_role("heading", name=sheet)).to_be_visible()
    page.locator("#hand-1 summary").click()


def test_a_slovenian_hand_in_slovenian(narrow, session, members):
    """A Ljubljana club speaks Slovenian: a member who chose no language reads its pages so."""
    page = narrow
    session.club.language = "sl"
    session.club.save()
    log_in(page)
    record_from_the_sheet(page, session, "sl", "Zapisnik", "Vpiši igro", "Igra 1")
    names = contracts(page)
    assert names[:3] == ["tri", "dva", "ena"], names
    for contract in ("solo tri", "solo brez", "pikolo", "berač", "odprti berač", "klop"):
        assert contract in names, names
    expect(page.locator("#id_contract input[value=three]")).to_be_checked()
    chip(page, "declarer", "Ana").click()
    chip(page, "partner", "Cene").click()
    page.get_by_label("Točke kart: igralčeva stran (od 70)").fill("40")
    chip(page, "bonus-trula", "napovedano").click()
    result = page.locator("#hand-result")
    expect(result).to_contain_text("tri 10 + razlika 5")
    expect(result).to_contain_text("trula: napovedano 20")

    saved_to_the_sheet(page, "Shrani igro", "Zapisnik")
    assert page.locator("#hand-1 .amount").all_inner_texts() == ["35", "0", "35", "0"]
    lines = page.locator("#hand-1 .lines")
    expect(lines).to_contain_text("tri 10 + razlika 5")
    expect(lines).to_contain_text("trula: napovedano 20")
    expect(page.locator("table.hands tfoot")).to_contain_text("Skupaj")
    expect(page.locator("hgroup p")).to_contain_text("Slovenski tarok, 4 igralci")
    expect(page.locator("hgroup p")).to_contain_text("27. 11. 2026")
    fits(page)
    assert page.console_errors == [], page.console_errors


def test_a_czech_hand_in_czech(narrow, club, players, members):
    """The scorekeeper chose Czech for himself (his profile): every page he opens speaks it."""
    page = narrow
    session = start(club, players, members, "czech", 4)
    # Chosen before (on another phone, say): the profile speaks from the login on.
    Profile.objects.update_or_create(user=members["scorekeeper"], defaults={"language": "cs"})
    log_in(page, my_clubs="Moje kluby")
    record_from_the_sheet(page, session, "cs", "Zápis", "Zapsat hru", "Hra 1")
    names = contracts(page)
    for contract in ("první povinnost", "druhá povinnost", "trojka", "sólo", "varšava"):
        assert contract in names, names
    chip(page, "declarer", "Ana").click()
    chip(page, "partner", "Cene").click()
    page.get_by_label("Oči – strana aktéra (z 70)").fill("40")
    chip(page, "bonus-pagat-ultimo", "ohlášený").click()
    result = page.locator("#hand-result")
    expect(result).to_contain_text("první povinnost, oči 40: rozdíl +5 × 1")
    expect(result).to_contain_text("pagát ultimo: ohlášeno 20")

    saved_to_the_sheet(page, "Uložit hru", "Zápis")
    assert page.locator("#hand-1 .amount").all_inner_texts() == ["25", "−25", "25", "−25"]
    lines = page.locator("#hand-1 .lines")
    expect(lines).to_contain_text("první povinnost, oči 40: rozdíl +5 × 1")
    expect(lines).to_contain_text("pagát ultimo: ohlášeno 20")
    expect(page.locator("table.hands tfoot")).to_contain_text("Celkem")
    expect(page.locator("hgroup p")).to_contain_text("České taroky · 27. 11. 2026")
    fits(page)
    assert page.console_errors == [], page.console_errors


def test_a_zwanzigerrufen_hand_in_german(narrow, live_server, club, players, members):
    page = narrow
    session = start(club, players, members, "zwanzigerrufen", 4)
    log_in(page)
    choose_by_cookie(page, live_server, "de")
    record_from_the_sheet(page, session, "de", "Liste", "Spiel eintragen", "Spiel 1")
    names = contracts(page)
    for contract in ("Rufer", "Farbensolo", "Solo"):
        assert contract in names, names
    expect(page.locator("#id_declarer legend")).to_have_text("Spieler")
    chip(page, "declarer", "Ana").click()
    chip(page, "partner", "Bor").click()
    page.get_by_label("Punkte der Spielerseite (von 88)").fill("50")
    chip(page, "contra", "Kontra ×2").click()
    chip(page, "bonus-pagat-ultimo", "angesagt").click()
    result = page.locator("#hand-result")
    expect(result).to_contain_text("Rufer 1, Kontra ×2")
    expect(result).to_contain_text("Pagat ultimo angesagt 2")

    saved_to_the_sheet(page, "Spiel speichern", "Liste")
    assert page.locator("#hand-1 .amount").all_inner_texts() == ["4", "4", "−4", "−4"]
    lines = page.locator("#hand-1 .lines")
    expect(lines).to_contain_text("Rufer 1, Kontra ×2")
    expect(lines).to_contain_text("Pagat ultimo angesagt 2")
    expect(page.locator("table.hands tfoot")).to_contain_text("Summe")
    expect(page.locator("hgroup p")).to_contain_text("Zwanzigerrufen · 27.11.2026")
    fits(page)
    assert page.console_errors == [], page.console_errors


def test_a_french_hand_in_french_with_a_half_point_and_a_french_date(
    narrow, live_server, club, players, members
):
    """French tarot for three, where a pile may end in a half: 40,5 points, never 40.5, and
    the evening's date as dd/mm/yyyy on the sheet and on the session's page."""
    page = narrow
    session = start(club, players, members, "french-3", 3)
    log_in(page)
    choose_by_cookie(page, live_server, "fr")
    record_from_the_sheet(page, session, "fr", "Feuille de marque", "Saisir une donne", "Donne 1")
    assert contracts(page) == [
        "petite",
        "garde",
        "garde sans",
        "garde contre",
        "redonne",
        "correction",
    ]
    expect(page.locator("#id_declarer legend")).to_have_text("Preneur")
    chip(page, "declarer", "Ana").click()
    page.get_by_label("Points côté attaque (sur 91)").fill("40,5")
    chip(page, "oudlers", "2").click()
    page.locator("#id_bonus-poignee-row").get_by_label("Ana").select_option(
        label="simple (13 atouts)"
    )
    result = page.locator("#hand-result")
    game = "petite 40,5 (il en faut 41, bouts : 2) : (25 + différence 1) ×1, chuté"
    poignee = "poignée simple 20 montrée par Ana, acquise côté défense"
    expect(result).to_contain_text(game)
    expect(result).to_contain_text(poignee)

    saved_to_the_sheet(page, "Enregistrer la donne", "Feuille de marque")
    assert page.locator("#hand-1 .amount").all_inner_texts() == ["−92", "46", "46"]
    lines = page.locator("#hand-1 .lines")
    expect(lines).to_contain_text(game)
    expect(lines).to_contain_text(poignee)
    expect(lines).not_to_contain_text("40.5")
    heading = page.locator("hgroup p")
    expect(heading).to_contain_text("Tarot français, 3 joueurs · 27/11/2026")
    fits(page)

    heading.get_by_role("link").click()  # to the session's page: one date format per language
    expect(page.get_by_role("heading", name="Tarot français, 3 joueurs")).to_be_visible()
    expect(page.locator("main")).to_contain_text("27/11/2026")
    fits(page)
    assert page.console_errors == [], page.console_errors
