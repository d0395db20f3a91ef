"""GRPO from scratch on prove-env's Gymnasium environments, in plain PyTorch.

Read top to bottom: a rollout plays one task through `env.reset` / `env.step` with the model's
sampled text as the action; a step samples a group of rollouts per task, turns the environment's
rewards into group-relative advantages, and takes a clipped policy-gradient step with a KL
penalty to a frozen reference model.

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
from dataclasses import dataclass
from typing import Any

import torch

from prove_env.env import ProveEnv
from prove_env.task import Task, fixture_tasks, load_tasks


@dataclass
class Rollout:
    ids: list[int]  # prompt, the model's tokens and the environment's tokens, in order
    mask: list[int]  # 1 where the model produced the token (the only tokens trained on)
    reward: float
    breakdown: dict[str, Any]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", default="Qwen/Qwen3-0.6B", help="a local path or a Hugging Face Hub id")
    p.add_argument("--servers", default="banking,calendar,filesystem")
    p.add_argument("--tasks", default=None, help="a task file; default: the servers' fixture tasks")
    p.add_argument("--steps", type=int, default=350)
    p.add_argument("--tasks-per-step", type=int, default=16)
    p.add_argument("--group-size", type=int, default=16, help="rollouts per task")
    p.add_argument("--learning-rate", type=float, default=1e-6)
    p.add_argument("--beta", type=float, default=0.01, help="KL coefficient to the reference model")
    p.add_argument("--clip-epsilon", type=float, default=0.2)
    p.add_argument("--iterations", type=int, default=1, help="policy updates per batch of rollouts")
    p.add_argument("--max-turns", type=int, default=10, help="assistant turns per rollout (the env's max_steps)")
    p.add_argument("--max-tool-rounds", type=int, default=5, help="assistant turns with tool calls per rollout")
    p.add_argument("--max-new-tokens", type=int, default=512, help="tokens per assistant turn")
    p.add_argument("--temperature", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--smoke", action="store_true", help="CPU run with a tiny random model")
    p.add_argument("--smoke-warmup-steps", type=int, default=80)
    return p.parse_args(argv)


# -- the policy -------------------------------------------------------------------------------------

def load_policy(args: argparse.Namespace, tasks: list[Task]) -> tuple[Any, Any, str, dict[str, Any]]:
    """The model, its tokenizer, the chat template to render with, and (smoke) the warm-up's figures."""
    from prove_env.tiny_model import (
        build_tiny_model,
        build_tokenizer,
        gold_conversations,
        sft_warmup,
        training_chat_template,
    )

    if args.smoke:
        conversations = gold_conversations(tasks)  # the environment's own schemas, as the rollouts render them
        tokenizer = build_tokenizer(conversations)
        model = build_tiny_model(tokenizer, seed=args.seed)
        warmup = sft_warmup(model, tokenizer, conversations, steps=args.smoke_warmup_steps, seed=args.seed)
        return model, tokenizer, training_chat_template(tokenizer), warmup
    from transformers import AutoModelForCausalLM, AutoTokenizer

    device = "cuda" if torch.cuda.is_available() else "cpu"
    dtype = torch.bfloat16 if device == "cuda" else torch.float32
    model = AutoModelForCausalLM.from_pretrained(args.model, dtype=dtype).to(device)
    tokenizer = AutoTokenizer.from_pretrained(args.model)
    return model, tokenizer, training_chat_template(tokenizer), {}


def render(tokenizer: Any, template: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
           generation_prompt: bool) -> str:
    return tokenizer.apply_chat_template(messages, tools=tools, chat_template=template, tokenize=False,
                                         add_generation_prompt=generation_prompt, enable_thinking=False)


@torch.no_grad()
def sample(model: Any, tokenizer: Any, ids: list[int], args: argparse.Namespace) -> tuple[list[int], bool]:
    """One assistant turn: sampled tokens up to and including EOS (True) or up to the token limit (False)."""
    device = next(model.parameters()).device
    out = model.generate(
        input_ids=torch.tensor([ids], device=device), attention_mask=torch.ones(1, len(ids), dtype=torch.long, device=device),
        do_sample=True, temperature=args.temperature, top_k=0, top_p=1.0, max_new_tokens=args.max_new_tokens,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
    )[0, len(ids):].tolist()
    if tokenizer.eos_token_id in out:
        return out[: out.index(tokenizer.eos_token_id) + 1], True
    return out, False


# -- a rollout: one task through reset/step ------------------------------------------------------

def rollout(model: Any, tokenizer: Any, template: str, env: ProveEnv, task: Task, args: argparse.Namespace) -> Rollout:
    _, info = env.reset(options={"task": task})
    tools = info["tools"]
    ids = tokenizer(render(tokenizer, template, info["messages"], tools, True), add_special_tokens=False)["input_ids"]
    mask = [0] * len(ids)
    tool_rounds = 0
    while True:
        new, ended = sample(model, tokenizer, ids, args)
        ids, mask = ids + new, mask + [1] * len(new)
        if not ended:  # close the truncated turn; the closing token is not the model's
            ids, mask = ids + [tokenizer.eos_token_id], mask + [0]
        text = tokenizer.decode(new, skip_special_tokens=True)
        n_before = len(info["messages"])
        _, reward, terminated, truncated, info = env.step(text)  # the environment parses the calls in the text
        tool_rounds += "calls" in info
        if not (terminated or truncated) and tool_rounds > args.max_tool_rounds:
            while not (terminated or truncated):  # out of tool rounds: the rollout answers with nothing
                _, reward, terminated, truncated, info = env.step("")
        if terminated or truncated:
            return Rollout(ids, mask, reward, info["reward_breakdown"])
        # The environment's reply (tool results or the next user turn), rendered after the model's turn.
        messages = info["messages"]
        before = render(tokenizer, template, messages[: n_before + 1], tools, False)
        after = render(tokenizer, template, messages, tools, True)
        assert after.startswith(before), "the chat template is not prefix-preserving"
        cut = before.rindex(tokenizer.eos_token) + len(tokenizer.eos_token)
        reply = tokenizer(after[cut:], add_special_tokens=False)["input_ids"]
        ids, mask = ids + reply, mask + [0] * len(reply)


# -- the GRPO update -------------------------------------------------------------------------------

def token_logprobs(model: Any, ids: list[int]) -> torch.Tensor:
    """log p(token t | tokens < t) for t = 1 .. len(ids) - 1."""
    device = next(model.parameters()).device
    input_ids = torch.tensor([ids], device=device)
    logits = model(input_ids=input_ids).logits[0, :-1].float()
    return torch.log_softmax(logits / 1.0, dim=-1).gather(-1, input_ids[0, 1:, None]).squeeze(-1)


def grpo_step(model: Any, reference: Any, optimizer: Any, groups: list[list[Rollout]], args: argparse.Namespace) -> dict[str, float]:
    # Group-relative advantages: each rollout against the other rollouts of its task.
    advantages = []
    for group in groups:
        rewards = torch.tensor([r.reward for r in group])
        advantages.append((rewards - rewards.mean()) / (rewards.std() + 1e-4))
    rollouts = [r for group in groups for r in group]
    flat_advantages = torch.cat(advantages).tolist()
    device = next(model.parameters()).device
    with torch.no_grad():
        old = [token_logprobs(model, r.ids) for r in rollouts]
        ref = [token_logprobs(reference, r.ids) for r in rollouts]
    stats = {"loss": 0.0, "kl": 0.0, "clipped": 0.0}
    for _ in range(args.iterations):
        optimizer.zero_grad()
        for r, advantage, old_lp, ref_lp in zip(rollouts, flat_advantages, old, ref, strict=True):
            mask = torch.tensor(r.mask[1:], dtype=torch.float32, device=device)
            if mask.sum() == 0:
                continue
            logp = token_logprobs(model, r.ids)
            ratio = torch.exp(logp - old_lp)
            clipped = torch.clamp(ratio, 1 - args.clip_epsilon, 1 + args.clip_epsilon)
            policy = torch.minimum(ratio * advantage, clipped * advantage)  # the clipped surrogate
            kl = torch.exp(ref_lp - logp) - (ref_lp - logp) - 1  # k3 estimator of KL(policy || reference)
            per_token = -(policy - args.beta * kl)
            loss = (per_token * mask).sum() / mask.sum() / len(rollouts)
            loss.backward()  # one rollout at a time: memory stays that of one sequence
            stats["loss"] += loss.item()
            stats["kl"] += ((kl * mask).sum() / mask.sum()).item() / len(rollouts)
            stats["clipped"] += (((ratio - clipped).abs() > 0).float() * mask).sum().item() / mask.sum().item() / len(rollouts)
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
    return stats


# -- the loop ------------------------------------------------------------------------------------------

def main(argv: list[str] | None = None) -> dict[str, Any]:
    args = parse_args(argv)
    if args.smoke:
        torch.set_num_threads(1)  # a tiny model runs faster on one thread than on contended ones
        args.servers, args.steps, args.tasks_per_step, args.group_size = "banking", min(args.steps, 2), 2, 4
        args.max_new_tokens, args.learning_rate, args.max_tool_rounds = 48, 1e-3, 2
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    servers = args.servers.split(",")
    tasks = [t for t in (load_tasks(args.tasks) if args.tasks else [t for s in servers for t in fixture_tasks(s)])
             if t.server in servers]
    envs = {s: ProveEnv(s, max_steps=args.max_turns) for s in {t.server for t in tasks}}

    model, tokenizer, template, warmup = load_policy(args, tasks)
    reference = copy.deepcopy(model).eval().requires_grad_(False)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)
    before = [p.detach().clone() for p in model.parameters()]

    history = []
    rng = random.Random(args.seed)
    for step in range(args.steps):
        start = time.perf_counter()
        batch = rng.sample(tasks, min(args.tasks_per_step, len(tasks)))
        model.eval()
        groups = [[rollout(model, tokenizer, template, envs[t.server], t, args) for _ in range(args.group_size)]
                  for t in batch]
        model.train()
        stats = grpo_step(model, reference, optimizer, groups, args)
        rewards = [[r.reward for r in g] for g in groups]
        record = {
            "step": step + 1,
            "seconds": time.perf_counter() - start,
            "rewards": rewards,
            "reward": sum(map(sum, rewards)) / sum(map(len, rewards)),
            "groups_with_signal": sum(len(set(g)) > 1 for g in rewards),
            **{f"mean_{k}": sum(float(r.breakdown[k]) for g in groups for r in g) / sum(map(len, groups))
               for k in ("validity", "coverage", "efficiency", "name", "argument", "state", "success")},
            **stats,
        }
        history.append(record)
        print(json.dumps({k: round(v, 4) if isinstance(v, float) else v for k, v in record.items()}), flush=True)
    for env in envs.values():
        env.close()
    change = max((p.detach() - b).abs().max().item() for p, b in zip(model.parameters(), before, strict=True))
    summary = {"warmup": warmup, "history": history, "max_parameter_change": change}
    print(json.dumps({"warmup": warmup, "max_parameter_change": change}))
    return summary


if __name__ == "__main__":
    main(sys.argv[1:])
