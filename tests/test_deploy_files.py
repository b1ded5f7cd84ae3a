"""The Dockerfile and compose file stay valid and wired to the settings (no Docker engine runs
here: static checks, `docker-compose config`, and the proxy-header handling of `python -m app`)."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from app.config import Settings
from tests.support.process import ServerProcess

ROOT = Path(__file__).resolve().parents[1]

# Settings that docker-compose.yml wires to its own services and ports, not taken from .env.
COMPOSE_WIRED = {
    "database_url": "postgresql+asyncpg://partida:partida@postgres:5432/partida",
    "redis_url": "redis://redis:6379/0",
    "host": "0.0.0.0",
    "port": 8000,
}
# Settings whose compose default is not config.py's.
COMPOSE_DEFAULTS = {"environment": "production", "log_json": True}


def env_name(setting: str) -> str:
    return f"PARTIDA_{setting.upper()}"


def compose_config(tmp_path: Path, dotenv: dict[str, str], profile: str | None = None) -> Any:
    """`docker-compose config` as data, with `dotenv` as the .env file (and no PARTIDA_* from
    this process's environment)."""
    tool = shutil.which("docker-compose")
    if tool is None:
        pytest.fail("docker-compose is not installed; scripts/test installs it with apt")
    env_file = tmp_path / "compose.env"
    env_file.write_text("".join(f"{key}={value}\n" for key, value in dotenv.items()))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARTIDA_")}
    args = [tool, "--env-file", str(env_file), *(["--profile", profile] if profile else [])]
    run = subprocess.run(
        [*args, "config"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    return yaml.safe_load(run.stdout)


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


def test_every_setting_reaches_the_app_from_dotenv(tmp_path: Path) -> None:
    names = {setting: env_name(setting) for setting in Settings.model_fields}
    dotenv = {name: f"from-dotenv-{setting}" for setting, name in names.items()}
    environment = compose_config(tmp_path, dotenv)["services"]["app"]["environment"]
    missing = set(names.values()) - set(environment)
    assert not missing, f"docker-compose.yml does not pass {sorted(missing)} to the app"
    for setting, name in names.items():
        if setting in COMPOSE_WIRED:
            assert environment[name] != dotenv[name], name
        else:
            assert environment[name] == dotenv[name], f"{name} in .env does not reach the app"


def test_compose_defaults_parse_and_match_config_py(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing in .env: every setting gets config.py's default (or the compose one), and no
    empty string reaches a number or a flag."""
    environment = compose_config(tmp_path, {})["services"]["app"]["environment"]
    for key in list(os.environ):
        if key.startswith("PARTIDA_"):
            monkeypatch.delenv(key)
    for key, value in environment.items():
        if value is not None:  # a bare key that .env does not set stays unset in the container
            monkeypatch.setenv(key, str(value))
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    expected = {
        setting: field.get_default(call_default_factory=True)
        for setting, field in Settings.model_fields.items()
    }
    expected |= COMPOSE_WIRED | COMPOSE_DEFAULTS
    actual = settings.model_dump()
    allowed = actual.pop("forwarded_allow_ips")
    del expected["forwarded_allow_ips"]
    assert actual == expected
    # Caddy's address on the compose network is trusted wherever Docker's default address
    # pools (172.17-31.x, 192.168.x) or a custom 10.x pool put it; the internet is not.
    networks = [ipaddress.ip_network(item.strip()) for item in allowed.split(",")]
    for address, trusted in [
        ("172.17.0.2", True),
        ("172.29.0.4", True),
        ("192.168.48.3", True),
        ("10.10.0.5", True),
        ("203.0.113.9", False),
        ("8.8.8.8", False),
    ]:
        assert any(ipaddress.ip_address(address) in net for net in networks) is trusted, address


@pytest.mark.parametrize("profile", [None, "production"])
def test_only_caddy_publishes_ports_beyond_this_host(tmp_path: Path, profile: str | None) -> None:
    """The app believes X-Forwarded-For from the Docker network, so it must not be reachable
    from outside but through Caddy."""
    services = compose_config(tmp_path, {}, profile)["services"]
    for name, service in services.items():
        if name == "caddy":
            continue
        for port in service.get("ports", []):
            host_ip = port.get("host_ip") if isinstance(port, dict) else port.split(":")[0]
            assert host_ip == "127.0.0.1", f"{name} publishes {port}"


def test_caddy_terminates_https_for_the_configured_domain() -> None:
    caddyfile = (ROOT / "deploy" / "Caddyfile").read_text()
    assert "{$PARTIDA_DOMAIN" in caddyfile and "reverse_proxy" in caddyfile


def test_dockerfile_runs_as_non_root_and_migrates_on_start() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert "\nUSER partida" in text
    assert 'CMD ["python", "-m", "app"]' in text
    for path in ("alembic.ini", "migrations", "app", "static"):
        assert (ROOT / path).exists(), path


def test_dockerfile_installs_the_postgres_client_of_the_compose_server() -> None:
    """`python -m app backup`/`restore` run pg_dump/pg_restore in the app container: they must
    be there, and of the server's major version (a newer pg_restore fails on an older server)."""
    text = (ROOT / "Dockerfile").read_text()
    bases = re.findall(r"^FROM (\S+)", text, re.MULTILINE)
    assert bases == ["python:3.11-slim-trixie"] * 2  # build and final stage share the venv
    assert "apt-get install -y --no-install-recommends postgresql-client" in text
    assert "rm -rf /var/lib/apt/lists/*" in text
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    server = re.fullmatch(r"postgres:(\d+)[.\-\w]*", compose["services"]["postgres"]["image"])
    assert server is not None
    # Debian 13 (trixie) carries PostgreSQL 17's client.
    assert server.group(1) == "17", "the client (Debian 13: 17) and server majors differ"


@pytest.mark.parametrize(
    ("forwarded_allow_ips", "per_forwarded_address"),
    [("127.0.0.0/8", True), ("192.0.2.1", False)],
    ids=["trusted-proxy", "untrusted-proxy"],
)
def test_rate_limits_count_the_forwarded_address_behind_a_trusted_proxy(
    tmp_path: Path, forwarded_allow_ips: str, per_forwarded_address: bool
) -> None:
    """`python -m app` behind a proxy (here the test client, on 127.0.0.1): X-Forwarded-For
    names the player only when the proxy is in PARTIDA_FORWARDED_ALLOW_IPS."""
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'partida.sqlite3'}",
        PARTIDA_RATE_LIMIT_ENABLED="true",
        PARTIDA_RATE_LIMIT_IP="3/minute",
        PARTIDA_FORWARDED_ALLOW_IPS=forwarded_allow_ips,
        PARTIDA_REDIS_URL="",
    ).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:

            def status(player: str) -> int:
                headers = {"x-forwarded-for": player}
                return http.get("/api/v1/games", headers=headers).status_code

            assert [status("203.0.113.7") for _ in range(4)] == [200, 200, 200, 429]
            assert status("198.51.100.9") == (200 if per_forwarded_address else 429)
    finally:
        server.stop()
