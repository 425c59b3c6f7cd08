"""The one stylesheet every page loads (issue 25): Pico and Scorebook's own rules, joined into
`static/scorebook/site.css`, which git keeps, so that a phone on a weak signal asks for one
file, not four. There is no build step when serving: whitenoise compresses and fingerprints
the joined file as it is. `print.css` stays apart: it is a print stylesheet, and the printed
sheet's screen stylesheet as well.

Edit the parts, then `make css` writes the joined file; a test fails while the two differ.
"""

from __future__ import annotations

from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "static"
# In cascade order: Pico first, as every rule of ours refines it.
PARTS = (
    "vendor/pico/pico.min.css",
    "scorebook/scorebook.css",
    "scorebook/hands.css",
    "league/league.css",
    "series/series.css",
)
JOINED = "scorebook/site.css"


def joined() -> str:
    """The parts, each under a comment naming it (Pico's @charset stays the first rule)."""
    texts = [(STATIC / part).read_text(encoding="utf-8").rstrip("\n") for part in PARTS]
    header = f"/* {JOINED}: joined from {', '.join(PARTS)} by `make css`; edit those. */"
    first, *others = texts
    return (
        "\n".join(
            [
                first,
                header,
                *(f"/* {part} */\n{text}" for part, text in zip(PARTS[1:], others, strict=True)),
            ]
        )
        + "\n"
    )


def write() -> Path:
    target = STATIC / JOINED
    target.write_text(joined(), encoding="utf-8")
    return target
