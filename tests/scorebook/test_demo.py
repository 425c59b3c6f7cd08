import io

from django.contrib.auth import authenticate
from django.core.management import call_command

import rules
from scorebook.models import Club, Hand, Player, Session


def run_demo() -> str:
    out = io.StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_is_safe_to_run_twice_and_prints_a_working_login(db):
    run_demo()
    output = run_demo()
    assert Club.objects.filter(slug="demo").count() == 1
    assert Player.objects.filter(club__slug="demo").count() == 6
    password = output.split("password: ")[1].split()[0]
    assert authenticate(username="demo-admin", password=password) is not None


def test_demo_has_one_finished_session_per_variant_with_real_hands(db):
    output = run_demo()
    assert "Skipped" not in output, output
    for variant in rules.variants():
        session = Session.objects.get(club__slug="demo", variant=variant.id)
        assert session.is_closed
        numbers = list(session.hands.values_list("number", flat=True))
        assert numbers == list(range(1, len(numbers) + 1)) and numbers
        for hand in Hand.objects.filter(session=session):
            assert hand.entries.count() == len(hand.data["players"])
    run_demo()
    assert Session.objects.filter(club__slug="demo").count() == len(rules.variants())
