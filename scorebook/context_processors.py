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
