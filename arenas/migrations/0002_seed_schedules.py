"""The first schedules: an hourly 30-minute Crazy 8 arena, a daily Gin Rummy arena and a weekly
Cardice arena (UTC). The admin changes them or adds more."""

import datetime

from django.db import migrations

SCHEDULES = [
    {
        "name": "Hourly Crazy 8",
        "kind": "crazy8",
        "minutes": 30,
        "every": "hourly",
        "at": datetime.time(0, 0),
        "prizes": [30, 20, 10],
        "min_games": 3,
    },
    {
        "name": "Daily Gin",
        "kind": "gin",
        "minutes": 60,
        "every": "daily",
        "at": datetime.time(19, 0),
        "prizes": [100, 60, 40],
        "min_games": 4,
    },
    {
        "name": "Weekly Cardice",
        "kind": "cardice",
        "minutes": 120,
        "every": "weekly",
        "at": datetime.time(18, 0),
        "weekday": 5,  # Saturday
        "prizes": [300, 200, 100],
        "min_games": 5,
    },
]


def seed(apps, schema_editor):
    ArenaSchedule = apps.get_model("arenas", "ArenaSchedule")
    for fields in SCHEDULES:
        ArenaSchedule.objects.get_or_create(name=fields["name"], defaults=fields)


def unseed(apps, schema_editor):
    ArenaSchedule = apps.get_model("arenas", "ArenaSchedule")
    ArenaSchedule.objects.filter(name__in=[s["name"] for s in SCHEDULES]).delete()


class Migration(migrations.Migration):
    dependencies = [("arenas", "0001_arenas")]

    operations = [migrations.RunPython(seed, unseed)]
