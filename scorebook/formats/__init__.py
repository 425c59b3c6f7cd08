"""Each language's way of writing dates and numbers (settings.FORMAT_MODULE_PATH).

A page shows a date in one format per language, by name: SHORT_DATE_FORMAT for a day,
SHORT_DATETIME_FORMAT for a moment (DATE_FORMAT and DATETIME_FORMAT say the same, so a
`date_format()` without a name agrees). Spaces inside a date are non-breaking: a phone never
wraps "24. 11." away from its year. A name a module leaves out falls back to Django's own
module for the language.

Every input format list starts with the ISO one: a `<input type="date">` (and time,
datetime-local) is given its value in the first format and posts ISO whatever the language,
while Django's German, Slovenian and French lists start with their local formats (the field
would show empty).
"""

NBSP = "\N{NO-BREAK SPACE}"
TIME = "H:i"

ISO_DATE_INPUT = ["%Y-%m-%d"]
ISO_TIME_INPUT = ["%H:%M:%S", "%H:%M:%S.%f", "%H:%M"]
ISO_DATETIME_INPUT = [
    "%Y-%m-%dT%H:%M",  # what <input type="datetime-local"> posts
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M:%S.%f",
    "%Y-%m-%d %H:%M",
]


def datetime_inputs(dates: list[str]) -> list[str]:
    """The ISO date-times, then each local date with a time."""
    return ISO_DATETIME_INPUT + [f"{d} {t}" for d in dates for t in ("%H:%M:%S", "%H:%M")]
