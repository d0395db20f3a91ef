# prove-env as an OpenEnv environment: `prove-env serve <server> --transport openenv` in a container.
#
#   docker build -t prove-env-openenv . && docker run -p 8000:8000 prove-env-openenv
#   openenv push --exclude .dockerignore            # a Hugging Face Space (openenv.yaml names it)
#
# Sessions reset on any of the twenty servers (the reset's `server`); PROVE_ENV_SERVER is the one a reset that
# names none plays. docs/serving.md ("OpenEnv") has the protocol, the options and the figures.
FROM python:3.11-slim

WORKDIR /app
# The package as pyproject.toml builds it (.dockerignore leaves out what it does not need).
COPY . .
RUN pip install --no-cache-dir ".[openenv]" \
    && useradd --create-home --uid 1000 user

# Hugging Face Spaces run the container as user 1000; worlds live in memory, only a small cache is written.
USER user
ENV PROVE_ENV_SERVER=calendar \
    PORT=8000
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=20s --retries=3 \
    CMD python -c "import os, urllib.request; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/health', timeout=2)"
# Every session's world is in this process: one process, on all interfaces (the container's network is the boundary).
CMD ["sh", "-c", "exec prove-env serve \"$PROVE_ENV_SERVER\" --transport openenv --host 0.0.0.0 --port \"$PORT\""]
