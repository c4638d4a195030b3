# Umpire: the Discord bot in a small image. Build: docker build -t umpire .
# Run:   docker run -d --name umpire -e DISCORD_TOKEN=... -v umpire-data:/data umpire
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    UMPIRE_DB=/data/umpire.sqlite3 \
    UMPIRE_HEARTBEAT=/tmp/umpire-heartbeat \
    UMPIRE_REQUIRE_TOKEN=1

WORKDIR /app

# DejaVu makes the board's labels crisp (the renderer falls back to Pillow's bitmap font).
RUN apt-get update \
 && apt-get install -y --no-install-recommends fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*

# Dependencies first (read from pyproject.toml, so they are listed in one place) for layer
# caching, pinned to the exact versions the tests ran with (constraints.txt); the wheels of
# discord.py, aiosqlite and Pillow need no compiler.
COPY pyproject.toml constraints.txt ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > /tmp/requirements.txt \
 && pip install -c constraints.txt -r /tmp/requirements.txt \
 && rm /tmp/requirements.txt

COPY bot.py ./
COPY engine ./engine
COPY renderer ./renderer
COPY service ./service
COPY cogs ./cogs
COPY data ./data

RUN useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin umpire \
 && mkdir -p /data && chown umpire:umpire /data
USER umpire
VOLUME ["/data"]

# Healthy = the bot's loop wrote its heartbeat in the last 5 minutes and the database answers.
HEALTHCHECK --interval=60s --timeout=10s --start-period=120s --retries=3 \
  CMD ["python", "-m", "cogs.health"]

CMD ["python", "bot.py"]
