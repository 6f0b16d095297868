from django.urls import path

from . import views

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("friends/ask/", views.ask, name="friend-ask"),
    path("friends/requests/<str:request_id>/<str:answer>/", views.answer, name="friend-answer"),
    path("friends/remove/", views.unfriend, name="friend-remove"),
    path("friends/block/", views.block, name="friend-block"),
    path("friends/unblock/", views.unblock, name="friend-unblock"),
    path("friends/invite/", views.invite, name="friend-invite"),
    path("friends/invite/<str:code>/", views.invite_list, name="friend-invite-list"),
    path("invitations/<str:invitation_id>/join/", views.join, name="invitation-join"),
    path("invitations/<str:invitation_id>/dismiss/", views.dismiss, name="invitation-dismiss"),
    path("invitations/<str:invitation_id>/watch/", views.watch, name="invitation-watch"),
]
