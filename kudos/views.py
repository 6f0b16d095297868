import secrets

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from cards import art
from gameplay.engine import registry

from . import badges, challenges, clock, referrals, rules, selectors, services, shop, spots
from .models import WeekClose

HISTORY_PAGE = 25


def home(request):
    """/kudos/: the player's balance, streak and history (paged), and how Kudos are earned."""
    now = clock.now()
    context = {
        "streak_table": rules.streak_table(),
        "play_table": rules.play_table(),
        "real_games": [
            {"title": engine.title, "what": engine.real_game.what}
            for engine in map(registry.get, registry.kinds())
        ],
        "prize_table": rules.prize_table(),
        "rules": rules,
        "running": selectors.bonus_events_running(now),
        "coming": selectors.bonus_events_coming(now),
    }
    if request.user.is_authenticated:
        user = request.user
        history = Paginator(selectors.history(user.pk), HISTORY_PAGE)
        context["summary"] = selectors.summary(user)
        context["history"] = history.get_page(request.GET.get("page"))
        context["level"] = selectors.level(user.pk)
        context["wardrobe"] = shop.wardrobe(user.pk)
        context["spots_today"] = spots.watched_today(user)
        context["spots_open"] = spots.open_today(user)
        context["spots_closed"] = gettext(spots.CLOSED)
        context["invite_url"] = request.build_absolute_uri(
            reverse("kudos:invite", args=[user.username])
        )
        context["invited"] = referrals.invited(user)
        context["badges_earned"] = user.badges_earned.count()
    context["badge_count"] = len(badges.CATALOGUE)
    return render(request, "kudos/home.html", context)


# ---- the shop --------------------------------------------------------------------------------


def shop_page(request):
    """/kudos/shop/: what Kudos buy; buying and wearing for signed-in players."""
    context = {"shelves": shop.catalogue(), "order": secrets.token_hex(8)}
    if request.user.is_authenticated:
        context["balance"] = selectors.balance(request.user.pk)
        context["wardrobe"] = shop.wardrobe(request.user.pk)
    return render(request, "kudos/shop.html", context)


@login_required
@require_POST
def buy(request):
    try:
        item = shop.buy(
            user_id=request.user.pk,
            slug=request.POST.get("item", ""),
            order=request.POST.get("order", ""),
        )
    except services.Refused as refused:
        messages.error(request, refused.message)
    else:
        shop.dress(request.session, request.user.pk)
        worn = gettext(" You are wearing it now.") if item.section != shop.FREEZE else ""
        bought = gettext("Bought: %(item)s for %(price)s Kudos.")
        messages.success(request, bought % {"item": item.name, "price": item.price} + worn)
    return redirect(_back(request, "kudos:shop"))


@login_required
@require_POST
def wear(request):
    section = request.POST.get("section", "")
    try:
        shop.wear(user_id=request.user.pk, section=section, value=request.POST.get("value", ""))
    except services.Refused as refused:
        messages.error(request, refused.message)
    else:
        shop.dress(request.session, request.user.pk)
        messages.success(request, gettext("Done: that is what you wear now."))
    return redirect(_back(request, "kudos:home"))


def _back(request, default: str) -> str:
    """The page a form came from (``next``) if it is on this site, else ``default``."""
    target = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return target if target and safe else reverse(default)


# ---- sponsor spots -----------------------------------------------------------------------------


@login_required
@require_POST
def watch_spot(request):
    """Start a spot: the page shows it with its countdown, then sends its token back."""
    try:
        spot, token = spots.begin(request.user)
    except services.Refused as refused:
        messages.error(request, refused.message)
        return redirect(reverse("kudos:home") + "#spots")
    return render(
        request,
        "kudos/spot.html",
        {"spot": spot, "token": token, "seconds": rules.SPOT_SECONDS, "pay": rules.SPOT_PAY},
    )


@login_required
@require_POST
def claim_spot(request):
    try:
        entry = spots.claim(request.user, request.POST.get("token", ""))
    except services.Refused as refused:
        messages.error(request, refused.message)
    else:
        messages.success(request, f"+{entry.amount} Kudos: thank you for watching.")
    return redirect(reverse("kudos:home") + "#spots")


# ---- the Daily Challenge ---------------------------------------------------------------------------


def challenge(request):
    """/kudos/challenge/: today's deals and board, and yesterday's results with their seeds."""
    now = clock.now()
    day = challenges.today()
    return render(
        request,
        "kudos/challenge.html",
        {
            "today": [challenges.board(c, request.user, now) for c in challenges.todays()],
            "yesterday": [
                challenges.board(c, request.user, now)
                for c in challenges.of_day(day - challenges.ONE_DAY)
            ],
            "day": day,
            "ends": challenges.day_end(day),
            "rules": rules,
        },
    )


# ---- badges and invites ---------------------------------------------------------------------------


@require_GET
def badge_art(request, slug: str):
    """A badge's art as SVG; ``?locked=1`` draws it not yet earned."""
    badge = badges.get(slug)
    if badge is None:
        raise Http404(gettext("No such badge."))
    earned = request.GET.get("locked") != "1"
    # Cached by its address alone, whatever the language: the name inside stays English.
    name = shop.english(badge.name)
    svg = art.badge_svg(badge.card, badge.ring, badge.mark, name, earned=earned)
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Cache-Control"] = "public, max-age=86400"
    response["X-Content-Type-Options"] = "nosniff"
    return response


def invite(request, username: str):
    """/invite/<username>/: a player's invite link."""
    inviter = get_object_or_404(get_user_model(), username=username)
    why_not = referrals.open_invite(request, inviter)
    if why_not:
        messages.info(request, why_not)
        return redirect("kudos:home")
    return render(request, "kudos/invite.html", {"inviter": inviter, "rules": rules})


def weekly(request, week: str | None = None):
    """/leaderboards/weekly/: this week live; /leaderboards/weekly/<2025-W03>/: a past week,
    frozen as it closed."""
    now = clock.now()
    current = selectors.week_start(now)
    start = current if week is None else selectors.week_from_label(week)
    if start is None or start > current:
        raise Http404(gettext("There is no such week on the leaderboard yet."))
    end = start + selectors.WEEK
    closed = WeekClose.objects.filter(starts=start).first()
    if closed is not None:
        rows = [
            {
                "place": p.place,
                "name": p.name,
                "user_id": p.user_id,
                "earned": p.earned,
                "prize": p.prize,
            }
            for p in closed.places.all()
        ]
    else:
        top = selectors.standings(start, end, limit=rules.WEEKLY_SHOWN)
        names = dict(
            get_user_model()
            .objects.filter(pk__in=[row["user_id"] for row in top])
            .values_list("pk", "username")
        )
        rows = [
            {
                "place": place,
                "name": names.get(row["user_id"], ""),
                "user_id": row["user_id"],
                "earned": row["earned"],
                "prize": rules.WEEKLY_PRIZES[place - 1] if place <= len(rules.WEEKLY_PRIZES) else 0,
            }
            for place, row in enumerate(top, start=1)
        ]
    mine = None
    if request.user.is_authenticated:
        mine = selectors.place_of(request.user.pk, start, end)
    return render(
        request,
        "kudos/weekly.html",
        {
            "label": selectors.week_label(start),
            "start": start,
            "last_day": end - selectors.ONE_DAY,
            "closes": end + rules.WEEK_CLOSES_AFTER,
            "live": closed is None,
            "closed": closed,
            "rows": rows,
            "mine": mine,
            "prize_table": rules.prize_table(),
            "past": WeekClose.objects.exclude(starts=start)[:12],
        },
    )
