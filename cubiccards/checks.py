"""System checks of the site's own (run by `manage.py check`, `check --deploy`, `migrate`)."""

from django.conf import settings
from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.checks import Error, Tags, Warning, register


@register(Tags.staticfiles, deploy=True)
def static_files_collected(app_configs, **kwargs):
    """With the manifest storage (production), a page that names a static file fails until
    `collectstatic` has written the manifest: every page would answer 500."""
    if not isinstance(staticfiles_storage, ManifestFilesMixin):
        return []
    if staticfiles_storage.manifest_storage.exists(staticfiles_storage.manifest_name):
        return []
    return [
        Error(
            "The static files have not been collected: every page would answer 500.",
            hint="Run `python manage.py collectstatic --no-input` (make serve does it).",
            id="cubiccards.E001",
        )
    ]


@register(Tags.database)
def pool_covers_the_socket_threads(app_configs, **kwargs):
    """Each table-socket thread and the thread for pages can hold a connection at once; with
    fewer pooled connections a move waits for one (up to the pool's timeout)."""
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if not pool or pool["max_size"] >= settings.DB_THREADS + 1:
        return []
    return [
        Warning(
            f"DB_POOL_MAX ({pool['max_size']}) is below DB_THREADS + 1 ({settings.DB_THREADS + 1}):"
            " table moves would wait for a database connection.",
            hint="Raise DB_POOL_MAX or lower DB_THREADS.",
            id="cubiccards.W001",
        )
    ]
