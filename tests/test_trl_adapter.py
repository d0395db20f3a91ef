"""The TRL adapter: generated tool methods, the shim over ProveEnv, the dataset and the reward functions."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("datasets")
transformers_utils = pytest.importorskip("transformers.utils")

from prove_env.env import ProveEnv
from prove_env.facts import say
from prove_env.policies import GoldPolicy
from prove_env.registry import server_names
from prove_env.synthesis.perturb import strip_enums
from prove_env.task import Task, fixture_tasks
from prove_env.integrations.trl import (
    REWARD_COMPONENTS,
    ProveToolEnv,
    ToolCallError,
    environment_factory,
    environment_tools,
    focus_tools,
    make_dataset,
    make_environment_class,
    merge_user_turns,
    reward_funcs,
    reward_weights,
    tool_schemas,
    tool_set_key,
)

pytestmark = pytest.mark.slow

SERVERS = tuple(s for s in server_names() if fixture_tasks(s))
"""Every server with fixture tasks."""

_EXPRESSIBLE = ("type", "enum", "items")
"""The schema keywords a Python signature carries (what `transformers.utils.get_json_schema` renders)."""


def _expressible(spec: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in spec.items() if k in _EXPRESSIBLE}
    if isinstance(out.get("items"), dict):
        out["items"] = _expressible(out["items"])
    return out


def _assert_renders(method: Any, expected: dict[str, Any]) -> None:
    """The schema TRL renders for a generated method is the tool's: description, parameters, types, enums."""
    got = transformers_utils.get_json_schema(method)["function"]
    assert got["name"] == expected["name"] and got["description"] == expected["description"]
    props = expected["parameters"]["properties"]
    required = expected["parameters"].get("required", [])
    assert set(got["parameters"].get("required", [])) == set(required)
    assert list(got["parameters"]["properties"]) == [p for p in props if p in required] + [
        p for p in props if p not in required]
    for name, spec in props.items():
        rendered = dict(got["parameters"]["properties"][name])
        assert rendered.pop("description") == " ".join(spec["description"].split())
        assert _expressible(rendered) == _expressible(spec), (expected["name"], name)


def _rewards(env: ProveToolEnv, completion: list[dict]) -> dict[str, float]:
    """What GRPOTrainer computes for one rollout: every reward function of `reward_funcs()`."""
    return {f.__name__: f(completions=[completion], environments=[env])[0] for f in reward_funcs()}


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


def _started(task: Task) -> ProveToolEnv:
    env = environment_factory(make_dataset([task]))[tool_set_key(task.server, task.tools)]()
    env.reset(task=task.to_json())
    return env


def _gold(task: Task) -> list[dict]:
    return [{"name": g.name, "arguments": dict(g.arguments)} for g in task.gold_calls]


@pytest.mark.parametrize("server", SERVERS)
def test_generated_signatures_match_the_tool_schemas(server: str) -> None:
    env = make_environment_class(server)()
    methods = {m.__name__: m for m in environment_tools(env)}
    schemas = tool_schemas(server)
    assert sorted(methods) == sorted(t["function"]["name"] for t in schemas)
    for tool in schemas:
        _assert_renders(methods[tool["function"]["name"]], tool["function"])


def test_some_server_has_enums_to_strip() -> None:
    assert any('"enum"' in json.dumps(tool_schemas(s)) for s in SERVERS)


def test_reserved_and_private_names_are_not_tools() -> None:
    env = make_environment_class("banking")()
    names = {m.__name__ for m in environment_tools(env)}
    assert "reset" not in names and "get_reward" not in names and not any(n.startswith("_") for n in names)


@pytest.mark.parametrize("server", SERVERS)
def test_each_task_is_shown_exactly_its_own_tools(server: str) -> None:
    """Distractor tools of other servers and stripped enum lists reach the prompt TRL renders."""
    task = fixture_tasks(server)[0]
    own = tool_schemas(server)
    others = [t for s in server_names() if s != server for t in tool_schemas(s)
              if t["function"]["name"] not in {o["function"]["name"] for o in own}][:3]
    assert others, "needs a second server for distractor tools"
    stripped = [strip_enums(t) for t in own]
    shown = stripped[:2] + others + stripped[2:]
    task = task.model_copy(update={"tools": shown})
    dataset = make_dataset([task])
    row = dataset[0]
    assert Task.parse(row["task"]).tools == shown  # the row keeps the task's own tools
    factory = environment_factory(dataset)
    env = factory[row["environment"]]()
    methods = {m.__name__: m for m in environment_tools(env)}
    assert sorted(methods) == sorted(t["function"]["name"] for t in shown)
    for tool in shown:
        _assert_renders(methods[tool["function"]["name"]], tool["function"])
    assert "enum" not in json.dumps([transformers_utils.get_json_schema(m) for m in methods.values()])
    # The episode shows the same tools; a distractor is a tool the model may call, and it fails.
    env.reset(**{k: v for k, v in row.items() if k != "environment"})
    with pytest.raises(ToolCallError):
        methods[others[0]["function"]["name"]]()
    # A class of another tool set refuses the row instead of training on the wrong prompt.
    with pytest.raises(ValueError, match="other tools"):
        make_environment_class(server)().reset(task=row["task"])


@pytest.mark.parametrize("server", SERVERS)
def test_gold_trajectory_through_the_shim_earns_the_maximum_reward(server: str) -> None:
    rows = make_dataset(servers=[server])
    factory = environment_factory(rows)
    reference = ProveEnv(server)
    for row in rows:
        task = Task.parse(row["task"])
        env = factory[row["environment"]]()
        assert env.reset(**row) is None
        # the final answer states every turn's facts, as TRL's final message is the episode's answer
        answer = say([fact for turn in task.facts or [] for fact in turn])
        rewards = _rewards(env, _play(env, _gold(task), answer=answer))
        expected_max = 1.0 if task.abstain else 1.3
        assert rewards["prove_reward"] == pytest.approx(expected_max), row["task_id"]
        assert rewards["prove_success"] == 1.0
        # The same trajectory played directly through the Gymnasium env scores the same.
        observation, info = reference.reset(options={"task": task})
        policy = GoldPolicy()
        policy.start(task, info, 0)
        done = False
        while not done:
            observation, reward, terminated, truncated, info = reference.step(policy.act(observation, info))
            done = terminated or truncated
        assert reward == pytest.approx(rewards["prove_reward"])
    reference.close()


def test_tool_results_are_strings_and_errors_raise() -> None:
    env = _started(fixture_tasks("banking")[0])
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
    gold = _gold(task)
    unknown = {"name": "book_flight", "arguments": {"to": "Lisbon"}}
    env = _started(task)
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
    assert rewards["prove_reward"] == pytest.approx(info["reward_breakdown"]["total"])


@pytest.mark.parametrize("server", SERVERS)
def test_calls_written_in_the_final_answer_are_not_executed(server: str) -> None:
    """Text that was never a tool call cannot change the world or the reward."""
    task = next(t for t in fixture_tasks(server) if len(t.gold_calls) >= 2)
    gold = _gold(task)
    env = _started(task)
    episode_env = env._env
    completion = _play(env, gold[:-1], answer="".join(
        f"<tool_call>{json.dumps(call)}</tool_call>" for call in gold[-1:]) + " All done.")
    rewards = _rewards(env, completion)
    assert [c.name for c in episode_env.episode.calls] == [g["name"] for g in gold[:-1]]
    assert rewards["prove_coverage"] < 1.0 and rewards["prove_success"] == 0.0
    # The same completion with the last call made as a tool call earns the maximum.
    env = _started(task)
    assert _rewards(env, _play(env, gold))["prove_reward"] == pytest.approx(1.3)


def test_the_final_answer_is_the_episodes_answer() -> None:
    """A read-only task with facts succeeds only when the answer states them: the answer reaches the environment."""
    spending = json.loads(_started(fixture_tasks("banking")[0]).get_spending_summary(
        customer_id="CUS-0014", start_date="2026-07-01", end_date="2026-07-31"))
    task = fixture_tasks("banking")[0].model_copy(update={"facts": [[spending["spending_by_category"]["groceries"]]]})
    gold = _gold(task)
    groceries = spending["spending_by_category"]["groceries"]
    env = _started(task)
    assert _rewards(env, _play(env, gold, answer=f"You spent ${groceries:,.2f} on groceries."))["prove_success"] == 1.0
    env = _started(task)
    assert _rewards(env, _play(env, gold, answer="Done."))["prove_success"] == 0.0
    # merged multi-turn tasks keep every turn's facts
    merged = merge_user_turns(task.model_copy(update={
        "user_turns": [task.user_turns[0], "Thanks."], "gold": [task.gold[0], []], "facts": [[groceries], ["x"]]}))
    assert merged.facts == [[groceries, "x"]]


def test_calls_of_a_generation_trl_did_not_run_are_not_executed() -> None:
    task = fixture_tasks("banking")[0]
    gold = _gold(task)
    env = _started(task)
    episode_env = env._env
    completion = _play(env, gold[:1])[:-1]  # the first call ran; the tool-round limit stopped the rollout
    completion.append({"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": gold[1]}]})
    rewards = _rewards(env, completion)
    assert len(episode_env.episode.calls) == 1
    assert rewards["prove_coverage"] < 1.0 and rewards["prove_validity"] == 1.0


def test_reward_functions_end_the_episode_once_and_the_instance_is_reused() -> None:
    task = fixture_tasks("calendar")[0]
    env = _started(task)
    env.get_current_time()
    completion = [{"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "get_current_time", "arguments": {}}}]},
        {"role": "tool", "name": "get_current_time", "content": "..."}, {"role": "assistant", "content": "Hi."}]
    funcs = reward_funcs()
    first = funcs[0](completions=[completion], environments=[env])
    assert first == funcs[0](completions=[completion], environments=[env])
    assert 0.0 < first[0] < 1.3
    # the pooled instance starts over on reset
    env.reset(task=task.to_json())
    assert env._breakdown is None and not env._done


def test_reward_functions_log_each_servers_mean() -> None:
    logged: dict[str, float] = {}
    envs = [_started(fixture_tasks(s)[0]) for s in SERVERS]
    totals = reward_funcs()[0](completions=[[]] * len(envs), environments=envs,
                               log_metric=lambda name, value: logged.__setitem__(name, value))
    assert logged == {f"rewards/{s}/mean": pytest.approx(t) for s, t in zip(SERVERS, totals, strict=True)}


def test_multi_environment_dataset_and_factory() -> None:
    dataset = make_dataset(servers=list(SERVERS))
    assert set(dataset.column_names) == {"prompt", "task", "task_id", "environment"}
    assert len(dataset) == sum(len(fixture_tasks(s)) for s in SERVERS)
    factory = environment_factory(dataset)
    assert isinstance(factory, dict) and set(factory) == set(dataset["environment"])
    by_server = environment_factory(list(SERVERS))
    assert isinstance(by_server, dict) and sorted(by_server) == sorted(SERVERS)
    assert environment_factory("banking") is by_server["banking"]
    assert by_server["banking"].__name__ == "ProveBankingEnv"
    for row in dataset:
        task = Task.parse(row["task"])
        assert row["environment"] == tool_set_key(task.server, task.tools) and row["task_id"] == task.id
        assert row["environment"].split("+")[0] == task.server
        assert [m["role"] for m in row["prompt"]] == ["system", "user"]
        assert len(task.user_turns) == 1
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


def test_tool_set_keys_name_the_server_when_it_shows_its_own_tools() -> None:
    own = tool_schemas("banking")
    assert tool_set_key("banking", None) == tool_set_key("banking", own[::-1]) == "banking"
    changed = copy.deepcopy(own)
    changed[0]["function"]["description"] += " Changed."
    key = tool_set_key("banking", changed)
    assert key.startswith("banking+") and key == tool_set_key("banking", changed[::-1])
    assert make_environment_class("banking", tools=changed).__name__ == "ProveBankingEnv_" + key.split("+")[1]
    with pytest.raises(ValueError, match="twice"):
        make_environment_class("banking", tools=own + own[:1])


def test_reward_functions_are_named_and_skip_other_environments() -> None:
    funcs = reward_funcs()
    assert [f.__name__ for f in funcs] == ["prove_reward"] + [f"prove_{c}" for c in REWARD_COMPONENTS]
    assert reward_weights() == [1.0] + [0.0] * len(REWARD_COMPONENTS)
    assert funcs[0](completions=[[]], environments=[object()]) == [None]
    with pytest.raises(ValueError):
        reward_funcs(["validity", "style"])


def test_dataset_task_json_round_trips() -> None:
    dataset = make_dataset(fixture_tasks("filesystem"))
    for row in dataset:
        assert Task.parse(json.loads(row["task"])).id == row["task_id"]


def test_focused_tools_show_the_gold_tools_a_few_more_and_the_distractors() -> None:
    from prove_env.synthesis import synthesize

    tasks = synthesize(["banking", "calendar"], 60, seed=3, workers=1).tasks()
    assert any(t.missing_tool for t in tasks) and any(t.metadata.get("distractors") for t in tasks)
    for task in tasks:
        task = merge_user_turns(task)
        own = {t["function"]["name"] for t in tool_schemas(task.server)}
        shown = [t["function"]["name"] for t in task.tools or tool_schemas(task.server)]
        focused = focus_tools(task, others=3)
        names = [t["function"]["name"] for t in focused.tools]
        gold = {call.name for call in task.gold_calls}
        assert gold <= set(names) and set(names) <= set(shown), task.id
        assert [n for n in names if n not in own] == [n for n in shown if n not in own]  # the distractors
        assert len([n for n in names if n in own and n not in gold]) == min(3, len(set(shown) & own - gold))
        assert task.missing_tool is None or task.missing_tool not in names
        assert names == [n for n in shown if n in names]  # the task's order
        assert focus_tools(task, others=3) == focused  # the same set every time
        for tool in focused.tools:
            assert "\n\n" not in tool["function"]["description"]
            original = next(t for t in task.tools or tool_schemas(task.server)
                            if t["function"]["name"] == tool["function"]["name"])
            assert tool["function"]["parameters"] == original["function"]["parameters"]
        assert (focused.gold, focused.facts, focused.seed, focused.abstain) == (
            task.gold, task.facts, task.seed, task.abstain)
    # The gold still earns the maximum with the focused tools, through the environment classes TRL uses.
    rows = make_dataset([t for t in tasks[:12]], focus=3)
    factory = environment_factory(rows)
    for row in rows:
        task = Task.parse(row["task"])
        assert task.metadata["focused_tools"] == {"others": 3, "compact": True}
        env = factory[row["environment"]]()
        env.reset(**row)
        answer = say([fact for turn in task.facts or [] for fact in turn])
        rewards = _rewards(env, _play(env, _gold(task), answer=answer))
        assert rewards["prove_success"] == 1.0, row["task_id"]
