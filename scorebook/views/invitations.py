"""The invitation link's page: the invited person chooses a password and is in the club."""

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.views import INTERNAL_RESET_SESSION_TOKEN, PasswordResetConfirmView
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from scorebook import invitations
from scorebook.errors import ServiceError

# The backend that checks passwords (settings.AUTHENTICATION_BACKENDS lists three).
PASSWORD_BACKEND = "django.contrib.auth.backends.ModelBackend"


class InvitationAcceptView(PasswordResetConfirmView):
    """Django's "set a new password" page, for an open invitation only.

    Its checks are Django's: the token in the URL moves into the session (so it never leaks
    in a Referer), an expired or spent token shows the refusal. Beyond them, an account the
    invitation did not make, or one that has had a password, has no link at all.
    """

    template_name = "scorebook/invitation_accept.html"
    form_class = invitations.InvitationPasswordForm
    token_generator = invitations.tokens

    def get_user(self, uidb64):
        user = super().get_user(uidb64)
        self.invitation = user and invitations.open_invitation(user)
        return user if self.invitation else None

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["invitation"] = self.invitation
        return context

    def form_valid(self, form):
        try:
            invitation = invitations.accept(self.user, form)
        except ServiceError as exc:
            form.add_error(None, exc.message)
            return self.form_invalid(form)
        del self.request.session[INTERNAL_RESET_SESSION_TOKEN]
        login(self.request, invitation.user, PASSWORD_BACKEND)
        club = invitation.club
        if not club.memberships.filter(user=invitation.user).exists():
            # Removed from the club before the link was used: the account is his all the same.
            return redirect("scorebook:my_clubs")
        messages.success(self.request, _("Welcome to %(club)s.") % {"club": club.name})
        return redirect("scorebook:club_home", club=club.slug)


invitation_accept = InvitationAcceptView.as_view()
