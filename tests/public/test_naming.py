"""How players are named in public: initials, collisions, the most private choice, and the
names inside stored lines and notes."""

from __future__ import annotations

import pytest

from rules.words import phrase_from_json
from scorebook.public.naming import Naming, initials


@pytest.mark.parametrize(
    "name, said",
    [
        ("Ana Kovač", "A. K."),
        ("Bor", "B."),
        ("Jean-Luc Petit", "J. P."),
        ("élise de la Tour", "É. D. L. T."),
        ("Ana 2", "A."),
        ("", "?"),
    ],
)
def test_initials(name, said):
    assert initials(name) == said


def test_each_player_is_named_as_chosen(club, roster):
    naming = Naming(club)
    assert naming.name(roster["Ana"].pk) == "Ana Kovač"
    assert naming.name(roster["Bor"].pk) == "B. N."


def test_initials_that_collide_get_a_digit_in_roster_order(club, roster):
    naming = Naming(club)
    # Dani Zupan and Dora Zorman are both "D. Z.": Dani was on the roster first.
    assert naming.name(roster["Dora"].pk) == "D. Z. 2"
    assert naming.name(roster["Dani"].pk) == "D. Z. 1"


def test_nobody_chose_means_not_shown_numbered_on_the_page(club, roster):
    from scorebook.models import Player

    eva = Player.objects.create(club=club, name="Eva Horvat")
    naming = Naming(club)
    # Numbered in the order the page names them, never by a database id.
    assert naming.name(eva.pk) == "Player 1"
    assert naming.name(roster["Cene"].pk) == "Player 2"
    assert naming.name(eva.pk) == "Player 1"
    assert not naming.is_shown(eva.pk)
    assert Naming(club).name(roster["Cene"].pk) == "Player 1"  # another page counts anew


def test_the_most_private_choice_of_a_person_counts_in_every_club(
    club, other_club, roster, make_user
):
    from scorebook.models import Player
    from scorebook.public.models import PublicName

    ana = make_user("ana.k")
    roster["Ana"].user = ana
    roster["Ana"].save()
    theirs = Player.objects.create(club=other_club, name="Ana Kovač", user=ana)
    PublicName.objects.create(player=theirs, shown="initials", agreed="player")
    assert Naming(club).name(roster["Ana"].pk) == "A. K."
    PublicName.objects.filter(player=theirs).update(shown="hidden")
    assert Naming(club).name(roster["Ana"].pk) == "Player 1"


def test_a_choice_elsewhere_does_not_show_a_player_nobody_asked_here(club, roster):
    # Cene chose his full name in the other club; here nobody asked him.
    naming = Naming(club)
    assert naming.name(roster["Cene"].pk) == "Player 1"


def test_names_inside_lines_and_notes_follow_the_choice(club, roster):
    naming = Naming(club)
    seats = naming.seats({"Ana Kovač": roster["Ana"].pk, "Cene Kralj": roster["Cene"].pk})
    assert seats == {"Ana Kovač": "Ana Kovač", "Cene Kralj": "Player 1"}
    two_won = [["line.two-won", {"player": "Cene Kralj", "points": 40}]]
    assert (
        naming.line(phrase_from_json(two_won), seats) == "Player 1 announced and won: (40 − 35) × 2"
    )
    i_play = [["note.i-play", {"player": "Cene Kralj", "points": 40}]]
    assert naming.note(phrase_from_json(i_play), seats) == "Player 1: I play, 40"
    who = "Cene Kralj, Ana Kovač"
    paid = [["line.varsovia-pays", {"contract": ["contract.varsovia"], "who": who,
             "points": 40, "payee": "Ana Kovač", "paid": 8}]]  # fmt: skip
    assert "Player 1, Ana Kovač" in naming.line(phrase_from_json(paid), seats)
    assert "Kralj" not in naming.line(phrase_from_json(paid), seats)


def test_an_adjustments_reason_never_shows(club, roster):
    naming = Naming(club)
    seats = naming.seats({"Cene Kralj": roster["Cene"].pk})
    reason = [["line.adjustment-reason", {"reason": "left early to catch the bus"}]]
    assert naming.line(phrase_from_json(reason), seats) == "adjustment"
    literal = [["text", {"text": "adjustment: Cene Kralj left early"}]]
    assert naming.line(phrase_from_json(literal), seats) == "adjustment"
