# The bot in a small image: `docker build -t stukolka-bot .` (see docs/operations.md, "Docker").
# The install steps are scripts/run.sh's commands (scripts/install.sh): the pinned pip of
# requirements-pip.lock first (the image's own pip is another again), then with it the locked,
# hash-checked versions (the build backend among them), then the bot built without build
# isolation, not editable.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PATH=/app/.venv/bin:$PATH \
    DATABASE_PATH=/data/bot.sqlite3 \
    MPLCONFIGDIR=/app/.matplotlib

# The bot runs as an unprivileged user that owns only /data; the code stays root's, read-only.
RUN useradd --system --uid 10001 --user-group --no-create-home --shell /usr/sbin/nologin bot \
    && mkdir /data \
    && chown bot:bot /data

WORKDIR /app
# The dependencies in a layer of their own, before the code: a change of the code alone
# reuses this layer and installs nothing but the bot.
COPY requirements-pip.lock requirements.lock ./
RUN python3 -m venv .venv \
    && .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
       --no-deps -r requirements-pip.lock \
    && .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
       -r requirements.lock \
    && .venv/bin/python -c "import matplotlib.font_manager" \
    && chown -R bot:bot /app/.matplotlib

COPY pyproject.toml ./
COPY game ./game
COPY storage ./storage
COPY tables ./tables
COPY bot ./bot
COPY locales ./locales
COPY web ./web
COPY server ./server
RUN .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps \
       --no-build-isolation --check-build-dependencies . \
    && rm -rf build ./*.egg-info

# numeric, so that a platform can tell it is not root without reading /etc/passwd
USER 10001:10001
VOLUME /data
# Only used in webhook mode (WEBHOOK_URL set); polling needs no open port.
EXPOSE 8443
# Only with the Mini App (WEBAPP_URL set; WEBAPP_HOST=0.0.0.0 in a container).
EXPOSE 8080
# Healthy while the bot's heartbeat (written every 30 s after a database read) is fresh.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-P", "-m", "server.health"]
# -P: the installed bot, not the source files in /app
CMD ["python", "-P", "-m", "server"]
