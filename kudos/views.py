from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import render

from . import clock, rules, selectors
from .models import WeekClose

HISTORY_PAGE = 25


def home(request):
    """/kudos/: the player's balance, streak and history (paged), and how Kudos are earned."""
    now = clock.now()
    context = {
        "streak_table": rules.streak_table(),
        "play_table": rules.play_table(),
        "prize_table": rules.prize_table(),
        "rules": rules,
        "running": selectors.bonus_events_running(now),
        "coming": selectors.bonus_events_coming(now),
    }
    if request.user.is_authenticated:
        history = Paginator(selectors.history(request.user.pk), HISTORY_PAGE)
        context["summary"] = selectors.summary(request.user)
        context["history"] = history.get_page(request.GET.get("page"))
    return render(request, "kudos/home.html", context)


def weekly(request, week: str | None = None):
    """/leaderboards/weekly/: this week live; /leaderboards/weekly/<2025-W03>/: a past week,
    frozen as it closed."""
    now = clock.now()
    current = selectors.week_start(now)
    start = current if week is None else selectors.week_from_label(week)
    if start is None or start > current:
        raise Http404("There is no such week on the leaderboard yet.")
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
