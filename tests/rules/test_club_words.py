"""The words clubs use (issue 26): each game word of the glossary is the one its players say,
not a translation of the English; each test names the old word that was wrong."""

from __future__ import annotations

from rules import get_variant, labels
from rules.words import ENTRIES, Say, speaking


def said(key: str, language: str) -> str:
    return Say(key).text(language)


# -- German (Austria) ---------------------------------------------------------------------


def test_german_beggar_is_bettler_not_bettel():
    assert said("contract.beggar", "de") == "Bettler"
    assert said("contract.open-beggar", "de") == "Bettler ouvert"


def test_german_premiums_say_vier_koenige_and_mondfang():
    assert said("bonus.kings", "de") == "Vier Könige"  # not "Könige"
    assert said("declaration.four-kings", "de") == "Vier Könige"
    assert said("bonus.mond-caught", "de") == "Mondfang"  # not "Mond gefangen"


def test_german_slovenian_levels_are_not_austrian_contracts():
    """In Königrufen the Dreier is played alone and the Solodreier without the talon: the
    Slovenian levels (with a called king) must not borrow those names."""
    slovenian = get_variant("slovenian-4")
    with speaking("de"):
        names = {c: slovenian.contract_label(c) for c in ("three", "two", "one", "solo-three")}
    assert names == {"three": "Drei", "two": "Zwei", "one": "Eins", "solo-three": "Solo drei"}
    austrian = {"Dreier", "Zweier", "Einer", "Solodreier", "Solozweier", "Soloeiner"}
    assert not austrian & {ENTRIES[k]["de"] for k in ENTRIES if k.startswith("contract.")}


def test_german_czech_obligations_keep_their_czech_names():
    """"Tschechisches Tarock: erste Pflicht" read like a machine: the Czech word, glossed."""
    assert said("contract.first-obligation", "de") == "první povinnost (erstes Pflichtspiel)"
    assert said("contract.second-obligation", "de") == "druhá povinnost (zweites Pflichtspiel)"
    assert not any("Pflicht " in e["de"] or e["de"].endswith("Pflicht") for e in ENTRIES.values())


def test_the_declarer_who_plays_alone_is_the_alleinspieler():
    assert said("role.alone", "de") == "Alleinspieler"
    assert labels.ROLES["alone"].text("de") == "Alleinspieler"
    assert labels.ROLES["declarer"].text("de") == "Spieler"


# -- Czech --------------------------------------------------------------------------------


def test_czech_declarer_is_the_akter():
    """hracikarty.cz: "aktér – hráč, který vydražil hru"; not "hlavní hráč"."""
    assert said("role.declarer", "cs") == "aktér"
    assert said("side.declarer", "cs") == "strana aktéra"
    assert not [k for k, e in ENTRIES.items() if "hlavní" in e["cs"] or "hlavního" in e["cs"]]


def test_czech_card_points_are_oci():
    """hracikarty.cz: "oči – body"; card points are "oči", placement points stay "body"."""
    assert Say("count.points", points=35).text("cs") == "oči: 35"
    assert "35 očí" in said("problem.valat-declarer-points", "cs")
    assert not [k for k, e in ENTRIES.items() if "bod" in e["cs"]]


def test_czech_third_contra_is_tutti_not_supre():
    """taroky.net: "sup-contra (tutti)"; "supre" is said by nobody."""
    assert said("contra.3", "cs") == "tutti"
    assert not [k for k, e in ENTRIES.items() if "supre" in e["cs"]]


def test_czech_trula_is_trul_everywhere():
    assert said("bonus.trula", "cs") == "trul"  # not "trula"
    assert said("bonus.trull", "cs") == said("declaration.trul", "cs") == "trul"


# -- Slovenian ----------------------------------------------------------------------------


def test_slovenian_honerji_are_not_the_czech_declaration():
    """To Slovenian players "honerji" are the trula cards: the Czech declaration of four
    5-point cards keeps its Czech name, glossed."""
    assert said("declaration.honours", "sl") == "honéry (štiri karte po 5 točk)"
    assert not [k for k, e in ENTRIES.items() if "honerj" in e["sl"].lower()]


def test_slovenian_federation_is_named_as_it_names_itself():
    assert said("preset.tarzs", "sl") == "Tarok zveza Slovenije (TARZS)"  # not "Slovenska zveza"
