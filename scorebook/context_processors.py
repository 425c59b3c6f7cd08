from datetime import timedelta

from django.conf import settings
from django.utils import timezone
from django.utils.crypto import salted_hmac

from scorebook.models import Role, account_name


def club(request):
    """The club and membership that `club_view` loaded, and what the member may do there."""
    membership = getattr(request, "membership", None)
    return {
        "club": getattr(request, "club", None),
        "membership": membership,
        "can_score": membership is not None and membership.has_role(Role.SCOREKEEPER),
        "can_manage": membership is not None and membership.has_role(Role.ADMIN),
    }


def key_of(user) -> str:
    """An opaque key of a signed-in user, never his id."""
    return salted_hmac("scorebook.user_key", str(user.pk)).hexdigest()[:16]


def user_key(request):
    """The signed-in user as the phone's service worker and outbox know him (<body data-user>):
    his opaque key ("" for nobody), by which the worker keeps each user's copies of pages apart
    and the outbox sends a hand only under the login that saved it; his name, for the outbox to
    say whose login a kept hand waits for; and when this login ends (ms since the epoch), after
    which the worker shows none of the copies."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"user_key": "", "user_name": "", "login_expires": None}
    expires = request.session.get_expiry_date()
    return {
        "user_key": key_of(user),
        "user_name": account_name(user),
        "login_expires": int(expires.timestamp() * 1000),
    }


def fix_login_expiry(sender, request, user, **kwargs) -> None:
    """On logging in (user_logged_in), the login's end is fixed: a session saved later (a
    language chosen) would otherwise push its cookie's expiry on unseen, and the end a page
    tells the worker (`user_key`) would not be the cookie's."""
    if request is not None and hasattr(request, "session"):
        request.session.set_expiry(timezone.now() + timedelta(seconds=settings.SESSION_COOKIE_AGE))
