def player(request):
    """The header's name slot: the user, or the guest name if this visitor has one."""
    guest = None
    if not request.user.is_authenticated and hasattr(request, "session"):
        guest = request.session.get("guest_name")
    return {"guest_name": guest}
