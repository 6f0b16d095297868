from django.apps import AppConfig


class KudosConfig(AppConfig):
    name = "kudos"
