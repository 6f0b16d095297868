"""The deployment files kept for operators: make serve's nginx config passes `nginx -t`, and
the docker-compose file (documentation: no Docker engine runs here) is valid YAML with the
processes the README names."""

import shutil
import subprocess
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"


def test_make_serves_nginx_config_passes_nginx_own_check(tmp_path):
    text = (ROOT / "deploy" / "nginx.conf").read_text()
    config = tmp_path / "nginx.conf"
    config.write_text(
        text.replace("@RUN@", str(tmp_path))
        .replace("@PORT@", "8299")
        .replace("@UPSTREAMS@", "server 127.0.0.1:8298; server 127.0.0.1:8297;")
    )
    check = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-e", "stderr", "-c", str(config)],
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr


def test_the_compose_file_is_valid_yaml_with_every_process():
    compose = yaml.safe_load((ROOT / "deploy" / "docker-compose.yml").read_text())
    services = compose["services"]
    assert {"db", "redis", "migrate", "web", "worker", "beat", "proxy"} <= set(services)
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].endswith("@db:5432/cubiccards")
        assert env["REDIS_URL"] == "redis://redis:6379/0"
    assert (ROOT / services["web"]["build"]["dockerfile"]).exists()  # context: the checkout
