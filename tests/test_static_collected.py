"""Production serves the collected, hashed static files: `check --deploy` says when they are
missing, and `make serve` collects them before it starts."""

from pathlib import Path

from django.core.checks import run_checks
from django.core.management import call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}


def _errors() -> list[str]:
    return [m.id for m in run_checks(include_deployment_checks=True) if m.id.startswith("cubic")]


def test_deploy_check_fails_until_static_files_are_collected(tmp_path):
    with override_settings(STORAGES=MANIFEST, STATIC_ROOT=tmp_path / "static"):
        assert _errors() == ["cubiccards.E001"]
        call_command("collectstatic", "--no-input", "-v", "0")
        assert _errors() == []


def test_make_serve_collects_static_files_before_starting():
    script = (ROOT / "scripts" / "serve.sh").read_text()
    collect = script.index("manage.py collectstatic")
    assert collect < script.index("-m cubiccards.server")
