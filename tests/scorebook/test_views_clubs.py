from django.urls import reverse

from scorebook import services
from scorebook.models import Club, Membership, Role


def test_my_clubs_lists_only_my_clubs(members, client_as):
    page = client_as(members["viewer"]).get(reverse("scorebook:my_clubs")).content.decode()
    assert "Ljubljana Tarock" in page
    assert "Zagreb Tarock" not in page


def test_start_a_club_makes_me_its_admin(members, client_as):
    client = client_as(members["viewer"])
    response = client.post(
        reverse("scorebook:club_create"),
        {"name": "Maribor", "slug": "maribor", "time_zone": "Europe/Ljubljana"},
    )
    assert response.status_code == 302
    club = Club.objects.get(slug="maribor")
    assert Membership.objects.get(club=club, user=members["viewer"]).role == Role.ADMIN


def test_a_taken_slug_is_an_error_at_the_field(members, client_as):
    response = client_as(members["viewer"]).post(
        reverse("scorebook:club_create"),
        {"name": "Again", "slug": "ljubljana", "time_zone": "Europe/Ljubljana"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["slug"]


def test_club_home_shows_open_and_recent_sessions_and_roster(
    club, session, players, members, client_as
):
    closed = services.close_session(
        session=type(session).objects.create(
            club=club, variant="slovenian-4", date=session.date, table_label="Closed table"
        )
    )
    response = client_as(members["viewer"]).get(
        reverse("scorebook:club_home", kwargs={"club": club.slug})
    )
    assert list(response.context["open_sessions"]) == [session]
    assert list(response.context["recent_sessions"]) == [closed]
    page = response.content.decode()
    assert "Eva" in page
    # A viewer is not offered what he may not do.
    assert reverse("scorebook:session_start", kwargs={"club": club.slug}) not in page
