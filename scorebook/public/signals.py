"""Each club's `changed_at` moves on whenever something its public pages show changes, so that
a public page answers a conditional GET from the club's row alone (scorebook.public.access).

A hand's save is not watched here: it costs the hand pipeline no statement. Every change to a
session's hands marks the club's league stale (scorebook.league.signals) and the rebuild keeps
the newest change it saw, and the club's row is read with both (`access.published_club`).
Only a club that publishes something is touched: the UPDATE of a club that publishes nothing
matches no row and locks none.

A series' standing is the series' club's page, and a series spans clubs: what moves it is
its own rows (a computation's inputs and tournament ratings are saved on the SeriesTournament,
what moved on its SeriesChange), and a tournament's or a player's change in another club.
"""

from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver
from django.utils import timezone

from scorebook.models import Club, Player, Season, Session
from scorebook.public.models import PublicName, RegistrationName, Shown
from scorebook.series.models import (
    EntryState,
    ImportedRating,
    PlayerMatch,
    Series,
    SeriesChange,
    SeriesSeason,
    SeriesTournament,
)
from scorebook.tournaments.models import Placement, Registration, Round, Table, Tournament

PUBLISHING = (
    Q(publish_club=True)
    | Q(publish_sessions=True)
    | Q(publish_league=True)
    | Q(publish_tournaments=True)
    | Q(publish_series=True)
)


def touch(**club_lookup) -> None:
    Club.objects.filter(PUBLISHING, **club_lookup).update(changed_at=timezone.now())


def _club_of(instance) -> int | None:
    if isinstance(instance, Session | Player | Season | Tournament):
        return instance.club_id
    if isinstance(instance, Registration | Round):
        return Tournament.objects.filter(pk=instance.tournament_id).values("club_id")[:1]
    if isinstance(instance, Table):
        return Round.objects.filter(pk=instance.round_id).values("tournament__club_id")[:1]
    if isinstance(instance, Placement):
        return Round.objects.filter(pk=instance.round_id).values("tournament__club_id")[:1]
    return _series_club_of(instance)


def _series_club_of(instance) -> int | None:
    if isinstance(instance, Series):
        return instance.club_id
    if isinstance(instance, SeriesSeason | PlayerMatch | ImportedRating):
        return Series.objects.filter(pk=instance.series_id).values("club_id")[:1]
    if isinstance(instance, SeriesTournament | SeriesChange):
        return SeriesSeason.objects.filter(pk=instance.season_id).values("series__club_id")[:1]
    return None


WATCHED = (
    Session,
    Player,
    Season,
    Tournament,
    Registration,
    Round,
    Table,
    Placement,
    Series,
    SeriesSeason,
    SeriesTournament,
    SeriesChange,
    PlayerMatch,
    ImportedRating,
)


def _changed(sender, instance, **kwargs) -> None:
    if kwargs.get("raw"):
        return
    touch(pk=_club_of(instance))
    if isinstance(instance, Tournament):
        touch(pk__in=_series_clubs(tournament_id=instance.pk))


def _series_clubs(**entry_lookup):
    """The clubs whose series have a tournament joined that matches (a series spans clubs)."""
    return Series.objects.filter(
        seasons__entries__state=EntryState.JOINED,
        **{f"seasons__entries__{key}": value for key, value in entry_lookup.items()},
    ).values("club_id")


def _player_in_series(player: dict) -> None:
    """A player's name or choice in the series of other clubs: those where a tournament of
    his club is in (or whose imported ratings name him)."""
    touch(pk__in=_series_clubs(tournament__club_id=player["club_id"]))
    touch(pk__in=ImportedRating.objects.filter(player_id=player["pk"]).values("series__club_id"))


for model in WATCHED:
    post_save.connect(_changed, sender=model, dispatch_uid=f"public_saved_{model.__name__}")
    post_delete.connect(_changed, sender=model, dispatch_uid=f"public_deleted_{model.__name__}")


@receiver(post_save, sender=PublicName, dispatch_uid="public_name_saved")
@receiver(post_delete, sender=PublicName, dispatch_uid="public_name_deleted")
def name_changed(sender, instance: PublicName, **kwargs) -> None:
    """A person is shown by the most private of his choices: one club's choice changes how
    every club of his names him."""
    player = Player.objects.filter(pk=instance.player_id).values("pk", "club_id", "user_id").first()
    if player is None:
        return
    touch(pk=player["club_id"])
    if player["user_id"] is not None:
        touch(players__user_id=player["user_id"])
    _player_in_series(player)


@receiver(post_save, sender=Player, dispatch_uid="public_player_in_series")
def player_renamed(sender, instance: Player, created: bool, **kwargs) -> None:
    """A new player is in no standing yet: the computation that puts him in moves the page."""
    if not (created or kwargs.get("raw")):
        _player_in_series({"pk": instance.pk, "club_id": instance.club_id})


@receiver(post_save, sender=Registration, dispatch_uid="public_registration_player")
def registration_seated(sender, instance: Registration, **kwargs) -> None:
    """At the start a member's registration gets his player: the choice he made when he
    registered becomes his player's, unless the player has one already."""
    if kwargs.get("raw") or instance.player_id is None or instance.user_id is None:
        return
    chosen = RegistrationName.objects.filter(registration=instance).first()
    if chosen is None or chosen.shown == Shown.HIDDEN:
        return
    player = Player.objects.filter(pk=instance.player_id, user_id=instance.user_id).first()
    if player is not None:
        PublicName.objects.get_or_create(
            player=player,
            defaults={
                "shown": chosen.shown,
                "agreed": "player",
                "recorded_by_id": instance.user_id,
            },
        )
