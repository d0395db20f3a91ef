"""State-grounded task synthesis: tasks written from live worlds and verified by execution.

`prove-env synth` runs the pipeline (`pipeline.synthesize`); `prove-env graph` prints a server's
dependency graph (`graph.dependency_graph`). See docs/synthesis.md.
"""

from prove_env.synthesis.config import SynthConfig
from prove_env.synthesis.graph import DependencyGraph, dependency_graph
from prove_env.synthesis.pipeline import SynthResult, synthesize, write_output

__all__ = ["SynthConfig", "DependencyGraph", "dependency_graph", "synthesize", "write_output", "SynthResult"]
