"""The servers that ship with prove-env, one package per server (see prove_env.registry)."""
