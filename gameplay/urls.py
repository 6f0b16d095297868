from django.urls import path

from . import views

urlpatterns = [
    path("games/<int:game_id>/", views.replay, name="replay"),
    path("games/<int:game_id>/log.json", views.log_json, name="game-log"),
]
