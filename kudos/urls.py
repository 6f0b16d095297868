from django.urls import path

from . import views

app_name = "kudos"
urlpatterns = [
    path("kudos/", views.home, name="home"),
    path("kudos/shop/", views.shop_page, name="shop"),
    path("kudos/shop/buy/", views.buy, name="buy"),
    path("kudos/wear/", views.wear, name="wear"),
    path("kudos/spots/watch/", views.watch_spot, name="watch-spot"),
    path("kudos/spots/claim/", views.claim_spot, name="claim-spot"),
    path("kudos/challenge/", views.challenge, name="challenge"),
    path("kudos/badges/<slug:slug>.svg", views.badge_art, name="badge-art"),
    path("invite/<str:username>/", views.invite, name="invite"),
    path("leaderboards/weekly/", views.weekly, name="weekly"),
    path("leaderboards/weekly/<str:week>/", views.weekly, name="week"),
]
