# The tablebot image: a small runtime image, run as an unprivileged user, with the replay's C
# extension built and the data in a volume. Configuration comes from the environment (every
# variable in .env.example); docs/operating.md "In a container" says how to build and run it.
#
#   podman build --build-arg VERSION=0.2.0 -t tablebot:0.2.0 .      (docker build works the same)
#
# The base images are build arguments so that a mirror, or a locally built stand-in, can take
# their place; both must be the same Python on the same Debian, as the official pair are.
ARG PYTHON_BUILD_IMAGE=docker.io/library/python:3.11-bookworm
ARG PYTHON_IMAGE=docker.io/library/python:3.11-slim-bookworm

# The build stage has the C compiler and headers; only the finished environment leaves it.
FROM ${PYTHON_BUILD_IMAGE} AS build
# The release's version (setuptools-scm reads it here, as the context holds no git history).
ARG VERSION=0+unknown
COPY . /src
RUN python3 -m venv /opt/tablebot \
 && SETUPTOOLS_SCM_PRETEND_VERSION="${VERSION}" /opt/tablebot/bin/pip install --no-cache-dir /src \
 && /opt/tablebot/bin/python -c "import render._lzw"
# (the C extension is optional in pyproject.toml; the import above fails the build without it)

FROM ${PYTHON_IMAGE}
RUN useradd --user-group --uid 10001 --home-dir /data --no-create-home --shell /usr/sbin/nologin tablebot \
 && mkdir -p /data && chown tablebot:tablebot /data
COPY --from=build /opt/tablebot /opt/tablebot
# The data (a SQLite file unless DATABASE_URL names PostgreSQL, and the console's pictures) goes
# in the volume. Health and metrics are on, on every address of the container: publish the port
# to your monitoring only.
ENV PATH=/opt/tablebot/bin:$PATH \
    PYTHONUNBUFFERED=1 \
    TABLEBOT_DB=/data/tablebot.sqlite3 \
    TABLEBOT_IMAGES=/data/images \
    HEALTH_PORT=9108 \
    HEALTH_HOST=0.0.0.0
VOLUME /data
WORKDIR /data
USER tablebot
EXPOSE 9108
# /healthz answers 503 when the gateway, the event loop or the database fails (urlopen raises).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["python", "-c", "import os, urllib.request; urllib.request.urlopen('http://127.0.0.1:%s/healthz' % os.environ['HEALTH_PORT'], timeout=4)"]
# `python -m bot` connects to Discord when DISCORD_TOKEN is set; `backup`, `migrate`, `console`
# and `--version` are given as the command.
ENTRYPOINT ["python", "-m", "bot"]
