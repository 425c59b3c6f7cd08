"""An invited member gets in on a 360 px phone: the admin adds her, she sets a password from
the mail, records a hand, and leaves the club; her hand stays on the sheet."""

import os
import re
import tempfile
from pathlib import Path

import pytest
from django.core import mail
from playwright.sync_api import expect

from scorebook.models import Hand, Invitation

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery"  # as tests/conftest.py's make_user
NEW_PASSWORD = "nina's tarock pass phrase"
SCREENSHOTS = Path(os.environ.get("SCREENSHOT_DIR", tempfile.gettempdir()))
NARROW = {"width": 360, "height": 780}
THUMB = 44  # px: the least height of what a thumb taps

# What a thumb taps in the page's own part, with each one's height; hidden ones do not count.
TARGETS = """() => [...document.querySelectorAll(
    "main button, main a, main input:not([type=hidden]), main select")]
  .filter(e => e.offsetParent !== null)
  .map(e => [e.textContent.trim() || e.name || e.id, e.getBoundingClientRect().height])"""


def fits_a_thumb(page):
    """Nothing scrolls sideways, and every target is at least THUMB px high."""
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], page.url
    targets = page.evaluate(TARGETS)
    assert targets, page.url
    small = [(name, height) for name, height in targets if height < THUMB]
    assert small == [], (page.url, small)


def open_members_page_as_admin(page, club):
    """Alma, the club's admin, on a 360 px phone, at the members page."""
    page.set_viewport_size(NARROW)
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("alma")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.goto(f"/c/{club.slug}/members/")


def test_an_invited_member_sets_a_password_from_the_mail_and_records_a_hand(
    phone, club, session, members
):
    page = phone
    # The admin adds Nina.
    open_members_page_as_admin(page, club)
    page.get_by_label("Username").fill("nina")
    page.get_by_label("Email").fill("nina@example.org")
    page.get_by_label("Role", exact=True).select_option("scorekeeper")
    page.get_by_role("button", name="Add member").click()
    expect(page.get_by_text("An invitation mail went to nina@example.org.")).to_be_visible()
    expect(page.get_by_label("Invitation link")).to_have_value(re.compile("/invitation/"))
    fits_a_thumb(page)
    page.screenshot(path=str(SCREENSHOTS / "members.png"), full_page=True)
    # The header's menu holds the account and Log out. Opened from the keyboard: a pointer
    # click on it after a full-page screenshot is reported as intercepted (issue 16, open).
    page.locator("details.site-menu > summary").press("Enter")
    page.get_by_role("button", name="Log out").click()
    # Logged out before the phone goes on: a logout answered late would end the next login.
    expect(page.get_by_role("button", name="Log in")).to_be_visible()

    # Nina opens the mail's link (the live server runs in this process: its outbox is ours).
    [message] = mail.outbox
    link = re.search(r"https?://\S+/invitation/\S+/", message.body).group(0)
    page.goto(link)
    expect(page.get_by_role("heading", name="Welcome to Ljubljana Tarock")).to_be_visible()
    fits_a_thumb(page)
    page.screenshot(path=str(SCREENSHOTS / "invitation.png"), full_page=True)
    page.get_by_label("New password", exact=True).fill(NEW_PASSWORD)
    page.get_by_label("New password confirmation").fill(NEW_PASSWORD)
    page.get_by_role("button", name="Set password and log in").click()
    expect(page.get_by_text("Welcome to Ljubljana Tarock.")).to_be_visible()
    expect(page).to_have_url(re.compile(f"/c/{club.slug}/$"))
    assert Invitation.objects.get(user__username="nina").accepted_at is not None

    # She records a hand.
    page.goto(f"/c/{club.slug}/sessions/{session.pk}/sheet/")
    page.get_by_role("button", name="Record a hand").click()
    page.locator("fieldset#id_declarer > label", has_text=re.compile("^Ana$")).click()
    page.get_by_label(re.compile("Card points of the declarer's side")).fill("40")
    page.get_by_role("button", name="Save the hand").click()
    expect(page.get_by_role("heading", name="Sheet")).to_be_visible()
    hand = Hand.objects.get(session=session)
    assert hand.created_by.username == "nina"

    # The link is spent.
    page.goto(link)
    expect(page.get_by_role("heading", name="This link does not work")).to_be_visible()
    fits_a_thumb(page)

    # She leaves the club, after a question; her hand stays.
    page.goto(f"/c/{club.slug}/")
    page.get_by_role("button", name="Leave the club").click()
    expect(page.get_by_role("heading", name="Leave Ljubljana Tarock?")).to_be_visible()
    fits_a_thumb(page)
    page.get_by_role("button", name="Leave the club").click()
    expect(page.get_by_text("You left Ljubljana Tarock.")).to_be_visible()
    assert Hand.objects.filter(pk=hand.pk, created_by__username="nina").exists()
    assert page.console_errors == [], page.console_errors


def test_an_admin_adding_an_existing_account_gets_no_link_for_it(phone, club, members, make_user):
    """A club admin must never be able to set another person's password."""
    make_user("zoran")  # has an account (and a password) already, in no club of ours
    page = phone
    open_members_page_as_admin(page, club)
    page.get_by_label("Username").fill("zoran")
    page.get_by_label("Role", exact=True).select_option("viewer")
    page.get_by_role("button", name="Add member").click()
    expect(page.get_by_text(re.compile("zoran is a member"))).to_be_visible()
    expect(page.get_by_label("Invitation link")).to_have_count(0)
    assert not page.get_by_text("invited", exact=True).count()
    assert mail.outbox == [] and not Invitation.objects.filter(user__username="zoran").exists()
    fits_a_thumb(page)
