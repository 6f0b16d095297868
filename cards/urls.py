from django.urls import path

from . import views

app_name = "cards"

urlpatterns = [
    path("cards/", views.deck, name="deck"),
    path("cards/prefs/", views.save_prefs, name="prefs"),
    path("cards/<str:card>.svg", views.card_image, name="svg"),
    path("rules/", views.rules_index, name="rules-index"),
    path("rules/<slug:kind>/", views.rules_page, name="rules"),
]
