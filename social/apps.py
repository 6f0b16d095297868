from django.apps import AppConfig


class SocialConfig(AppConfig):
    name = "social"
    verbose_name = "Friends"

    def ready(self):
        from lobby import chat

        from . import receivers  # noqa: F401  (exported and erased accounts)
        from .services import blocks

        chat.BLOCKS.append(blocks)  # neither of two people who blocked sees the other's chat
