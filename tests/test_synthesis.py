"""Task synthesis: the graph, sampling, composition, gates, dedup, splits, output and the CLI."""

from __future__ import annotations

import dataclasses
import json
import math
import random
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import gymnasium as gym
import pytest

import prove_env  # noqa: F401
from prove_env.chat import ChatEndpoint
from prove_env.cli import main
from prove_env.evaluate import run_episode
from prove_env.policies import GoldPolicy, NoopPolicy
from prove_env.registry import get_toolkit, server_names
from prove_env.synthesis.config import SynthConfig
from prove_env.synthesis.dedup import Deduplicator, jaccard, signature
from prove_env.synthesis.graph import dependency_graph, schema_digest
from prove_env.synthesis.perturb import shown_tools, strip_enums
from prove_env.synthesis.pipeline import Shard, run_shard, synthesize, write_output
from prove_env.synthesis.recipe import Reader, RecipeError, Ref, get_recipe
from prove_env.synthesis.teacher import Teacher
from prove_env.synthesis.verify import Verifier
from prove_env.task import GoldCall, Task, load_tasks
from prove_env.world import worlds

SERVERS = server_names()  # every server has a recipe; a broken one fails loudly
SMALL = SynthConfig(tasks_per_world=5)


@pytest.fixture(scope="module")
def synthesized(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("synth")
    result = synthesize(SERVERS, 12 * len(SERVERS), seed=3, config=SMALL, workers=1)
    write_output(result, out)
    return out, result


# -- the dependency graph --------------------------------------------------------------------------

@pytest.mark.parametrize("server", server_names())
def test_graph_edges_follow_declarations(server: str) -> None:
    specs = get_toolkit(server).specs()
    graph = dependency_graph(server)
    for a in specs.values():
        for b in specs.values():
            edge = graph.edge(a.name, b.name)
            kinds = set(a.produces) & set(b.consumes)
            states = set(a.sets) & set(b.requires)
            if a.name == b.name or not (kinds or states):
                assert edge is None
            elif kinds:
                assert edge.kind == "explicit" and set(edge.via) == kinds
            else:
                assert edge.kind == "implicit" and set(edge.via) == states


def test_graph_has_implicit_edges_and_renders(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture) -> None:
    graph = dependency_graph("banking")
    assert graph.edge("freeze_card", "unfreeze_card").kind == "implicit"
    assert graph.edge("find_customers", "list_accounts").via == ("customer",)
    dot = graph.to_dot()
    assert dot.startswith('digraph "banking"') and '"find_customers" -> "list_accounts"' in dot
    assert main(["graph", "banking", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["digest"] == schema_digest(get_toolkit("banking"))


def test_graph_cache_is_keyed_by_schema_digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from prove_env.synthesis import graph as graph_module

    monkeypatch.setenv("PROVE_ENV_CACHE", str(tmp_path))
    monkeypatch.setattr(graph_module, "_GRAPHS", {})
    fresh = dependency_graph("calendar")
    files = list((tmp_path / "graphs").glob("calendar-*.json"))
    assert len(files) == 1 and fresh.digest[:16] in files[0].name
    monkeypatch.setattr(graph_module, "_GRAPHS", {})
    assert dependency_graph("calendar") == fresh  # read back from the file
    digests = {schema_digest(get_toolkit(s)) for s in server_names()}
    assert len(digests) == len(server_names())


# -- sampling and composition --------------------------------------------------------------------

def test_reader_refuses_write_tools() -> None:
    reader = Reader(get_toolkit("banking"), worlds.create(get_toolkit("banking"), 0))
    with pytest.raises(RecipeError, match="read-only"):
        reader("deposit", account_id="ACC-0001", amount=5.0)
    assert reader("get_customer_pin", customer_id="CUS-0001")["pin"]  # a hidden read-only helper is fine


@pytest.mark.parametrize("server", SERVERS)
def test_recipe_is_consistent_and_samples_entities(server: str) -> None:
    recipe = get_recipe(server)
    toolkit = get_toolkit(server)
    world = worlds.create(toolkit, 0)
    before = world.digest()
    bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(0))
    assert bundles
    assert world.digest() == before  # sampling reads only
    graph = dependency_graph(server)
    for lookup in recipe.lookups:
        assert lookup.kind in toolkit.specs()[lookup.tool].produces
        assert graph.successors(lookup.tool)


def test_missing_level_holds_a_value_back() -> None:
    config = SynthConfig(info_levels=(0.0, 1.0, 0.0), irrelevant_rate=0.0, hidden_rate=0.0, tasks_per_world=8)
    result = run_shard(Shard("banking", 5, 8, "train", 0), config)
    assert len(result.tasks) == 8
    for line in result.tasks:
        task = Task.parse(line)
        first = next(i for i, turn in enumerate(task.gold) if not turn)
        assert task.gold[first + 1], "the value comes in the next turn, with the calls"
        later = {m for turn in task.metadata["mentions"][first + 1:] for m in turn}
        assert later, "the held-back value is recorded"
        assert not any(m.lower() in task.user_turns[first].lower() for m in later - set(task.metadata["mentions"][first]))


# -- perturbations ---------------------------------------------------------------------------------

def test_strip_enums_keeps_properties_named_enum() -> None:
    schema = {"type": "object", "properties": {"enum": {"type": "string", "enum": ["a", "b"]},
                                               "kind": {"enum": ["x"], "type": "string"}}}
    assert strip_enums(schema) == {"type": "object", "properties": {"enum": {"type": "string"},
                                                                    "kind": {"type": "string"}}}


def test_distractors_come_from_other_servers_and_fail_when_called() -> None:
    tools, applied = shown_tools("banking", random.Random(1), distractor_rate=1.0, distractors=(3, 8),
                                 strip_enums_rate=0.0)
    own = {s.name for s in get_toolkit("banking").visible_specs()}
    assert 3 <= len(applied["distractors"]) <= 8
    assert not set(applied["distractors"]) & own
    assert len(tools) == len(own) + len(applied["distractors"])
    env = gym.make("prove/banking-v0")
    task = Task(id="d", server="banking", seed=0, user_turns=["Hi"], gold=[[]], abstain=True, tools=tools)
    env.reset(options={"task": task})
    observation, *_ = env.step({"name": applied["distractors"][0], "arguments": {}})
    assert observation.startswith(f"Error: unknown tool {applied['distractors'][0]!r}.")
    assert not env.unwrapped.episode.calls[-1].ok
    env.close()


# -- gates -----------------------------------------------------------------------------------------

def _task(gold: list[GoldCall], **extra) -> Task:
    return Task(id="t", server="banking", seed=0, user_turns=["Please."], gold=[gold], **extra)


def test_gates_drop_failing_and_trivial_tasks() -> None:
    verifier = Verifier("banking")
    failing = _task([GoldCall(id="g1", name="get_balance", arguments={"account_id": "ACC-9999"})])
    assert verifier.check(failing).reason == "gold call failed"
    ok = _task([GoldCall(id="g1", name="deposit", arguments={"account_id": "ACC-0001", "amount": 10.0})])
    verdict = verifier.check(ok)
    assert verdict.task is not None and verdict.task.gold_digest != verdict.task.start_digest
    # a write that changes nothing (the card's limit set to what it is) is "already satisfied"
    read = Reader(get_toolkit("banking"), worlds.create(get_toolkit("banking"), 0))
    card = next(c for c in read("list_cards", customer_id="CUS-0001") if c["status"] == "active")
    pin = read("get_customer_pin", customer_id="CUS-0001")["pin"]
    same = _task([GoldCall(id="g1", name="set_card_limit",
                           arguments={"card_id": card["card_id"], "daily_limit": card["daily_limit"], "pin": pin})])
    assert verifier.check(same).reason == "already satisfied"
    verifier.close()


def test_gates_turn_down_a_gold_below_the_maximum_and_a_failing_one_with_or_without_facts() -> None:
    """The gold calls run once before the gold episode and once in it, whose world then stands for
    the reference (`prove_env.episode.replay`). A gold episode that stops short of the gold calls
    (here, at its step limit) does not: it is judged against the gold replayed, and its reward
    falls below the maximum. A gold call that fails is turned down whether or not the task asks to
    be told something."""
    deposits = _task([GoldCall(id=f"g{i}", name="deposit", arguments={"account_id": "ACC-0001", "amount": amount})
                      for i, amount in enumerate((10.0, 20.0, 30.0), 1)])
    assert Verifier("banking").check(deposits).task is not None
    verdict = Verifier("banking", max_steps=2).check(deposits)
    assert verdict.reason == "gold below maximum", verdict
    failing = _task([GoldCall(id="g1", name="deposit", arguments={"account_id": "ACC-0001", "amount": 10.0}),
                     GoldCall(id="g2", name="get_balance", arguments={"account_id": "ACC-9999"})])
    verifier = Verifier("banking")
    assert verifier.check(failing).reason == "gold call failed"
    assert verifier.check(failing, {"g2": lambda result: [result["balance"]]}).reason == "gold call failed"
    verifier.close()


# -- dedup -----------------------------------------------------------------------------------------

def test_dedup_by_jaccard_of_calls() -> None:
    a = _task([GoldCall(id="g1", name="find_customers", arguments={"name": "Ada"}),
               GoldCall(id="g2", name="list_accounts", arguments={"customer_id": "CUS-0001"}, depends_on=["g1"]),
               GoldCall(id="g3", name="get_balance", arguments={"account_id": "ACC-0001"}, depends_on=["g2"])])
    near = a.model_copy(update={"id": "u", "gold": [a.gold[0][:3]], "user_turns": ["Other words."]})
    other = _task([GoldCall(id="g1", name="get_balance", arguments={"account_id": "ACC-0002"})])
    assert jaccard(signature(a), signature(near)) == 1.0
    dedup = Deduplicator(0.70)
    assert dedup.add(a) and not dedup.add(near) and dedup.add(other)


# -- the pipeline ------------------------------------------------------------------------------------

def test_synthesized_tasks_verify_through_the_environment(synthesized) -> None:
    out, result = synthesized
    tasks = load_tasks(out / "train.jsonl") + load_tasks(out / "test.jsonl")
    assert len(tasks) == 12 * len(SERVERS)
    for server in SERVERS:
        env = gym.make(f"prove/{server}-v0")
        for task in (t for t in tasks if t.server == server):
            gold = run_episode(env.unwrapped, GoldPolicy(), task, 0)
            assert gold["success"], task.id
            if not task.abstain:
                assert gold["reward"] == pytest.approx(env.unwrapped.episode.reward_config.maximum), task.id
                assert not run_episode(env.unwrapped, NoopPolicy(), task, 0)["success"], task.id
            assert task.start_digest and task.gold_digest
        env.close()


def test_splits_share_no_world_and_stats_add_up(synthesized) -> None:
    out, result = synthesized
    train, test = load_tasks(out / "train.jsonl"), load_tasks(out / "test.jsonl")
    assert train and test
    assert not {(t.server, t.seed) for t in train} & {(t.server, t.seed) for t in test}
    stats = json.loads((out / "stats.json").read_text())
    assert stats["tasks"] == len(train) + len(test)
    assert sum(stats["chain_length"].values()) == stats["tasks"]
    assert sum(stats["turns"].values()) == stats["tasks"]
    assert sum(stats["info_level"].values()) + stats["abstention"] == stats["tasks"]
    for server in SERVERS:
        s = stats["servers"][server]
        assert s["drafts"] >= s["tasks"]
    assert "chain length" in (out / "stats.txt").read_text()
    for task in train + test:
        assert 0 <= len(task.gold_calls) <= 5 and 1 <= len(task.user_turns) <= 3
        for call in task.gold_calls:
            assert call.name in {t["function"]["name"] for t in task.tools}


def test_same_arguments_write_the_same_bytes(synthesized, tmp_path: Path) -> None:
    out, _ = synthesized
    again = synthesize(SERVERS, 12 * len(SERVERS), seed=3, config=SMALL, workers=2)
    write_output(again, tmp_path)
    for name in ("train.jsonl", "test.jsonl", "stats.json", "stats.txt"):
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name


def test_environment_draws_from_a_synthesized_file(synthesized) -> None:
    out, _ = synthesized
    path = out / "train.jsonl"
    for server in SERVERS:
        mine = [t for t in load_tasks(path) if t.server == server]
        env = gym.make(f"prove/{server}-v0", tasks=str(path))  # the file holds every server's tasks
        assert [t.id for t in env.unwrapped.tasks] == [t.id for t in mine]
        _, info = env.reset(seed=0)
        assert info["task_id"] in {t.id for t in mine}
        _, info = env.reset(options={"task": json.loads(mine[0].to_json())})
        assert info["task_id"] == mine[0].id and info["tools"] == mine[0].tools
        env.close()
    other = out / "only-banking.jsonl"
    other.write_text("".join(t.to_json() + "\n" for t in load_tasks(path) if t.server == "banking"))
    with pytest.raises(Exception, match="no tasks for server 'calendar'"):
        gym.make("prove/calendar-v0", tasks=str(other))


def test_dataset_rows_round_trip(synthesized) -> None:
    datasets = pytest.importorskip("datasets")
    out, _ = synthesized
    rows = datasets.load_dataset("json", data_files=str(out / "train.jsonl"), split="train")
    for row, task in zip(rows, load_tasks(out / "train.jsonl")):
        back = Task.from_row(row)
        assert back.gold == task.gold and back.user_turns == task.user_turns and back.seed == task.seed


def test_cli_synth(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    code = main(["synth", "--servers", "banking", "--n", "6", "--seed", "1", "--out", str(tmp_path),
                 "--workers", "1", "--no-progress", "--tasks-per-world", "3"])
    assert code == 0
    printed = capsys.readouterr().out
    assert "6 tasks" in printed and "replay-validated" in printed
    assert len(load_tasks(tmp_path / "train.jsonl")) + len(load_tasks(tmp_path / "test.jsonl")) == 6
    assert main(["synth", "--servers", "nope", "--n", "3", "--out", str(tmp_path)]) == 2
    assert main(["synth", "--n", "3", "--out", str(tmp_path), "--info-levels", "1,2"]) == 2


def test_a_small_run_splits_near_the_test_share_and_says_what_the_split_became(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "two"
    assert main(["synth", "--servers", "vehicle,issue_tracker", "--n", "40", "--seed", "0", "--out", str(out),
                 "--workers", "1", "--no-progress"]) == 0  # one world a server would hold all 20 of its tasks
    train, test = load_tasks(out / "train.jsonl"), load_tasks(out / "test.jsonl")
    assert (len(train), len(test)) == (36, 4)  # the test share of 0.1, not one world of two
    assert {t.server for t in test} == {"vehicle", "issue_tracker"}
    assert not {(t.server, t.seed) for t in train} & {(t.server, t.seed) for t in test}
    said = "split by world (train and test share no world): 36 train, 4 test, 10.0% test against 10.0% asked"
    assert said in capsys.readouterr().out and (out / "stats.txt").read_text().startswith(said + "\n")

    # the rows of every table of stats.txt line up, whatever the length of the server names
    paragraphs = [p.splitlines() for p in (out / "stats.txt").read_text().split("\n\n")]
    tables = [p for p in paragraphs if p[0].startswith("server")]
    tables += [p[1:] for p in paragraphs if p[0] in ("chain length (gold calls)", "user turns", "perturbations",
                                                     "information level (tasks with calls)", "dropped, by reason")]
    assert len(tables) == 6
    for table in tables:
        assert len({len(line) for line in table}) == 1, "\n".join(table)

    small = tmp_path / "small"  # five tasks: a tenth of them is not a whole task
    assert main(["synth", "--servers", "banking", "--n", "5", "--seed", "0", "--out", str(small), "--workers", "1",
                 "--no-progress", "--tasks-per-world", "5"]) == 0
    assert (len(load_tasks(small / "train.jsonl")), len(load_tasks(small / "test.jsonl"))) == (4, 1)
    assert ("4 train, 1 test, 20.0% test against 10.0% asked: 1 of the 5 tasks were planned for test, as each "
            "server's test split is a whole number of its 5 tasks, with at least one on each side"
            in capsys.readouterr().out)


# -- the teacher -------------------------------------------------------------------------------------

class _ChatServer(ThreadingHTTPServer):
    def __init__(self, reply) -> None:
        self.reply = reply
        self.requests: list[dict] = []
        super().__init__(("127.0.0.1", 0), _ChatHandler)


class _ChatHandler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append({"path": self.path, "body": body})
        status, content = self.server.reply(json.loads(body["messages"][1]["content"]))
        payload = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def chat_server():
    servers = []

    def start(reply):
        server = _ChatServer(reply)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _shard_task() -> Task:
    """A synthesized task whose words carry values a rewrite must keep."""
    config = SynthConfig(info_levels=(1.0, 0.0, 0.0), irrelevant_rate=0.0, hidden_rate=0.0, tasks_per_world=8)
    tasks = [Task.parse(line) for line in run_shard(Shard("banking", 2, 8, "train", 0), config).tasks]
    return next(t for t in tasks if any(t.metadata["mentions"]))


def test_teacher_keeps_a_faithful_rewrite(chat_server) -> None:
    task = _shard_task()
    server = chat_server(lambda turns: (200, json.dumps(["Hey there! " + t for t in turns])))
    teacher = Teacher(ChatEndpoint(f"http://127.0.0.1:{server.server_port}/v1", "teacher", retries=1))
    verifier = Verifier("banking")
    kept, outcome = teacher.rewrite(task, verifier)
    assert outcome == "kept"
    assert kept.user_turns == ["Hey there! " + t for t in task.user_turns]
    assert kept.metadata["teacher"]["original"] == task.user_turns and kept.gold == task.gold
    assert server.requests[0]["path"] == "/v1/chat/completions" and server.requests[0]["body"]["model"] == "teacher"


def test_teacher_rejects_rewrites_that_lose_values(chat_server) -> None:
    task = _shard_task()
    value = next(m for turn in task.metadata["mentions"] for m in turn)  # a value some turn must keep
    verifier = Verifier("banking")
    cases = [
        (lambda turns: (200, json.dumps([t.replace(value, "something") for t in turns])), "lost"),
        (lambda turns: (200, "Sure! Here you go."), "not a list"),
        (lambda turns: (200, json.dumps(turns + ["extra"])), "same length"),
        (lambda turns: (500, "overloaded"), "endpoint error"),
    ]
    for reply, expected in cases:
        server = chat_server(reply)
        teacher = Teacher(ChatEndpoint(f"http://127.0.0.1:{server.server_port}/v1", "teacher", retries=1))
        kept, outcome = teacher.rewrite(task, verifier)
        assert expected in outcome and kept == task


# -- the paper's shape -------------------------------------------------------------------------------

def _within(share: float, target: float, n: int, above: bool = False) -> bool:
    """A share of n tasks is within three binomial standard deviations of its target."""
    slack = 3 * math.sqrt(target * (1 - target) / n)
    return share >= target - slack if above else share <= target + slack


def test_conversations_have_the_papers_shape(synthesized) -> None:
    """The shape targets (at most 30% single-turn, at most 10% one-call chains, 2 to 5 calls as the
    common case) over the whole sample, and on each server within the noise of its 12 tasks (the
    per-server figures at full size are `prove-env synth --n 500`'s)."""
    _, result = synthesized
    groups = [("all", result.stats["targets"], sum(s["tasks"] for s in result.stats["servers"].values()))]
    groups += [(server, stats["targets"], stats["tasks"]) for server, stats in result.stats["servers"].items()]
    for name, shares, n in groups:
        assert _within(shares["single_turn_share"], 0.3, n), (name, shares)
        assert _within(shares["one_call_share"], 0.1, n), (name, shares)
        assert _within(shares["two_to_five_calls_share"], 0.7, n, above=True), (name, shares)
    assert "shape against its targets" in (synthesized[0] / "stats.txt").read_text()


def test_missing_function_tasks_hide_a_tool_the_chain_needs() -> None:
    config = SynthConfig(missing_function_rate=1.0, irrelevant_rate=0.0, hidden_rate=0.0, tasks_per_world=6)
    result = run_shard(Shard("banking", 2, 6, "train", 0), config)
    tasks = [Task.parse(line) for line in result.tasks]
    assert len(tasks) == 6
    env = gym.make("prove/banking-v0", max_steps=30)
    # a chain may have no call to leave out (the one it asks for takes a value the user is asked for),
    # and is then a task of its own kind
    assert sum(task.missing_tool is not None for task in tasks) >= 4
    for task in tasks:
        missing = task.missing_tool
        if missing is None:
            assert task.metadata["kind"] == "chain" and task.gold_calls
            continue
        assert missing in task.metadata["goals"]
        assert missing not in {t["function"]["name"] for t in task.tools}
        assert missing not in {c.name for c in task.gold_calls}
        # inventing the missing call fails, however right its arguments
        env.reset(options={"task": task})
        info = {}
        for turn, calls in enumerate(task.gold):
            for call in calls:
                env.step({"name": call.name, "arguments": dict(call.arguments)})
            if turn == 0:
                env.step({"name": missing, "arguments": {}})
            _, _, done, truncated, info = env.step("Done.")
        assert not info["success"]
    env.close()


def test_no_tool_sequence_above_its_share() -> None:
    config = SynthConfig(tasks_per_world=20, max_sequence_share=0.02)
    result = synthesize(["calendar"], 100, seed=4, config=config, workers=1)
    tasks = result.tasks("train") + result.tasks("test")
    counts: dict[tuple[str, ...], int] = {}
    for task in tasks:
        if task.gold_calls:
            key = tuple(c.name for c in task.gold_calls)
            counts[key] = counts.get(key, 0) + 1
    assert len(tasks) == 100 and max(counts.values()) <= 2


def test_facts_come_from_the_results_and_decide_read_only_success() -> None:
    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.recipe import Ask, Goal, Recipe

    base = get_recipe("banking")

    def balance(b, rng):
        account = b["accounts"][0]
        return Ask({"account_id": account["account_id"]}, say=f"What's the balance of my {account['kind']} account?",
                   refs=(Ref.of("account", account, Ref.of("customer", b["customer"])),),
                   facts=lambda result: [result["balance"]])

    recipe = Recipe(server="banking", sample=base.sample, goals=[Goal("get_balance", balance)], lookups=base.lookups,
                    topics=base.topics, skip={})
    toolkit = get_toolkit("banking")
    world = worlds.create(toolkit, 0)
    bundles = recipe.sample(Reader(toolkit, world), world.now, random.Random(0))
    config = SynthConfig(goals=(1.0, 0.0, 0.0), info_levels=(1.0, 0.0, 0.0), irrelevant_rate=0.0, hidden_rate=0.0,
                         missing_function_rate=0.0, distractor_rate=0.0)
    composer = Composer(recipe, dependency_graph("banking"), bundles, config, random.Random(1))
    draft = next(d for d in iter(composer.draft, None) if d is not None and d.facts_of)
    task = Task(id="f", server="banking", seed=0, user_turns=draft.user_turns, gold=draft.gold, tools=draft.tools)
    verdict = Verifier("banking").check(task, draft.facts_of)
    assert verdict.task is not None, verdict
    facts = [f for turn in verdict.task.facts for f in turn]
    # the balance is read off the account list that found the account (the get_balance call repeats it
    # and leaves the gold), and is still the fact
    account = next(c for turn in draft.gold for c in turn if c.name == "get_balance").arguments["account_id"]
    assert facts == [Reader(toolkit, world)("get_balance", account_id=account)["balance"]]
    gold = run_episode(gym.make("prove/banking-v0").unwrapped, GoldPolicy(), verdict.task, 0)
    noop = run_episode(gym.make("prove/banking-v0").unwrapped, NoopPolicy(), verdict.task, 0)
    assert gold["success"] and not noop["success"]


# two requests a draft, every value given, joined in one message
TWO_JOINED = SynthConfig(goals=(0.0, 1.0, 0.0), info_levels=(1.0, 0.0, 0.0), irrelevant_rate=0.0, hidden_rate=0.0,
                         missing_function_rate=0.0, distractor_rate=0.0, split_turn_rate=0.0)


def _banking_bundles(recipe) -> list:
    """`recipe`'s bundles of banking's world 0."""
    toolkit = get_toolkit("banking")
    world = worlds.create(toolkit, 0)
    return recipe.sample(Reader(toolkit, world), world.now, random.Random(0))


def test_a_request_joined_to_a_message_names_its_entity_outright() -> None:
    """'Open the trunk of my CX-5. In addition, the tyre light came on in my car. ... It's my Civic.' reads
    first as the CX-5: a request that joins a message says its plain form when it has one, as does one
    after the conversation named another entity of its kind."""

    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.recipe import Ask, Goal, Recipe

    base = get_recipe("banking")

    def balance(b, rng):
        account = b["accounts"][0]
        return Ask({"account_id": account["account_id"]}, say=f"What's the balance of my {account['kind']} account?",
                   refs=(Ref.of("account", account, Ref.of("customer", b["customer"])),),
                   facts=lambda result: [result["balance"]])

    def history(b, rng):
        account = b["accounts"][-1]
        kind = account["kind"]
        return Ask({"account_id": account["account_id"]}, say="Show me the last transactions of my account.",
                   detail=f"It's my {kind} account.", plain=f"Show me the last transactions of my {kind} account.",
                   refs=(Ref.of("account", account, Ref.of("customer", b["customer"])),))

    recipe = Recipe(server="banking", sample=base.sample, goals=[Goal("get_balance", balance),
                                                                  Goal("list_transactions", history)],
                    lookups=base.lookups, topics=base.topics, skip={})
    bundles, config = _banking_bundles(recipe), TWO_JOINED
    composer = Composer(recipe, dependency_graph("banking"), bundles, config, random.Random(1))
    joined = 0
    for draft in (composer.draft() for _ in range(60)):
        for text in draft.user_turns if draft is not None else []:
            if "last transactions" not in text:
                continue
            if "balance" in text and text.index("balance") < text.index("last transactions"):  # joins it
                joined += 1
                assert "my account" not in text and "It's my" not in text, text
    assert joined
    # in a message of its own after the conversation named another account: the plain form too
    composer = Composer(recipe, dependency_graph("banking"), bundles, dataclasses.replace(config, split_turn_rate=1.0),
                        random.Random(2))
    after = 0
    for draft in (composer.draft() for _ in range(60)):
        turns = draft.user_turns if draft is not None else []
        for i, text in enumerate(turns):
            if "last transactions" in text and any("balance" in t for t in turns[:i]):
                after += 1
                assert "my account" not in text and "It's my" not in text, text
    assert after


def test_an_introduction_is_not_said_before_a_request_that_names_it() -> None:
    """'Northwind Studio account. Invoice prefix and email of Northwind Studio?': the merchant a later
    request needs was looked up by the first request, which names it, so the introduction that says
    which merchant it is would name it twice in a row. Where the first request names something else,
    the introduction is said."""
    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.recipe import Recipe

    base = get_recipe("payments")
    toolkit = get_toolkit("payments")
    world = worlds.create(toolkit, 0)
    bundles = base.sample(Reader(toolkit, world), world.now, random.Random(0))
    config = dataclasses.replace(TWO_JOINED, split_turn_rate=1.0)
    before, other = 0, 0
    for first in ("list_merchants", "list_invoices"):
        recipe = Recipe(server="payments", sample=base.sample, lookups=base.lookups, topics=base.topics, skip={},
                        goals=[g for g in base.goals if g.tool in (first, "create_customer")])
        composer = Composer(recipe, dependency_graph("payments"), bundles, config, random.Random(3))
        for draft in (composer.draft() for _ in range(60)):
            if draft is None or [c.name for c in draft.gold[-1]][-1:] != ["create_customer"]:
                continue
            opening = draft.user_turns[0]
            merchant = next(b["merchant"]["name"] for b in bundles
                            if b["merchant"]["merchant_id"] == draft.gold[-1][-1].arguments["merchant_id"])
            if first == "list_merchants" and draft.gold[0][0].name == "list_merchants":
                before += 1
                assert opening.count(merchant) == 1, opening
            elif first == "list_invoices":
                other += 1
                assert merchant in opening, opening  # the introduction says which merchant
    assert before and other


def test_a_hidden_requests_look_up_is_not_kept_as_another_requests_route() -> None:
    """'Move the issue Upgrade Redis in Nova to in progress' with the move hidden, then 'Kick off Nova
    Sprint 14': the search for the issue shows its project's id, but a model that declines the move
    looks the project up by its name, and would match none of a gold that kept the search for the
    sprint. A request whose look-up another request borrows that way is never the hidden one; a
    look-up the other request would make itself (the project list of the sprint's own look-up) is
    its own."""
    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.recipe import Recipe

    base = get_recipe("issue_tracker")
    toolkit = get_toolkit("issue_tracker")
    world = worlds.create(toolkit, 0)
    bundles = base.sample(Reader(toolkit, world), world.now, random.Random(0))
    recipe = Recipe(server="issue_tracker", sample=base.sample, lookups=base.lookups, topics=base.topics, skip={},
                    goals=[g for g in base.goals if g.tool in ("transition_issue", "start_sprint", "complete_sprint")])
    config = dataclasses.replace(TWO_JOINED, missing_function_rate=1.0, split_turn_rate=1.0)
    composer = Composer(recipe, dependency_graph("issue_tracker"), bundles, config, random.Random(5))
    hidden = 0
    for draft in (composer.draft() for _ in range(150)):
        if draft is None or draft.missing_tool != "transition_issue":
            continue
        hidden += 1
        kept = [c.name for turn in draft.gold for c in turn]
        assert "search_issues" not in kept, (draft.user_turns, kept)
    assert hidden


def test_a_request_about_what_the_conversation_named_says_it_without_the_name() -> None:
    """'Who's in the Pricing workshop meeting I'm running now?' then 'Record the Pricing workshop
    meeting I'm running now.': a request whose entity an earlier request named says `Ask.again`
    instead, in every register; the first request that names it says its name."""
    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.recipe import Again, Ask, Goal, Recipe

    base = get_recipe("banking")

    def request(tool, verb, terse_verb):
        def build(b, rng):
            account = b["accounts"][0]
            name = f"my {account['kind']} account"
            return Ask({"account_id": account["account_id"]}, say=f"{verb} {name}, please.",
                       terse=f"{terse_verb} {name}.", refs=(Ref.of("account", account, Ref.of("customer", b["customer"])),),
                       again=Again(name, say=f"{verb} that same account, please.", terse=f"{terse_verb} it."))
        return Goal(tool, build)

    recipe = Recipe(server="banking", sample=base.sample, lookups=base.lookups, topics=base.topics, skip={},
                    goals=[request("get_balance", "Tell me the balance of", "Balance of"),
                           request("list_transactions", "List the last transactions of", "Transactions of")])
    bundles = _banking_bundles(recipe)
    seen = 0
    for level in ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)):
        for split in (0.0, 1.0):
            config = dataclasses.replace(TWO_JOINED, info_levels=level, split_turn_rate=split)
            composer = Composer(recipe, dependency_graph("banking"), bundles, config, random.Random(1))
            for draft in (composer.draft() for _ in range(20)):
                if draft is None:
                    continue
                text = " ".join(draft.user_turns)
                kind = next(b["accounts"][0]["kind"] for b in bundles
                            if b["accounts"][0]["account_id"] == draft.gold[-1][-1].arguments["account_id"])
                seen += 1
                assert text.count(f"my {kind} account") == 1, text
                assert "that same account" in text or " it." in text, text
    assert seen >= 20


def test_a_change_joined_to_a_change_says_their_order_and_please_once() -> None:
    """'Archive my notes. Besides that, add a line to one of them' leaves the line in the archive or
    out of it, by the order the assistant picks: a change joined to a change in one message says
    its order ('Then', 'After that,'), which the gold follows; and 'please' is said once a message."""
    import re

    from prove_env.synthesis.compose import Composer
    from prove_env.synthesis.recipe import Recipe
    from prove_env.synthesis.voice import Voice

    for register in ("plain", "polite", "chatty", "terse"):
        joined = {Voice(register).joiner(random.Random(seed), "add a line.", ordered=True) for seed in range(50)}
        assert joined and joined <= {"Then ", "After that, ", "Next, ", "And then "}, (register, joined)
        for timed in ("Before I ping Kylie: is she around?", "once it's done, add a line.", "When is it due?",
                      "now that Jasmine has left the team, I'm taking over her leads.", "Since Ann left, move her deal."):
            # a clause of time or of cause says the order itself: no 'After that, before ...', 'After that, now that ...'
            for ordered in (False, True):
                joined = {Voice(register).joiner(random.Random(seed), timed, ordered=ordered) for seed in range(50)}
                assert not joined & {"Then ", "After that, ", "Next, ", "And then "}, (register, timed, joined)
    assert Voice.without_please("Switch it off, please. Please make it 70 degrees.") == "Switch it off. Make it 70 degrees."
    assert Voice.without_please('Could you please write "please review" in it?', ["please review"]) == (
        'Could you write "please review" in it?')
    base = get_recipe("banking")
    recipe = Recipe(server="banking", sample=base.sample, lookups=base.lookups, topics=base.topics, skip={},
                    goals=[g for g in base.goals if g.tool in ("add_payee", "pay_payee", "transfer")])
    bundles, config = _banking_bundles(recipe), TWO_JOINED
    composer = Composer(recipe, dependency_graph("banking"), bundles, config, random.Random(1))
    joined = 0
    for draft in (composer.draft() for _ in range(40)):
        for text, calls in zip(draft.user_turns if draft is not None else [], draft.gold if draft is not None else []):
            if sum(c.name in ("add_payee", "pay_payee", "transfer") for c in calls) >= 2:
                joined += 1
                assert re.search(r"\b(?:then|after that|next)\b", text, re.I), text
                request = text.split(". ", 1)[-1]  # after the first sentence: the requests, not an introduction
                assert len(re.findall(r"\bplease\b", re.sub(r'"[^"]*"', "", request), re.I)) <= 1, text
    assert joined >= 10


def test_two_independent_writes_get_no_order_edge_from_what_the_later_one_echoes() -> None:
    """A reply, then a new bio: the profile update returns the post count the reply raised, but nothing
    passes between the two and the world ends the same either way, so no order edge is recorded."""
    from prove_env.episode import replay
    from prove_env.registry import get_toolkit
    from prove_env.runtime import run_sync
    from prove_env.synthesis.verify import _order_writes
    from prove_env.task import Task

    toolkit = get_toolkit("social_media")
    task = Task(id="order", server="social_media", seed=0, user_turns=["Reply 'Congrats!' to post PST-0001 and "
                                                                          "set my bio to 'Trail runner'."],
                gold=[[{"id": "g1", "name": "create_post", "arguments": {"text": "Congrats!",
                                                                          "reply_to_post_id": "PST-0001"}},
                       {"id": "g2", "name": "update_profile", "arguments": {"bio": "Trail runner"}}]],
                facts=[[]])
    reference = run_sync(replay(task))
    assert not reference.failures
    assert '"post_count"' in next(r.output for r in reference.records if r.id == "g2")  # the echo differs by order
    assert _order_writes(task, toolkit.specs(), reference).gold_calls[1].depends_on == []


def test_a_listing_that_only_gains_the_written_entry_is_not_ordered_after_the_write() -> None:
    """'Add a webhook, and which endpoint fails most?': the list read after the new endpoint shows it
    too, but the most failing endpoint and its count are the same either way, so reading first is
    as right as the user's order and no order edge is recorded (nor for the new endpoint itself, which
    the write's own result shows). Asked how many endpoints the merchant has now, the listing stays
    after the write: read first, it counts one fewer."""
    from prove_env.episode import replay
    from prove_env.registry import get_toolkit
    from prove_env.runtime import run_sync
    from prove_env.synthesis.verify import _order_writes
    from prove_env.task import Task

    toolkit = get_toolkit("payments")
    task = Task(id="order", server="payments", seed=0,
                user_turns=["Add a webhook for Copper Kettle to https://example.com/hooks for paid invoices. Which "
                            "endpoint has the most failed deliveries, and how many?"],
                gold=[[{"id": "g1", "name": "create_webhook_endpoint",
                        "arguments": {"merchant_id": "MER-0003", "url": "https://example.com/hooks",
                                      "events": ["invoice.paid"]}},
                       {"id": "g2", "name": "list_webhook_endpoints", "arguments": {}}]],
                facts=[["Old CRM (retired)", 122]])
    reference = run_sync(replay(task))
    assert not reference.failures
    assert "https://example.com/hooks" in next(r.output for r in reference.records if r.id == "g2")
    assert _order_writes(task, toolkit.specs(), reference).gold_calls[1].depends_on == []
    # what is asked for is what the write adds, which its own result shows: no order either
    added = task.model_copy(update={"facts": [["https://example.com/hooks"]], "user_turns": [
        "Add a webhook for Copper Kettle to https://example.com/hooks for paid invoices, and list the endpoints "
        "with their URLs."]})
    reference = run_sync(replay(added))
    assert _order_writes(added, toolkit.specs(), reference).gold_calls[1].depends_on == []
    # the count of the merchant's endpoints, which the write changes and its own result does not tell
    counted = task.model_copy(update={"facts": [[3]], "user_turns": [
        "Add a webhook for Copper Kettle to https://example.com/hooks for paid invoices. How many endpoints does "
        "Copper Kettle have now?"], "gold": [[task.gold[0][0], task.gold[0][1].model_copy(
            update={"arguments": {"merchant_id": "MER-0003"}})]]})
    reference = run_sync(replay(counted))
    assert next(r.output for r in reference.records if r.id == "g2").count('"endpoint_id"') == 3
    assert _order_writes(counted, toolkit.specs(), reference).gold_calls[1].depends_on == ["g1"]


def test_a_listing_is_not_ordered_after_a_write_for_a_fact_the_write_itself_tells() -> None:
    """'Open a new checking account and tell me its number; and what's available in my Everyday
    account?': the new number shows in the opening's own result, so listing the accounts first (to
    find the other) and then opening answers both, and no order edge is recorded. The listing's other
    fact, the balance, reads the same either way."""
    from prove_env.episode import replay
    from prove_env.registry import get_toolkit
    from prove_env.runtime import run_sync
    from prove_env.synthesis.verify import _order_writes
    from prove_env.task import Task

    task = Task(id="order", server="banking", seed=0,
                user_turns=["Open a new checking account for me and tell me its number. And what's available in "
                            "my Everyday account?"],
                gold=[[{"id": "g1", "name": "open_account", "arguments": {"customer_id": "CUS-0004", "kind": "checking"}},
                       {"id": "g2", "name": "list_accounts", "arguments": {"customer_id": "CUS-0004"}}]],
                facts=[["8800000097", 3833.04]])
    reference = run_sync(replay(task))
    assert not reference.failures
    assert '"8800000097"' in next(r.output for r in reference.records if r.id == "g1")
    assert _order_writes(task, get_toolkit("banking").specs(), reference).gold_calls[1].depends_on == []


def test_a_read_is_shown_earlier_only_where_every_entry_holding_the_fact_was_shown() -> None:
    """A trip's total equal to its one booking's price: the list of bookings shows the price, not the
    total, so the trip read stays in the gold."""
    from prove_env.synthesis.verify import _same_field

    listed = [{"booking_id": "FBK-0001", "itinerary_id": "ITN-0053", "price_paid": 432.99}]
    trip = [{"itinerary_id": "ITN-0053", "name": "Denver business trip", "total": 432.99},
            {"booking_id": "FBK-0001", "itinerary_id": "ITN-0053", "price_paid": 432.99}]
    assert not _same_field(432.99, listed, trip)
    assert _same_field(432.99, listed, trip[1:])  # a read of the booking alone shows nothing new
    # a product's stock of 4, on its one variant, is not shown by the search listing whose review count
    # is 4 (the product read also holds 4 as its review count)
    search = [{"product_id": "PRD-0007", "name": "Sunscreen", "review_count": 4, "in_stock": True}]
    product = [{"product_id": "PRD-0007", "name": "Sunscreen", "review_count": 4,
                "variants": [{"variant_id": "VAR-0019", "size": "50 ml", "stock": 4}]}]
    assert not _same_field(4, search, product)
    assert _same_field(4, search, [{**product[0], "variants": [{"variant_id": "VAR-0019", "stock": 9}]}])


def test_next_weekday_is_said_only_when_no_such_day_is_left_this_week() -> None:
    """Said on a Tuesday, 'next Friday' may mean this Friday or the one after: the date is said instead."""
    import datetime as dt

    from prove_env.synthesis.wording import relative_day

    for today in (dt.date(2026, 1, 5) + dt.timedelta(days=i) for i in range(7)):
        for ahead in range(2, 14):
            d = today + dt.timedelta(days=ahead)
            said = relative_day(d, today)
            assert not said.startswith("next ") or d.weekday() <= today.weekday(), (today, d, said)
            assert said.startswith(("next ", "on ")), said
    assert relative_day(dt.date(2026, 1, 9), dt.date(2026, 1, 6)) == "on Friday"
    assert relative_day(dt.date(2026, 1, 16), dt.date(2026, 1, 6)) == "on January 16"
    assert relative_day(dt.date(2026, 1, 12), dt.date(2026, 1, 6)) == "next Monday"


def test_a_joined_request_lowers_its_first_letter_but_not_an_acronym_or_i() -> None:
    """"After that, a colleague is stuck ...": the article 'A' is lowered like any first word."""
    from prove_env.synthesis.wording import lower_first

    assert lower_first("A colleague is stuck in the waiting room.") == "a colleague is stuck in the waiting room."
    assert lower_first("Please do.") == "please do."
    for kept in ("I'm late.", "I need it.", "PIN 1234, please.", "OK, go.", "A/B test results?", '"Q3" file.'):
        assert lower_first(kept) == kept
    assert lower_first("Ada Park is late.", names=("Ada Park",)) == "Ada Park is late."
    assert lower_first("Ada Park's call.", names=("Ada Park",)) == "Ada Park's call."
    # a name is a word of its own: a car in gear 'D' or 'P' keeps no capital ('Also, Did I lock it?')
    assert lower_first("Did I lock my Tesla?", names=("D", "Tesla")) == "did I lock my Tesla?"
    assert lower_first("Please lock it.", names=("P",)) == "please lock it."


def test_a_title_opening_with_a_digit_is_a_name_a_joined_request_would_repeat() -> None:
    """'1:1 Taylor / Jennifer' said in one request is not said again in the same message."""
    from prove_env.synthesis.compose import _names_again
    from prove_env.synthesis.recipe import Ask

    ask = Ask({}, say="x", refs=(Ref("event", "EVT-0002", {"title": "1:1 Taylor / Jennifer"}),))
    assert _names_again(ask, "How many minutes before the '1:1 Taylor / Jennifer' do my reminders go off?")
    timed = Ask({}, say="x", refs=(Ref("reminder", "REM-0001", {"next_trigger": "2026-09-15T13:55"}),))
    assert not _names_again(timed, "It goes off at 2026-09-15T13:55.")


def test_an_opener_does_not_say_again_what_the_request_says() -> None:
    """'Thanks for looking that up! Could you look up flights ...': the words that open a follow-up do
    not echo the request after them, while other openers fit."""
    from prove_env.synthesis.voice import Voice

    chatty = Voice("chatty")
    request = "Could you look up flights from New York (JFK) to London (LHR) on March 5?"
    openers = {chatty.opener(random.Random(seed), "told", request=request) for seed in range(200)}
    assert openers and "Thanks for looking that up!" not in openers
    assert "Thanks for looking that up!" in {chatty.opener(random.Random(seed), "told", request="Cancel it.")
                                             for seed in range(200)}


def test_a_file_or_folder_a_joined_request_would_repeat_is_a_name_too() -> None:
    """'Print /home/katie/data/exports/report-q3.csv ... Also, the average of a column in report-q3.csv
    (it's in /home/katie/data/exports)': a file name or a path in lower case names the file again, so the
    second request gets a message of its own; a number with a point is no name."""
    from prove_env.synthesis.compose import _names_again
    from prove_env.synthesis.recipe import Ask

    ask = Ask({}, say="x", mentions=("report-q3.csv", "/home/katie/data/exports", "value"))
    assert _names_again(ask, "Could you print /home/katie/data/exports/report-q3.csv by its value column?")
    assert _names_again(ask, "What's in report-q3.csv?") and not _names_again(ask, "What's in report-q4.csv?")
    assert not _names_again(Ask({}, say="x", mentions=("12.5", "ab")), "Set it to 12.5 ab.")


def test_a_name_a_request_only_mentions_is_not_said_again_in_the_same_message() -> None:
    """'Disable automation Lock up at night. Runs of automation Lock up at night on July 13?': the runs are
    read off the home's log, so the automation is a mention, not an entity the request acts on; a day
    said twice is no name ('July 13'), nor is a person named like one ('May Chen')."""
    from prove_env.synthesis.compose import _names_again
    from prove_env.synthesis.recipe import Ask

    runs = Ask({"home_id": "HOM-0001"}, say="Runs of automation Lock up at night on July 13?",
               refs=(Ref("home", "HOM-0001", {"name": "Evans home"}),), mentions=("Lock up at night", "July 13"))
    assert _names_again(runs, "Disable automation Lock up at night.")
    assert not _names_again(runs, "What ran on July 13?")
    person = Ask({}, say="x", mentions=("May Chen",))
    assert _names_again(person, "Send it to May Chen.")


def test_a_request_opening_with_a_name_typed_exactly_keeps_its_case() -> None:
    """'settings.yaml in /home/kara/config: ...' opens a message as written: 'Settings.yaml' is
    another file."""
    from prove_env.synthesis.compose import _sentence

    assert _sentence("settings.yaml in /home/kara/config: 'port: 8000' becomes 'port: 9090'.").startswith("settings.yaml")
    assert _sentence("ana@x.org is my address.").startswith("ana@x.org")
    assert _sentence("move it, please.") == "Move it, please."


def test_a_detail_naming_an_entity_the_request_acts_on_is_said_again() -> None:
    """'Please hand the lead to a colleague.' needs 'It goes to Kayla Diaz.' though Kayla Diaz was named
    before; a PIN given before is not said again."""
    from prove_env.synthesis.compose import _said_before
    from prove_env.synthesis.recipe import Ask, Ref

    said = "Our deal with Conway needs a new owner. It goes to Kayla Diaz. My PIN is 4821."
    to_rep = Ask({"lead_id": "LEA-0001", "new_owner_id": "REP-0006"}, say="Please hand the lead to a colleague.",
                 detail="It goes to Kayla Diaz.", refs=(Ref.of("rep", {"rep_id": "REP-0006", "name": "Kayla Diaz"}),),
                 mentions=("Kayla Diaz",))
    with_pin = Ask({"account_id": "ACC-0001", "pin": "4821"}, say="Move $25 to savings.", detail="PIN 4821.",
                   mentions=("4821",))
    from prove_env.task import GoldCall

    earlier = [GoldCall(id="g1", name="reassign_deal", arguments={"deal_id": "DEA-0001", "new_owner_id": "REP-0006"}),
               GoldCall(id="g2", name="transfer", arguments={"account_id": "ACC-0002", "pin": "4821"})]
    assert not _said_before(to_rep, said, earlier)
    assert _said_before(with_pin, said, earlier)


def test_no_opener_after_a_refusal_approves_it() -> None:
    """'Cool.' or 'Perfect' after the assistant declined reads as approval of a refusal."""
    import random
    import re

    from prove_env.synthesis.voice import REGISTERS, Voice

    rng = random.Random(0)
    for register in REGISTERS:
        for _ in range(200):
            opener = Voice(register).opener(rng, "refused")
            assert not re.match(r"(?i)(cool|perfect|great|awesome|nice|brilliant)\b", opener), (register, opener)


def test_no_opener_after_an_answer_delights_in_it() -> None:
    """What the assistant told may be that there is nothing: 'Oh nice.' or 'Perfect, that's exactly
    what I needed.' would not fit it."""
    import random
    import re

    from prove_env.synthesis.voice import REGISTERS, Voice

    rng = random.Random(0)
    for register in REGISTERS:
        for _ in range(200):
            opener = Voice(register).opener(rng, "told")
            assert not re.search(r"(?i)\b(cool|perfect|great|awesome|nice|brilliant)\b|^good\b", opener), (register, opener)


def test_no_aside_opens_with_the_requests_own_words() -> None:
    """'I need a hand with this. I need to move my session' says 'I need' twice in a row."""
    import random

    from prove_env.synthesis.voice import Voice

    rng = random.Random(0)
    asides = {Voice("plain").aside(rng, rate=1.0, request="I need to move my On-call session.") for _ in range(300)}
    assert asides and not any(a.lower().startswith("i need") for a in asides), asides
    assert "I need a hand with this." in {Voice("plain").aside(rng, rate=1.0) for _ in range(300)}


def test_no_aside_says_a_word_of_the_introduction_again() -> None:
    """'Quick one from Carlos Davis on the Atlas team. Quick one for you.' says 'quick one' twice; the
    introduction 'I need help with my account' takes no 'Can you help with something?' after it."""
    import random

    from prove_env.synthesis.voice import Voice

    rng = random.Random(0)
    quick = {Voice("plain").aside(rng, rate=1.0, intro="Quick one from Carlos Davis on the Atlas team.")
             for _ in range(300)}
    assert quick and "Quick one for you." not in quick, quick
    helped = {Voice("plain").aside(rng, rate=1.0, intro="Hi, I need help with my account.") for _ in range(300)}
    assert helped == {"Quick one for you."}, helped
    assert "Quick one for you." in {Voice("plain").aside(rng, rate=1.0, intro="Carlos here.") for _ in range(300)}


def test_a_greeting_names_the_part_of_the_day_the_worlds_clock_is_in() -> None:
    """'Good morning, it's Adam Bryant.' said when the world's clock reads 15:45 is 'Good afternoon'
    (every server's sample is checked in test_task_quality)."""
    import datetime as dt

    from prove_env.synthesis.voice import in_time

    afternoon, morning = dt.datetime(2026, 3, 9, 15, 45), dt.datetime(2026, 3, 9, 9, 45)
    assert in_time("Good morning, it's Adam Bryant.", afternoon) == "Good afternoon, it's Adam Bryant."
    assert in_time("Morning! Ann here.", afternoon) == "Afternoon! Ann here."
    assert in_time("Hi. Afternoon, all.", morning) == "Hi. Morning, all."
    assert in_time("Good evening, this is Bo.", morning) == "Good morning, this is Bo."
    assert in_time("Hi, I'm Cy.", afternoon) == "Hi, I'm Cy."
    assert in_time("Good morning, it's Adam Bryant.", None) == "Good morning, it's Adam Bryant."


def test_a_day_the_user_named_in_words_is_not_worked_out_from_earlier_results() -> None:
    """'Flights on October 14': the date a search takes is the user's, so a look-up that holds other
    dates (a card's expiry) is not its source and may leave the gold when nothing else uses it."""
    from prove_env.synthesis.verify import _holders
    from prove_env.task import GoldCall

    search = GoldCall(id="g3", name="search_flights", arguments={"origin": "ORD", "date": "2026-10-14"})
    earlier = [GoldCall(id="g1", name="list_payment_methods", arguments={})]
    outputs = {"g1": '[{"payment_method_id": "PM-0001", "expires_on": "2027-03-31"}]'}
    assert _holders(search, earlier, outputs, "any flights from ord on october 14?") == []
    assert _holders(search, earlier, outputs, "any flights from ord the day after my trip?") == [("2026-10-14", ["g1"], True)]
    # a moment too: 'Monday, October 19, 2026 at 9 am' is the user's, not worked out from the results
    move = GoldCall(id="g3", name="reschedule_event", arguments={"event_id": "EVT-0092", "start": "2026-10-19T09:00"})
    outputs = {"g1": '[{"event_id": "EVT-0092", "start": "2026-10-12T10:00"}]'}
    said = "the passport renewal appointment has to move. monday, october 19, 2026 at 9 am would work."
    assert _holders(move, earlier, outputs, said) == [("EVT-0092", ["g1"], False)]
    assert _holders(move, earlier, outputs, "move it a week on.") == [
        ("EVT-0092", ["g1"], False), ("2026-10-19T09:00", ["g1"], True)]


def test_a_looked_up_handle_inside_the_users_words_keeps_its_look_up() -> None:
    """'Prefix my message with an @-mention of Edward Olson': the text written is the user's words
    with '@edward.olson' before them, which only the member look-up gives."""
    from prove_env.synthesis.verify import _holders
    from prove_env.task import GoldCall

    edit = GoldCall(id="g4", name="edit_message", arguments={"text": "@edward.olson Draft is in the folder."})
    earlier = [GoldCall(id="g1", name="find_members", arguments={"name": "Edward Olson"}),
               GoldCall(id="g2", name="list_channels", arguments={})]
    outputs = {"g1": '[{"member_id": "MEM-0007", "display_name": "edward.olson"}]',
               "g2": '[{"channel_id": "CH-01", "topic": "edward.olson drafts"}]'}
    said = "prefix @-mention of edward olson to my message that says \"draft is in the folder.\""
    assert _holders(edit, earlier, outputs, said) == [("@edward.olson Draft is in the folder.", ["g1"], False)]


def test_a_value_chosen_from_a_parameters_choices_is_found_in_no_result() -> None:
    """'The three most recent failures sending to Ledgerly': status='failed' is the assistant's
    choice for "failures", not a value the endpoint listing's 'failed_deliveries' key gives, so it
    keeps no second listing of the endpoints in the gold."""
    from prove_env.synthesis.verify import _chosen, _holders
    from prove_env.task import GoldCall

    spec = get_toolkit("payments").specs()["list_deliveries"]
    deliveries = GoldCall(id="g5", name="list_deliveries", arguments={"endpoint_id": "WHE-0002", "status": "failed"})
    assert _chosen(deliveries, spec) == {"failed"}
    earlier = [GoldCall(id="g4", name="list_webhook_endpoints", arguments={})]
    outputs = {"g4": '[{"endpoint_id": "WHE-0002", "failed_deliveries": 3}]'}
    said = "the three most recent failures sending to ledgerly"
    assert [v for v, _, _ in _holders(deliveries, earlier, outputs, said)] == ["WHE-0002", "failed"]
    assert [v for v, _, _ in _holders(deliveries, earlier, outputs, said, _chosen(deliveries, spec))] == ["WHE-0002"]


def test_a_detail_is_said_again_unless_an_earlier_call_took_its_value_in_the_same_role() -> None:
    """A PIN given for a transfer is not said again for the next one; "69 degrees" said of an
    automation's rule is not the set point asked for now, and 'auto' is no part of "automation"."""
    from prove_env.synthesis.compose import _said_before
    from prove_env.synthesis.recipe import Ask
    from prove_env.task import GoldCall

    pin = Ask({"account_id": "ACC-1", "pin": "4821"}, say="Move $20 to savings.", detail="My PIN is 4821.",
              mentions=("4821",))
    paid = [GoldCall(id="g1", name="transfer", arguments={"account_id": "ACC-2", "pin": "4821"})]
    assert _said_before(pin, "move $50, my pin is 4821.", paid)
    assert not _said_before(pin, "move $50, my pin is 4821.", [])  # said, but for no call yet
    heat = Ask({"device_id": "DEV-1", "temperature": 69}, say="Can you change what the hallway thermostat is set to?",
               detail="Make it 69 degrees.", mentions=("69",))
    rule = [GoldCall(id="g1", name="create_automation", arguments={"name": "Warm up", "action_value": 69})]
    assert not _said_before(heat, "when it drops below 63 degrees, set the hallway thermostat to 69 degrees.", rule)
    mode = Ask({"device_id": "DEV-1", "mode": "auto"}, say="Switch the thermostat's mode.", detail="Make it auto.",
               mentions=("auto",))
    earlier = [GoldCall(id="g1", name="set_mode", arguments={"device_id": "DEV-2", "mode": "auto"})]
    assert not _said_before(mode, "add an automation for the porch light.", earlier)
    assert _said_before(mode, "put the porch thermostat on auto.", earlier)


def test_a_number_inside_a_longer_number_is_not_where_a_value_came_from() -> None:
    """'Withdraw $15,000, or as much as has settled': 5077.0 comes from the summary's amount available,
    not from the account list's cash of 15077.0, so the summary stays in the gold."""
    from prove_env.synthesis.verify import _holders
    from prove_env.task import GoldCall

    withdraw = GoldCall(id="g3", name="withdraw_cash", arguments={"account_id": "ACC-0003", "amount": 5077.0})
    earlier = [GoldCall(id="g1", name="list_accounts", arguments={}),
               GoldCall(id="g2", name="get_account_summary", arguments={"account_id": "ACC-0003"})]
    outputs = {"g1": '[{"account_id": "ACC-0003", "cash": 15077.0, "buying_power": 25260.0}]',
               "g2": '{"account_id": "ACC-0003", "available_to_withdraw": 5077.0}'}
    said = "withdraw $15,000 from my brokerage account, or as much as has settled"
    assert _holders(withdraw, earlier, outputs, said) == [("ACC-0003", ["g1", "g2"], False), ("5077.0", ["g2"], False)]
    bought = GoldCall(id="g3", name="withdraw_cash", arguments={"account_id": "ACC-0003", "amount": 260})
    assert _holders(bought, earlier, outputs, said) == [("ACC-0003", ["g1", "g2"], False)]  # not in 25260.0


def test_an_id_beside_the_number_the_user_said_is_named_by_it() -> None:
    """'What's on invoice HY-1041?' after a payment listing that shows 'invoice_id' beside
    'invoice_number' HY-1041: the listing names the invoice, so no look-up by number is needed; a
    customer's name beside her merchant's id still names no merchant."""
    from prove_env.synthesis.verify import _named_with

    payment = '[{"payment_id": "PAY-0008", "invoice_id": "INV-0155", "invoice_number": "HY-1041"}]'
    assert _named_with(payment, "INV-0155", "what's on invoice hy-1041 for kelsey higgins?")
    assert not _named_with(payment, "INV-0155", "what's on my latest invoice?")
    customer = '[{"customer_id": "CUS-0013", "merchant_id": "MER-0001", "name": "Heidi Mason"}]'
    assert not _named_with(customer, "MER-0001", "bill heidi mason")


def test_an_idle_filter_leaves_a_first_read_but_an_entity_the_user_named_stays() -> None:
    """list_alerts(status=...) for a client whose alerts all have that status answers the same without
    it, so the filter goes; check_conflicts(contact_ids=[...]) keeps the people asked about even when
    they are free (the look-up that found them would go with them)."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.verify import _optional, _run_once
    from prove_env.task import Task

    calendar = get_toolkit("calendar").specs()
    check = Task(id="c", server="calendar", seed=0, user_turns=["Are Mary and I both free?"], gold=[[
        {"id": "g1", "name": "check_conflicts",
         "arguments": {"start": "2030-01-01T09:00", "end": "2030-01-01T10:00", "contact_ids": ["CON-0001"]}}]])
    assert _optional(calendar["check_conflicts"], check.gold_calls[0]) == []
    assert _run_once(check, calendar)[0] is check

    from prove_env.world import worlds
    from tests.stand_ins import parse

    trading = get_toolkit("trading")
    specs = trading.specs()
    tools = trading(worlds.create(trading, 0))
    for client in parse(tools.run("find_clients", {"limit": 50})):
        statuses = {a["status"] for a in parse(tools.run("list_alerts", {"client_id": client["client_id"]}))}
        if len(statuses) == 1:
            break
    else:
        raise AssertionError("no client of seed 0 has alerts of one status")
    tools.world.close()
    task = Task(id="t", server="trading", seed=0, user_turns=["What price alerts do I have set?"], gold=[[
        {"id": "g1", "name": "list_alerts", "arguments": {"client_id": client["client_id"], "status": statuses.pop()}}]])
    assert _run_once(task, specs)[0].gold_calls[0].arguments == {"client_id": client["client_id"]}


def test_the_two_bounds_of_a_range_leave_a_read_together_or_not_at_all() -> None:
    """"Eddie's message in #random from March 16", searched on March 16 to March 16: on a world whose
    #random messages begin that day the search answers the same without its start, which left the gold
    searching everything up to March 16, a range the user never said. Bounds are tried together: a day
    that changes the answer keeps both; a range that changes nothing (and an idle limit) still goes."""
    from prove_env.registry import get_toolkit
    from prove_env.synthesis.verify import _idle_candidates, _run_once
    from prove_env.task import Task
    from prove_env.world import worlds
    from tests.stand_ins import parse

    assert _idle_candidates(["start_date", "end_date", "limit"]) == [("start_date", "end_date"), ("limit",)]
    assert _idle_candidates(["min_amount", "sender", "max_amount"]) == [("min_amount", "max_amount"), ("sender",)]
    assert _idle_candidates(["end_date", "min_size", "max_depth"]) == [("end_date",), ("min_size",), ("max_depth",)]

    team_chat = get_toolkit("team_chat")
    specs = team_chat.specs()
    tools = team_chat(worlds.create(team_chat, 0))
    me = parse(tools.run("find_members", {"limit": 1}))[0]["member_id"]
    where = {"user_id": me, "channel_id": parse(tools.run("list_channels", {"user_id": me}))[0]["channel_id"]}
    messages = parse(tools.run("search_messages", {**where, "limit": 100}))
    first = min(m[key][:10] for m in messages for key in m if key in ("sent_at", "posted_at", "created_at"))
    tools.world.close()

    def gold_of(**arguments):
        task = Task(id="t", server="team_chat", seed=0, user_turns=["Messages in the channel?"], gold=[[
            {"id": "g1", "name": "search_messages", "arguments": {**where, **arguments}}]])
        return _run_once(task, specs)[0].gold_calls[0].arguments

    assert gold_of(start_date=first, end_date=first) == {**where, "start_date": first, "end_date": first}
    assert gold_of(start_date="2020-01-01", end_date="2040-01-01", limit=100) == where


def test_the_users_own_name_is_no_fact_even_as_one_of_its_forms() -> None:
    """'Who does Jessica follow?' when she follows the user: the answer says 'you', which neither the
    user's name nor handle states."""
    from prove_env.facts import one_of
    from prove_env.synthesis.compose import _not_own

    extract = _not_own(lambda result: [one_of("Amanda Carney", "theamandac"), "Bo Diaz"], {"Amanda Carney"})
    assert extract(None) == ["Bo Diaz"]
    # a comment told by its author or its words, the author being the user: still told, by its words
    comments = _not_own(lambda result: [one_of("Damon Brown", "Looks good to me, merging now."),
                                        one_of("Ann Lee", "Needs a test.")], {"Damon Brown"})
    assert comments(None) == [one_of("Looks good to me, merging now."), one_of("Ann Lee", "Needs a test.")]


def test_a_look_up_that_only_echoes_an_id_does_not_order_the_call_that_takes_it() -> None:
    """Endpoints listed, one endpoint's deliveries looked up with its id, the endpoint enabled: the
    deliveries show the endpoint's id again, but the id came from the list, so enabling it may come
    first; its edge runs from the list."""
    from prove_env.episode import replay
    from prove_env.runtime import run_sync
    from prove_env.synthesis.verify import _edges_that_matter
    from prove_env.task import Task

    task = Task(id="relay", server="payments", seed=0, user_turns=["Enable the Ledgerly endpoint again and show me "
                                                                     "its failed deliveries."],
                gold=[[{"id": "g1", "name": "list_webhook_endpoints", "arguments": {}},
                       {"id": "g2", "name": "list_deliveries", "arguments": {"endpoint_id": "WHE-0002",
                                                                              "status": "failed"},
                        "depends_on": ["g1"]},
                       {"id": "g3", "name": "update_webhook_endpoint", "arguments": {"endpoint_id": "WHE-0002",
                                                                                      "enabled": False},
                        "depends_on": ["g2"]}]])
    reference = run_sync(replay(task))
    assert not reference.failures
    assert "WHE-0002" in next(r.output for r in reference.records if r.id == "g2")  # the echo
    kept = _edges_that_matter(task, reference)
    assert kept.gold_calls[2].depends_on == ["g1"]


def test_an_id_shown_in_another_role_earlier_does_not_stand_in_for_the_look_up_of_its_owner() -> None:
    """'A new deal owned by me', after a company look-up whose deals show the user's rep id as some
    deal's owner: the id comes from the look-up of the user by name, which stays in the gold."""
    from types import SimpleNamespace

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.verify import _without_unused_reads
    from prove_env.task import GoldCall

    specs = get_toolkit("crm").specs()
    gold = [[GoldCall(id="g1", name="get_company", arguments={"company_id": "CMP-0003"})],
            [GoldCall(id="g2", name="find_reps", arguments={"query": "Amanda Carney"}),
             GoldCall(id="g3", name="create_deal", arguments={"name": "Renewal", "owner_id": "REP-0001",
                                                               "company_id": "CMP-0003"}, depends_on=["g2"])]]
    task = Task(id="c", server="crm", seed=0, user_turns=[
        "I'm Amanda Carney. Who owns the Lee Dunlap and Gibbs account?",
        "Open a deal called 'Renewal' for them, owned by me."], gold=gold, facts=[["Ron Diaz"], []])
    records = [SimpleNamespace(id="g1", output='{"company_id": "CMP-0003", "name": "Lee Dunlap and Gibbs", '
                                               '"owner": "Ron Diaz", "deals": [{"deal_id": "DL-0002", '
                                               '"name": "Upsell", "owner_id": "REP-0001"}]}'),
               SimpleNamespace(id="g2", output='[{"rep_id": "REP-0001", "name": "Amanda Carney"}]'),
               SimpleNamespace(id="g3", output='{"deal_id": "DL-0009"}')]
    kept = _without_unused_reads(task, records, specs, told={"g1"})
    assert [c.name for c in kept.gold_calls] == ["get_company", "find_reps", "create_deal"]
    assert kept.gold_calls[2].depends_on == ["g2"]


def test_a_persons_name_does_not_name_the_city_whose_id_their_record_holds() -> None:
    """'I'm Kara Fernandez. What kinds of places are there in Cedar Falls?': her record holds her
    home city's id, which her name does not name; the id comes from the city look-up."""
    from types import SimpleNamespace

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.verify import _without_unused_reads
    from prove_env.task import GoldCall

    specs = get_toolkit("maps").specs()
    gold = [[GoldCall(id="g1", name="find_users", arguments={"query": "Kara Fernandez"}),
             GoldCall(id="g2", name="list_cities", arguments={"name": "Cedar Falls"}),
             GoldCall(id="g3", name="list_categories", arguments={"city_id": "CTY-0004"}, depends_on=["g2"])]]
    task = Task(id="m", server="maps", seed=0, user_turns=[
        "Hi, I'm Kara Fernandez. What kinds of places are there in Cedar Falls?"], gold=gold, facts=[["cafe"]])
    records = [SimpleNamespace(id="g1", output='[{"user_id": "USR-0022", "name": "Kara Fernandez", '
                                               '"home_city_id": "CTY-0004"}]'),
               SimpleNamespace(id="g2", output='[{"city_id": "CTY-0004", "name": "Cedar Falls"}]'),
               SimpleNamespace(id="g3", output='[{"category": "cafe", "count": 3}]')]
    kept = _without_unused_reads(task, records, specs, told={"g3"})
    assert [c.name for c in kept.gold_calls] == ["list_cities", "list_categories"]


def test_a_look_up_that_fed_only_a_removed_look_up_leaves_the_gold_too() -> None:
    """'I look after Copper Kettle Catering's billing. Add 3 equipment hires to Kent Wright's draft
    invoice CK-1022': the invoice is found by its number, so the customer's look-up goes, and with it
    the merchant's look-up that fed only the customer's."""
    from types import SimpleNamespace

    from prove_env.registry import get_toolkit
    from prove_env.synthesis.verify import _without_unused_reads
    from prove_env.task import GoldCall

    specs = get_toolkit("payments").specs()
    gold = [[GoldCall(id="g1", name="list_merchants", arguments={"name": "Copper Kettle Catering"}),
             GoldCall(id="g2", name="find_customers", arguments={"name": "Kent Wright", "merchant_id": "MER-0003"},
                      depends_on=["g1"]),
             GoldCall(id="g3", name="list_invoices", arguments={"number": "CK-1022"}),
             GoldCall(id="g4", name="add_line_item", arguments={"invoice_id": "INV-0022", "description": "Equipment hire",
                                                               "quantity": 3, "unit_price": 40.0}, depends_on=["g3"])]]
    task = Task(id="p", server="payments", seed=0, user_turns=[
        "Hello, I look after Copper Kettle Catering's billing. Add 3 equipment hires at $40 to Kent Wright's draft "
        "invoice CK-1022."], gold=gold, facts=[[]])
    records = [SimpleNamespace(id="g1", output='[{"merchant_id": "MER-0003", "name": "Copper Kettle Catering"}]'),
               SimpleNamespace(id="g2", output='[{"customer_id": "CUS-0031", "name": "Kent Wright"}]'),
               SimpleNamespace(id="g3", output='[{"invoice_id": "INV-0022", "number": "CK-1022", '
                                               '"customer_id": "CUS-0031"}]'),
               SimpleNamespace(id="g4", output='{"invoice_id": "INV-0022", "total": 120.0}')]
    kept = _without_unused_reads(task, records, specs, told=set())
    assert [c.name for c in kept.gold_calls] == ["list_invoices", "add_line_item"]


def test_an_entry_of_another_entity_with_the_same_title_does_not_show_a_read_earlier() -> None:
    """'Which meetings did I host on February 3?': the host's April 7 meeting, also titled 'Office hours',
    looked up earlier for a reschedule, does not tell it; the same meeting's earlier row does."""
    from prove_env.synthesis.verify import _same_field

    april = [{"meeting_id": "MTG-0077", "title": "Office hours", "host_id": "USR-0016"}]
    february = [{"meeting_id": "MTG-0073", "title": "Office hours", "host_id": "USR-0016"}]
    assert not _same_field("Office hours", april, february)
    assert _same_field("Office hours", february, february)


def test_a_facts_extract_that_ignores_the_result_is_never_shown_earlier() -> None:
    """'Which devices does my Good night scene control?' told by a list built beforehand: it tells
    the same of any entry, so a group listing of the same home does not already show it, and the
    scene listing stays in the gold."""
    from types import SimpleNamespace

    from prove_env.synthesis.verify import _shown_earlier
    from prove_env.task import GoldCall

    gold = [[GoldCall(id="g1", name="list_groups", arguments={"home_id": "HOM-0001"})],
            [GoldCall(id="g2", name="list_scenes", arguments={"home_id": "HOM-0001"})]]
    task = Task(id="s", server="iot_devices", seed=0, user_turns=["My groups?", "Which devices does Good night control?"],
                gold=gold, facts=[["Hall"], ["Lamp", "Fan"]])
    records = [SimpleNamespace(id="g1", output='[{"group_id": "GRP-0001", "home_id": "HOM-0001", "name": "Hall", '
                                               '"members": ["Lamp", "Fan"]}]'),
               SimpleNamespace(id="g2", output='[{"scene_id": "SCN-0001", "home_id": "HOM-0001", '
                                               '"name": "Good night", "devices": ["Lamp", "Fan"]}]')]
    assert _shown_earlier(task, records, {"g2": lambda r: ["Lamp", "Fan"]}) == {}
    reading = {"g2": lambda r: next(e["devices"] for e in r if e.get("name") == "Good night")}
    assert _shown_earlier(task, records, reading) == {}


def test_a_read_whose_facts_are_zeros_is_shown_by_the_same_fields_of_an_earlier_entry() -> None:
    """'How much range does the blue Outback have, and its fuel?' of a car the list of cars shows at 0% and
    0 km: the list's entry read the same way tells it, so the status read leaves the gold; a zero found
    only by its value in another field ('refund': 0) tells nothing."""
    from types import SimpleNamespace

    from prove_env.synthesis.verify import _shown_earlier
    from prove_env.task import GoldCall

    gold = [[GoldCall(id="g1", name="list_vehicles", arguments={"owner_id": "OWN-0001"}),
             GoldCall(id="g2", name="get_vehicle_status", arguments={"vehicle_id": "VEH-0003"}, depends_on=["g1"])]]
    task = Task(id="z", server="vehicle", seed=0, user_turns=["Range and fuel of my blue Outback?"], gold=gold,
                facts=[[0, 0]])
    listed = '[{"vehicle_id": "VEH-0003", "model": "Outback", "fuel_percent": 0, "range_km": 0}]'
    records = [SimpleNamespace(id="g1", output=listed),
               SimpleNamespace(id="g2", output='{"vehicle_id": "VEH-0003", "fuel_percent": 0, "range_km": 0, '
                                               '"odometer_km": 5210}')]
    reading = {"g2": lambda r: [r["fuel_percent"], r["range_km"]] if isinstance(r, dict) else []}
    assert _shown_earlier(task, records, reading) == {"g2": "g1"}
    other = [SimpleNamespace(id="g1", output='[{"vehicle_id": "VEH-0003", "model": "Outback", "refund": 0, '
                                             '"trips": 0}]'), records[1]]
    assert _shown_earlier(task, other, reading) == {}


def test_the_same_read_again_after_a_write_is_shown_by_the_first() -> None:
    """'Delete the Exxon alert. Then which of my alerts have gone off?': the alert listing made
    before the delete shows the triggered one that is left, though alert rows carry no client id;
    a listing of another read (the client's orders) shows nothing of it."""
    from types import SimpleNamespace

    from prove_env.synthesis.verify import _shown_earlier
    from prove_env.task import GoldCall

    listing = {"client_id": "CLI-0007"}
    gold = [[GoldCall(id="g1", name="list_alerts", arguments=listing),
             GoldCall(id="g2", name="delete_alert", arguments={"alert_id": "ALR-0036"}, depends_on=["g1"]),
             GoldCall(id="g3", name="list_alerts", arguments=listing, depends_on=["g2"])]]
    task = Task(id="t", server="trading", seed=0, user_turns=["Delete the Exxon alert. Which of my alerts went off?"],
                gold=gold, facts=[["CVX"]])
    alerts = ('[{"alert_id": "ALR-0036", "symbol": "XOM", "status": "triggered"}, '
              '{"alert_id": "ALR-0040", "symbol": "CVX", "status": "triggered"}]')
    records = [SimpleNamespace(id="g1", output=alerts), SimpleNamespace(id="g2", output='{"deleted": "ALR-0036"}'),
               SimpleNamespace(id="g3", output='[{"alert_id": "ALR-0040", "symbol": "CVX", "status": "triggered", '
                                               '"client_id": "CLI-0007"}]')]
    triggered = {"g3": lambda r: [a["symbol"] for a in r if a["status"] == "triggered"]}
    assert _shown_earlier(task, records, triggered) == {"g3": "g1"}
    other = task.model_copy(update={"gold": [[gold[0][0].model_copy(update={"name": "list_orders"}), *gold[0][1:]]]})
    assert _shown_earlier(other, records, triggered) == {}


def test_a_listing_under_an_entity_is_not_shown_by_one_entry_carrying_its_id() -> None:
    """'Set the team licenses deal to $142,500. Show me my qualification deals': the update's result
    carries the rep's id, the deal's name and amount, but only the listing of the rep's qualification
    deals tells that there is no other, so it stays in the gold; a read of one entity by its id (the
    deal itself) is still shown by that result."""
    from types import SimpleNamespace

    from prove_env.synthesis.verify import _shown_earlier
    from prove_env.task import GoldCall

    deal = ('{"deal_id": "DEA-0031", "name": "Team licenses", "owner_id": "REP-0006", "stage": "qualification", '
            '"amount": 142500.0}')
    gold = [[GoldCall(id="g1", name="update_deal", arguments={"deal_id": "DEA-0031", "amount": 142500.0})],
            [GoldCall(id="g2", name="list_deals", arguments={"owner_id": "REP-0006", "stage": "qualification"})]]
    task = Task(id="c", server="crm", seed=0, user_turns=["Set it to $142,500.", "My qualification deals?"],
                gold=gold, facts=[[], ["Team licenses", 142500.0]])
    records = [SimpleNamespace(id="g1", output=deal), SimpleNamespace(id="g2", output=f"[{deal}]")]
    reading = {"g2": lambda r: [x for d in r for x in (d["name"], d["amount"])]}
    assert _shown_earlier(task, records, reading) == {}
    one = task.model_copy(update={"gold": [gold[0], [GoldCall(id="g2", name="get_deal",
                                                               arguments={"deal_id": "DEA-0031"})]]})
    records_one = [records[0], SimpleNamespace(id="g2", output=deal)]
    assert _shown_earlier(one, records_one, {"g2": lambda r: [r["name"], r["amount"]]}) == {"g2": "g1"}


def test_a_read_is_not_shown_by_an_entry_that_only_refers_to_its_entity() -> None:
    """'Points left in sprint Apollo 24?' then 'Count of Apollo issues in review?': the sprint report
    carries the project's id beside counts of the sprint's own, which equalled the project's by chance;
    it is not the project's entry, so the project read stays in the gold. The project's own entry in an
    earlier listing still shows it."""
    from types import SimpleNamespace

    from prove_env.synthesis.verify import _shown_earlier
    from prove_env.task import GoldCall

    gold = [[GoldCall(id="g1", name="get_sprint_report", arguments={"sprint_id": "SPR-0024"})],
            [GoldCall(id="g2", name="get_project", arguments={"project_id": "PRJ-0002"})]]
    task = Task(id="p", server="issue_tracker", seed=0, user_turns=["Points left?", "Apollo issues in review?"],
                gold=gold, facts=[[13], [1]])
    report = ('{"sprint_id": "SPR-0024", "project_id": "PRJ-0002", "points_remaining": 13, '
              '"issues_by_status": {"in_review": 1, "todo": 4}}')
    project = '{"project_id": "PRJ-0002", "key": "APOLLO", "issues_by_status": {"in_review": 1, "todo": 9}}'
    records = [SimpleNamespace(id="g1", output=report), SimpleNamespace(id="g2", output=project)]
    reading = {"g2": lambda r: [r["issues_by_status"]["in_review"]]}
    assert _shown_earlier(task, records, reading) == {}
    listed = task.model_copy(update={"gold": [[GoldCall(id="g1", name="list_projects", arguments={})], gold[1]]})
    records_listed = [SimpleNamespace(id="g1", output=f"[{project}]"), records[1]]
    assert _shown_earlier(listed, records_listed, reading) == {"g2": "g1"}


def test_a_listing_narrowed_by_a_filter_is_shown_by_the_whole_listing_before_it() -> None:
    """'Remove Patrick Smith from my meeting. Who is in the waiting room?': the host's whole participant
    list, read to find Patrick, shows the two waiting people as they are, so the waiting room read
    again leaves the gold; a row the earlier listing showed otherwise (someone admitted in between),
    or did not show (a page that cut it off), keeps the read."""
    from types import SimpleNamespace

    from prove_env.synthesis.verify import _shown_earlier
    from prove_env.task import GoldCall

    host = {"host_id": "USR-0006"}
    gold = [[GoldCall(id="g1", name="list_participants", arguments=host),
             GoldCall(id="g2", name="remove_participant", arguments={"participant_id": "PRT-0003", "user_id": "USR-0006"},
                      depends_on=["g1"])],
            [GoldCall(id="g3", name="list_participants", arguments={**host, "state": "waiting"})]]
    task = Task(id="w", server="video_meeting", seed=0, user_turns=["Remove Patrick Smith.", "Who is waiting?"],
                gold=gold, facts=[[], ["John Bailey", "Steven Hays"]])
    john = {"participant_id": "PRT-0004", "user_id": "USR-0011", "name": "John Bailey", "state": "waiting"}
    steven = {"participant_id": "PRT-0005", "user_id": "USR-0012", "name": "Steven Hays", "state": "waiting"}
    patrick = {"participant_id": "PRT-0003", "user_id": "USR-0010", "name": "Patrick Smith", "state": "in_meeting"}
    host_row = {"participant_id": "PRT-0001", "user_id": "USR-0006", "name": "Ada Host", "state": "in_meeting"}

    def records(first: list, waiting: list) -> list:
        return [SimpleNamespace(id="g1", output=json.dumps(first)), SimpleNamespace(id="g2", output="{}"),
                SimpleNamespace(id="g3", output=json.dumps(waiting))]

    names = {"g3": lambda r: [p["name"] for p in r]}
    assert _shown_earlier(task, records([host_row, patrick, john, steven], [john, steven]), names) == {"g3": "g1"}
    assert _shown_earlier(task, records([host_row, patrick, john], [john, steven]), names) == {}
    moved = {**steven, "state": "in_meeting"}
    assert _shown_earlier(task, records([host_row, patrick, john, moved], [john, steven]), names) == {}
    bigger = task.model_copy(update={"gold": [gold[0], [gold[1][0].model_copy(update={"arguments": {"state": "waiting"}})]]})
    assert _shown_earlier(bigger, records([host_row, patrick, john, steven], [john, steven]), names) == {}


def test_a_listing_is_narrowed_only_by_filters_its_rows_show_and_by_its_first_rows() -> None:
    """The order list shows each order's status, so 'what have I had delivered?' is read off it, and
    'my last 2 orders' are its first two rows; words matched in a body the rows do not show, or the
    rows of another customer, are not what the earlier list told."""
    from types import SimpleNamespace

    from prove_env.synthesis.verify import _narrowed

    orders = [{"order_id": "ORD-1", "status": "delivered", "total": 31.5},
              {"order_id": "ORD-2", "status": "on_the_way", "total": 12.0},
              {"order_id": "ORD-3", "status": "delivered", "total": 21.49}]
    mine = {"customer_id": "CUS-0037"}
    earlier = SimpleNamespace(id="e", name="list_orders", arguments=mine)

    def narrowed(arguments: dict, rows: list, name: str = "list_orders") -> bool:
        call = SimpleNamespace(id="c", name=name, arguments=arguments)
        return _narrowed(earlier, call, {"e": orders, "c": rows})

    assert narrowed({**mine, "status": "delivered"}, [orders[0], orders[2]])
    assert narrowed({**mine, "limit": 2}, orders[:2])
    assert narrowed(dict(mine), orders)
    assert not narrowed({**mine, "limit": 2}, [orders[0], orders[2]])
    assert not narrowed({**mine, "query": "pizza"}, [orders[0]])
    assert not narrowed({"customer_id": "CUS-0001", "status": "delivered"}, [orders[0], orders[2]])
    assert not narrowed({**mine, "status": "delivered"}, [orders[0], orders[2]], name="list_refunds")


def test_a_fact_said_as_nothing_is_a_zero_no_field_of_that_name_shows() -> None:
    """'How much would I get back if I cancelled?' when the quote gives nothing back: the booking list's
    `refund: 0.0` (refunded so far) is another thing under the same name, and NOTHING (0 or 'nothing')
    is a zero, so only the quote's own reading could find it there; a quote read again is shown."""
    from types import SimpleNamespace

    from prove_env.facts import NOTHING
    from prove_env.synthesis.verify import _shown_earlier
    from prove_env.task import GoldCall

    gold = [[GoldCall(id="g1", name="list_flight_bookings", arguments={"traveller_id": "TRV-0001"}),
             GoldCall(id="g2", name="quote_cancellation", arguments={"booking_id": "FBK-0007"}, depends_on=["g1"])]]
    task = Task(id="q", server="travel_booking", seed=0, user_turns=["What would I get back if I cancelled?"],
                gold=gold, facts=[[NOTHING]])
    quote = '{"booking_id": "FBK-0007", "refund": 0.0, "kept": 121.99}'
    records = [SimpleNamespace(id="g1", output='[{"booking_id": "FBK-0007", "status": "confirmed", "refund": 0.0}]'),
               SimpleNamespace(id="g2", output=quote)]
    quoted = {"g2": lambda r: [r["refund"] or NOTHING] if isinstance(r, dict) and "kept" in r else []}
    assert _shown_earlier(task, records, quoted) == {}
    again = [SimpleNamespace(id="g1", output=quote), records[1]]
    both = task.model_copy(update={"gold": [[gold[0][1].model_copy(update={"id": "g1"}),
                                             gold[0][1].model_copy(update={"depends_on": []})]]})
    assert _shown_earlier(both, again, quoted) == {"g2": "g1"}


def test_words_of_sequence_join_only_changes_whose_order_matters() -> None:
    """'And if you could, could you go through my calendar?' asked twice, 'And if you could, the high bid
    is good enough for me' and 'After that, $868.25 came in on March 27' join what tells: words of
    asking are never drawn, and words of sequence only where a change follows a change (the order
    matters) and the request asks; elsewhere the joiner says no order."""
    import random

    from prove_env.synthesis.voice import _IN_ORDER, Voice

    for register in ("plain", "polite", "chatty", "terse"):
        voice = Voice(register)
        for request in ("Could you go through my calendar?", "move it to Friday.", "$868.25 came in on March 27.",
                        "The high bid on my camera is good enough for me.", "which automations are on?"):
            joined = {voice.joiner(random.Random(seed), request) for seed in range(100)}
            assert joined and not joined & {*_IN_ORDER, "And if you could, "}, (register, request, joined)
        ordered = {voice.joiner(random.Random(seed), "add a line to it.", ordered=True) for seed in range(100)}
        assert ordered and ordered <= set(_IN_ORDER), (register, ordered)


def test_no_opener_after_a_change_says_the_user_sees() -> None:
    """Finding (iot_devices, seed 133): "Ah, I see. Unlock my front door lock ..." after the assistant had
    set the lock's delay: nothing was explained, so there is nothing to see. "I see" follows an answer
    that told something or declined."""
    import random

    from prove_env.synthesis.voice import REGISTERS, Voice

    rng = random.Random(0)
    seen = set()
    for register in REGISTERS:
        for _ in range(200):
            assert "I see" not in Voice(register).opener(rng, "done"), register
            seen.add(Voice(register).opener(rng, "refused"))
    assert any("I see" in o for o in seen)
