"""The TRL adapter: generated tool methods, the shim over ProveEnv, the dataset and the reward functions."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("datasets")
transformers_utils = pytest.importorskip("transformers.utils")

from prove_env.env import ProveEnv
from prove_env.policies import GoldPolicy
from prove_env.task import Task, fixture_tasks
from prove_env.trl_adapter import (
    REWARD_COMPONENTS,
    ProveToolEnv,
    ToolCallError,
    environment_factory,
    environment_tools,
    make_dataset,
    make_environment_class,
    merge_user_turns,
    reward_funcs,
    tool_schemas,
)

SERVERS = ("banking", "calendar", "filesystem")


def _rewards(env: ProveToolEnv, completion: list[dict]) -> dict[str, float]:
    """What GRPOTrainer computes for one rollout: the component functions, then the env's get_reward."""
    out = {f.__name__: f(completions=[completion], environments=[env])[0] for f in reward_funcs()}
    out["total"] = env.get_reward()
    return out


def _play(env: ProveToolEnv, calls: list[dict], answer: str = "Done.") -> list[dict]:
    """Call the tools as TRL's loop does (one assistant message per call) and return the completion."""
    completion: list[dict] = []
    methods = {m.__name__: m for m in environment_tools(env)}
    for call in calls:
        completion.append({"role": "assistant", "content": "",
                           "tool_calls": [{"type": "function", "function": dict(call)}]})
        try:
            result = methods[call["name"]](**call["arguments"])
        except KeyError:
            result = {"error": f"Tool {call['name']} not found."}  # TRL's answer; the env never sees the call
        except ToolCallError as exc:
            result = {"error": str(exc)}
        completion.append({"role": "tool", "name": call["name"], "content": str(result)})
    completion.append({"role": "assistant", "content": answer})
    return completion


@pytest.mark.parametrize("server", SERVERS)
def test_generated_signatures_match_the_tool_schemas(server: str) -> None:
    env = make_environment_class(server)()
    methods = {m.__name__: m for m in environment_tools(env)}
    schemas = tool_schemas(server)
    assert sorted(methods) == sorted(t["function"]["name"] for t in schemas)
    for tool in schemas:
        expected = tool["function"]
        got = transformers_utils.get_json_schema(methods[expected["name"]])["function"]
        assert got["description"] == expected["description"]
        props = expected["parameters"]["properties"]
        assert set(got["parameters"].get("required", [])) == set(expected["parameters"]["required"])
        assert list(got["parameters"]["properties"]) == (
            [p for p in props if p in expected["parameters"]["required"]]
            + [p for p in props if p not in expected["parameters"]["required"]]
        )
        for name, spec in props.items():
            rendered = dict(got["parameters"]["properties"][name])
            assert rendered.pop("description") == " ".join(spec["description"].split())
            assert rendered == {k: v for k, v in spec.items() if k not in ("description", "default")}, (
                expected["name"], name)


def test_reserved_and_private_names_are_not_tools() -> None:
    env = make_environment_class("banking")()
    names = {m.__name__ for m in environment_tools(env)}
    assert "reset" not in names and "get_reward" not in names and not any(n.startswith("_") for n in names)


@pytest.mark.parametrize("server", SERVERS)
def test_gold_trajectory_through_the_shim_earns_the_maximum_reward(server: str) -> None:
    rows = make_dataset(servers=[server])
    cls = make_environment_class(server)
    env = cls()
    reference = ProveEnv(server)
    for row in rows:
        task = Task.parse(row["task"])
        assert env.reset(**row) is None
        gold = [{"name": g.name, "arguments": dict(g.arguments)} for g in task.gold_calls]
        rewards = _rewards(env, _play(env, gold))
        expected_max = 1.0 if task.abstain else 1.3
        assert rewards["total"] == pytest.approx(expected_max), row["task_id"]
        assert rewards["prove_success"] == 1.0
        # The same trajectory played directly through the Gymnasium env scores the same.
        observation, info = reference.reset(options={"task": task})
        policy = GoldPolicy()
        policy.start(task, info, 0)
        done = False
        while not done:
            observation, reward, terminated, truncated, info = reference.step(policy.act(observation, info))
            done = terminated or truncated
        assert reward == pytest.approx(rewards["total"])
    reference.close()


def test_tool_results_are_strings_and_errors_raise() -> None:
    env = make_environment_class("banking")()
    env.reset(task=fixture_tasks("banking")[0].to_json())
    result = env.find_customers(name="Vicki Burgess")
    assert isinstance(result, str) and "CUS-0014" in result
    with pytest.raises(ToolCallError, match="(?i)unexpected|unknown|not allowed|extra"):
        env.find_customers(nickname="Vicki")  # an argument the tool does not take
    with pytest.raises(ToolCallError):
        env.get_customer(customer_id=14)  # a number where the schema says string
    with pytest.raises(ToolCallError):
        env.get_customer()  # a required argument missing
    breakdown = env._finish([])
    assert breakdown["validity"] < 1.0  # the failed calls are scored as the environment scores them
    with pytest.raises(ToolCallError, match="ended"):
        env.find_customers(name="Vicki Burgess")


def test_validity_counts_calls_that_never_reached_the_environment() -> None:
    task = fixture_tasks("banking")[0]  # find_customers, then get_spending_summary
    gold = [{"name": g.name, "arguments": dict(g.arguments)} for g in task.gold_calls]
    unknown = {"name": "book_flight", "arguments": {"to": "Lisbon"}}
    env = make_environment_class("banking")()
    env.reset(task=task.to_json())
    rewards = _rewards(env, _play(env, [gold[0], unknown, gold[1]]))
    assert rewards["prove_validity"] == pytest.approx(2 / 3)  # two valid calls of three
    assert rewards["prove_coverage"] == 1.0
    assert rewards["prove_name"] == pytest.approx(2 / 3)
    # ProveEnv playing the same three calls gives the same breakdown and total.
    direct = ProveEnv("banking")
    direct.reset(options={"task": task})
    for call in (gold[0], unknown, gold[1]):
        direct.step(call)
    *_, info = direct.step("Done.")
    direct.close()
    for component in REWARD_COMPONENTS:
        assert rewards[f"prove_{component}"] == pytest.approx(float(info["reward_breakdown"][component]))
    assert rewards["total"] == pytest.approx(info["reward_breakdown"]["total"])


def test_calls_past_the_tool_round_limit_are_executed_when_the_episode_ends() -> None:
    task = fixture_tasks("banking")[0]
    gold = [{"name": g.name, "arguments": dict(g.arguments)} for g in task.gold_calls]
    env = make_environment_class("banking")()
    env.reset(task=task.to_json())
    completion = _play(env, gold[:1])[:-1]  # the first call ran; the rollout stopped on a second call
    completion.append({"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": gold[1]}]})
    rewards = _rewards(env, completion)
    assert rewards["prove_coverage"] == 1.0 and rewards["total"] == pytest.approx(1.3)


def test_get_reward_alone_ends_the_episode_and_is_idempotent() -> None:
    task = fixture_tasks("calendar")[0]
    env = make_environment_class("calendar")()
    env.reset(task=task.to_json())
    env.get_current_time()
    first = env.get_reward()
    assert first == env.get_reward()
    assert 0.0 < first < 1.3
    # the pooled instance starts over on reset
    env.reset(task_id=task.id)
    assert env._breakdown is None and not env._done


def test_multi_environment_dataset_and_factory() -> None:
    dataset = make_dataset(servers=list(SERVERS))
    assert set(dataset.column_names) == {"prompt", "task", "task_id", "environment"}
    assert len(dataset) == sum(len(fixture_tasks(s)) for s in SERVERS)
    factory = environment_factory(list(SERVERS))
    assert isinstance(factory, dict) and sorted(factory) == sorted(SERVERS)
    assert environment_factory("banking") is factory["banking"]
    assert factory["banking"].__name__ == "ProveBankingEnv"
    for row in dataset:
        task = Task.parse(row["task"])
        assert row["environment"] == task.server and row["task_id"] == task.id
        assert [m["role"] for m in row["prompt"]] == ["system", "user"]
        assert len(task.user_turns) == 1 and task.tools is None
        assert row["prompt"][1]["content"] == task.user_turns[0]
        # TRL removes the routing column in multi-environment mode and calls reset(**rest)
        env = factory[row["environment"]]()
        env.reset(**{k: v for k, v in row.items() if k != "environment"})
    # a two-turn task becomes one user message with both requests and all gold calls, same digests
    original = next(t for t in fixture_tasks("calendar") if len(t.user_turns) > 1)
    merged = merge_user_turns(original)
    assert merged.user_turns == ["\n\n".join(original.user_turns)]
    assert [g.id for g in merged.gold_calls] == [g.id for g in original.gold_calls]
    assert (merged.start_digest, merged.gold_digest) == (original.start_digest, original.gold_digest)
    row = next(r for r in dataset if r["task_id"] == original.id)
    assert original.user_turns[1] in row["prompt"][1]["content"]


def test_reward_functions_are_named_and_skip_other_environments() -> None:
    funcs = reward_funcs()
    assert [f.__name__ for f in funcs] == [f"prove_{c}" for c in REWARD_COMPONENTS]
    assert funcs[0](completions=[[]], environments=[object()]) == [None]
    with pytest.raises(ValueError):
        reward_funcs(["validity", "style"])


def test_dataset_task_json_round_trips() -> None:
    dataset = make_dataset(fixture_tasks("filesystem"))
    for row in dataset:
        assert Task.parse(json.loads(row["task"])).id == row["task_id"]
