"""The Dockerfile and compose file stay valid (no Docker engine runs here: static checks)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("profile", [None, "production"])
def test_compose_file_is_valid_for_every_profile(profile: str | None) -> None:
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.fail("docker-compose is not installed; scripts/test installs it with apt")
    args = [tool, *(["--profile", profile] if profile else []), "config", "-q"]
    run = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    services = subprocess.run(
        [*args[:-2], "config", "--services"], cwd=ROOT, capture_output=True, text=True, timeout=60
    ).stdout.split()
    assert {"app", "postgres", "redis"} <= set(services)
    if profile == "production":
        assert "caddy" in services


def test_caddy_terminates_https_for_the_configured_domain() -> None:
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "{$PARTIDA_DOMAIN" in caddyfile and "reverse_proxy" in caddyfile


def test_dockerfile_runs_as_non_root_and_migrates_on_start() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "\nUSER partida" in text
    assert 'CMD ["python", "-m", "app"]' in text
    for path in ("alembic.ini", "migrations", "app", "static"):
        assert (ROOT / path).exists(), path
