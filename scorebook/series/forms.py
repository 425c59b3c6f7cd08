"""The series' forms: plain fields; the numbers are read by the services, which refuse a bad
one at its field (ServiceError.field names the form's field)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scorebook.series.models import PointsPreset
from scorebook.textinput import PlainTextForm

KIND_STANDING = "standing"
KIND_RATED = "rated"


class SeriesForm(PlainTextForm, forms.Form):
    name = forms.CharField(label=_("name"), max_length=100)
    kind = forms.ChoiceField(
        label=_("kind"),
        choices=[
            (KIND_STANDING, _("a standing: points by place in each tournament (a cup)")),
            (KIND_RATED, _("the rating of Tarok zveza Slovenije (TARZS)")),
        ],
        initial=KIND_STANDING,
        help_text=_("Chosen once: a tournament may be in one standing and one rated series."),
    )
    points_preset = forms.ChoiceField(
        label=_("points table"),
        choices=PointsPreset.choices,
        initial=PointsPreset.CUP,
        required=False,
    )
    own_points = forms.CharField(
        label=_("our own points"),
        required=False,
        max_length=2000,
        help_text=_(
            "Points of 1st, 2nd, 3rd … place, separated by commas (25, 20, 16.5); "
            "places past the list get 0. With decimal commas, separate by semicolons."
        ),
    )
    open_to_other_clubs = forms.BooleanField(
        label=_("other clubs may ask to add their tournaments"), required=False
    )

    def __init__(self, *args, editing: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if editing:
            del self.fields["kind"]


class SeasonForm(PlainTextForm, forms.Form):
    name = forms.CharField(label=_("name"), max_length=100)
    starts_on = forms.DateField(
        label=_("starts on"), widget=forms.DateInput(attrs={"type": "date"})
    )
    ends_on = forms.DateField(label=_("ends on"), widget=forms.DateInput(attrs={"type": "date"}))
    best_n = forms.CharField(
        label=_("results counted"),
        required=False,
        max_length=10,
        widget=forms.TextInput(attrs={"inputmode": "numeric"}),
        help_text=_("Each player's best results count; leave empty to count them all."),
    )

    def __init__(self, *args, entries=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.entries = list(entries)
        for entry in self.entries:
            self.fields[f"factor_{entry.pk}"] = forms.CharField(
                label=_("factor of %(name)s") % {"name": entry.tournament.name},
                max_length=10,
                initial=f"{entry.factor.normalize():f}",
                widget=forms.TextInput(attrs={"inputmode": "decimal"}),
            )

    def factor_fields(self):
        return [self[f"factor_{entry.pk}"] for entry in self.entries]

    def season_fields(self):
        return [self[name] for name in ("name", "starts_on", "ends_on", "best_n")]


class TournamentChoiceForm(PlainTextForm, forms.Form):
    tournament = forms.TypedChoiceField(label=_("tournament"), coerce=int)

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].choices = [("", "—")] + [(t.pk, label(t)) for t in tournaments]


class AskForm(TournamentChoiceForm):
    season = forms.TypedChoiceField(label=_("series and season"), coerce=int)

    def __init__(self, *args, seasons=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["season"].choices = [("", "—")] + [
            (s.pk, f"{s.series.name} · {s.name} ({s.series.club.name})") for s in seasons
        ]


def label(tournament) -> str:
    """A tournament as a choice names it: its name, club and day."""
    day = tournament.local_start().date()
    return f"{tournament.name} · {tournament.club.name} · {day:%d. %m. %Y}"


class MatchForm(PlainTextForm, forms.Form):
    player = forms.TypedChoiceField(label=_("player"), coerce=int)
    other = forms.TypedChoiceField(label=_("is the same person as"), coerce=int)

    def __init__(self, *args, players=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "—")] + [(p.pk, f"{p.name} ({p.club.name})") for p in players]
        self.fields["player"].choices = choices
        self.fields["other"].choices = choices


class ImportForm(PlainTextForm, forms.Form):
    file = forms.FileField(label=_("file (CSV)"), required=False)
    csv = forms.CharField(
        label=_("or paste the rows"),
        required=False,
        max_length=200_000,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_(
            "One player a row: name, rating (and, for another club's player, the club's short "
            "name). The names are those of the club's roster."
        ),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > 200_000:
                raise forms.ValidationError(_("The file is too large."))
            try:
                data["text"] = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                self.add_error("file", _("Save the file as CSV in UTF-8."))
        elif data.get("csv", "").strip():
            data["text"] = data["csv"]
        else:
            raise forms.ValidationError(_("Choose a file or paste the rows."))
        return data
