from django.db import migrations, models


def fill_last_actions(apps, schema_editor):
    """Games in play keep their seat labels: each seat's last action type, from the log."""
    Game = apps.get_model("gameplay", "Game")
    for game in Game.objects.filter(status="active"):
        last = {}
        for seat, action in game.log.order_by("seq").values_list("seat", "action"):
            last[str(seat)] = str(action.get("type", "")) if isinstance(action, dict) else ""
        Game.objects.filter(pk=game.pk).update(last_actions=last)


class Migration(migrations.Migration):
    dependencies = [
        ("gameplay", "0005_speed_play"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="last_actions",
            field=models.JSONField(default=dict),
        ),
        migrations.RunPython(fill_last_actions, migrations.RunPython.noop),
    ]
