# Partida: one image, non-root; migrations run on start, then uvicorn.
FROM python:3.11-slim AS build
WORKDIR /src
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY pyproject.toml README.md ./
COPY app ./app
RUN python -m venv /opt/venv && /opt/venv/bin/pip install .

FROM python:3.11-slim
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
USER partida
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --retries=5 \
  CMD python -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2)" || exit 1
# `python -m app` applies the alembic migrations to head, then starts uvicorn.
CMD ["python", "-m", "app"]
