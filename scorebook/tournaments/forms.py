"""The admin's tournament form: shapes only; the rules are checked in services."""

from __future__ import annotations

import datetime
import zoneinfo

from django import forms
from django.utils.translation import gettext_lazy as _

from scorebook.textinput import PlainTextForm


def _variant_choices():
    from scorebook.tournaments.services import tournament_variants

    return [
        (
            v.id,
            _("%(label)s — knockout") % {"label": v.label} if v.player_counts == (2,) else v.label,
        )
        for v in tournament_variants()
    ]


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
    placement_points = forms.CharField(
        label=_("Placement points, first to last"),
        required=False,
        help_text=_("For example 3, 2, 1, 0. Empty: N−1 … 0 for a table of N."),
    )

    def starts_at(self, time_zone: str) -> datetime.datetime:
        """The start as an aware datetime, read in the club's time zone."""
        data = self.cleaned_data
        return datetime.datetime.combine(
            data["start_date"], data["start_time"], tzinfo=zoneinfo.ZoneInfo(time_zone)
        )
