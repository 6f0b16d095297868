"""One account per computer player strength: the rated players the computers are."""

from django.contrib.auth.hashers import make_password
from django.db import migrations

STRENGTHS = ("easy", "medium", "hard", "expert")  # gameplay.engine.STRENGTHS when written


def create(apps, schema_editor):
    from accounts.names import skeleton

    User = apps.get_model("accounts", "User")
    for strength in STRENGTHS:
        name = f"Computer-{strength.title()}"
        User.objects.get_or_create(
            username=name,
            defaults={
                "role": "computer",
                "password": make_password(None),  # unusable: nobody signs in as a computer
                "name_key": skeleton(name),  # nobody may take a look-alike name
            },
        )


def remove(apps, schema_editor):
    apps.get_model("accounts", "User").objects.filter(role="computer").delete()


class Migration(migrations.Migration):
    dependencies = [("accounts", "0006_user_role")]

    operations = [migrations.RunPython(create, remove)]
