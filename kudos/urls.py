from django.urls import path

from . import views

app_name = "kudos"
urlpatterns = [
    path("kudos/", views.home, name="home"),
    path("leaderboards/weekly/", views.weekly, name="weekly"),
    path("leaderboards/weekly/<str:week>/", views.weekly, name="week"),
]
