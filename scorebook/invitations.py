"""Invitations: how a member an admin added gets in.

Adding a member under a new username makes the account without a password and an Invitation
(services.add_member). The invitation link, sent by mail or copied from the members page, lets
the person choose a password once and logs them in at the club. Its token is Django's password
reset token under its own salt: it expires after PASSWORD_RESET_TIMEOUT, and it is spent once
the password is set (the token hashes the password). An account that existed before gets no
link: a club admin never sets another person's password.
"""

from __future__ import annotations

import datetime
import logging
import smtplib
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm, SetPasswordForm
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.core.mail import send_mail
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _

from scorebook.errors import ServiceError
from scorebook.language import mail_language
from scorebook.models import Club, Invitation, Membership, account_name
from scorebook.textinput import PlainTextForm

logger = logging.getLogger(__name__)


class InvitationTokens(PasswordResetTokenGenerator):
    # Its own salt: an invitation link is not a password reset link, nor the reverse.
    key_salt = "scorebook.invitations.InvitationTokens"


tokens = InvitationTokens()


def create(*, club: Club, user, invited_by=None) -> Invitation:
    """Record that the club's invitation made `user`'s account (in the caller's transaction)."""
    return Invitation.objects.create(club=club, user=user, invited_by=invited_by)


def is_open(invitation: Invitation) -> bool:
    """Whether the link may still set the password: the account never had one, never logged in."""
    user = invitation.user
    return (
        invitation.accepted_at is None
        and not user.has_usable_password()
        and user.last_login is None
    )


def open_invitation(user) -> Invitation | None:
    """The account's invitation if its link may still set the password, else None."""
    invitation = Invitation.objects.select_related("club", "user").filter(user=user).first()
    return invitation if invitation is not None and is_open(invitation) else None


def open_for_member(membership: Membership) -> Invitation | None:
    """The member's open invitation from this club: only its admins see or re-send the link."""
    invitation = open_invitation(membership.user)
    return (
        invitation if invitation is not None and invitation.club_id == membership.club_id else None
    )


def open_by_user(club: Club) -> dict[int, Invitation]:
    """The club's open invitations, by user id (the members page marks them "invited")."""
    pending = club.invitations.filter(accepted_at=None).select_related("user")
    return {invitation.user_id: invitation for invitation in pending if is_open(invitation)}


def link(request, invitation: Invitation) -> str:
    """A fresh link for the invitation, on the host the admin uses."""
    user = invitation.user
    path = reverse(
        "scorebook:invitation_accept",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": tokens.make_token(user),
        },
    )
    return request.build_absolute_uri(path)


def valid_for() -> str:
    """How long a link made now works, in words ("3 days")."""
    now = timezone.now()
    return timeuntil(now + datetime.timedelta(seconds=settings.PASSWORD_RESET_TIMEOUT), now)


def send(request, invitation: Invitation) -> bool:
    """Mail the link to the account's address; False when the mail server refused it.

    In the invitee's language, not the admin's page's: "3 days" too.
    """
    with translation.override(mail_language(invitation.user, invitation.club)):
        context = {
            "club": invitation.club,
            "user": invitation.user,
            # By his name, as the club's pages name him; his username only where he has none.
            "inviter": invitation.invited_by and account_name(invitation.invited_by),
            "link": link(request, invitation),
            "valid_for": valid_for(),
        }
        # A subject is one line, whatever the template's line breaks.
        subject = "".join(
            render_to_string("registration/invitation_subject.txt", context).splitlines()
        )
        body = render_to_string("registration/invitation_email.txt", context)
    try:
        send_mail(subject, body, None, [invitation.user.email])
    except (smtplib.SMTPException, OSError):
        # The admin still has the link to copy; the page says so instead of failing.
        logger.exception("the invitation mail to user %s was not sent", invitation.user_id)
        return False
    return True


def accept(user, form: SetPasswordForm) -> Invitation:
    """Set the invited account's password from the link's form, once."""
    with transaction.atomic():
        # Locked: two taps on "Set password" with one link set the password once.
        invitation = (
            Invitation.objects.select_for_update().select_related("club", "user").get(user=user)
        )
        if not is_open(invitation):
            raise ServiceError(_("This invitation was already used. Log in with your password."))
        form.user = invitation.user
        form.save()
        invitation.accepted_at = timezone.now()
        invitation.save(update_fields=["accepted_at"])
    return invitation


class InvitationPasswordForm(PlainTextForm, SetPasswordForm):
    pass


class ResetFormForEveryAccount(PlainTextForm, PasswordResetForm):
    """ "Forgot password" for every active account with this address, invited ones too.

    Django's form skips an account without a usable password, so an invited member whose link
    expired would wait for a mail that never comes. The page still says the same thing whether
    or not the address is known (Django's view).
    """

    def get_users(self, email):
        User = get_user_model()
        field = User.get_email_field_name()
        candidates = User._default_manager.filter(**{f"{field}__iexact": email, "is_active": True})
        # As Django's own: the database's case-insensitive match may be looser than Unicode's.
        return (user for user in candidates if _same_address(email, getattr(user, field)))

    def send_mail(self, subject_template_name, email_template_name, context, *args, **kwargs):
        # In the account holder's language, whatever the language of the page that asked.
        with translation.override(mail_language(context["user"])):
            super().send_mail(subject_template_name, email_template_name, context, *args, **kwargs)


def _same_address(one: str, other: str) -> bool:
    return (
        unicodedata.normalize("NFKC", one).casefold()
        == unicodedata.normalize("NFKC", other).casefold()
    )
