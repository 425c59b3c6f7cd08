"""Plain forms: they parse and check the shape of input; services check the club's rules.

Every form takes PlainTextForm first: each text field refuses control characters and is
bounded in length (textinput)."""

from __future__ import annotations

import functools
import zoneinfo

from django import forms
from django.contrib.auth import get_user_model
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _

from scorebook import house_rules
from scorebook.collation import AlphabeticalChoiceField
from scorebook.errors import ServiceError
from scorebook.models import Club, Player, Role, Season
from scorebook.textinput import PlainTextForm
from scorebook.variants import all_variants, most_seats, variant_of


def variant_choices() -> list[tuple[str, str]]:
    return [(v.id, v.label) for v in all_variants()]


@functools.cache
def time_zone_choices() -> list[tuple[str, str]]:
    # Read once: listing the zones walks the tz database (tens of ms), and a form would do it
    # each time it validates or draws the list.
    return [(tz, tz) for tz in sorted(zoneinfo.available_timezones())]


class ClubForm(PlainTextForm, forms.ModelForm):
    time_zone = forms.ChoiceField(
        label=_("time zone"),
        choices=time_zone_choices,
        initial="Europe/Ljubljana",
    )

    class Meta:
        model = Club
        fields = ["name", "slug", "time_zone", "language"]
        help_texts = {
            "slug": _("Letters, digits and hyphens, e.g. ljubljana-tarock."),
            "language": _("What the club's pages speak to a member who chose no language."),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        language = self.fields["language"]
        # Without a choice (a form posted without the field) the club speaks what the page
        # spoke, as the list offered first: its founder most likely reads its members' language.
        language.required = False
        if self.instance.pk is None:
            language.initial = translation.get_language()

    def clean_language(self) -> str:
        return self.cleaned_data["language"] or translation.get_language()


class ClubSettingsForm(ClubForm):
    """What a club's admins change later: its name, time zone, language and whether the other
    side confirms each hand. The short name stays: every address, bookmark and QR code handed
    out holds it."""

    class Meta(ClubForm.Meta):
        fields = ["name", "time_zone", "language", "confirmation"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["language"].required = True  # a club always speaks one
        self.fields["confirmation"].required = False  # a page from before keeps the club's

    def clean_confirmation(self):
        return self.cleaned_data.get("confirmation") or self.instance.confirmation


class PlayerForm(PlainTextForm, forms.Form):
    name = forms.CharField(label=_("name"), max_length=60)


class MemberAddForm(PlainTextForm, forms.Form):
    username = forms.CharField(label=_("username"), max_length=150)
    email = forms.EmailField(
        label=_("email"),
        required=False,
        # The account's column, not the form field's longer default (320).
        max_length=get_user_model()._meta.get_field("email").max_length,
        help_text=_(
            "A new account gets an invitation: a mail to this address with a one-time link to"
            " choose a password. Without an address, copy the link from the members list. An"
            " existing account is added as it is."
        ),
    )
    role = forms.ChoiceField(label=_("role"), choices=Role.choices, initial=Role.SCOREKEEPER)


class MemberRoleForm(PlainTextForm, forms.Form):
    role = forms.ChoiceField(label=_("role"), choices=Role.choices)


class SessionStartForm(PlainTextForm, forms.Form):
    variant = forms.ChoiceField(label=_("variant"), choices=variant_choices)
    # The club's house rules of every variant and the engine's presets (scorebook.house_rules).
    preset = forms.ChoiceField(label=_("house rules"), required=False)
    date = forms.DateField(label=_("date"), widget=forms.DateInput(attrs={"type": "date"}))
    table_label = forms.CharField(label=_("table"), max_length=40, required=False)
    notes = forms.CharField(
        label=_("notes"), widget=forms.Textarea(attrs={"rows": 2}), required=False
    )

    def __init__(self, *args, club: Club, **kwargs):
        super().__init__(*args, **kwargs)
        self.club = club
        self.fields["preset"].choices = house_rules.start_choices(club)
        # "Today" at the club's table, not on the server.
        self.fields["date"].initial = timezone.localdate(timezone=zoneinfo.ZoneInfo(club.time_zone))
        roster = club.players.filter(archived=False)
        self.seat_count = most_seats()
        for position in range(1, self.seat_count + 1):
            self.fields[f"seat_{position}"] = AlphabeticalChoiceField(
                label=_("Seat %(n)d") % {"n": position},
                queryset=roster,
                required=False,
                empty_label="—",
            )

    def seat_fields(self):
        return [self[f"seat_{position}"] for position in range(1, self.seat_count + 1)]

    def clean(self):
        cleaned = super().clean()
        players: list[Player] = [
            cleaned[f"seat_{p}"] for p in range(1, self.seat_count + 1) if cleaned.get(f"seat_{p}")
        ]
        if len({p.pk for p in players}) != len(players):
            self.add_error(None, _("A player can only take one seat."))
        cleaned["players"] = players
        variant = variant_of(cleaned.get("variant", ""))  # None: the field refused it
        if variant is not None:
            self._refuse_seats_beyond(variant)
            try:
                cleaned["rules"] = house_rules.choose(self.club, variant, cleaned.get("preset", ""))
            except ServiceError as exc:
                self.add_error(exc.field, exc.message)
        return cleaned

    def _refuse_seats_beyond(self, variant) -> None:
        """A seat taken past the variant's largest table is an error at that seat."""
        largest = max(variant.table_sizes())
        for position in range(largest + 1, self.seat_count + 1):
            if self.cleaned_data.get(f"seat_{position}"):
                self.add_error(
                    f"seat_{position}",
                    _("%(variant)s seats at most %(n)d players.")
                    % {"variant": variant.label, "n": largest},
                )


class SeasonForm(PlainTextForm, forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "starts_on", "ends_on"]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
        }
        help_texts = {
            "ends_on": _(
                "Leave empty while the season runs: it ends the day before a later season starts."
            )
        }

    def clean(self):
        cleaned = super().clean()
        starts, ends = cleaned.get("starts_on"), cleaned.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("A season ends on or after the day it starts."))
        return cleaned
