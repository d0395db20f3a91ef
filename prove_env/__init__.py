"""prove-env: live, stateful MCP tool-use environments with programmatic rewards.

    import gymnasium as gym
    import prove_env

    env = gym.make("prove/calendar-v0")
    observation, info = env.reset(seed=0)

Importing the package registers `prove/<server>-v0` for every shipped server;
`gym.make("prove_env:prove/calendar-v0")` imports it on the fly.
"""

from __future__ import annotations

import gymnasium as gym

from prove_env.registry import get_toolkit, server_names
from prove_env.reward import PAPER, STATE, RewardBreakdown, RewardConfig, compute_reward
from prove_env.task import GoldCall, Task, load_tasks
from prove_env.toolkit import Toolkit, ToolError, tool
from prove_env.world import World, worlds

__version__ = "0.1.0"

__all__ = [
    "PAPER",
    "STATE",
    "GoldCall",
    "RewardBreakdown",
    "RewardConfig",
    "Task",
    "ToolError",
    "Toolkit",
    "World",
    "compute_reward",
    "get_toolkit",
    "load_tasks",
    "server_names",
    "tool",
    "worlds",
]

for _name in server_names():
    _id = f"prove/{_name}-v0"
    if _id not in gym.registry:
        gym.register(id=_id, entry_point="prove_env.env:ProveEnv", kwargs={"server": _name})
