from django.urls import path

from . import queue_views, views

urlpatterns = [
    path("rooms/", views.create_room, name="create-room"),
    path("rooms/join/", views.join_room, name="join-room"),
    path("rooms/<str:code>/", views.room, name="room"),
    path("rooms/<str:code>/public/", views.public_table, name="public-table"),
    path("rooms/<str:code>/watch/", views.watch, name="watch"),
    path("tables/", views.open_tables, name="open-tables"),
    path("tv/", views.tv, name="tv"),
    path("tv/<str:kind>/", views.tv, name="tv-game"),
    path("rooms/<str:code>/start/", views.start_game, name="start-game"),
    path("rooms/<str:code>/lobby/", views.back_to_lobby, name="back-to-lobby"),
    path("rooms/<str:code>/leave/", views.leave_room, name="leave-room"),
    path("play/<str:kind>/", views.play_dispatch, name="play"),
    path("play/<str:kind>/challenge/", views.play_challenge, name="play-challenge"),
    path("ranked/<str:kind>/", queue_views.queue, name="ranked-queue"),
    path("quick/<str:kind>/", queue_views.quick, name="quick"),
    path("quick/<str:kind>/now/", queue_views.quick_now, name="quick-now"),
    path("quick/<str:kind>/leave/", queue_views.quick_leave, name="quick-leave"),
    path("ranked/<str:kind>/leave/", queue_views.leave, name="ranked-leave"),
    path("ranked/games/<int:game_id>/rating/", queue_views.rating_change, name="ranked-rating"),
]
