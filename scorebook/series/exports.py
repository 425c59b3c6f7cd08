"""A season's standing or rating list out of Scorebook, as CSV and JSON (rules/HANDS.md,
"A series' standing and rating list"): the columns place, player, club, points or rating,
tournaments — the same names in both, whatever the reader's language."""

from __future__ import annotations

import csv
import io

from django.http import HttpResponse, JsonResponse

from scorebook.series import reading
from scorebook.series.models import SeriesSeason

# A spreadsheet runs a cell that starts with a formula sign: names are written as the
# session's CSV writes them (a leading quote), numbers stay numbers.
from scorebook.sheets import _text as text_cell


def rows(season: SeriesSeason) -> tuple[str, list[dict]]:
    """("points" or "rating", one dict a line of the page, best first)."""
    if season.series.rated:
        return "rating", [
            {
                "place": line.rank,
                "player": line.player.name,
                "club": line.club,
                "rating": f"{line.rating:f}",
                "tournaments": line.played,
            }
            for line in reading.rating_lines(season)
        ]
    _columns, lines = reading.standing_lines(season)
    return "points", [
        {
            "place": line.place,
            "player": line.player.name,
            "club": line.club,
            "points": f"{line.total:f}",
            "tournaments": line.counted,
        }
        for line in lines
    ]


def _filename(season: SeriesSeason, extension: str) -> str:
    series = season.series
    return f"{series.club.slug}-series-{series.pk}-season-{season.pk}.{extension}"


def csv_response(season: SeriesSeason) -> HttpResponse:
    value, found = rows(season)
    out = io.StringIO()
    out.write("\ufeff")  # spreadsheets need it to read the names right
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(["place", "player", "club", value, "tournaments"])
    for row in found:
        writer.writerow(
            [
                row["place"],
                text_cell(row["player"]),
                text_cell(row["club"]),
                row[value],
                row["tournaments"],
            ]
        )
    response = HttpResponse(out.getvalue().encode("utf-8"), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_filename(season, "csv")}"'
    return response


def json_response(season: SeriesSeason) -> JsonResponse:
    value, found = rows(season)
    body = {
        "series": season.series.name,
        "club": season.series.club.name,
        "season": season.name,
        "starts_on": season.starts_on.isoformat(),
        "ends_on": season.ends_on.isoformat(),
        "closed": season.is_closed,
        "kind": "rating" if value == "rating" else "standing",
        "rows": found,
    }
    response = JsonResponse(body, json_dumps_params={"ensure_ascii": False, "indent": 1})
    response["Content-Disposition"] = f'attachment; filename="{_filename(season, "json")}"'
    return response
