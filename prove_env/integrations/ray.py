"""Many environments on many machines: a pool of Ray actors, each hosting a group of environments.

Install the extra first: `pip install "prove-env[ray]"`. Nothing here imports Ray until a
`RayEnvPool` is made, and `import prove_env` never does.

    from prove_env.integrations.ray import RayEnvPool

    pool = RayEnvPool(num_actors=4, envs_per_actor=16, servers=["calendar", "banking"])
    firsts = pool.reset([0, 1, 2], [task_a, task_b, task_c])     # [(observation, info), ...]
    results = pool.step([2, 0], [action_c, action_a])           # [(obs, reward, terminated, truncated, info), ...]
    records = pool.rollout(tasks, "gold", trials=3)             # run_episode's records, in input order
    pool.close()

The reusable logic lives in the plain class `EnvGroup` (K environments in one process, batched reset
and step stepped concurrently on one event loop through `prove_env.batch.EnvBatch`);
`RayEnvPool` only makes `ray.remote(EnvGroup)` actors and routes flat environment indices to them.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import numbers
from collections.abc import Sequence
from typing import Any, Self

from prove_env.batch import EnvBatch
from prove_env.evaluate import run_episode
from prove_env.policies import SCRIPTED, make_policy
from prove_env.registry import UnknownServerError, server_names
from prove_env.task import Task, TaskError

__all__ = ["EnvGroup", "RayEnvPool", "reset_options", "rollout_steps"]

Reset = tuple[str, dict[str, Any]]
Step = tuple[str, float, bool, bool, dict[str, Any]]

_INSTALL = 'the Ray pool needs Ray: pip install "prove-env[ray]" (or pip install "ray>=2.40")'


def _import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ImportError(_INSTALL) from exc
    return ray


def reset_options(spec: Any) -> dict[str, Any] | None:
    """What to start, as `env.reset` options.

    `spec` is a `Task`, a task as a dict, reset options (a dict with `"task"` or `"task_id"`), or
    None (a task drawn from the environment's own task set).
    """
    if spec is None:
        return None
    if isinstance(spec, Task):
        return {"task": spec}
    if isinstance(spec, dict):
        if "task" in spec or "task_id" in spec:
            options = dict(spec)
            if "task" in options:
                options["task"] = Task.parse(options["task"], "options['task']")
            return options
        return {"task": Task.parse(spec)}
    raise TypeError(f"expected a Task, a task dict, reset options or None, got {type(spec).__name__}")


def _check_server(options: dict[str, Any] | None, server: str, env: int) -> None:
    task = (options or {}).get("task")
    if isinstance(task, Task) and task.server != server:
        raise TaskError(f"env {env} serves {server!r}, but task {task.id!r} is for server {task.server!r}")


def rollout_steps(tasks: Sequence[Task], max_steps: int = 10) -> dict[str, int]:
    """Per server, the step limit a rollout uses: `max_steps`, raised so every task's gold path fits."""
    steps: dict[str, int] = {}
    for task in tasks:
        need = max(max_steps, len(task.gold_calls) + len(task.user_turns) + 1)
        steps[task.server] = max(steps.get(task.server, 0), need)
    return steps


class EnvGroup:
    """K environments of given servers in one process, with batched reset, step and rollouts.

    Slots are numbered 0..K-1; `servers[k]` is slot k's server. `env_kwargs` go to every
    `gym.make` (`reward`, `max_steps`, ...). A batch's environments are stepped concurrently on one
    event loop (`EnvBatch`); each result is exactly what that environment's `reset` / `step` returns.
    This class knows nothing of Ray: `RayEnvPool` runs it as an actor.
    """

    def __init__(self, servers: Sequence[str], *, env_kwargs: dict[str, Any] | None = None,
                 first_index: int = 0) -> None:
        if not servers:
            raise ValueError("an EnvGroup needs at least one server")
        self.servers = list(servers)
        self.env_kwargs = dict(env_kwargs or {})
        self.first_index = first_index  # the pool's index of slot 0, for error messages
        self._batch = EnvBatch.make(self.servers, **self.env_kwargs)
        self._rollout_envs: dict[tuple[str, int], Any] = {}

    def __len__(self) -> int:
        return len(self.servers)

    def ready(self) -> int:
        """The number of environments (a cheap call that returns once the group is built)."""
        return len(self.servers)

    def reset_batch(self, items: Sequence[tuple[int, Any] | tuple[int, Any, int | None]]) -> list[Reset]:
        """Reset the given slots: `(slot, spec)` or `(slot, spec, seed)`, spec as in `reset_options`.

        Returns `(observation, info)` per item, in the order given.
        """
        slots = self._slots([item[0] for item in items])
        options = [reset_options(item[1]) for item in items]
        for slot, opts in zip(slots, options, strict=True):
            _check_server(opts, self.servers[slot], self.first_index + slot)
        seeds = [item[2] if len(item) > 2 else None for item in items]
        return self._batch.reset(options, seeds=seeds, indices=slots)

    def step_batch(self, items: Sequence[tuple[int, Any]]) -> list[Step]:
        """Step the given slots: `(slot, action)`. Returns `(obs, reward, terminated, truncated, info)`
        per item, in the order given."""
        slots = self._slots([slot for slot, _ in items])
        return self._batch.step([action for _, action in items], indices=slots)

    def rollout(self, jobs: Sequence[tuple[Task, int]], policy: str,
                steps: dict[str, int] | None = None) -> list[dict[str, Any]]:
        """Play each `(task, trial)` to the end with a scripted policy; `run_episode`'s records, in order.

        Rollouts use environments of their own (one per server and step limit, kept for the next
        call), so they never disturb the episodes in progress in the slots.
        """
        if policy not in SCRIPTED:
            raise ValueError(f"rollout runs the scripted policies {sorted(SCRIPTED)}, not {policy!r}")
        steps = steps or {}
        records = []
        for task, trial in jobs:
            limit = steps.get(task.server, self.env_kwargs.get("max_steps", 10))
            env = self._rollout_env(task.server, limit)
            records.append(run_episode(env, make_policy(policy), task, trial))
        return records

    def close(self) -> None:
        self._batch.close()
        for env in self._rollout_envs.values():
            env.close()
        self._rollout_envs.clear()

    def _rollout_env(self, server: str, max_steps: int) -> Any:
        env = self._rollout_envs.get((server, max_steps))
        if env is None:
            import gymnasium as gym

            env = gym.make(f"prove/{server}-v0", **{**self.env_kwargs, "max_steps": max_steps})
            self._rollout_envs[(server, max_steps)] = env
        return env

    def _slots(self, slots: Sequence[int]) -> list[int]:
        out = []
        for slot in slots:
            if not _is_index(slot, len(self.servers)):
                raise IndexError(f"slot {slot!r} is out of range: this group has slots 0..{len(self.servers) - 1}")
            out.append(int(slot))
        if len(set(out)) != len(out):
            raise ValueError(f"a batch names each slot at most once, got {out}")
        return out


class RayEnvPool:
    """`num_actors` Ray actors, each an `EnvGroup` of `envs_per_actor` environments.

    Environment `i` (0..num_envs-1) lives in actor `i // envs_per_actor`, slot `i % envs_per_actor`,
    and serves `servers[i % len(servers)]` (`self.servers[i]` says which). `reset` and `step` take
    a flat list of environment indices, send each actor its share in one call, run the actors in
    parallel, and return the results in the order of the indices. `rollout` plays whole episodes
    of scripted policies inside the actors.

    Connects to the running Ray instance (`ray.init(...)` first to choose one; otherwise Ray
    starts a local one). Each actor reserves `num_cpus_per_actor` CPUs; `actor_options` go to
    `.options(...)` of the actor class (`num_gpus`, `scheduling_strategy`, `runtime_env`, ...).
    """

    def __init__(
        self,
        num_actors: int = 2,
        envs_per_actor: int = 8,
        servers: str | Sequence[str] | None = None,
        *,
        env_kwargs: dict[str, Any] | None = None,
        num_cpus_per_actor: float = 1,
        actor_options: dict[str, Any] | None = None,
    ) -> None:
        ray = _import_ray()
        if num_actors < 1 or envs_per_actor < 1:
            raise ValueError("num_actors and envs_per_actor must be at least 1")
        if servers is None:
            servers = server_names()
        elif isinstance(servers, str):
            servers = [servers]
        servers = list(servers)
        if not servers:
            raise ValueError("servers is empty")
        for server in servers:
            if server not in server_names():
                raise UnknownServerError(server)
        self._ray = ray
        self.num_actors = num_actors
        self.envs_per_actor = envs_per_actor
        self.num_envs = num_actors * envs_per_actor
        self.servers = [servers[i % len(servers)] for i in range(self.num_envs)]
        self.env_kwargs = dict(env_kwargs or {})
        actor_class = ray.remote(EnvGroup).options(num_cpus=num_cpus_per_actor, **(actor_options or {}))
        k = envs_per_actor
        self._actors = [actor_class.remote(self.servers[a * k:(a + 1) * k], env_kwargs=self.env_kwargs,
                                           first_index=a * k)
                        for a in range(num_actors)]
        try:
            ray.get([actor.ready.remote() for actor in self._actors])  # surface construction errors here
        except BaseException:
            self.close()
            raise

    def __len__(self) -> int:
        return self.num_envs

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return not self._actors

    # -- batched reset and step -------------------------------------------------------------------

    def reset(self, indices: Sequence[int], tasks: Sequence[Any] | None = None, *,
              seeds: Sequence[int | None] | None = None) -> list[Reset]:
        """Start an episode in each environment of `indices`; `(observation, info)` per index, in order.

        `tasks[j]` (for `indices[j]`) is a `Task`, a task dict, reset options (`{"task_id": ...}`),
        or None for a task drawn from the environment's task set (seeded by `seeds[j]`).
        """
        return self._gather(self._reset_calls(indices, tasks, seeds))

    def step(self, indices: Sequence[int], actions: Sequence[Any]) -> list[Step]:
        """Step each environment of `indices` with `actions[j]`; `(obs, reward, terminated, truncated,
        info)` per index, in order. An action is anything `env.step` accepts."""
        return self._gather(self._step_calls(indices, actions))

    async def areset(self, indices: Sequence[int], tasks: Sequence[Any] | None = None, *,
                     seeds: Sequence[int | None] | None = None) -> list[Reset]:
        """`reset` for async callers: awaits the actors without blocking the event loop."""
        return await self._agather(self._reset_calls(indices, tasks, seeds))

    async def astep(self, indices: Sequence[int], actions: Sequence[Any]) -> list[Step]:
        """`step` for async callers: awaits the actors without blocking the event loop."""
        return await self._agather(self._step_calls(indices, actions))

    # -- rollouts ---------------------------------------------------------------------------------

    def rollout(self, tasks: Sequence[Task | dict[str, Any]], policy_name: str = "gold", trials: int = 1, *,
                max_steps: int | None = None, chunk_size: int | None = None) -> list[dict[str, Any]]:
        """Play every (task, trial) to the end with a scripted policy (gold, noop, random) in the actors.

        Returns `prove_env.evaluate.run_episode`'s record per episode, ordered task by task and,
        within a task, trial by trial (`[(t0, 0), (t0, 1), ..., (t1, 0), ...]`). The step limit is
        `max_steps` (default: `env_kwargs`' or 10), raised for a server whose tasks' gold paths need
        more, as `prove-env eval` does. Episodes go out in chunks of `chunk_size` to whichever
        actor is free.
        """
        self._check_open()
        if policy_name not in SCRIPTED:
            raise ValueError(f"rollout runs the scripted policies {sorted(SCRIPTED)}, not {policy_name!r}")
        if trials < 1:
            raise ValueError("trials must be at least 1")
        parsed = [Task.parse(t, f"tasks[{i}]") for i, t in enumerate(tasks)]
        for task in parsed:
            if task.server not in server_names():
                raise UnknownServerError(task.server)
        jobs = [(task, trial) for task in parsed for trial in range(trials)]
        if not jobs:
            return []
        steps = rollout_steps(parsed, max_steps if max_steps is not None else self.env_kwargs.get("max_steps", 10))
        if chunk_size is None:
            chunk_size = max(1, -(-len(jobs) // (4 * self.num_actors)))
        chunks = [jobs[i:i + chunk_size] for i in range(0, len(jobs), chunk_size)]
        from ray.util import ActorPool

        pool = ActorPool(self._actors)
        results = pool.map(lambda actor, chunk: actor.rollout.remote(chunk, policy_name, steps), chunks)
        return list(itertools.chain.from_iterable(results))

    def warm_up(self, tasks: Sequence[Task | dict[str, Any]]) -> None:
        """Build every task's start world and reference state in every actor (by playing it once
        with `noop`), so that the first timed batch or rollout does not pay for it."""
        self._check_open()
        jobs = [(Task.parse(t, f"tasks[{i}]"), 0) for i, t in enumerate(tasks)]
        if jobs:
            self._ray.get([actor.rollout.remote(jobs, "noop") for actor in self._actors])

    # -- lifetime ---------------------------------------------------------------------------------

    def close(self) -> None:
        """Close every environment and end the actors. Idempotent."""
        actors, self._actors = getattr(self, "_actors", []), []
        if not actors:
            return
        ray = self._ray
        with contextlib.suppress(Exception):  # a dead or stuck actor is killed below all the same
            ray.get([actor.close.remote() for actor in actors], timeout=30)
        for actor in actors:
            ray.kill(actor)

    # -- internals --------------------------------------------------------------------------------

    def _reset_calls(self, indices: Sequence[int], tasks: Sequence[Any] | None,
                     seeds: Sequence[int | None] | None) -> tuple[list[list[int]], list[Any]]:
        indices = self._indices(indices)
        tasks = list(tasks) if tasks is not None else [None] * len(indices)
        seeds = list(seeds) if seeds is not None else [None] * len(indices)
        if not len(tasks) == len(seeds) == len(indices):
            raise ValueError(f"{len(indices)} indices but {len(tasks)} tasks and {len(seeds)} seeds")
        items = []
        for index, spec, seed in zip(indices, tasks, seeds, strict=True):
            options = reset_options(spec)
            _check_server(options, self.servers[index], index)
            items.append((options, seed))
        return self._route(indices, lambda actor, batch: actor.reset_batch.remote(batch),
                           lambda slot, j: (slot, *items[j]))

    def _step_calls(self, indices: Sequence[int], actions: Sequence[Any]) -> tuple[list[list[int]], list[Any]]:
        indices = self._indices(indices)
        actions = list(actions)
        if len(actions) != len(indices):
            raise ValueError(f"{len(indices)} indices but {len(actions)} actions")
        return self._route(indices, lambda actor, batch: actor.step_batch.remote(batch),
                           lambda slot, j: (slot, actions[j]))

    def _route(self, indices: list[int], call: Any, item: Any) -> tuple[list[list[int]], list[Any]]:
        """One remote call per actor concerned; returns (positions per call, object refs)."""
        by_actor: dict[int, list[int]] = {}
        for j, index in enumerate(indices):
            by_actor.setdefault(index // self.envs_per_actor, []).append(j)
        positions, refs = [], []
        for a, js in by_actor.items():
            batch = [item(indices[j] % self.envs_per_actor, j) for j in js]
            positions.append(js)
            refs.append(call(self._actors[a], batch))
        return positions, refs

    def _gather(self, calls: tuple[list[list[int]], list[Any]]) -> list[Any]:
        positions, refs = calls
        return _in_order(positions, self._ray.get(refs))

    async def _agather(self, calls: tuple[list[list[int]], list[Any]]) -> list[Any]:
        positions, refs = calls
        return _in_order(positions, await asyncio.gather(*refs))

    def _indices(self, indices: Sequence[int]) -> list[int]:
        self._check_open()
        out = []
        for index in indices:
            if not _is_index(index, self.num_envs):
                raise IndexError(f"environment index {index!r} is out of range: this pool has environments "
                                 f"0..{self.num_envs - 1}")
            out.append(int(index))
        if len(set(out)) != len(out):
            raise ValueError(f"each environment may appear at most once per call, got indices {out}")
        return out

    def _check_open(self) -> None:
        if self.closed:
            raise RuntimeError("this RayEnvPool is closed")


def _is_index(value: Any, size: int) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool) and 0 <= value < size


def _in_order(positions: list[list[int]], results: list[list[Any]]) -> list[Any]:
    out: list[Any] = [None] * sum(len(js) for js in positions)
    for js, batch in zip(positions, results, strict=True):
        for j, result in zip(js, batch, strict=True):
            out[j] = result
    return out
