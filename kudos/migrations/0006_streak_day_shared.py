from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("kudos", "0005_merge"),
    ]

    operations = [
        migrations.AlterField(
            model_name="streakday",
            name="outcome",
            field=models.CharField(
                choices=[
                    ("paid", "Paid"),
                    ("shared", "Paid to an account seen with yours"),
                    ("grace", "Grace day"),
                    ("freeze", "Streak freeze"),
                    ("ended", "Streak ended"),
                ],
                max_length=10,
            ),
        ),
    ]
