# Partida: one image, non-root; migrations run on start, then uvicorn.
# Both stages on the same pinned image (Debian 13 "trixie"): the venv is copied across them.
FROM python:3.11-slim-trixie AS build
WORKDIR /src
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY pyproject.toml README.md ./
COPY app ./app
RUN python -m venv /opt/venv && /opt/venv/bin/pip install .

FROM python:3.11-slim-trixie
# pg_dump and pg_restore for `python -m app backup` / `restore` (docs/DEPLOY.md §5). Debian 13
# ships PostgreSQL 17, the major version of the postgres service in docker-compose.yml: pg_dump
# refuses a newer server, and a newer pg_restore fails on an older one.
RUN apt-get update \
    && apt-get install -y --no-install-recommends postgresql-client \
    && rm -rf /var/lib/apt/lists/*
ENV PATH=/opt/venv/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    PARTIDA_HOST=0.0.0.0 \
    PARTIDA_PORT=8000 \
    PARTIDA_DATABASE_URL=sqlite:////data/partida.sqlite3
RUN useradd --create-home --uid 10001 partida && mkdir -p /data && chown partida /data
COPY --from=build /opt/venv /opt/venv
WORKDIR /srv/partida
COPY --chown=partida alembic.ini ./
COPY --chown=partida migrations ./migrations
COPY --chown=partida app ./app
COPY --chown=partida static ./static
# The protocol documents the app serves at /docs/protocol (linked from /docs).
COPY --chown=partida docs/API.md docs/API-EXTENSIONS.md ./docs/
USER partida
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)" || exit 1
# `python -m app` applies the alembic migrations to head, then starts uvicorn.
CMD ["python", "-m", "app"]
