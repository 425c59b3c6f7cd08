def club(request):
    """The club and membership that `club_view` loaded, for the navigation and role checks."""
    return {
        "club": getattr(request, "club", None),
        "membership": getattr(request, "membership", None),
    }
