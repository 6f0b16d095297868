from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self):
        from django.db.models.signals import post_migrate

        from . import computers, signals  # noqa: F401  (signals: listens for finished games)

        post_migrate.connect(computers.ensure_accounts, sender=self)
