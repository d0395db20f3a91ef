"""Serving prove-env's servers to other processes: the wire protocols `prove-env serve` speaks.

- `prove_env.serving.openenv`: OpenEnv's protocol (`--transport openenv`), one isolated episode per
  session, many sessions per process. `python -m prove_env.loadgen --transport openenv` loads it.

Serving code imports the core (episodes, environments, rewards); the core never imports it.
"""
