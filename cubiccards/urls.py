from django.contrib import admin
from django.urls import include, path

from accounts import views as accounts_views
from infra import metrics

from . import health, pwa, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", health.healthz, name="healthz"),
    path("metrics", metrics.metrics_view, name="metrics"),
    path("fairness/", views.fairness, name="fairness"),
    path("manifest.webmanifest", pwa.manifest, name="manifest"),
    path("sw.js", pwa.service_worker, name="service-worker"),
    path("icon.svg", pwa.icon, name="icon"),
    path("offline/", pwa.offline, name="offline"),
    path("accounts/", include("accounts.urls")),
    path("language/", accounts_views.choose_language, name="language"),
    path("", include("api.urls")),
    path("u/<str:username>/", accounts_views.profile, name="profile"),
    path("", include("kudos.urls")),  # before leaderboards/<kind>/: it has leaderboards/weekly/
    path("leaderboards/", accounts_views.leaderboards, name="leaderboards"),
    path("leaderboards/<str:kind>/", accounts_views.leaderboard, name="leaderboard"),
    path(
        "leaderboards/<str:kind>/bots/",
        accounts_views.leaderboard,
        {"role": "bot"},
        name="bot-leaderboard",
    ),
    path("", include("lobby.urls")),
    path("", include("arenas.urls")),
    path("", include("social.urls")),
    path("", include("gameplay.urls")),
    path("", include("cards.urls")),
    path("admin/", admin.site.urls),
]

handler404 = "cubiccards.errors.not_found"
