"""The club's house rules: a preset with overrides per variant, checked by the engine, frozen
by a session when it starts, named on its page and in its export."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.urls import reverse

import rules
from scorebook import hands, house_rules, sheets
from scorebook.models import HouseRules, Session


def url(name, club, **kwargs):
    return reverse(f"scorebook:{name}", kwargs={"club": club.slug, **kwargs})


def add_url(club, variant):
    return f"{url('house_rules_add', club)}?variant={variant}"


def radelci_100(club, name="Radelci −100", **extra) -> HouseRules:
    return house_rules.save(
        HouseRules(
            club=club,
            variant="slovenian-4",
            name=name,
            preset="seed",
            overrides={"radelci": True, "radelc_penalty": -100},
            **extra,
        )
    )


def seats(players):
    return {f"seat_{n}": p.pk for n, p in enumerate(players, start=1)}


def start(client, club, players, choice, label="T1", variant="slovenian-4"):
    data = {"variant": variant, "preset": choice, "date": "2026-11-29", "table_label": label}
    return client.post(url("session_start", club), {**data, **seats(players[:4])})


def control_names(variant) -> list[str]:
    """The form's controls of a variant's switches: one per switch, one per key of a table
    (two for a bonus's silent and announced values)."""
    names = []
    for name, switch in variant.switches.items():
        if switch.read_map is None:
            names.append(f"switch_{name}")
        elif switch.pair:
            names += [f"switch_{name}__{key}__{i}" for key in switch.keys for i in (0, 1)]
        else:
            names += [f"switch_{name}__{key}" for key in switch.keys]
    return names


# --- Defining them ------------------------------------------------------------------------


def test_an_admin_adds_house_rules_from_the_variants_switches(club, members, client_as):
    client = client_as(members["admin"])
    form = client.get(add_url(club, "slovenian-4")).context["form"]
    variant = rules.get_variant("slovenian-4")
    assert [f.name for f in form.switch_fields()] == control_names(variant)
    # Beside each switch, what every preset says, by the presets' names.
    assert (
        "standard rules: 1 · Tarok zveza Slovenije (TARZS): 5"
        in form.fields["switch_round_difference"].help_text
    )
    # A table's values one field each, named by the game's word, the preset's as placeholder.
    beggar = form["switch_values__beggar"]
    assert (beggar.label, beggar.field.widget.attrs["placeholder"]) == ("beggar", "70")
    announced = form["switch_bonus_values__trula__1"]
    assert (announced.label, announced.field.widget.attrs["placeholder"]) == (
        "trula, announced",
        "20",
    )

    response = client.post(
        add_url(club, "slovenian-4"),
        {
            "name": "Thursday",
            "preset": "seed",
            "is_default": "1",
            "switch_radelci": "true",
            "switch_radelc_penalty": "−100",
            "switch_round_difference": "5",
            "switch_mondfang": "0",
            "switch_values__beggar": "80",
        },
    )
    assert response.status_code == 302
    found = HouseRules.objects.get(club=club)
    assert (found.variant, found.name, found.preset, found.is_default) == (
        "slovenian-4",
        "Thursday",
        "seed",
        True,
    )
    assert found.overrides == {
        "values": {"beggar": 80},
        "round_difference": 5,
        "mondfang": 0,
        "radelci": True,
        "radelc_penalty": -100,
    }
    page = client_as(members["viewer"]).get(url("house_rules", club)).content.decode()
    assert "Thursday" in page
    assert "penalty per unused radelc: −100 (preset: 0)" in page
    assert "round the difference to: 5 (preset: 1)" in page
    assert "contract values: beggar 80 (preset: beggar 70)" in page
    assert "mondfang:" not in page  # the preset's own value is no difference


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("switch_radelc_penalty", "100", "must be at most 0"),
        ("switch_mondfang", "-1", "must be at least 0"),
        ("switch_mondfang", "1.5", "Enter a whole number."),
        ("switch_mondfang", "1e9", "Enter a number."),
        ("switch_mondfang", "999999999", "must be between −100000 and 100000"),
        ("switch_values__beggar", "-5", "must be at least 0"),
        ("switch_values__beggar", "80.5", "Enter a whole number."),
        ("switch_bonus_values__trula__0", "-1", "[-1, 20] is not allowed"),
        ("switch_round_difference", "7", "Select a valid choice."),
        ("switch_radelci", '"yes"', "Select a valid choice."),
        ("preset", "fft", "Select a valid choice."),
        ("name", "Thurs\x00day", "Remove the control characters"),
    ],
)
def test_a_bad_override_is_refused_at_its_field_with_the_engines_message(
    club, members, client_as, field, value, message
):
    data = {"name": "Thursday", "preset": "seed", field: value}
    response = client_as(members["admin"]).post(add_url(club, "slovenian-4"), data)
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert list(errors) == [field], errors
    assert message in errors[field][0]
    assert not HouseRules.objects.exists()


def test_other_games_switches_are_offered_and_checked_the_same_way(club, members, client_as):
    client = client_as(members["admin"])
    for variant in rules.variants():
        response = client.get(add_url(club, variant.id))
        assert response.status_code == 200
        names = [f.name for f in response.context["form"].switch_fields()]
        assert names == control_names(variant)
    # Czech declarations paid individually; Zwanzigerrufen valat replaces the game.
    for variant_id, switch, choice in (
        ("czech", "declarations_payer", "individual"),
        ("zwanzigerrufen", "valat_scoring", "replaces-game"),
    ):
        variant = rules.get_variant(variant_id)
        data = {"name": "Ours", "preset": variant.default_preset, f"switch_{switch}": f'"{choice}"'}
        assert client.post(add_url(club, variant_id), data).status_code == 302
        found = HouseRules.objects.get(club=club, variant=variant_id)
        assert found.overrides == {switch: choice}
        assert house_rules.resolved(found)[switch] == choice


def test_a_name_is_taken_once_per_variant(club, members, client_as):
    radelci_100(club, name="Thursday")
    data = {"name": "THURSDAY", "preset": "seed"}
    client = client_as(members["admin"])
    response = client.post(add_url(club, "slovenian-4"), data)
    assert response.context["form"].errors == {
        "name": ["The club already has house rules called THURSDAY for Slovenian tarok, 4 players."]
    }
    # Another variant may have a set of the same name.
    assert client.post(add_url(club, "slovenian-3"), data).status_code == 302


def test_one_default_per_variant(club):
    first = radelci_100(club, name="First", is_default=True)
    second = radelci_100(club, name="Second", is_default=True)
    first.refresh_from_db()
    assert (first.is_default, second.is_default) == (False, True)


def test_an_unknown_variant_is_404_and_no_variant_goes_back_to_the_list(club, members, client_as):
    client = client_as(members["admin"])
    assert client.get(add_url(club, "nope")).status_code == 404
    assert client.get(add_url(club, "x" * 5000)).status_code == 404
    response = client.get(url("house_rules_add", club))
    assert response["Location"] == url("house_rules", club)


def test_an_admin_changes_a_set_and_the_form_shows_what_it_holds(club, members, client_as):
    found = radelci_100(club, name="Thursday")
    client = client_as(members["admin"])
    edit = url("house_rules_edit", club, house_rules_id=found.pk)
    form = client.get(edit).context["form"]
    assert form["switch_radelc_penalty"].value() == "-100"
    assert form["switch_radelci"].value() == "true"
    response = client.post(edit, {"name": "Friday", "preset": "tarzs", "switch_mondfang": "0"})
    assert response.status_code == 302
    found.refresh_from_db()
    assert (found.name, found.preset, found.overrides) == ("Friday", "tarzs", {"mondfang": 0})


def test_another_clubs_set_is_404(club, other_club, members, client_as):
    theirs = radelci_100(other_club, name="Theirs")
    client = client_as(members["admin"])
    for name in ("house_rules_edit", "house_rules_delete"):
        address = url(name, club, house_rules_id=theirs.pk)
        assert client.get(address).status_code == 404
        assert client.post(address, {"name": "Taken", "preset": "seed"}).status_code == 404
    theirs.refresh_from_db()
    assert theirs.name == "Theirs"
    # Nor can a session of mine start with it.
    assert "Theirs" not in client.get(url("house_rules", club)).content.decode()


def test_delete_asks_first(club, members, client_as):
    found = radelci_100(club)
    client = client_as(members["admin"])
    address = url("house_rules_delete", club, house_rules_id=found.pk)
    page = client.get(address)
    assert page.status_code == 200
    assert "Delete the house rules Radelci −100?" in page.content.decode()
    assert HouseRules.objects.filter(pk=found.pk).exists()
    assert client.post(address).status_code == 302
    assert not HouseRules.objects.filter(pk=found.pk).exists()


# --- Starting a session with them ------------------------------------------------------------


def test_a_session_starts_with_the_clubs_default_preselected(club, players, members, client_as):
    radelci_100(club, is_default=True)
    client = client_as(members["scorekeeper"])
    form = client.get(url("session_start", club)).context["form"]
    assert form["preset"].value() in ("", None)
    labels = [label for _value, label in form.fields["preset"].choices]
    assert labels[0] == "the club's default for the variant"
    assert start(client, club, players, "").status_code == 302
    session = Session.objects.get()
    assert session.house_rules_name == "Radelci −100"
    assert (session.rules["radelci"], session.rules["radelc_penalty"]) == (True, -100)
    # Another variant has no set: its default preset.
    assert start(client, club, players, "", "T2", "czech").status_code == 302
    czech = Session.objects.get(table_label="T2")
    assert (czech.house_rules_name, czech.preset) == ("", "seed")


def test_a_session_starts_with_a_chosen_set_or_a_plain_preset(club, players, members, client_as):
    found = radelci_100(club, is_default=True)
    client = client_as(members["scorekeeper"])
    assert start(client, club, players, f"house-{found.pk}").status_code == 302
    assert start(client, club, players, "tarzs", "T2").status_code == 302
    plain = Session.objects.get(table_label="T2")
    assert (plain.house_rules_name, plain.preset, plain.rules["radelc_penalty"]) == ("", "tarzs", 0)


def test_a_set_of_another_variant_or_club_is_refused_at_the_field(
    club, other_club, players, members, client_as
):
    mine = radelci_100(club)
    theirs = radelci_100(other_club)
    client = client_as(members["scorekeeper"])
    response = start(client, club, players, f"house-{mine.pk}", variant="czech")
    assert response.context["form"].errors["preset"] == [
        "Radelci −100 are house rules for Slovenian tarok, 4 players, not for Czech tarok."
    ]
    for choice in (f"house-{theirs.pk}", "house-x", "house-99999999999999999999"):
        response = start(client, club, players, choice)
        assert response.status_code == 422
        assert "preset" in response.context["form"].errors
    assert not Session.objects.exists()


def test_a_set_the_engine_no_longer_reads_refuses_the_start_at_the_field(
    club, players, members, client_as
):
    """A set stored before its switch left the engine: the start says why at the rules."""
    old = HouseRules.objects.create(
        club=club, variant="slovenian-4", name="Old", preset="seed", overrides={"old_switch": 1}
    )
    response = start(client_as(members["scorekeeper"]), club, players, f"house-{old.pk}")
    assert response.status_code == 422
    [error] = response.context["form"].errors["preset"]
    assert error.startswith("unknown switch 'old_switch'")
    assert not Session.objects.exists()


def test_changing_or_deleting_a_set_never_changes_a_started_session(
    club, players, members, client_as
):
    found = radelci_100(club)
    client = client_as(members["admin"])
    start(client, club, players, f"house-{found.pk}")
    session = Session.objects.get()
    frozen = dict(session.rules)
    edit = url("house_rules_edit", club, house_rules_id=found.pk)
    client.post(edit, {"name": "Renamed", "preset": "tarzs", "switch_radelc_penalty": "-40"})
    session.refresh_from_db()
    assert (session.rules, session.house_rules_name) == (frozen, "Radelci −100")
    client.post(url("house_rules_delete", club, house_rules_id=found.pk))
    assert not HouseRules.objects.exists()
    session.refresh_from_db()
    assert (session.rules, session.house_rules_name) == (frozen, "Radelci −100")
    page = client.get(url("session", club, session=session.pk)).content.decode()
    assert "house rules: Radelci −100 (preset standard rules)" in page


def test_the_session_page_names_the_set_and_every_switch_it_changes(
    club, players, members, client_as
):
    found = radelci_100(club)
    client = client_as(members["viewer"])
    start(client_as(members["scorekeeper"]), club, players, f"house-{found.pk}")
    page = client.get(url("session", club, session=Session.objects.get().pk)).content.decode()
    assert "house rules: Radelci −100 (preset standard rules)" in page
    assert "radelci: on (preset: off)" in page
    assert "penalty per unused radelc: −100 (preset: 0)" in page
    assert page.count("(preset: ") == 2


# --- Export and import ----------------------------------------------------------------------


def test_export_carries_the_name_and_the_rules_and_import_keeps_the_name(
    club, other_club, players, members, client_as
):
    found = radelci_100(club)
    start(client_as(members["scorekeeper"]), club, players, f"house-{found.pk}")
    session = Session.objects.get()
    klop = {"contract": "klop", "points_by_player": {"Ana": 20, "Bor": 20, "Cene": 20, "Dani": 10}}
    hands.record_hand(session, klop, uuid.uuid4(), members["scorekeeper"])
    response = client_as(members["viewer"]).get(
        url("session_export_json", club, session=session.pk)
    )
    sheet = json.loads(response.content)
    assert sheet["house_rules"] == "Radelci −100"
    assert sheet["rules"] == session.rules
    assert (sheet["rules"]["radelci"], sheet["rules"]["radelc_penalty"]) == (True, -100)
    assert (
        rules.score_sheet(sheet).totals
        == rules.score_sheet({k: v for k, v in sheet.items() if k != "house_rules"}).totals
    )

    # Another club has no set of that name: the import works and keeps it.
    imported = hands.import_sheet(other_club, sheet, members["outsider"])
    assert imported.house_rules_name == "Radelci −100"
    assert imported.rules == session.rules
    assert not other_club.house_rules.exists()
    assert sheets.export_json(imported)["house_rules"] == "Radelci −100"


def test_a_session_without_a_set_exports_no_name(club, players, members, client_as):
    start(client_as(members["scorekeeper"]), club, players, "tarzs")
    session = Session.objects.get()
    hands.record_hand(
        session, {"contract": "three", "declarer": "Ana", "points": 40}, uuid.uuid4(), None
    )
    assert "house_rules" not in sheets.export_json(session)


def test_an_import_with_a_bad_name_is_refused_at_its_key(club, members, client_as):
    sheet = {
        "format": 1,
        "variant": "slovenian-4",
        "rules": {"preset": "seed"},
        "house_rules": "x" * 61,
        "players": ["Ana", "Bor", "Cene", "Dani"],
        "hands": [{"contract": "three", "declarer": "Ana", "points": 40}],
    }
    response = client_as(members["scorekeeper"]).post(
        url("sheet_import", club), {"text": json.dumps(sheet)}
    )
    assert response.status_code == 200
    assert "house_rules: must be at most 60 characters long" in response.content.decode()
    assert not Session.objects.exists()


def test_the_start_form_names_presets_in_words_grouped_by_variant(
    club, players, members, client_as
):
    radelci_100(club, is_default=True)
    form = client_as(members["scorekeeper"]).get(url("session_start", club)).context["form"]
    groups = dict(form.fields["preset"].choices[1:])
    assert groups["Slovenian tarok, 4 players"] == [
        (f"house-{HouseRules.objects.get().pk}", "Radelci −100 (default)"),
        ("seed", "standard rules"),
        ("tarzs", "Tarok zveza Slovenije (TARZS)"),
    ]
    assert groups["French tarot, 4 players"] == [("fft", "Fédération Française de Tarot (FFT)")]
    assert groups["Czech tarok"] == [("seed", "standard rules")]


def test_a_preset_of_another_variant_is_refused_at_the_preset_field(
    club, players, members, client_as
):
    response = start(client_as(members["scorekeeper"]), club, players, "fft")
    assert response.status_code == 422
    assert response.context["form"].errors["preset"] == [
        "Slovenian tarok, 4 players has no house rules called Fédération Française de Tarot "
        "(FFT); choose one of standard rules, Tarok zveza Slovenije (TARZS)."
    ]
    assert not Session.objects.exists()


def test_a_stored_set_opens_in_its_controls_and_saves_back_unchanged(club, members, client_as):
    stored = {
        "values": {"three": 15, "piccolo": 60},
        "bonus_values": {"trula": [15, 30], "king-ultimo": [10, 20]},
        "radelci": True,
        "radelc_penalty": -100,
        "contra_scope": "item",
        "max_contra": 4,
    }
    found = HouseRules.objects.create(
        club=club, variant="slovenian-4", name="Ours", preset="seed", overrides=stored
    )
    client = client_as(members["admin"])
    edit = url("house_rules_edit", club, house_rules_id=found.pk)
    form = client.get(edit).context["form"]
    assert form["switch_values__three"].value() == "15"
    assert form["switch_bonus_values__trula__1"].value() == "30"
    posted = {name: form[name].value() for name in form.fields}
    posted = {name: value for name, value in posted.items() if value not in (None, "")}
    assert client.post(edit, posted).status_code == 302
    found.refresh_from_db()
    assert found.overrides == stored


def test_what_no_control_knows_is_shown_and_kept(club, members, client_as):
    """A set stored (or imported) with a key no control lists keeps it; the engine still
    checks the whole set, and says what it refuses above the controls."""
    stored = {"values": {"three": 15, "klop-deluxe": 5}, "old_switch": 1}
    found = HouseRules.objects.create(
        club=club, variant="slovenian-4", name="Old", preset="seed", overrides=stored
    )
    client = client_as(members["admin"])
    edit = url("house_rules_edit", club, house_rules_id=found.pk)
    page = client.get(edit).content.decode()
    assert "klop-deluxe: 5" in page and "old_switch: 1" in page
    response = client.post(edit, {"name": "Old", "preset": "seed", "switch_values__three": "20"})
    assert response.status_code == 200
    errors = response.context["form"].errors["__all__"]
    assert any("klop-deluxe" in error for error in errors)
    found.refresh_from_db()
    assert found.overrides == stored  # refused as a whole: nothing changed


def test_no_json_and_no_engine_id_on_the_house_rules_form(club, members, client_as):
    page = client_as(members["admin"]).get(add_url(club, "slovenian-4")).content.decode()
    fields = page.split("<form", 1)[1]
    assert "{" not in fields.replace("{%", "")  # no JSON to type, no example of it
    labels = re.findall(r"<label[^>]*>([^<]*)</label>", fields)
    assert "Solo three" in labels and "Pagat ultimo, announced" in labels
    assert not [label for label in labels if "-" in label or "_" in label]


def test_a_bonus_the_preset_has_not_needs_both_values(club, members, client_as):
    """Standard rules have no king ultimo: its silent value alone is not enough."""
    data = {"name": "Ours", "preset": "seed", "switch_bonus_values__king-ultimo__0": "10"}
    response = client_as(members["admin"]).post(add_url(club, "slovenian-4"), data)
    assert response.context["form"].errors == {
        "switch_bonus_values__king-ultimo__1": ["Enter both values of this bonus."]
    }
    assert not HouseRules.objects.exists()
