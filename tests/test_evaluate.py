"""`prove-env eval`: policies through the environments, metrics, resuming, and the OpenAI client path."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from prove_env.cli import main
from prove_env.evaluate import _pass_k, evaluate
from prove_env.report import load_run
from prove_env.task import GoldCall, Task, fixture_tasks

TASKS = fixture_tasks("banking")


def _lines(path):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def test_gold_noop_random_metrics(tmp_path):
    metrics = evaluate(TASKS, ["gold", "noop", "random"], tmp_path, trials=2, progress=False)
    records = _lines(tmp_path / "trajectories.jsonl")
    assert len(records) == len(TASKS) * 3 * 2
    gold, noop, rand = (metrics["by_policy"][p]["overall"] for p in ("gold", "noop", "random"))
    abstain = sum(t.abstain for t in TASKS) / len(TASKS)
    assert gold["success_rate"] == 1.0 and gold["pass_k"] == {"1": 1.0, "2": 1.0}
    assert gold["reward_mean"] == pytest.approx((1.3 * (1 - abstain) + abstain))
    assert gold["reward_share"] == pytest.approx(1.0)  # every task's own maximum, abstention tasks' 1 included
    assert metrics["reward_maximum"] == 1.3 and metrics["abstention_maximum"] == 1.0
    assert noop["success_rate"] == pytest.approx(abstain) and noop["calls_per_task"] == 0
    assert rand["calls_per_task"] >= 1 and rand["error_rate"] > 0 and rand["success_rate"] < 1
    assert set(metrics["by_policy"]["gold"]["servers"]) == {"banking"}
    assert json.loads((tmp_path / "metrics.json").read_text()) == metrics
    # the random policy is seeded by task and trial: the same run twice gives the same calls
    again = tmp_path / "again"
    evaluate(TASKS, ["random"], again, trials=2, progress=False)
    strip = lambda rs: [(r["task_id"], r["trial"], [(c["name"], c["arguments"]) for c in r["calls"]]) for r in rs]  # noqa: E731
    assert strip(_lines(again / "trajectories.jsonl")) == strip([r for r in records if r["policy"] == "random"])


def test_resumes_an_interrupted_run(tmp_path):
    evaluate(TASKS, ["gold", "noop"], tmp_path, trials=1, progress=False)
    path = tmp_path / "trajectories.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(lines[:-3]) + lines[-3][:25])  # three episodes lost, one cut mid-line
    evaluate(TASKS, ["gold", "noop"], tmp_path, trials=1, progress=False)
    records = _lines_tolerant(path)
    assert len(records) == len(lines) and {(r["task_id"], r["policy"]) for r in records} == \
        {(t.id, p) for t in TASKS for p in ("gold", "noop")}
    size = path.stat().st_size
    evaluate(TASKS, ["gold", "noop"], tmp_path, trials=1, progress=False)
    assert path.stat().st_size == size  # nothing left to run


def _lines_tolerant(path):
    out = []
    for line in path.read_text().splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            pass
    return out


def test_pass_k():
    assert _pass_k([True, True, False], 1) == pytest.approx(2 / 3)
    assert _pass_k([True, True, False], 2) == pytest.approx(1 / 3)
    assert _pass_k([True, True, False], 3) == 0.0
    assert _pass_k([True] * 4, 4) == 1.0


class _FakeModel(BaseHTTPRequestHandler):
    """A chat-completions endpoint whose 'model' replays the gold calls of the task it is asked about."""

    requests: list[dict] = []
    fail = False
    fail_tasks: set[str] = set()  # ids of the tasks whose requests fail

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).requests.append(body)
        messages = body["messages"]
        task = next((t for t in TASKS if t.user_turns[0] == messages[1]["content"]), None)
        if self.path != "/v1/chat/completions" or type(self).fail or task is None or task.id in type(self).fail_tasks:
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"boom")
            return
        turn = sum(m["role"] == "user" for m in messages) - 1
        last_user = max(i for i, m in enumerate(messages) if m["role"] == "user")
        done = sum(m["role"] == "tool" for m in messages[last_user:])
        calls = task.gold[turn]
        if done < len(calls):
            call = calls[done]
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{turn}_{done}", "type": "function",
                 "function": {"name": call.name, "arguments": json.dumps(call.arguments)}}]}
        else:
            message = {"role": "assistant", "content": "All done."}
        payload = json.dumps({"id": "x", "object": "chat.completion", "model": body["model"],
                              "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


@pytest.fixture
def fake_endpoint():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeModel)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    _FakeModel.requests, _FakeModel.fail, _FakeModel.fail_tasks = [], False, set()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()


def test_openai_policy_against_a_local_endpoint(tmp_path, fake_endpoint):
    options = {"base_url": fake_endpoint, "model": "fake-model", "temperature": 0.0}
    metrics = evaluate(TASKS, ["openai"], tmp_path, trials=1, concurrency=3, policy_options=options, progress=False)
    assert metrics["by_policy"]["openai"]["overall"]["success_rate"] == 1.0
    first = _FakeModel.requests[0]
    assert first["model"] == "fake-model" and first["tools"][0]["type"] == "function"
    assert first["messages"][0]["role"] == "system"
    follow_up = next(r for r in _FakeModel.requests if any(m["role"] == "tool" for m in r["messages"]))
    assistant = next(m for m in follow_up["messages"] if m.get("tool_calls"))
    assert isinstance(assistant["tool_calls"][0]["function"]["arguments"], str)


def test_endpoint_failure_is_recorded_not_fatal(tmp_path, fake_endpoint):
    _FakeModel.fail = True
    options = {"base_url": fake_endpoint, "model": "m", "retries": 1}
    metrics = evaluate(TASKS[:2], ["openai"], tmp_path, policy_options=options, progress=False)
    records = _lines(tmp_path / "trajectories.jsonl")
    assert all("HTTP 500" in r["error"] for r in records)
    assert metrics["by_policy"]["openai"]["overall"]["endpoint_errors"] == 2


def test_eval_cli_and_compare(tmp_path, capsys):
    before, after = tmp_path / "before", tmp_path / "after"
    assert main(["eval", "--servers", "calendar", "--policies", "noop", "--out", str(before)]) == 0
    assert main(["eval", "--servers", "calendar", "--policies", "noop,gold", "--out", str(after),
                 "--compare", str(before)]) == 0
    out = capsys.readouterr().out
    assert "calendar" in out and "gold" in out and (after / "report.html").exists()
    assert main(["eval", "--policies", "openai", "--out", str(tmp_path / "x")]) == 2


def test_a_run_directory_resumes_only_the_same_run(tmp_path):
    evaluate(TASKS[:1], ["gold"], tmp_path, progress=False)
    recorded = (tmp_path / "trajectories.jsonl").read_bytes()
    for changes, says in (({"reward": "state"}, 'reward: "paper" there, "state" here'),
                          ({"trials": 3}, "trials: 1 there, 3 here"),
                          ({"policies": ["gold", "noop"]}, "policies: gold there, gold,noop here"),
                          ({"tasks": TASKS[:2]}, "tasks: 1 there, 2 here"),
                          ({"tasks": TASKS[1:2]}, "tasks: 1 there and here, but other tasks"),
                          ({"max_steps": 4}, "max_steps: 10 there, 4 here")):
        arguments = {"tasks": TASKS[:1], "policies": ["gold"], **changes}
        with pytest.raises(ValueError, match="holds another run") as refused:
            evaluate(arguments.pop("tasks"), arguments.pop("policies"), tmp_path, progress=False, **arguments)
        assert says in str(refused.value)
        assert (tmp_path / "trajectories.jsonl").read_bytes() == recorded  # refused before anything was written
    metrics = evaluate(TASKS[:2], ["gold"], tmp_path, trials=2, progress=False, overwrite=True)
    assert metrics["by_policy"]["gold"]["overall"]["episodes"] == 4
    assert len(_lines(tmp_path / "trajectories.jsonl")) == 4  # the old run replaced, not appended to


def test_episodes_without_a_recorded_run_are_not_mixed_into_a_new_one(tmp_path):
    episode = {"task_id": "x", "server": "banking", "policy": "gold", "trial": 0}
    (tmp_path / "trajectories.jsonl").write_text(json.dumps(episode) + "\n")
    with pytest.raises(ValueError, match="holds episodes \\(trajectories.jsonl\\) but no run.json"):
        evaluate(TASKS[:1], ["gold"], tmp_path, progress=False)
    assert _lines(tmp_path / "trajectories.jsonl") == [episode] and not (tmp_path / "run.json").exists()


def test_eval_counts_endpoint_errors_retries_them_and_fails_a_run_that_never_got_an_answer(tmp_path, fake_endpoint,
                                                                                          capsys):
    tasks = tmp_path / "tasks.jsonl"
    tasks.write_text("".join(t.to_json() + "\n" for t in TASKS[:2]))
    out = tmp_path / "run"
    argv = ["eval", "--tasks", str(tasks), "--policies", "openai", "--base-url", fake_endpoint, "--model", "m",
            "--out", str(out)]

    _FakeModel.fail = True  # the endpoint answers, but every request fails
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert "openai: 2 of 2 episodes were stopped by an endpoint error (banking 2)" in captured.out
    assert "every episode of openai was stopped by an endpoint error" in captured.err
    assert "openai: 2 of 2 episodes were stopped by an endpoint error" in (out / "report.html").read_text()

    _FakeModel.fail, _FakeModel.fail_tasks = False, {TASKS[0].id}  # some fail: counted, and the run passes
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert "openai: 1 of 2 episodes were stopped by an endpoint error (banking 1)" in captured.out
    records = _lines(out / "trajectories.jsonl")
    assert len(records) == 2  # the stopped episodes were played again, not added to
    assert {r["task_id"]: "error" in r for r in records} == {TASKS[0].id: True, TASKS[1].id: False}

    _FakeModel.fail_tasks = set()
    assert main(argv) == 0
    assert "endpoint error" not in capsys.readouterr().out
    records = _lines(out / "trajectories.jsonl")
    assert len(records) == 2 and all("error" not in r and r["success"] for r in records)


def test_episodes_whose_outputs_hold_unicode_line_separators_are_kept(tmp_path):
    """A tool output with U+2028 is written raw in trajectories.jsonl; reading it back loses nothing."""
    text = "first\u2028second\u2029third\x85fourth"
    task = Task(id="fs-u", server="filesystem", seed=0, user_turns=["Say it"],
                gold=[[GoldCall(id="g1", name="echo", arguments={"text": text})]])
    metrics = evaluate([task], ["gold"], tmp_path, progress=False)
    assert metrics["by_policy"]["gold"]["overall"]["episodes"] == 1
    assert "\u2028" in (tmp_path / "trajectories.jsonl").read_text(encoding="utf-8")
    size = (tmp_path / "trajectories.jsonl").stat().st_size
    evaluate([task], ["gold"], tmp_path, progress=False)
    assert (tmp_path / "trajectories.jsonl").stat().st_size == size  # read back as done, not run again
    episodes = load_run(tmp_path)[1]
    assert episodes[0]["calls"][0]["output"] == text and episodes[0]["success"]
