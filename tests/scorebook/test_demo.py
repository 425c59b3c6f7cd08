import io

import pytest
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import override_settings

import rules
from scorebook.models import Club, Hand, Player, Session


@pytest.fixture
def login_file(tmp_path):
    """The demo's kept login, in a folder of the test's own (never the project's file)."""
    return tmp_path / ".demo-login"


def run_demo(login_file, *args) -> str:
    out = io.StringIO()
    call_command("demo", *args, f"--login-file={login_file}", stdout=out)
    return out.getvalue()


def printed_password(output: str) -> str:
    return output.split("Password:")[1].split()[0]


def test_demo_is_safe_to_run_twice_and_prints_a_working_login(db, login_file):
    run_demo(login_file)
    output = run_demo(login_file)
    assert Club.objects.filter(slug="demo").count() == 1
    assert Player.objects.filter(club__slug="demo").count() == 6
    password = printed_password(output)
    assert authenticate(username="demo-admin", password=password) is not None


def test_the_password_is_kept_in_the_ignored_file_until_reset(db, login_file):
    first = printed_password(run_demo(login_file))
    assert login_file.read_text().strip() == first
    assert login_file.stat().st_mode & 0o077 == 0  # for its owner only
    assert printed_password(run_demo(login_file)) == first
    reset = printed_password(run_demo(login_file, "--reset"))
    assert reset != first
    assert login_file.read_text().strip() == reset
    assert authenticate(username="demo-admin", password=reset) is not None
    assert authenticate(username="demo-admin", password=first) is None


def test_the_login_is_printed_last_in_a_box_with_the_port(db, login_file):
    lines = run_demo(login_file, "--port=8001").rstrip("\n").splitlines()
    box = lines[next(i for i, line in enumerate(lines) if line.startswith("+-")) :]
    assert box[0] == box[-1] and set(box[0]) == {"+", "-"}  # nothing after its bottom rule
    assert all(line.startswith("| ") and line.endswith(" |") for line in box[1:-1])
    assert len({len(line) for line in box}) == 1
    assert "http://127.0.0.1:8001/c/demo/" in "\n".join(box)
    assert any("demo-admin" in line for line in box)


def test_the_demo_admin_opens_the_admin_site_only_under_debug(db, login_file, client):
    with override_settings(DEBUG=True):
        output = run_demo(login_file)
    assert "/admin/" in output
    client.login(username="demo-admin", password=printed_password(output))
    assert client.get("/admin/").status_code == 200
    output = run_demo(login_file)  # without DEBUG: an ordinary account again
    assert "/admin/" not in output
    client.login(username="demo-admin", password=printed_password(output))
    assert client.get("/admin/").status_code == 302


def test_demo_has_one_finished_session_per_variant_with_real_hands(db, login_file):
    output = run_demo(login_file)
    assert "Skipped" not in output, output
    for variant in rules.variants():
        session = Session.objects.get(club__slug="demo", variant=variant.id)
        assert session.is_closed
        numbers = list(session.hands.values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1)) and numbers
        for hand in Hand.objects.filter(session=session):
            assert hand.entries.count() == len(hand.data["players"])
    run_demo(login_file)
    assert Session.objects.filter(club__slug="demo").count() == len(rules.variants())
