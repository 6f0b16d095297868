from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.names import skeleton

    User = apps.get_model("accounts", "User")
    for user in User.objects.only("pk", "username").iterator():
        User.objects.filter(pk=user.pk).update(name_key=skeleton(user.username))


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_speed_play"),
    ]

    operations = [
        migrations.AddField(
            model_name="user",
            name="name_key",
            field=models.CharField(db_index=True, default="", editable=False, max_length=150),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
