from django.urls import path

from . import views

urlpatterns = [
    path("api/", views.index, name="api-index"),
    path("api/schema/<str:name>.json", views.schema_document, name="api-schema"),
    path("api/me/", views.me, name="api-me"),
    # A person's own bot and tokens sit with their account's pages.
    path("accounts/bot/", views.become_bot, name="become-bot"),
    path("accounts/tokens/", views.access_tokens, name="access-tokens"),
    path("accounts/tokens/<int:token_id>/revoke/", views.revoke, name="revoke-token"),
    path("api/challenges/", views.challenge_list, name="challenges"),
    path("api/challenges/<int:challenge_id>/", views.challenge_page, name="challenge"),
    path(
        "api/challenges/<int:challenge_id>/accept",
        views.answer_challenge,
        {"answer": "accept"},
        name="accept-challenge",
    ),
    path(
        "api/challenges/<int:challenge_id>/decline",
        views.answer_challenge,
        {"answer": "decline"},
        name="decline-challenge",
    ),
]
