"""Shared fixtures: servers driven through real in-process MCP, the way environments use them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest

from prove_env.mcp_server import ToolClient, WorldSlot, build_server
from prove_env.registry import get_toolkit
from prove_env.runtime import run_sync
from prove_env.world import World, worlds


@dataclass
class Result:
    ok: bool
    text: str

    @property
    def data(self) -> Any:
        assert self.ok, self.text
        return json.loads(self.text)


_SOUND: set[tuple[str, int]] = set()  # (server, seed) whose fresh world was checked


def assert_sound(world: World, where: str) -> None:
    """The world breaks none of its rules (`World.violations`)."""
    problems = world.violations()
    assert not problems, f"{where} left the {world.toolkit.name} world breaking its rules: {problems[:5]}"


class Served:
    """One server over one fresh world, called through a real MCP client session.

    Every call is checked: one that changed the world must leave it breaking none of its rules
    (the database's integrity and the server's invariants), and the fresh world is checked too.
    Tool arguments are keywords; a tool's own `name` or `match` argument is one too, since the
    helpers take the tool's name and the expected error positionally.
    """

    def __init__(self, server: str, seed: int = 0, include_hidden: bool = False) -> None:
        self.toolkit = get_toolkit(server)
        self.world: World = worlds.create(self.toolkit, seed)
        if (server, seed) not in _SOUND:
            assert_sound(self.world, f"seed {seed}")
            _SOUND.add((server, seed))
        self.slot = WorldSlot(self.toolkit, self.world)
        self.client = ToolClient(build_server(self.toolkit, self.slot, include_hidden=include_hidden)).open()

    def call(self, name: str, /, **arguments: Any) -> Result:
        before = self.world.digest()
        result = run_sync(self.client.call(name, arguments))
        if self.world.digest() != before:
            assert_sound(self.world, f"{name}({arguments})")
        return Result(ok=not result.is_error, text=result.content[0].text if result.content else "")

    def ok(self, name: str, /, **arguments: Any) -> Any:
        """Call a tool that must succeed and return its decoded result."""
        result = self.call(name, **arguments)
        assert result.ok, f"{name}({arguments}) failed: {result.text}"
        return result.data

    def fails(self, name: str, match: str = "", /, **arguments: Any) -> str:
        """Call a tool that must be refused with a readable error containing `match`
        (case-insensitive) and leave the world exactly as it was; return the error."""
        before = self.world.digest()
        result = self.call(name, **arguments)
        assert not result.ok, f"{name}({arguments}) should have failed but returned {result.text}"
        assert match.lower() in result.text.lower(), f"error {result.text!r} does not mention {match!r}"
        assert self.world.digest() == before, f"refused {name}({arguments}) changed the world"
        return result.text

    def same(self, name: str, /, **arguments: Any) -> Any:
        """Call a tool that must succeed and leave the world exactly as it was (a repeat of a
        set-like change: archiving what is archived); return its decoded result."""
        before = self.world.digest()
        out = self.ok(name, **arguments)
        assert self.world.digest() == before, f"{name}({arguments}) changed the world"
        return out

    def repeat(self, name: str, /, **arguments: Any) -> tuple[Any, Any]:
        """Call a tool that must succeed, then the same call again at once: the repeat succeeds too
        and changes nothing (what an idempotent tool promises); return both decoded results."""
        return self.ok(name, **arguments), self.same(name, **arguments)

    def close(self) -> None:
        self.client.close()
        self.world.close()


@pytest.fixture
def served():
    opened: list[Served] = []

    def make(server: str, seed: int = 0, include_hidden: bool = False) -> Served:
        s = Served(server, seed, include_hidden)
        opened.append(s)
        return s

    yield make
    for s in opened:
        s.close()


@pytest.fixture
def play():
    """Play a task through the Gymnasium environment with the given actions (calls as
    {"name", "arguments"} dicts, answers as text); return the last step's info, which holds
    `success` and `reward_breakdown`."""
    import gymnasium as gym

    import prove_env  # noqa: F401 - registers the environments

    def run(task, actions: list[Any]) -> dict[str, Any]:
        env = gym.make(f"prove/{task.server}-v0", max_steps=len(actions) + 1)
        try:
            env.reset(options={"task": task})
            for action in actions:
                _, _, terminated, truncated, info = env.step(action)
                if terminated or truncated:
                    assert_sound(env.unwrapped.episode.world, f"the episode of {task.id}")
                    return info
            raise AssertionError("the actions did not end the episode: answer every user turn")
        finally:
            env.close()

    return run


@pytest.fixture
def goal_asks():
    """The requests every goal of a server's recipe draws on the bundles of some worlds: (goal, ask)
    for `draws` tries of each goal per world seed (a try may draw nothing), with a random generator
    seeded by `salt` and the world's seed."""
    import random

    from prove_env.synthesis.recipe import Reader, get_recipe

    def draw(server: str, seeds=(0,), draws: int = 40, salt: str = "asks"):
        toolkit, recipe = get_toolkit(server), get_recipe(server)
        for seed in seeds:
            world = worlds.create(toolkit, seed)
            try:
                rng = random.Random(f"{server} {salt} {seed}")
                bundles = recipe.sample(Reader(toolkit, world), world.now, rng)
            finally:
                world.close()
            for goal in recipe.goals:
                for _ in range(draws):
                    ask = goal.build(rng.choice(bundles), rng)
                    if ask is not None:
                        yield goal, ask

    return draw
