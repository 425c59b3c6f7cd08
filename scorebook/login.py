"""The login form and the per-address throttle that sits beside django-axes.

axes locks one username from one address (settings.AXES_LOCKOUT_PARAMETERS). A guesser who
tries one password on many usernames ("password spraying") never trips that lock, so
`AddressThrottleBackend` also refuses an address once its failures of the last cool-off period,
over all usernames, reach AXES_ADDRESS_FAILURE_LIMIT. axes cannot do this itself: it has one
failure limit for all its parameter combinations, and a callable limit is not told which
combination it is judging. The failures are axes' own records, so there is one count of them.
"""

from __future__ import annotations

from axes.attempts import get_cool_off_threshold
from axes.exceptions import AxesBackendPermissionDenied
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm
from django.core.validators import MaxLengthValidator
from django.db.models import Sum

from scorebook.textinput import PlainText

# Long enough for any pass phrase, short enough that hashing it costs nothing.
PASSWORD_MAX_LENGTH = 4096


class BoundedLoginMixin:
    """Refuse, as a form error, what no account can have before it reaches a query or axes.

    AuthenticationForm sets the username's max_length after the field is built, which adds
    no validator: a 300-character username went on to axes' 255-character column (500).
    """

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        username = self.fields["username"]
        username.validators += [
            MaxLengthValidator(self.username_field.max_length),
            PlainText(),
        ]
        self.fields["password"].validators.append(MaxLengthValidator(PASSWORD_MAX_LENGTH))


class LoginForm(BoundedLoginMixin, AuthenticationForm):
    pass


class AdminLoginForm(BoundedLoginMixin, AdminAuthenticationForm):
    pass


def address_failures(request) -> int:
    """Failed logins from the request's address within the cool-off period, all usernames."""
    return (
        AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address,
            attempt_time__gte=get_cool_off_threshold(request),
        ).aggregate(total=Sum("failures_since_start"))["total"]
        or 0
    )


class AddressThrottleBackend:
    """Refuses every login from an address with too many recent failures; authenticates nobody.

    Listed after axes' backend and before the one that checks passwords. The refusal is
    axes' own (the lockout page, 429), and is not recorded as one more failure
    (AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT is off), so it ends when the cool-off
    period after the last recorded failure has passed. No `get_user`: it logs nobody in, and
    Django's test client logs users in with the first backend that has one.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):
        if not settings.AXES_ENABLED or request is None:
            return None
        AxesProxyHandler.update_request(request)
        if request.axes_ip_address is None:
            return None
        if address_failures(request) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
            request.axes_locked_out = True
            request.address_throttled = True  # the lockout page says why
            raise AxesBackendPermissionDenied("too many failed logins from this address")
        return None
