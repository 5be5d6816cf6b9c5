# The bot in a small image: `docker build -t stukolka-bot .` (see README.md, "Docker").
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

# DejaVu fonts for the evening's chart (Cyrillic), beside the copy matplotlib bundles.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY pyproject.toml requirements.lock ./
COPY game ./game
COPY storage ./storage
COPY bot ./bot
COPY locales ./locales
COPY web ./web
# The same install as scripts/run.sh (the README's quick start): the locked versions, hashes
# checked, then the bot without dependencies.
RUN python3 -m venv .venv \
    && .venv/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes \
       -r requirements.lock \
    && .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps -e . \
    && .venv/bin/python -c "import matplotlib.font_manager" \
    && chown -R bot:bot /app/.matplotlib

USER bot
VOLUME /data
# Only used in webhook mode (WEBHOOK_URL set); polling needs no open port.
EXPOSE 8443
# Healthy while the bot's heartbeat (written every 30 s after a database read) is fresh.
HEALTHCHECK --interval=60s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["python", "-m", "bot"]
