"""Serving prove-env's servers to other processes over the network: the wire protocols `prove-env serve` speaks.

- `prove_env.serving.http`: MCP over streamable HTTP (`--transport http`), many isolated episodes per
  process at `/episodes/<id>/mcp`.
- `prove_env.serving.openenv`: OpenEnv's protocol (`--transport openenv`), one isolated episode per
  session, many sessions per process.
- `prove_env.serving.loadgen`: the load generator that measures both (`python -m prove_env.serving.loadgen`).

Serving code imports the core (episodes, environments, rewards); the core never imports it. One world
over stdio needs no folder of its own: `prove_env.mcp_server` builds the MCP server the core uses.
"""
