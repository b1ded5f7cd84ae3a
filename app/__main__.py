"""`python -m app` (or `partida`): migrate the database to head, then serve."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from app.backup import BackupError, backup, restore
from app.config import get_settings
from app.logging import configure_logging
from app.serving import WorkersRefused, check_workers, serve, serve_worker


def upgrade_to_head(database_url: str) -> None:
    # Imported here: the server migrates in a process of its own (see main).
    from app.migrate import upgrade_to_head as upgrade

    upgrade(database_url)


def main(argv: list[str] | None = None) -> int:
    settings = get_settings()
    parser = argparse.ArgumentParser(prog="partida", description="Partida game server")
    sub = parser.add_subparsers(dest="command")
    serving = sub.add_parser("serve", help="migrate, then serve (the default)")
    # One of PARTIDA_WORKERS' processes (app.serving): serves, does not migrate.
    worker = sub.add_parser("worker", help="one worker process (started by serve)")
    for p in (parser, serving, worker):
        p.add_argument(
            "--host", default=settings.host, help=f"bind address (default {settings.host})"
        )
        p.add_argument(
            "--port", type=int, default=settings.port, help=f"port (default {settings.port})"
        )
    sub.add_parser("migrate", help="apply database migrations to head and exit")
    dump = sub.add_parser("backup", help="write a consistent snapshot of the database")
    dump.add_argument(
        "--output", type=Path, help="file to write (default: backups/partida-<time>.*)"
    )
    load = sub.add_parser(
        "restore", help="replace the database with a backup (stop the server first)"
    )
    load.add_argument("file", type=Path)
    load.add_argument("--yes", action="store_true", help="do not ask for confirmation")
    args = parser.parse_args(argv)

    configure_logging(settings.log_level, settings.log_json, settings.access_log)
    settings.ensure_data_dir()
    try:
        if args.command == "backup":
            print(backup(settings, args.output))
            return 0
        if args.command == "restore":
            if (
                not args.yes
                and input(f"Replace the database with {args.file}? [y/N] ").lower() != "y"
            ):
                return 1
            restore(settings, args.file)
            upgrade_to_head(settings.database_url)
            print(f"restored {args.file}")
            return 0
    except BackupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.command == "worker":
        return serve_worker(settings, args.host, args.port)
    if args.command == "migrate":
        upgrade_to_head(settings.database_url)
        return 0
    try:
        check_workers(settings)
    except WorkersRefused as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    # The migration runs in a child process (the same settings, from the environment): what
    # it loads (alembic's runtime, the migration scripts) is never resident in the server.
    migrated = subprocess.run([sys.executable, "-m", "app", "migrate"], check=False)
    if migrated.returncode != 0:
        return migrated.returncode
    return serve(settings, args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
