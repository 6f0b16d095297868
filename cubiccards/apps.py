from django.apps import AppConfig


class CubicCardsConfig(AppConfig):
    name = "cubiccards"
    verbose_name = "Cubic Cards"

    def ready(self):
        from . import checks  # noqa: F401  (registers the site's system checks)
