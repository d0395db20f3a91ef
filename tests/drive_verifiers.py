"""Rollouts through verifiers' own rollout code, played by a scripted policy; run with the Python of
an environment that has verifiers (tests/test_verifiers.py makes one).

    python tests/drive_verifiers.py TASKS_FILE TASK_ID=POLICY [TASK_ID=POLICY ...]

verifiers' rollouts take their model from an OpenAI-compatible endpoint (its clients are an
endpoint's config, nothing else), so the policy is served as one: a small chat-completions server
on 127.0.0.1 that answers with the actions of one of prove-env's scripted policies (`gold`
replays the reference calls and states the facts, `noop` only answers, `random` makes random
calls), the request's `model` naming the policy. Everything else is verifiers' and prove-env's
own: the environment from `load_environment`, `Env.serving`, `Env.run_episode`, the `null`
harness's chat program in a subprocess, the per-rollout tool server, the interception, scoring.
Prints one JSON line per rollout.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import verifiers.v1 as vf

import prove_env.integrations.verifiers as pv
from prove_env.policies import SCRIPTED
from prove_env.task import Task


class ScriptedEndpoint:
    """`POST /v1/chat/completions` answered by a scripted policy playing the conversation's task."""

    def __init__(self, tasks: list[Task]) -> None:
        self.by_opening = {t.user_turns[0]: t for t in tasks}
        self.requests = 0
        endpoint = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                endpoint.requests += 1
                message = endpoint.reply(body)
                finish = "tool_calls" if message.get("tool_calls") else "stop"
                if body.get("stream"):
                    delta = {"role": "assistant", **message}
                    if delta.get("tool_calls"):
                        delta["tool_calls"] = [{"index": i, **c} for i, c in enumerate(delta["tool_calls"])]
                    chunks = [_chunk(body, [{"index": 0, "delta": delta, "finish_reason": None}]),
                              _chunk(body, [{"index": 0, "delta": {}, "finish_reason": finish}]),
                              _chunk(body, [], usage=True)]
                    payload = "".join(f"data: {json.dumps(c)}\n\n" for c in chunks) + "data: [DONE]\n\n"
                    self._send(payload.encode(), "text/event-stream")
                else:
                    completion = _chunk(body, [{"index": 0, "message": {"role": "assistant", **message},
                                                "finish_reason": finish}], usage=True)
                    completion["object"] = "chat.completion"
                    self._send(json.dumps(completion).encode(), "application/json")

            def _send(self, data: bytes, content_type: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """The policy's next action in this conversation: its n-th, n the assistant turns so far."""
        messages = body["messages"]
        opening = next(m["content"] for m in messages if m["role"] == "user")
        task = self.by_opening[opening if isinstance(opening, str) else opening[0]["text"]]
        policy = SCRIPTED[body["model"]]()
        actions = list(policy.actions(task, {"tools": body.get("tools") or []}, random.Random(task.id)))
        done = sum(m["role"] == "assistant" for m in messages)
        action = actions[done] if done < len(actions) else "Done."
        if isinstance(action, str):
            return {"content": action}
        call = {"id": f"call_{done + 1}", "type": "function",
                "function": {"name": action["name"], "arguments": json.dumps(action["arguments"])}}
        return {"content": None, "tool_calls": [call]}


def _chunk(body: dict[str, Any], choices: list[dict[str, Any]], usage: bool = False) -> dict[str, Any]:
    chunk: dict[str, Any] = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk", "created": 0,
                             "model": body["model"], "choices": choices}
    if usage:
        chunk["usage"] = {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
    return chunk


async def main(tasks_file: str, runs: list[tuple[str, str]]) -> None:
    env = pv.load_environment(tasks_file)
    tasks = {t.data.id: t for t in env.taskset}
    endpoint = ScriptedEndpoint([t.data.prove_task() for t in tasks.values()])
    async with env.serving():
        for task_id, policy in runs:
            ctx = vf.ModelContext(model=policy, client=vf.EvalClientConfig(base_url=endpoint.base_url,
                                                                           api_key_var="PROVE_SCRIPTED_KEY"))
            episode = await env.run_episode(tasks[task_id], ctx)
            trace = episode.traces[0]
            print(json.dumps({
                "task": task_id, "policy": policy, "ok": episode.ok, "reward": trace.reward,
                "rewards": {k: v.score if v else None for k, v in trace.rewards.items()},
                "metrics": trace.metrics, "errors": [e.message[-2000:] for e in trace.errors + episode.errors],
                "assistant_turns": len(trace.assistant_messages),
                "user_messages": [m.content for m in trace.messages if m.role == "user"],
                "tool_results": [m.content for m in trace.tool_messages],
                "tools": {t.name: t.parameters for t in trace.tools},
            }), flush=True)
    endpoint.server.shutdown()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], [tuple(run.split("=", 1)) for run in sys.argv[2:]]))
