"""The verifiers taskset `prove-env-verifiers`: verifiers finds a taskset by a top-level module name
and takes the Taskset and Env its `__all__` exports. The code is `prove_env.integrations.verifiers`."""

from prove_env.integrations.verifiers import ProveTaskset, ProveVerifiersEnv

__all__ = ["ProveTaskset", "ProveVerifiersEnv"]
