"""Settings, from PARTIDA_* environment variables (and an optional .env file)."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from app.known_secrets import remember

DEFAULT_SQLITE_PATH = Path("data") / "partida.sqlite3"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def networks(value: str) -> tuple[Network, ...]:
    """Comma-separated addresses or networks (``10.0.0.0/8``, ``::1``); ``none`` for none.
    ValueError names the entry that is neither."""
    if value.strip().lower() == "none":
        return ()
    found = []
    for entry in filter(None, (part.strip() for part in value.split(","))):
        try:
            found.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(f"{entry!r} is not an address or a network") from None
    return tuple(found)


def normalise_database_url(url: str) -> str:
    """Map the URLs people write (postgresql://, sqlite:///) to the async drivers we ship."""
    if url.startswith(("postgres://", "postgresql://")):
        return "postgresql+asyncpg://" + url.split("://", 1)[1]
    if url.startswith("sqlite://") and not url.startswith("sqlite+aiosqlite://"):
        return "sqlite+aiosqlite://" + url.split("://", 1)[1]
    return url


class Settings(BaseSettings):
    """Every setting of the server; each field is the env var PARTIDA_<NAME>."""

    # An empty variable (`PARTIDA_ADMIN_TOKEN=` in .env, or passed through by compose) means unset.
    model_config = SettingsConfigDict(
        env_prefix="PARTIDA_", env_file=".env", extra="ignore", env_ignore_empty=True
    )

    environment: Literal["development", "production", "test"] = "development"
    database_url: str = Field(
        default=f"sqlite+aiosqlite:///./{DEFAULT_SQLITE_PATH.as_posix()}",
        description="SQLAlchemy URL; postgresql://user@host/db is accepted as is.",
    )
    redis_url: str | None = Field(
        default=None, description="redis://host:6379/0 to fan out across instances"
    )
    redis_channel: str = Field(default="partida:tables", description="the pub/sub channel")
    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=1, le=65535)
    forwarded_allow_ips: str = Field(
        default="127.0.0.1",
        description=(
            "proxies whose X-Forwarded-For/-Proto `python -m app` believes: comma-separated "
            "addresses or networks (10.0.0.0/8), * for any"
        ),
    )
    bot_delay: float = Field(
        default=0.6,
        ge=0,
        le=60,
        description="seconds a bot waits before each action at a table of normal bot pace",
    )
    bot_workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description="processes in which strong bots search (never the server's own process)",
    )
    bot_search_iterations: int = Field(
        default=600,
        ge=1,
        le=100_000,
        description="most searches a strong bot makes for one move (a seed and this decide it)",
    )
    bot_search_seconds: float = Field(
        default=1.0,
        gt=0,
        le=30,
        description="most seconds a strong bot thinks about one move, whatever its iterations",
    )
    log_level: str = "INFO"
    log_json: bool = False
    access_log: bool = Field(
        default=False,
        description="one log line per HTTP request (uvicorn's access log); secrets are redacted",
    )
    ws_max_frame_bytes: int = Field(default=64 * 1024, ge=1024)
    ws_messages_per_second: float = Field(
        default=5.0, gt=0, description="socket message credits refill rate (100 per 20 s)"
    )
    ws_burst: int = Field(default=100, ge=1, description="socket message credits at most")
    ws_max_sockets_per_player: int = Field(
        default=8, ge=1, description="open table sockets per player (per instance)"
    )
    ws_max_sockets_per_ip: int = Field(
        default=32,
        ge=1,
        description="anonymous table sockets (spectators) per client address, per deployment "
        "with Redis; a player's sockets never count (off with rate limits)",
    )
    ws_auth_seconds: float = Field(
        default=5.0,
        gt=0,
        le=300,
        description="a ?auth=frame socket that has not sent its auth frame by then is closed 4408",
    )
    ws_silent_seconds: float = Field(
        default=40.0,
        ge=0,
        description="a spectator socket that has sent no frame at all by then is closed 4408 "
        "(the browser pings every 15 s); 0 = never; off with rate limits, as the address cap",
    )
    rate_limit_chat: str = Field(
        default="20/minute", description="chat messages per player (REST and WebSocket)"
    )
    access_code: str | None = Field(
        default=None, description="if set, creating a player needs this code (a private server)"
    )
    rate_limit_enabled: bool = True
    rate_limit_ip: str = Field(default="1200/minute", description="REST requests per client IP")
    rate_limit_token: str = Field(
        default="600/minute", description="REST requests per player token"
    )
    rate_limit_new_players: str = Field(
        default="30/hour", description="players created per client IP"
    )
    max_body_bytes: int = Field(default=64 * 1024, ge=1024, description="largest REST request body")
    max_open_tables_per_player: int = Field(default=20, ge=1)
    secret_key: str | None = Field(
        default=None,
        min_length=32,
        description=(
            "signs the tokens the server hands out (the lobby's cursors); the same on every "
            "instance. Unset: a random key made once and kept in the database"
        ),
    )
    admin_token: str | None = Field(
        default=None, description="bearer token of the host's admin API and page; unset = no admin"
    )
    metrics_allow: str = Field(
        default="127.0.0.0/8,::1",
        description=(
            "addresses or networks (comma-separated) that may read /metrics without the admin "
            "token, when the request came through no proxy; none = only with the admin token"
        ),
    )
    open_table_ttl_hours: float = Field(
        default=24.0, gt=0, description="open tables nobody joined are removed after this"
    )
    housekeeping_interval_seconds: float = Field(default=300.0, gt=0)
    ws_compression: bool = Field(
        default=True,
        description="permessage-deflate on table sockets (less bandwidth, more memory per socket)",
    )
    ws_compression_window_bits: int = Field(
        default=12,
        ge=9,
        le=15,
        description="permessage-deflate window, 2**bits bytes (python -m app): 12 is uvicorn's "
        "(≈ 45 KB per socket), 10 ≈ 20 KB, 9 ≈ 15 KB, at some cost in bandwidth",
    )
    clock_tick_seconds: float = Field(
        default=1.0, gt=0, description="how often turn clocks and absent players are checked"
    )
    clock_rescan_seconds: float = Field(
        default=60.0,
        gt=0,
        description="how often the clock keeper looks at every playing table anyway; in "
        "between it looks only at the tables that changed or whose clock falls due",
    )
    presence_touch_seconds: float = Field(
        default=15.0,
        gt=0,
        description="how often each instance renews the presence lease of the players "
        "connected to it (a lease lasts three of these, and at least 2 s beyond one)",
    )
    public_url: str | None = Field(
        default=None, description="https://games.example.org: used in links sent by webhooks"
    )
    webhook_allow_private: bool = Field(
        default=False,
        description="let webhooks target private/loopback addresses (tests, LAN setups)",
    )
    cors_origins: list[str] = Field(
        default_factory=list, description="origins allowed by CORS; empty = closed"
    )
    rate_limit_replay_ip: str = Field(
        default="60/minute",
        description="replay requests (/replay, /replay/steps) per client IP, on top of the REST limit",
    )
    rate_limit_replay_token: str = Field(
        default="60/minute", description="replay requests per player token (when one is sent)"
    )
    replay_cache_bytes: int = Field(
        default=64 * 1024 * 1024,
        ge=0,
        description="rendered replays of finished games kept in memory, in bytes (LRU); 0 = none",
    )
    replay_cache_states: int = Field(
        default=256, ge=0, description="re-played states (a table at a version) kept (LRU)"
    )
    replay_slice_seconds: float = Field(
        default=0.005,
        gt=0,
        le=0.1,
        description="a re-play gives the event loop back after running this long",
    )
    replay_share: float = Field(
        default=0.5,
        gt=0,
        le=1,
        description="the share of the event loop's time a re-play may take (it rests between slices)",
    )
    replay_concurrency: int = Field(
        default=1, ge=1, le=16, description="re-plays of each kind run at once (the rest wait)"
    )
    replay_queue_per_client: int = Field(
        default=4,
        ge=1,
        le=1000,
        description=(
            "re-plays one client (a signed-in player, else an address) may have waiting; "
            "the next is 429 rate_limited (asking for one already waiting shares it)"
        ),
    )
    loop_lag_probe_seconds: float = Field(
        default=0.01,
        ge=0,
        description=(
            "how often the event-loop lag probe wakes (partida_event_loop_lag_seconds); 0 = off"
        ),
    )
    loop_lag_probe_idle_seconds: float = Field(
        default=0.1,
        ge=0,
        description=(
            "while the process is idle the lag probe sleeps up to this long instead (each "
            "wake-up costs CPU); it is back to loop_lag_probe_seconds at the first wake-up "
            "after work; 0 = always loop_lag_probe_seconds"
        ),
    )
    catch_up_limit: int = Field(
        default=200, ge=1, description="missed versions sent as events before a snapshot"
    )
    readiness_timeout_seconds: float = Field(
        default=3.0, gt=0, description="/readyz gives up on a silent database or Redis: 503"
    )
    database_connect_timeout_seconds: float = Field(
        default=10.0, gt=0, description="a PostgreSQL connection attempt fails after this"
    )
    workers: int = Field(
        default=1,
        ge=1,
        le=64,
        description=(
            "server processes behind the one port (app.serving); above 1 needs "
            "PARTIDA_REDIS_URL, which carries every table's updates between them"
        ),
    )
    group_commit: bool = Field(
        default=True,
        description=(
            "commit actions through one writer connection per process, in groups (the "
            "actions that arrive while a commit is in flight share the next transaction); "
            "false: one ORM transaction per action"
        ),
    )

    @field_validator("database_url")
    @classmethod
    def _normalise(cls, value: str) -> str:
        return normalise_database_url(value)

    @field_validator("metrics_allow")
    @classmethod
    def _metrics_networks(cls, value: str) -> str:
        networks(value)
        return value

    @model_validator(mode="after")
    def _no_weak_admin_token(self) -> Settings:
        if (
            self.admin_token is not None
            and len(self.admin_token) < 16
            and self.environment == "production"
        ):
            raise ValueError("PARTIDA_ADMIN_TOKEN must have at least 16 characters in production")
        return self

    @model_validator(mode="after")
    def _secrets_are_known(self) -> Settings:
        """The settings' secrets are masked in every log line (app.known_secrets)."""
        passwords = [urlsplit(url).password for url in (self.database_url, self.redis_url) if url]
        for value in (self.admin_token, self.access_code, self.secret_key, *passwords):
            if value:
                remember(value, lasting=True)
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    def sqlite_path(self) -> Path | None:
        """The database file of a file-backed SQLite URL, else None."""
        if not self.is_sqlite:
            return None
        rest = self.database_url.split(":///", 1)[1] if ":///" in self.database_url else ""
        if not rest or rest.startswith(":memory:"):
            return None
        return Path(rest.split("?", 1)[0])

    def ensure_data_dir(self) -> None:
        """Create the folder of the SQLite file on first run."""
        path = self.sqlite_path()
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)


@lru_cache
def get_settings() -> Settings:
    return Settings()
