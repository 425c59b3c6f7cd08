"""A session out of Scorebook (JSON sheet, CSV) and a sheet into it (a new session)."""

from __future__ import annotations

from django import forms
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorebook import hands, sheets
from scorebook.access import club_view, get_for_club
from scorebook.models import Role, Session
from scorebook.textinput import InputError, PlainTextForm, json_value


def _filename(session: Session, extension: str) -> str:
    return f"{session.club.slug}-{session.date:%Y-%m-%d}-{session.pk}.{extension}"


@club_view(role=Role.VIEWER)
def session_export_json(request, session):
    session = get_for_club(Session, request.club, pk=session)
    response = JsonResponse(
        sheets.export_json(session),
        encoder=DjangoJSONEncoder,
        json_dumps_params={"ensure_ascii": False, "indent": 1},
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(session, "json")}"'
    return response


@club_view(role=Role.VIEWER)
def session_export_csv(request, session):
    session = get_for_club(Session, request.club, pk=session)
    response = HttpResponse(
        sheets.export_csv(session).encode("utf-8"), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = f'attachment; filename="{_filename(session, "csv")}"'
    return response


class SheetImportForm(PlainTextForm, forms.Form):
    file = forms.FileField(label=gettext_lazy("sheet file (JSON)"), required=False)
    text = forms.CharField(
        label=gettext_lazy("or paste the sheet"),
        required=False,
        max_length=hands.MAX_SHEET_BYTES,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )
    date = forms.DateField(
        label=gettext_lazy("date played"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=gettext_lazy("Leave empty for today."),
    )
    table_label = forms.CharField(label=gettext_lazy("table"), max_length=40, required=False)

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload is not None:
            if upload.size > hands.MAX_SHEET_BYTES:
                raise forms.ValidationError(_("The file is too large for a sheet."))
            raw = upload.read()
        elif data.get("text", "").strip():
            raw = data["text"].encode("utf-8")
        else:
            raise forms.ValidationError(_("Choose a file or paste a sheet."))
        try:
            data["sheet"] = json_value(raw, max_bytes=hands.MAX_SHEET_BYTES)
        except InputError as error:
            raise forms.ValidationError(
                [_("This is not a readable JSON sheet."), error.message]
            ) from None
        return data


@club_view(role=Role.SCOREKEEPER, methods=("GET", "HEAD", "POST"))
def sheet_import(request):
    bound = request.method == "POST"
    form = SheetImportForm(request.POST if bound else None, request.FILES if bound else None)
    problems: list[str] = []
    if bound and form.is_valid():
        try:
            session = hands.import_sheet(
                request.club,
                form.cleaned_data["sheet"],
                request.user,
                date=form.cleaned_data["date"],
                table_label=form.cleaned_data["table_label"],
            )
        except hands.SheetProblems as exc:
            problems = exc.messages
        else:
            return redirect("scorebook:session", club=request.club.slug, session=session.pk)
    return render(
        request,
        "scorebook/sheet_import.html",
        {
            "club": request.club,
            "form": form,
            "problems": problems,
            "max_hands": hands.MAX_IMPORT_HANDS,
        },
    )
