"""One stylesheet a page asks for (issue 25), kept in git and equal to its parts."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scorebook import stylesheet

pytestmark = pytest.mark.django_db


def test_the_joined_stylesheet_is_its_parts_as_they_are_now():
    kept = (stylesheet.STATIC / stylesheet.JOINED).read_text(encoding="utf-8")
    assert kept == stylesheet.joined(), "a stylesheet changed: run `make css`"
    # Each part in cascade order, Pico's @charset the file's first rule.
    assert kept.startswith('@charset "UTF-8";')
    where = [kept.index(f"/* {part} */") for part in stylesheet.PARTS[1:]]
    assert where == sorted(where)


@pytest.mark.parametrize("page", ["sheet", "hand_new", "league:standings"])
def test_a_page_loads_one_stylesheet_for_the_screen(page, session, members, client_as):
    kwargs = {"club": session.club.slug}
    if page != "league:standings":
        kwargs["session"] = session.pk
    html = client_as(members["scorekeeper"]).get(reverse(f"scorebook:{page}", kwargs=kwargs))
    links = re.findall(
        r'<link rel="stylesheet" href="([^"]+)"( media="print")?', html.content.decode()
    )
    screen = [href for href, media in links if not media]
    assert len(screen) == 1 and "scorebook/site" in screen[0]
    printed = [href for href, media in links if media]
    assert len(printed) == 1 and "scorebook/print" in printed[0]


def test_no_template_links_a_part_of_the_joined_stylesheet():
    templates = stylesheet.STATIC.parent / "templates"
    linking = [
        f"{path.relative_to(templates)}: {part}"
        for path in templates.rglob("*.html")
        for part in stylesheet.PARTS
        if part in path.read_text(encoding="utf-8")
    ]
    assert linking == [], "link scorebook/site.css (base.html does), not its parts"
