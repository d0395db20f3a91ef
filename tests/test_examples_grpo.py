"""The GRPO examples' CPU smoke modes: real training steps on the environments with a tiny model."""

from __future__ import annotations

import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("tokenizers")
pytest.importorskip("datasets")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# A deprecated argument in our own calls into transformers or TRL fails here, before it is removed upstream.
# TRL 1.16's own code still calls transformers' deprecated gradient-checkpointing names (the later filter wins).
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings(
    "error::FutureWarning", "ignore:`(is_)?gradient_checkpointing(_enable|_disable)?` is deprecated:FutureWarning")]


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"prove_examples_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(autouse=True)
def _restore_threads():
    threads = torch.get_num_threads()  # the smoke modes run the tiny model on one thread
    yield
    torch.set_num_threads(threads)


def test_trl_smoke_trains_on_environment_rewards(tmp_path: Path) -> None:
    summary = _load("train_grpo").main(["--smoke", "--output-dir", str(tmp_path)])
    assert summary["steps"] == 2 and len(summary["step_seconds"]) == 2
    assert summary["servers"] == ["banking", "calendar"]  # multi-environment mode
    assert summary["warmup"]["last_loss"] < summary["warmup"]["first_loss"]
    logs = summary["logs"]
    assert len(logs) == 2
    for entry in logs:
        for component in ("validity", "coverage", "efficiency", "name", "argument", "state", "success"):
            assert f"rewards/prove_{component}/mean" in entry
        assert "rewards/prove_reward/mean" in entry
    assert all(any(f"rewards/{s}/mean" in entry for entry in logs) for s in ("banking", "calendar"))
    # The reward comes from the environments and differs within some group: GRPO has a signal.
    assert min(entry["frac_reward_zero_std"] for entry in logs) < 1.0
    assert max(entry["rewards/prove_validity/mean"] for entry in logs) > 0.0  # the model calls tools
    assert summary["max_parameter_change"] > 0.0


def test_grpo_from_scratch_smoke_trains_on_environment_rewards(tmp_path: Path) -> None:
    summary = _load("grpo_from_scratch").main(["--smoke", "--output-dir", str(tmp_path)])
    history = summary["history"]
    assert [h["step"] for h in history] == [1, 2]
    assert summary["warmup"]["last_loss"] < summary["warmup"]["first_loss"]
    assert sum(h["groups_with_signal"] for h in history) > 0
    assert any(len(set(group)) > 1 for h in history for group in h["rewards"])
    assert max(h["mean_validity"] for h in history) > 0.0
    assert all(-1.0 <= r <= 1.3 for h in history for group in h["rewards"] for r in group)
    assert summary["max_parameter_change"] > 0.0


@pytest.fixture(scope="module")
def warm_model(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A tiny model warmed up on the banking and calendar fixture tasks, saved as a checkpoint directory."""
    module = _load("train_grpo")
    from prove_env.integrations.trl import environment_factory, make_dataset

    out = tmp_path_factory.mktemp("warm")
    args = module.parse_args(["--smoke", "--output-dir", str(out), "--smoke-warmup-steps", "150"])
    dataset = make_dataset(servers=["banking", "calendar"])
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        path, _, _ = module._smoke_model(dataset, environment_factory(dataset), args)
    finally:
        torch.set_num_threads(threads)
    return path


def _full_run_args(model: str, out: Path, *extra: str) -> list[str]:
    """A run on the full (not smoke) code path, sized for a CPU."""
    return ["--model", model, "--servers", "banking,calendar", "--output-dir", str(out), "--prompts-per-step", "2",
            "--num-generations", "4", "--per-device-batch", "8", "--max-completion-length", "96",
            "--max-tool-rounds", "2", "--vllm", "off", "--no-log-completions", "--save-steps", "1000", *extra]


def test_one_step_at_the_papers_learning_rate_changes_the_weights(warm_model: str, tmp_path: Path) -> None:
    """An AdamW step of 1e-6 changes the weights in the precision the run keeps them in (float32 master weights)."""
    from transformers import AutoModelForCausalLM

    torch.set_num_threads(1)
    args = _full_run_args(warm_model, tmp_path, "--max-steps", "1", "--learning-rate", "1e-6",
                          "--prompts-per-step", "4", "--per-device-batch", "16")
    summary = _load("train_grpo").main(args)
    assert summary["steps"] == 1 and summary["logs"][0]["frac_reward_zero_std"] < 1.0  # some group has a signal
    final = AutoModelForCausalLM.from_pretrained(tmp_path / "final", dtype="auto")
    start = AutoModelForCausalLM.from_pretrained(warm_model, dtype="auto")
    assert summary["parameter_dtype"] == str(next(final.parameters()).dtype).removeprefix("torch.")
    changed = total = 0
    for (name, after), before in zip(final.named_parameters(), start.parameters(), strict=True):
        before = before.to(after.dtype)  # the start as the run held it
        changed += (after != before).sum().item()
        total += after.numel()
    assert changed / total > 0.9, f"only {changed} of {total} weights changed"


def test_fewer_tasks_than_prompts_per_step_is_refused(warm_model: str, tmp_path: Path) -> None:
    args = _full_run_args(warm_model, tmp_path) + ["--servers", "banking", "--prompts-per-step", "64",
                                                   "--per-device-batch", "16"]
    with pytest.raises(SystemExit, match=r"(\d+) tasks, but each step draws 64 distinct tasks .*--prompts-per-step"):
        _load("train_grpo").main(args)


def test_resume_without_a_checkpoint_says_so(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="no checkpoint in"):
        _load("train_grpo").main(["--model", "unused", "--output-dir", str(tmp_path), "--resume"])
    with pytest.raises(SystemExit, match="no checkpoint in"):
        _load("grpo_from_scratch").main(["--smoke", "--output-dir", str(tmp_path), "--resume"])


def test_defaults_are_the_papers() -> None:
    args = _load("train_grpo").parse_args([])
    assert (args.max_prompt_length, args.max_completion_length) == (12_384, 16_384)
    assert (args.prompts_per_step, args.num_generations, args.max_tool_rounds, args.beta) == (16, 16, 5, 0.01)
    scratch = _load("grpo_from_scratch").parse_args([])
    assert (scratch.max_tool_rounds, scratch.max_turns) == (5, 10)


def test_generation_without_vllm_is_chunked_and_weights_stay_float32() -> None:
    module = _load("train_grpo")
    args = module.parse_args([])
    on_gpu = module.training_settings(args, cuda=True, world=1, use_vllm=False)
    assert on_gpu["steps_per_generation"] == 1  # 16 rollouts (one group) per generate call, not all 256
    assert on_gpu["gradient_accumulation_steps"] == 16 and on_gpu["bf16"] is True
    assert on_gpu["model_init_kwargs"]["dtype"] == "float32"
    assert module.training_settings(module.parse_args(["--generation-batch", "64"]), cuda=True, world=1,
                                    use_vllm=False)["steps_per_generation"] == 4
    with_vllm = module.training_settings(args, cuda=True, world=1, use_vllm=True)
    assert "steps_per_generation" not in with_vllm and with_vllm["vllm_max_model_length"] == 12_384 + 16_384
    with pytest.raises(SystemExit, match="whole groups"):
        module.training_settings(module.parse_args(["--per-device-batch", "4", "--generation-batch", "4"]),
                                 cuda=True, world=1, use_vllm=False)


@pytest.fixture(scope="module")
def scratch_policy() -> tuple:
    """grpo_from_scratch's smoke policy (a tiny model warmed up on the banking fixture tasks) and its arguments."""
    module = _load("grpo_from_scratch")
    from prove_env.task import fixture_tasks

    args = module.parse_args(["--smoke", "--smoke-warmup-steps", "80", "--max-new-tokens", "48"])
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        model, tokenizer, template, _ = module.load_policy(args, fixture_tasks("banking"))
    finally:
        torch.set_num_threads(threads)
    return module, args, model, tokenizer, template


def test_scratch_group_log_probs_are_those_of_the_sampled_tokens(scratch_policy: tuple) -> None:
    """The update's log-probabilities (one right-padded batch) line up token for token with sampling's
    (a left-padded batch generating the whole group)."""
    from prove_env.env import ProveEnv
    from prove_env.task import fixture_tasks

    module, args, model, tokenizer, template = scratch_policy
    torch.set_num_threads(1)
    torch.manual_seed(0)
    task = fixture_tasks("banking")[0]
    envs = [ProveEnv("banking", max_steps=args.max_turns) for _ in range(4)]
    rollouts = module.play_group(model, tokenizer, template, envs, task, args)
    assert len({len(r.ids) for r in rollouts}) > 1  # rollouts of different lengths were generated together
    recomputed = module.token_logprobs(model, rollouts, args.temperature)
    for r, logprobs in zip(rollouts, recomputed, strict=True):
        assert len(r.ids) == len(r.mask) == len(r.sampled_logprobs)
        sampled = torch.tensor([lp for lp, m in zip(r.sampled_logprobs, r.mask, strict=True) if m])
        assert logprobs.shape == sampled.shape and sum(r.mask) > 0
        assert torch.allclose(logprobs, sampled, atol=1e-4), (logprobs - sampled).abs().max()
    for env in envs:
        env.close()


def test_scratch_rollouts_keep_the_turn_and_tool_round_caps(scratch_policy: tuple) -> None:
    from prove_env.env import ProveEnv
    from prove_env.task import fixture_tasks

    module, args, model, tokenizer, template = scratch_policy
    torch.set_num_threads(1)
    torch.manual_seed(1)
    capped = copy.copy(args)
    capped.max_tool_rounds, capped.max_turns = 1, 3
    for task in fixture_tasks("banking")[:3]:
        envs = [ProveEnv("banking", max_steps=capped.max_turns) for _ in range(4)]
        rollouts = module.play_group(model, tokenizer, template, envs, task, capped)
        for r in rollouts:
            assert r.done and r.turns <= capped.max_turns
            call_turns = [m for m in r.info["messages"] if m["role"] == "assistant" and m.get("tool_calls")]
            assert len(call_turns) <= capped.max_tool_rounds
        for env in envs:
            env.close()


def test_scratch_checkpoints_and_resumes(tmp_path: Path) -> None:
    module = _load("grpo_from_scratch")
    base = ["--smoke", "--smoke-warmup-steps", "10", "--output-dir", str(tmp_path), "--save-steps", "1"]
    first = module.main(base + ["--steps", "1"])
    assert [h["step"] for h in first["history"]] == [1] and (tmp_path / "checkpoint-1" / "state.pt").exists()
    resumed = module.main(base + ["--steps", "2", "--resume"])
    assert resumed["resumed_from"] == tmp_path / "checkpoint-1"
    assert [h["step"] for h in resumed["history"]] == [1, 2] and (tmp_path / "checkpoint-2").exists()


def test_learning_rate_table() -> None:
    module = _load("train_grpo")
    assert module.default_learning_rate("Qwen/Qwen3-4B") == 1e-6
    assert module.default_learning_rate("Qwen/Qwen3-8B-Instruct") == 5e-8
    assert module.default_learning_rate("Qwen/Qwen2.5-7B-Instruct") == 3e-7
    assert module.default_learning_rate("ibm-granite/granite-3.3-8b-instruct") == 3e-7
    assert module.default_learning_rate("/models/llama") == 1e-6
