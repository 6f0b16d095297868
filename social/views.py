"""Thin views: parse, call social.services, redirect or render. Every write is a POST (with
Django's CSRF check); each refusal is shown as its sentence and changes nothing."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.guests import player_name

from . import selectors, services


def _back(request, default: str = "friends"):
    """Back to the page the form was on (a profile, the room), or the friends page."""
    to = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(to, allowed_hosts={request.get_host()}) and to.startswith(
        "/"
    ):
        return redirect(to)
    return redirect(default)


@login_required
def friends(request):
    user = request.user
    context = {
        "friends": selectors.friends(user),
        "requests_in": selectors.requests_in(user),
        "requests_out": selectors.requests_out(user),
        "blocked": selectors.blocked(user),
        "left_today": services.requests_left_today(user),
        "per_day": services.REQUESTS_PER_DAY,
    }
    return render(request, "social/friends.html", context)


@require_POST
@login_required
def ask(request):
    name = request.POST.get("username", "")
    try:
        befriended = services.ask(sender=request.user, username=name)
    except services.Refused as exc:
        messages.error(request, exc.message)
    else:
        them = name.strip()
        messages.success(
            request,
            (
                gettext("You and %(name)s are friends now.")
                if befriended
                else gettext("Friend request sent to %(name)s.")
            )
            % {"name": them},
        )
    return _back(request)


ANSWERS = {"accept": services.accept, "decline": services.decline, "cancel": services.cancel}


@require_POST
@login_required
def answer(request, request_id: str, answer: str):
    if answer not in ANSWERS:
        raise Http404(gettext("No such answer."))
    try:
        found = ANSWERS[answer](user=request.user, request_id=request_id)
    except services.Refused as exc:
        messages.error(request, exc.message)
    else:
        said = {
            "accept": (
                gettext("You and %(name)s are friends now.") % {"name": found.sender.username}
            ),
            "decline": (
                gettext("You declined %(name)s's request.") % {"name": found.sender.username}
            ),
            "cancel": (
                gettext("You withdrew your request to %(name)s.")
                % {"name": found.recipient.username}
            ),
        }
        messages.success(request, said[answer])
    return _back(request)


def _about_someone(action, done: str):
    @require_POST
    @login_required
    def view(request):
        name = request.POST.get("username", "")
        try:
            action(user=request.user, username=name)
        except services.Refused as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, str(done).format(name=name.strip()))
        return _back(request)

    return view


unfriend = _about_someone(services.unfriend, _("You and {name} are no longer friends."))
block = _about_someone(
    services.block, _("You blocked {name}: they can't send you requests or invitations.")
)
unblock = _about_someone(services.unblock, _("You unblocked {name}."))


@login_required
def invite_list(request, code: str):
    """The room's Invite list (fetched by the room's lobby): the friends online now, or why
    nobody can be invited to this table."""
    context = {"code": code}
    try:
        room = services.inviting_room(user=request.user, code=code)
    except services.Refused as exc:
        context["refused"] = exc.message
    else:
        invited = selectors.invited_ids(room)
        here = set(room.present().values_list("user_id", flat=True))
        context["room"] = room
        context["friends"] = [
            {"user": f, "invited": f.pk in invited}
            for f in selectors.online_friends(request.user)
            if f.pk not in here
        ]
    return render(request, "social/_invite.html", context)


@require_POST
@login_required
def invite(request):
    code = request.POST.get("code", "")
    name = request.POST.get("username", "")
    try:
        services.invite(sender=request.user, username=name, code=code)
    except services.Refused as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request, (gettext("Invitation sent to %(name)s.") % {"name": name.strip()})
        )
    return _back(request, default="home")


def _to(request, path: str):
    """A redirect, as htmx follows it (the toast's buttons) or as a form post does."""
    return HttpResponseClientRedirect(path) if request.htmx else redirect(path)


@require_POST
@login_required
def join(request, invitation_id: str):
    try:
        room = services.join(
            user=request.user, invitation_id=invitation_id, name=player_name(request)
        )
    except services.Refused as exc:
        messages.error(request, exc.message)
        return _to(request, "/")
    return _to(request, f"/rooms/{room.code}/")


@require_POST
@login_required
def dismiss(request, invitation_id: str):
    try:
        services.dismiss(user=request.user, invitation_id=invitation_id)
    except services.Refused as exc:
        if request.htmx:
            return render(request, "social/_toast_note.html", {"note": exc.message})
        messages.error(request, exc.message)
    if request.htmx:  # the toast goes
        return render(request, "social/_toast_note.html", {"note": ""})
    return redirect("home")


@require_POST
@login_required
def watch(request, invitation_id: str):
    try:
        path = services.watch_path(user=request.user, invitation_id=invitation_id)
    except services.Refused as exc:
        messages.error(request, exc.message)
        return _to(request, "/")
    return _to(request, path)
