"""The members' side: a member chooses his public name, an admin records what a player agreed
to, a registration takes the choice, and the club's settings switch the pages on."""

from __future__ import annotations

from django.urls import reverse

from scorebook.public.models import PublicName


def test_a_member_chooses_for_his_own_player(club, roster, client_as):
    cene = roster["Cene"]
    client = client_as(cene.user)
    url = reverse("scorebook:public_members:my_name", kwargs={"club": club.slug})
    page = client.get(url).content.decode()
    assert 'value="hidden"' in page and "checked" in page
    assert client.post(url, {"shown": "initials"}).status_code == 302
    chosen = PublicName.objects.get(player=cene)
    assert (chosen.shown, chosen.agreed, chosen.recorded_by) == ("initials", "player", cene.user)
    assert client.post(url, {"shown": "famous"}).status_code == 200  # refused at the field
    assert PublicName.objects.get(player=cene).shown == "initials"


def test_a_member_without_a_player_is_told_to_claim_one(club, members, client_as):
    url = reverse("scorebook:public_members:my_name", kwargs={"club": club.slug})
    client = client_as(members["viewer"])
    assert "claim yours on the roster" in client.get(url).content.decode()
    assert client.post(url, {"shown": "full"}).status_code == 200
    assert not PublicName.objects.exists()


def test_an_admin_shows_a_name_only_with_the_players_agreement(club, members, players, client_as):
    client = client_as(members["admin"])
    eva = players[-1]
    url = reverse("scorebook:public_members:record", kwargs={"club": club.slug, "player": eva.pk})
    refused = client.post(url, {"shown": "full"})
    assert "only when the player agreed" in refused.content.decode()
    assert not PublicName.objects.filter(player=eva).exists()
    assert client.post(url, {"shown": "full", "agreed": "on"}).status_code == 302
    assert PublicName.objects.get(player=eva).agreed == "admin"
    assert client.post(url, {"shown": "hidden"}).status_code == 302  # no agreement needed
    assert PublicName.objects.get(player=eva).shown == "hidden"
    names = reverse("scorebook:public_members:names", kwargs={"club": club.slug})
    assert "Eva" in client.get(names).content.decode()


def test_registration_says_how_results_are_published_and_takes_the_choice(
    club, members, client_as, make_user
):
    from scorebook.models import Membership, Player, Role
    from scorebook.tournaments.models import Registration
    from tests.tournaments.helpers import announce

    tournament = announce(club, members["admin"])
    detail = reverse(
        "scorebook:tournaments:detail", kwargs={"club": club.slug, "tournament": tournament.pk}
    )
    client = client_as(members["viewer"])
    assert 'name="public_name"' not in client.get(detail).content.decode()
    club.publish_tournaments = True
    club.save()
    assert "How should they name you?" in client.get(detail).content.decode()
    register = reverse(
        "scorebook:tournaments:register", kwargs={"club": club.slug, "tournament": tournament.pk}
    )
    client.post(register, {"public_name": "initials"})
    registration = Registration.objects.get(user=members["viewer"])
    assert registration.public_name.shown == "initials"  # kept until the start finds a player
    # One with a player already: the choice is his player's.
    zala = make_user("zala")
    Membership.objects.create(user=zala, club=club, role=Role.VIEWER)
    player = Player.objects.create(club=club, name="Zala", user=zala)
    client_as(zala).post(register, {"public_name": "full"})
    assert PublicName.objects.get(player=player).shown == "full"


def test_the_settings_switch_the_public_pages_on(club, members, client_as):
    url = reverse("scorebook:club_settings", kwargs={"club": club.slug})
    client = client_as(members["admin"])
    form = {"name": club.name, "time_zone": club.time_zone, "language": "sl"}
    wrong = client.post(url, {**form, "frame_sites": "https://ok.si\n'unsafe-inline'"})
    assert "Not a site&#x27;s address" in wrong.content.decode()
    posted = {
        **form,
        "publish_club": "on",
        "plays_where": "Gostilna Pri Mraku, Ljubljana",
        "plays_when": "Thursdays from 19:00",
        "description": "Slovenian tarok since 1994.",
        "frame_sites": "https://www.tarok-lj.si/\n",
    }
    assert client.post(url, posted).status_code == 302
    club.refresh_from_db()
    assert club.publish_club and not club.publish_sessions
    assert club.frame_sites == "https://www.tarok-lj.si"
    page = client_as(None).get("/p/ljubljana/sl/").content.decode()
    assert "Gostilna Pri Mraku" in page and "Thursdays from 19:00" in page
