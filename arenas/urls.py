from django.urls import path

from . import views

urlpatterns = [
    path("arenas/", views.index, name="arenas"),
    path("arenas/<int:arena_id>/", views.arena, name="arena"),
    path("arenas/<int:arena_id>/join/", views.join, name="arena-join"),
    path("arenas/<int:arena_id>/pause/", views.pause, name="arena-pause"),
]
