"""CSRF with htmx, the content security policy, static files and the production settings."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

from django.urls import reverse

from scorebook.models import Player

ROOT = Path(__file__).resolve().parents[2]


def test_csrf_token_in_hx_headers_lets_an_htmx_post_through(club, members, client_as):
    client = client_as(members["admin"], enforce_csrf_checks=True)
    add = reverse("scorebook:player_add", kwargs={"club": club.slug})
    assert client.post(add, {"name": "Zala"}).status_code == 403
    page = client.get(reverse("scorebook:roster", kwargs={"club": club.slug})).content.decode()
    token = re.search(r"""hx-headers='\{"X-CSRFToken": "([^"]+)"\}'""", page).group(1)
    response = client.post(
        add, {"name": "Zala"}, headers={"X-CSRFToken": token, "HX-Request": "true"}
    )
    assert response.status_code == 302
    assert Player.objects.filter(name="Zala").exists()


def test_csrf_token_in_the_form_works_without_javascript(club, members, client_as):
    client = client_as(members["admin"], enforce_csrf_checks=True)
    page = client.get(reverse("scorebook:roster", kwargs={"club": club.slug})).content.decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
    add = reverse("scorebook:player_add", kwargs={"club": club.slug})
    assert client.post(add, {"name": "Zala", "csrfmiddlewaretoken": token}).status_code == 302


def test_csp_forbids_inline_script_and_pages_have_none(club, members, client_as):
    response = client_as(members["admin"]).get(
        reverse("scorebook:club_home", kwargs={"club": club.slug})
    )
    policy = response["Content-Security-Policy"]
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    page = response.content.decode()
    for tag in re.findall(r"<script[^>]*>", page):
        assert "src=" in tag, tag
    assert not re.search(r"<script[^>]*>\s*[^<\s]", page), "inline script found"
    assert "http://" not in page.replace("http://testserver", "")
    assert "https://" not in page  # no CDN


def test_htmx_and_pico_are_served_from_our_own_static_files(client):
    page = client.get(reverse("login")).content.decode()
    sources = re.findall(r'<(?:script src|link rel="stylesheet" href)="([^"]+)"', page)
    assert any("htmx" in s for s in sources) and any("site" in s for s in sources)
    served = {}
    for source in sources:
        response = client.get(source)
        assert response.status_code == 200, source
        served[source] = (
            b"".join(response.streaming_content) if response.streaming else response.content
        )
    # Pico comes inside the one stylesheet (scorebook/stylesheet.py), from our own files.
    assert any(b"Pico CSS" in body for source, body in served.items() if "site" in source)


def run_manage(*args, **env):
    unset = (
        "DEBUG",
        "SECRET_KEY",
        "SCOREBOOK_TESTING",
        "DJANGO_SETTINGS_MODULE",
        "DJANGO_ALLOW_ASYNC_UNSAFE",
    )
    base = {k: v for k, v in os.environ.items() if k not in unset}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_passes_with_production_settings():
    result = run_manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50)[:50],
        ALLOWED_HOSTS="scores.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_production_uses_whitenoise_manifest_storage():
    result = run_manage(
        "shell",
        "-c",
        "from django.conf import settings; print(settings.STORAGES['staticfiles']['BACKEND'])",
        DEBUG="0",
        SECRET_KEY="x" * 50,
    )
    assert (
        result.stdout.strip().splitlines()[-1]
        == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    ), result.stderr


def test_pages_are_compressed_for_browsers_that_take_gzip(club, members, client_as):
    from django.urls import reverse

    client = client_as(members["admin"])
    url = reverse("scorebook:roster", kwargs={"club": club.slug})
    compressed = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert compressed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in compressed["Vary"]
    plain = client.get(url)
    assert not plain.has_header("Content-Encoding")
    import gzip

    assert gzip.decompress(compressed.content) == plain.content.replace(
        _csrf(plain.content), _csrf(gzip.decompress(compressed.content))
    )


def _csrf(html: bytes) -> bytes:
    """The page's CSRF token, masked anew in every response (which is what answers BREACH)."""
    import re

    match = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    return match.group(1) if match else b""


def test_the_gunicorn_settings_serve_the_app():
    import runpy
    from pathlib import Path

    config = runpy.run_path(str(Path(__file__).resolve().parents[2] / "gunicorn.conf.py"))
    assert config["workers"] >= 3 and config["bind"].endswith(":8000")
    from scorebook.wsgi import application

    assert callable(application)
