"""GRPO from scratch on prove-env's Gymnasium environments, in plain PyTorch.

Read top to bottom: a group of rollouts plays one task through `env.reset` / `env.step`, one
environment per rollout, the model generating the next assistant turn of every unfinished rollout
of the group in one batch; a step samples a group per task, turns the environment's rewards into
group-relative advantages, and takes a clipped policy-gradient step with a KL penalty to a frozen
reference model.

    python examples/grpo_from_scratch.py --model Qwen/Qwen3-0.6B --servers banking --steps 50
    python examples/grpo_from_scratch.py --smoke      # CPU, a tiny random model warmed up on gold trajectories

The chat template must be prefix-preserving and end an assistant message with the EOS token (the
Qwen family's does, through TRL's training variant); it renders the environment's messages.
"""

from __future__ import annotations

import argparse
import copy
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from prove_env.actions import parse_action
from prove_env.env import ProveEnv
from prove_env.registry import server_names
from prove_env.task import Task, fixture_tasks, load_tasks

COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state", "success")


@dataclass
class Rollout:
    env: ProveEnv
    ids: list[int]  # prompt, the model's tokens and the environment's tokens, in order
    mask: list[int]  # 1 where the model produced the token (the only tokens trained on)
    sampled_logprobs: list[float]  # log p of each token when it was sampled (0.0 where mask is 0)
    info: dict[str, Any]
    tools: list[Any]  # what the prompt lists: the environment's schemas, or e.g. a TRL class's methods
    turns: int = 0
    tool_rounds: int = 0
    done: bool = False
    reward: float = 0.0
    breakdown: dict[str, Any] = field(default_factory=dict)

    def extend(self, tokens: list[int], *, produced: bool, logprobs: list[float] | None = None) -> None:
        self.ids += tokens
        self.mask += [int(produced)] * len(tokens)
        self.sampled_logprobs += logprobs if logprobs is not None else [0.0] * len(tokens)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="Qwen/Qwen3-0.6B", help="a local path or a Hugging Face Hub id")
    p.add_argument("--servers", default=None,
                   help="comma-separated servers (default: every server of --tasks, or every registered server)")
    p.add_argument("--tasks", default=None, help="a task file; default: the servers' fixture tasks")
    p.add_argument("--steps", type=int, default=350)
    p.add_argument("--tasks-per-step", type=int, default=16)
    p.add_argument("--group-size", type=int, default=16, help="rollouts per task, generated together")
    p.add_argument("--micro-batch", type=int, default=4, help="rollouts per forward/backward of the update")
    p.add_argument("--learning-rate", type=float, default=1e-6)
    p.add_argument("--beta", type=float, default=0.01, help="KL coefficient to the reference model")
    p.add_argument("--clip-epsilon", type=float, default=0.2)
    p.add_argument("--iterations", type=int, default=1, help="policy updates per batch of rollouts")
    p.add_argument("--max-turns", type=int, default=10, help="assistant turns per rollout (the env's max_steps)")
    p.add_argument("--max-tool-rounds", type=int, default=5, help="assistant turns with tool calls per rollout")
    p.add_argument("--max-new-tokens", type=int, default=512, help="tokens per assistant turn")
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--output-dir", default="runs/grpo-from-scratch")
    p.add_argument("--save-steps", type=int, default=50, help="a checkpoint every this many steps (0: none)")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --output-dir")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="CPU run with a tiny random model")
    p.add_argument("--smoke-warmup-steps", type=int, default=80)
    return p.parse_args(argv)


# -- the policy -------------------------------------------------------------------------------------

def load_policy(args: argparse.Namespace, tasks: list[Task]) -> tuple[Any, Any, str, dict[str, Any]]:
    """The model, its tokenizer, the chat template to render with, and (smoke) the warm-up's figures."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from prove_env.tiny_model import (
        build_tiny_model,
        build_tokenizer,
        gold_conversations,
        sft_warmup,
        training_chat_template,
    )

    device = "cuda" if torch.cuda.is_available() else "cpu"
    if args.smoke:
        conversations = gold_conversations(tasks)  # the environment's own schemas, as the rollouts render them
        tokenizer = build_tokenizer(conversations)
        model = build_tiny_model(tokenizer, seed=args.seed)
        warmup = sft_warmup(model, tokenizer, conversations, steps=args.smoke_warmup_steps, seed=args.seed)
        return model, tokenizer, training_chat_template(tokenizer), warmup
    # float32 master weights; on a GPU the forward passes run in bfloat16 autocast (see `autocast`).
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=torch.float32).to(device)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    return model, tokenizer, training_chat_template(tokenizer), {}


def autocast(model: Any) -> Any:
    device = next(model.parameters()).device
    return torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda")


def render(tokenizer: Any, template: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
           generation_prompt: bool) -> str:
    return tokenizer.apply_chat_template(messages, tools=tools, chat_template=template, tokenize=False,
                                         add_generation_prompt=generation_prompt, enable_thinking=False)


@torch.no_grad()
def generate(model: Any, tokenizer: Any, prompts: list[list[int]], args: argparse.Namespace, *,
             greedy: bool = False) -> list[tuple[list[int], list[float], bool]]:
    """One assistant turn for each prompt, in one batch (left-padded): the sampled tokens up to and
    including EOS, the log-probability of each when it was sampled, and whether EOS ended the turn."""
    device = next(model.parameters()).device
    width = max(map(len, prompts))
    input_ids = torch.full((len(prompts), width), tokenizer.pad_token_id, dtype=torch.long)
    attention = torch.zeros((len(prompts), width), dtype=torch.long)
    for row, ids in enumerate(prompts):
        input_ids[row, width - len(ids):] = torch.tensor(ids)
        attention[row, width - len(ids):] = 1
    sampling = {"do_sample": False} if greedy else {"do_sample": True, "temperature": args.temperature,
                                                     "top_k": 0, "top_p": 1.0}
    with autocast(model):
        out = model.generate(
            input_ids=input_ids.to(device), attention_mask=attention.to(device), max_new_tokens=args.max_new_tokens,
            eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id, output_scores=True,
            return_dict_in_generate=True, **sampling,
        )
    new = out.sequences[:, width:]
    # The scores are the logits after temperature: their log-softmax is the sampling distribution.
    logprobs = torch.stack([torch.log_softmax(s.float(), dim=-1) for s in out.scores], dim=1)
    chosen = logprobs.gather(-1, new[:, :, None]).squeeze(-1)
    results = []
    for row in range(len(prompts)):
        tokens = new[row].tolist()
        ended = tokenizer.eos_token_id in tokens
        n = tokens.index(tokenizer.eos_token_id) + 1 if ended else len(tokens)
        results.append((tokens[:n], chosen[row, :n].tolist(), ended))
    return results


# -- a group of rollouts: one task, one environment each, generated together -------------------------

def play_group(model: Any, tokenizer: Any, template: str, envs: list[ProveEnv], task: Task,
               args: argparse.Namespace, *, greedy: bool = False, tools: list[Any] | None = None) -> list[Rollout]:
    """Play `task` once in each of `envs`, the group generated together (see `play`)."""
    return play(model, tokenizer, template, [(env, task, tools) for env in envs], args, greedy=greedy)


def play(model: Any, tokenizer: Any, template: str, episodes: list[tuple[ProveEnv, Task, list[Any] | None]],
         args: argparse.Namespace, *, greedy: bool = False) -> list[Rollout]:
    """Play each (environment, task, tools) until every episode ends, each turn of all unfinished
    episodes in one `generate` call.

    A rollout ends with its episode, after `--max-turns` assistant turns (the environment's
    `max_steps`), or when the model answers with calls once `--max-tool-rounds` turns have made
    calls: those calls are not run and the rollout answers with nothing. The prompt lists the
    episode's tools (None: the tools the environment shows, as schemas).
    """
    rollouts = []
    for env, task, tools in episodes:
        _, info = env.reset(options={"task": task})
        shown = info["tools"] if tools is None else tools
        text = render(tokenizer, template, info["messages"], shown, True)
        ids = tokenizer(text, add_special_tokens=False)["input_ids"]
        rollouts.append(Rollout(env, ids, [0] * len(ids), [0.0] * len(ids), info, shown))
    while active := [r for r in rollouts if not r.done]:
        turns = generate(model, tokenizer, [r.ids for r in active], args, greedy=greedy)
        for r, (new, logprobs, ended) in zip(active, turns, strict=True):
            r.extend(new, produced=True, logprobs=logprobs)
            if not ended:  # close the truncated turn; the closing token is not the model's
                r.extend([tokenizer.eos_token_id], produced=False)
            text = tokenizer.decode(new, skip_special_tokens=True)
            r.turns += 1
            if parse_action(text).calls and r.tool_rounds >= args.max_tool_rounds:
                text = ""  # out of tool rounds: these calls are not run, the rollout answers with nothing
            r.tool_rounds += bool(parse_action(text).calls)
            _step(r, text, tokenizer, template)
    return rollouts


def _step(r: Rollout, action: str, tokenizer: Any, template: str) -> None:
    """Pass the model's turn to the environment; append its reply (tool results or the next user
    turn), rendered after the model's turn, as tokens the model did not produce."""
    n_before = len(r.info["messages"])
    _, reward, terminated, truncated, info = r.env.step(action)  # the environment parses the calls in the text
    r.info = info
    if terminated or truncated:
        r.done, r.reward, r.breakdown = True, reward, info["reward_breakdown"]
        return
    messages = info["messages"]
    before = render(tokenizer, template, messages[: n_before + 1], r.tools, False)
    after = render(tokenizer, template, messages, r.tools, True)
    assert after.startswith(before), "the chat template is not prefix-preserving"
    cut = before.rindex(tokenizer.eos_token) + len(tokenizer.eos_token)
    reply = tokenizer(after[cut:], add_special_tokens=False)["input_ids"]
    r.extend(reply, produced=False)


# -- the GRPO update -------------------------------------------------------------------------------

def token_logprobs(model: Any, rollouts: list[Rollout], temperature: float) -> list[torch.Tensor]:
    """For each rollout, log p(token t | tokens < t) of every token t the model produced (mask 1), in
    order: the same positions, and the same distribution (logits over the sampling temperature), as
    at sampling. One right-padded batch; the LM head runs only at those positions."""
    device = next(model.parameters()).device
    width = max(len(r.ids) for r in rollouts)
    input_ids = torch.full((len(rollouts), width), 0, dtype=torch.long, device=device)
    attention = torch.zeros((len(rollouts), width), dtype=torch.long, device=device)
    targets = torch.zeros((len(rollouts), width), dtype=torch.bool, device=device)
    for row, r in enumerate(rollouts):
        input_ids[row, : len(r.ids)] = torch.tensor(r.ids, device=device)
        attention[row, : len(r.ids)] = 1
        targets[row, : len(r.ids)] = torch.tensor(r.mask, dtype=torch.bool, device=device)
    targets[:, 0] = False  # the first token has no context
    with autocast(model):
        hidden = model.base_model(input_ids=input_ids, attention_mask=attention).last_hidden_state
        # the hidden state at t - 1 predicts token t
        logits = model.get_output_embeddings()(hidden[:, :-1][targets[:, 1:]]).float() / temperature
    flat = torch.log_softmax(logits, dim=-1).gather(-1, input_ids[:, 1:][targets[:, 1:]][:, None]).squeeze(-1)
    return list(flat.split(targets[:, 1:].sum(dim=1).tolist()))


def grpo_step(model: Any, reference: Any, optimizer: Any, groups: list[list[Rollout]],
              args: argparse.Namespace) -> dict[str, float]:
    # Group-relative advantages: each rollout against the other rollouts of its task.
    advantages = []
    for group in groups:
        rewards = torch.tensor([r.reward for r in group])
        advantages.append((rewards - rewards.mean()) / (rewards.std() + 1e-4))
    rollouts = [r for group in groups for r in group]
    flat_advantages = torch.cat(advantages).tolist()
    n = len(rollouts)
    batches = [list(range(i, min(i + args.micro_batch, n))) for i in range(0, n, args.micro_batch)]
    with torch.no_grad():
        old = [lp for b in batches for lp in token_logprobs(model, [rollouts[i] for i in b], args.temperature)]
        ref = [lp for b in batches for lp in token_logprobs(reference, [rollouts[i] for i in b], args.temperature)]
    trained = [i for i, lp in enumerate(old) if lp.numel()]
    stats = {"loss": 0.0, "kl": 0.0, "clipped": 0.0}
    for _ in range(args.iterations):
        optimizer.zero_grad()
        for b in batches:
            b = [i for i in b if old[i].numel()]
            if not b:
                continue
            loss = torch.zeros(())
            for i, logp in zip(b, token_logprobs(model, [rollouts[i] for i in b], args.temperature), strict=True):
                ratio = torch.exp(logp - old[i])
                clipped = torch.clamp(ratio, 1 - args.clip_epsilon, 1 + args.clip_epsilon)
                advantage = flat_advantages[i]
                policy = torch.minimum(ratio * advantage, clipped * advantage)  # the clipped surrogate
                kl = torch.exp(ref[i] - logp) - (ref[i] - logp) - 1  # k3 estimator of KL(policy || reference)
                loss = loss + -(policy - args.beta * kl).mean() / len(trained)  # each rollout weighs the same
                stats["kl"] += kl.mean().item() / len(trained)
                stats["clipped"] += ((ratio - clipped).abs() > 0).float().mean().item() / len(trained)
            loss.backward()  # one micro-batch at a time: memory stays that of --micro-batch sequences
            stats["loss"] += loss.item()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    return stats


# -- checkpoints -------------------------------------------------------------------------------------

def save_checkpoint(path: Path, model: Any, tokenizer: Any, optimizer: Any, step: int, history: list[dict[str, Any]],
                    rng: random.Random) -> None:
    path.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    torch.save({"optimizer": optimizer.state_dict(), "step": step, "rng": rng.getstate(),
                "torch_rng": torch.get_rng_state()}, path / "state.pt")
    (path / "history.json").write_text(json.dumps(history) + "\n", encoding="utf-8")


def last_checkpoint(output_dir: Path) -> Path | None:
    found = sorted(output_dir.glob("checkpoint-*/state.pt"), key=lambda p: int(p.parent.name.split("-")[1]))
    return found[-1].parent if found else None


# -- the loop ------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    output_dir = Path(args.output_dir)
    resume_from = last_checkpoint(output_dir) if args.resume else None
    if args.resume and resume_from is None:
        raise SystemExit(f"--resume: no checkpoint in {output_dir} (a run writes checkpoint-<step> folders there every "
                         "--save-steps steps); run without --resume to start training")
    if args.smoke:
        torch.set_num_threads(1)  # a tiny model runs faster on one thread than on contended ones
        args.servers, args.steps, args.tasks_per_step, args.group_size = "banking", min(args.steps, 2), 2, 4
        args.max_new_tokens, args.learning_rate, args.max_tool_rounds = 48, 1e-3, 2
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    if args.tasks:
        tasks = [t for t in load_tasks(args.tasks) if not args.servers or t.server in args.servers.split(",")]
    else:
        tasks = [t for s in (args.servers.split(",") if args.servers else server_names()) for t in fixture_tasks(s)]
    if len(tasks) < args.tasks_per_step:
        raise SystemExit(f"{len(tasks)} tasks, but each step draws {args.tasks_per_step} distinct tasks "
                         f"(--tasks-per-step): lower it to at most {len(tasks)}, or give more tasks (--tasks FILE)")
    envs = {s: [ProveEnv(s, max_steps=args.max_turns) for _ in range(args.group_size)]
            for s in {t.server for t in tasks}}

    model, tokenizer, template, warmup = load_policy(args, tasks)
    start_dir = output_dir / "start"
    if resume_from is None:
        model.save_pretrained(start_dir)  # the reference model, and the start a resumed run reloads it from
        tokenizer.save_pretrained(start_dir)
    reference = _load_like(model, start_dir).eval().requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    rng = random.Random(args.seed)
    history: list[dict[str, Any]] = []
    first_step = 0
    if resume_from is not None:
        from transformers import AutoTokenizer

        model = _load_like(model, resume_from)
        tokenizer = AutoTokenizer.from_pretrained(resume_from)
        optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
        state = torch.load(resume_from / "state.pt", weights_only=False)
        optimizer.load_state_dict(state["optimizer"])
        rng.setstate(state["rng"])
        torch.set_rng_state(state["torch_rng"])
        first_step = state["step"]
        history = json.loads((resume_from / "history.json").read_text(encoding="utf-8"))
    before = [p.detach().clone() for p in model.parameters()]

    for step in range(first_step, args.steps):
        start = time.perf_counter()
        batch = rng.sample(tasks, args.tasks_per_step)
        model.eval()
        groups = [play_group(model, tokenizer, template, envs[t.server], t, args) for t in batch]
        generated = time.perf_counter()
        model.train()
        stats = grpo_step(model, reference, optimizer, groups, args)
        rewards = [[r.reward for r in g] for g in groups]
        record = {
            "step": step + 1,
            "seconds": time.perf_counter() - start,
            "rollout_seconds": generated - start,
            "rewards": rewards,
            "reward": sum(map(sum, rewards)) / sum(map(len, rewards)),
            "groups_with_signal": sum(len(set(g)) > 1 for g in rewards),
            "turns": sum(r.turns for g in groups for r in g) / sum(map(len, groups)),
            **{f"mean_{k}": sum(float(r.breakdown[k]) for g in groups for r in g) / sum(map(len, groups))
               for k in COMPONENTS},
            **stats,
        }
        history.append(record)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in record.items()}), flush=True)
        if args.save_steps and (step + 1) % args.save_steps == 0:
            save_checkpoint(output_dir / f"checkpoint-{step + 1}", model, tokenizer, optimizer, step + 1, history, rng)
    for group_envs in envs.values():
        for env in group_envs:
            env.close()
    change = max((p.detach() - b).abs().max().item() for p, b in zip(model.parameters(), before, strict=True))
    summary = {"warmup": warmup, "history": history, "max_parameter_change": change, "resumed_from": resume_from}
    print(json.dumps({"warmup": warmup, "max_parameter_change": change}))
    return summary


def _load_like(model: Any, path: Path) -> Any:
    """A model of the same class and device as `model`, with the weights saved at `path`."""
    device = next(model.parameters()).device
    return type(model).from_pretrained(path, dtype=torch.float32).to(device)


if __name__ == "__main__":
    main(sys.argv[1:])
