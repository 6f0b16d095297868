from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Friends"

    def ready(self):
        from . import receivers  # noqa: F401  (exported and erased accounts)
