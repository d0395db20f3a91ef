"""The async batch API: many environments stepped concurrently from one event loop.

Gymnasium's vector environments (`gym.make_vec("prove/calendar-v0", num_envs=8,
vectorization_mode="sync" | "async")`) work as they are; `EnvBatch` is for frameworks that own an
event loop and keep many episodes in flight, possibly of different servers:

    batch = EnvBatch.make(["calendar", "banking"] * 8)
    results = await batch.areset([{"task": t} for t in tasks])
    results = await batch.astep(actions)            # one action per environment, in order
    results = await batch.astep(actions, indices=[0, 5, 9])   # or a subset

Each result is what the environment's `reset` / `step` returns. The synchronous `reset` / `step`
run the same coroutines on the private loop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

import gymnasium as gym

from prove_env.env import ProveEnv
from prove_env.runtime import run_sync

__all__ = ["EnvBatch"]


class EnvBatch:
    """A fixed list of `ProveEnv` instances with batched, concurrent reset and step."""

    def __init__(self, envs: Sequence[gym.Env]) -> None:
        if not envs:
            raise ValueError("an EnvBatch needs at least one environment")
        self.envs: list[ProveEnv] = [env.unwrapped for env in envs]  # type: ignore[misc]

    @classmethod
    def make(cls, servers: Sequence[str], **kwargs: Any) -> EnvBatch:
        """One environment per entry of `servers` (names may repeat), all with the same kwargs."""
        import prove_env  # noqa: F401  (registers the environments)

        return cls([gym.make(f"prove/{server}-v0", **kwargs) for server in servers])

    def __len__(self) -> int:
        return len(self.envs)

    async def areset(
        self,
        options: Sequence[dict[str, Any] | None] | None = None,
        *,
        seeds: Sequence[int | None] | None = None,
        indices: Sequence[int] | None = None,
    ) -> list[tuple[str, dict[str, Any]]]:
        chosen = self._indices(indices)
        options = list(options) if options is not None else [None] * len(chosen)
        seeds = list(seeds) if seeds is not None else [None] * len(chosen)
        if not len(options) == len(seeds) == len(chosen):
            raise ValueError(f"{len(chosen)} environments but {len(options)} options and {len(seeds)} seeds")
        return list(await asyncio.gather(*(self.envs[i].areset(seed=s, options=o)
                                           for i, s, o in zip(chosen, seeds, options, strict=True))))

    async def astep(
        self, actions: Sequence[Any], *, indices: Sequence[int] | None = None
    ) -> list[tuple[str, float, bool, bool, dict[str, Any]]]:
        chosen = self._indices(indices)
        if len(actions) != len(chosen):
            raise ValueError(f"{len(chosen)} environments but {len(actions)} actions")
        return list(await asyncio.gather(*(self.envs[i].astep(a) for i, a in zip(chosen, actions, strict=True))))

    def reset(self, options=None, *, seeds=None, indices=None) -> list[tuple[str, dict[str, Any]]]:
        return run_sync(self.areset(options, seeds=seeds, indices=indices))

    def step(self, actions, *, indices=None) -> list[tuple[str, float, bool, bool, dict[str, Any]]]:
        return run_sync(self.astep(actions, indices=indices))

    def close(self) -> None:
        for env in self.envs:
            env.close()

    def _indices(self, indices: Sequence[int] | None) -> list[int]:
        if indices is None:
            return list(range(len(self.envs)))
        bad = [i for i in indices if not 0 <= i < len(self.envs)]
        if bad or len(set(indices)) != len(indices):
            raise ValueError(f"indices must be distinct and in 0..{len(self.envs) - 1}, got {list(indices)}")
        return list(indices)
