"""System checks of the site's own (run by `manage.py check`, `check --deploy`, `migrate`)."""

from django.contrib.staticfiles.storage import ManifestFilesMixin, staticfiles_storage
from django.core.checks import Error, Tags, register


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
