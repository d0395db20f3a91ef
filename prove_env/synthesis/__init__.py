"""State-grounded task synthesis: tasks written from live worlds and verified by execution.

`prove-env synth` runs the pipeline (`pipeline.synthesize`); `prove-env graph` prints a server's
dependency graph (`graph.dependency_graph`). See docs/synthesis.md.
"""

import importlib
from typing import Any

__all__ = ["SynthConfig", "DependencyGraph", "dependency_graph", "synthesize", "write_output", "SynthResult"]

_HOMES = {"SynthConfig": "config", "DependencyGraph": "graph", "dependency_graph": "graph",
          "synthesize": "pipeline", "write_output": "pipeline", "SynthResult": "pipeline"}


def __getattr__(name: str) -> Any:
    # Imported on first use: every `prove-env` command reads SynthConfig's defaults for its help
    # text, and only `synth` and `graph` need the pipeline and the environments behind it.
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
