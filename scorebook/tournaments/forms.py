"""The organiser's tournament forms: shapes only; the rules are checked in services."""

from __future__ import annotations

import datetime
import zoneinfo

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorebook import house_rules
from scorebook.collation import AlphabeticalChoiceField
from scorebook.models import Confirmation, Player
from scorebook.textinput import PlainTextForm
from scorebook.tournaments import orders
from scorebook.tournaments.models import DrawMode, RankingMode, SamePhone
from scorebook.tournaments.services import (
    N_MINUS_PLACE,
    OWN_POINTS,
    POINTS_PRESETS,
    choice_of,
    points_text,
    rules_choice,
    tournament_variants,
)

TEAM_SIZES = [("", _("no teams")), ("2", "2"), ("3", "3"), ("4", "4")]


def _variant_choices():
    return [
        (
            v.id,
            _("%(label)s — knockout") % {"label": v.label} if v.player_counts == (2,) else v.label,
        )
        for v in tournament_variants()
    ]


def _points_choices():
    own = (OWN_POINTS, _("our own points (below)"))
    return [(key, preset.label) for key, preset in POINTS_PRESETS.items()] + [own]


class TournamentForm(PlainTextForm, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=100)
    variant = forms.ChoiceField(
        label=_("Game"),
        choices=_variant_choices,
        help_text=_("The players per table follow from the game; two players play a knockout."),
    )
    start_date = forms.DateField(label=_("Day"), widget=forms.DateInput(attrs={"type": "date"}))
    start_time = forms.TimeField(
        label=_("Start time"), widget=forms.TimeInput(attrs={"type": "time"})
    )
    registration_closes = forms.DateTimeField(
        label=_("Registration closes"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Empty: at the start. Walk-ins can be added at the door until the start."),
    )
    hands_per_table = forms.IntegerField(
        label=_("Hands per table in a round"), min_value=1, max_value=99, initial=8
    )
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=20,
        initial=3,
        help_text=_("A knockout plays as many rounds as it needs."),
    )
    capacity = forms.IntegerField(label=_("Places"), min_value=2, max_value=500, initial=16)
    open_to_all = forms.BooleanField(
        label=_("Open to anybody with an account, not only members"), required=False
    )
    points_preset = forms.ChoiceField(
        label=_("Placement points"), choices=_points_choices, initial=N_MINUS_PLACE
    )
    placement_points = forms.CharField(
        label=_("Our own points, first to last"),
        required=False,
        max_length=200,
        help_text=_("For example 3, 2, 1, 0 or 2, 1, ½. Tied players share their places' points."),
    )
    rules = forms.ChoiceField(
        label=_("Rules every table plays"),
        required=False,
        choices=(),
        help_text=_(
            "A preset or one of the club's house rules, frozen when the tournament starts."
        ),
    )
    hands_by_size = forms.CharField(
        label=_("Other hands for tables of another size"),
        required=False,
        max_length=60,
        help_text=_("For example 5: 20 (twenty hands at a table of five)."),
    )
    round_minutes = forms.IntegerField(
        label=_("Minutes per round"),
        required=False,
        min_value=5,
        max_value=600,
        help_text=_("Empty: a round is its number of hands. Set: a round ends by the clock."),
    )
    grace_minutes = forms.IntegerField(
        label=_("Minutes of grace after the time"),
        required=False,
        min_value=0,
        max_value=60,
        initial=5,
        help_text=_("A hand in play may still be saved; a later one needs the director."),
    )
    draw_mode = forms.ChoiceField(
        label=_("Draw"), required=False, choices=DrawMode.choices, initial=DrawMode.SWISS
    )
    draw_order = forms.ChoiceField(
        label=_("Groups and knockout seeds ranked by"),
        required=False,
        help_text=_("A series' standing or rating: once the tournament is in that series."),
    )
    ranking_mode = forms.ChoiceField(
        label=_("Ranking"),
        required=False,
        choices=RankingMode.choices,
        initial=RankingMode.PLACEMENT,
    )
    rank_points = forms.CharField(
        label=_("Rank points, first to last"),
        required=False,
        max_length=200,
        help_text=_("For sheet sum plus rank points: for example 60, 40, 20, 0."),
    )
    contras_not_counted = forms.BooleanField(
        label=_("Contras are paid at the table, not ranked"), required=False
    )
    team_size = forms.ChoiceField(label=_("Teams"), required=False, choices=TEAM_SIZES)

    def __init__(self, *args, club=None, **kwargs):
        super().__init__(*args, **kwargs)
        # Filled when the apps are ready (the series registers its orders): read here.
        self.fields["draw_order"].choices = [
            ("", _("the order of registration")),
            *orders.choices(),
        ]
        if club is not None:
            self.fields["rules"].choices = house_rules.start_choices(club)

    # Not required: a form posted without them (a page from before) keeps the defaults.
    confirmation = forms.ChoiceField(
        label=_("Confirmation of hands"),
        choices=Confirmation.choices,
        initial=Confirmation.REQUIRED,
        required=False,
        help_text=_("Required: a table's round ends only when the other side confirmed its hands."),
    )
    same_phone = forms.ChoiceField(
        label=_("Confirming on the phone that recorded the hand"),
        choices=SamePhone.choices,
        initial=SamePhone.ALLOWED,
        required=False,
        help_text=_("With a PIN: each player sets his four digits on his own phone first."),
    )

    @classmethod
    def for_tournament(cls, tournament, data=None) -> TournamentForm:
        """The form filled in with the tournament as it is, in the club's time zone."""
        start = tournament.local_start()
        closes = tournament.registration_closes_at
        preset, own = choice_of(tournament)
        initial = {
            "name": tournament.name,
            "variant": tournament.variant,
            "start_date": start.date(),
            "start_time": start.time().replace(second=0, microsecond=0),
            "registration_closes": closes.astimezone(tournament.tz).replace(tzinfo=None)
            if closes
            else None,
            "hands_per_table": tournament.hands_per_table,
            "rounds": tournament.rounds,
            "capacity": tournament.capacity,
            "open_to_all": tournament.open_to_all,
            "points_preset": preset,
            "placement_points": own,
            **modes_initial(tournament),
            "confirmation": tournament.confirmation,
            "same_phone": tournament.same_phone,
        }
        return cls(data, initial=initial, club=tournament.club)

    def starts_at(self, time_zone: str) -> datetime.datetime:
        """The start as an aware datetime, read in the club's time zone."""
        data = self.cleaned_data
        return datetime.datetime.combine(
            data["start_date"], data["start_time"], tzinfo=zoneinfo.ZoneInfo(time_zone)
        )

    def registration_closes_at(self, time_zone: str) -> datetime.datetime | None:
        """The typed close, read in the club's time zone (Django read it in the server's)."""
        value = self.cleaned_data.get("registration_closes")
        if value is None:
            return None
        wall_clock = timezone.make_naive(value) if timezone.is_aware(value) else value
        return wall_clock.replace(tzinfo=zoneinfo.ZoneInfo(time_zone))


class WalkInForm(PlainTextForm, forms.Form):
    """A player at the door: one from the roster, or a new name for it."""

    player = AlphabeticalChoiceField(
        label=_("From the roster"), queryset=None, required=False, empty_label="—"
    )
    name = forms.CharField(
        label=_("Or a new name"),
        required=False,
        max_length=Player._meta.get_field("name").max_length,
        help_text=_("Added to the club's roster; no account needed."),
    )

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        registered = tournament.registrations.filter(cancelled_at=None).exclude(player=None)
        self.fields["player"].queryset = tournament.club.players.filter(archived=False).exclude(
            pk__in=registered.values("player_id")
        )
        if tournament.team_size:
            self.fields["team"] = forms.CharField(label=_("Team"), max_length=60)

    def clean(self):
        data = super().clean()
        if data.get("player") and data.get("name"):
            self.add_error("name", _("Pick a roster player or enter a new name, not both."))
        elif not data.get("player") and not data.get("name") and not self.errors:
            self.add_error("player", _("Pick a roster player or enter a new name."))
        return data


def modes_initial(tournament) -> dict:
    """The day's modes as the form shows them."""
    return {
        "rules": rules_choice(tournament),
        "hands_by_size": ", ".join(f"{k}: {v}" for k, v in tournament.hands_by_size.items()),
        "round_minutes": tournament.round_minutes,
        "grace_minutes": tournament.grace_minutes,
        "draw_mode": tournament.draw_mode,
        "draw_order": tournament.draw_order,
        "ranking_mode": tournament.ranking_mode,
        "rank_points": ", ".join(points_text(p) for p in tournament.rank_points),
        "contras_not_counted": not tournament.contras_count,
        "team_size": str(tournament.team_size or ""),
    }


class SubstituteForm(PlainTextForm, forms.Form):
    """Withdraw a player; seat a substitute: a roster player not registered, or a new name."""

    player = AlphabeticalChoiceField(
        label=_("Substitute from the roster"), queryset=None, required=False, empty_label="—"
    )
    name = forms.CharField(
        label=_("Or a new name"),
        required=False,
        max_length=Player._meta.get_field("name").max_length,
    )

    def __init__(self, *args, choices, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].queryset = choices

    def clean(self):
        data = super().clean()
        if data.get("player") and data.get("name"):
            self.add_error("name", _("Pick a roster player or enter a new name, not both."))
        return data


class MoreMinutesForm(forms.Form):
    minutes = forms.IntegerField(label=_("More minutes"), min_value=1, max_value=120, initial=5)


class MessageForm(PlainTextForm, forms.Form):
    text = forms.CharField(
        label=_("Message to every player"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "Shown on each player's tournament pages, and e-mailed to those with an address."
        ),
    )
