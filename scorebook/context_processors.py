from django.utils.crypto import salted_hmac

from scorebook.models import Role


def club(request):
    """The club and membership that `club_view` loaded, and what the member may do there."""
    membership = getattr(request, "membership", None)
    return {
        "club": getattr(request, "club", None),
        "membership": membership,
        "can_score": membership is not None and membership.has_role(Role.SCOREKEEPER),
        "can_manage": membership is not None and membership.has_role(Role.ADMIN),
    }


def user_key(request):
    """An opaque key of the signed-in user ("" for nobody), never his id: the service worker
    keeps each user's copies of pages apart by it (<body data-user>), so a phone handed to
    somebody else never shows them another user's pages."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"user_key": ""}
    return {"user_key": salted_hmac("scorebook.user_key", str(user.pk)).hexdigest()[:16]}
