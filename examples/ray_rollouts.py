"""Roll out a scripted policy on the shipped fixture tasks with a pool of Ray actors.

    pip install "prove-env[ray]"
    python examples/ray_rollouts.py --actors 2 --envs-per-actor 4 --policy gold --trials 5

Starts a local Ray instance (or joins one with --address), plays every fixture task of the chosen
servers `--trials` times inside the actors, then drives one batched reset/step round through the
pool the way an RL trainer would, and prints the success rate and episodes per second.
"""

from __future__ import annotations

import argparse
import time

import ray

from prove_env.integrations.ray import RayEnvPool
from prove_env.registry import server_names
from prove_env.task import fixture_tasks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actors", type=int, default=2, help="Ray actors (one process each)")
    parser.add_argument("--envs-per-actor", type=int, default=4, help="environments hosted by each actor")
    parser.add_argument("--servers", default=",".join(server_names()), help="comma-separated servers")
    parser.add_argument("--policy", default="gold", choices=["gold", "noop", "random"])
    parser.add_argument("--trials", type=int, default=3, help="episodes per task")
    parser.add_argument("--address", default=None, help="an existing Ray cluster (default: start a local one)")
    parser.add_argument("--num-cpus", type=int, default=None, help="CPUs of the local Ray instance")
    args = parser.parse_args()

    servers = [s for s in args.servers.split(",") if s]
    tasks = [t for s in servers for t in fixture_tasks(s)]
    started = time.perf_counter()
    ray.init(address=args.address, num_cpus=args.num_cpus, include_dashboard=False, log_to_driver=False)
    pool = RayEnvPool(args.actors, args.envs_per_actor, servers=servers)
    print(f"{pool.num_envs} environments in {args.actors} actors, ready in {time.perf_counter() - started:.1f} s")

    # 1. Whole episodes inside the actors.
    pool.warm_up(tasks)  # builds each task's world and reference state once in every actor
    started = time.perf_counter()
    records = pool.rollout(tasks, args.policy, trials=args.trials)
    elapsed = time.perf_counter() - started
    success = sum(r["success"] for r in records) / len(records)
    reward = sum(r["reward"] for r in records) / len(records)
    print(f"rollout  {args.policy}: {len(records)} episodes ({len(tasks)} tasks x {args.trials} trials), "
          f"success {success:.1%}, mean reward {reward:.3f}, {len(records) / elapsed:.1f} episodes/s")

    # 2. Batched reset/step from the driver: one action per live environment per round, as a trainer
    #    that samples actions centrally would (here, the gold calls stand in for a model).
    envs = list(range(pool.num_envs))
    by_server = {s: [t for t in tasks if t.server == s] for s in servers}
    chosen = [by_server[pool.servers[i]][i // len(servers) % len(by_server[pool.servers[i]])] for i in envs]
    plans = [[action for turn in task.gold
              for action in [*({"name": c.name, "arguments": dict(c.arguments)} for c in turn), "Done."]]
             for task in chosen]
    started = time.perf_counter()
    pool.reset(envs, chosen)
    live, step, steps, rewards = envs, 0, 0, {}
    while live:
        results = pool.step(live, [plans[i][step] if step < len(plans[i]) else "Done." for i in live])
        steps += len(live)
        for i, (_, r, terminated, truncated, _) in zip(live, results, strict=True):
            if terminated or truncated:
                rewards[i] = r
        live = [i for i in live if i not in rewards]
        step += 1
    elapsed = time.perf_counter() - started
    print(f"reset/step: {len(envs)} episodes, {steps} steps in {step} batched rounds, "
          f"mean reward {sum(rewards.values()) / len(rewards):.3f}, {steps / elapsed:.0f} steps/s")

    pool.close()
    ray.shutdown()


if __name__ == "__main__":
    main()
