"""The GRPO examples' CPU smoke modes: real training steps on the environments with a tiny model."""

from __future__ import annotations

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
        assert "rewards/ProveBankingEnv/mean" in entry and "rewards/ProveCalendarEnv/mean" in entry
    # The reward comes from the environments and differs within some group: GRPO has a signal.
    assert min(entry["frac_reward_zero_std"] for entry in logs) < 1.0
    assert max(entry["rewards/prove_validity/mean"] for entry in logs) > 0.0  # the model calls tools
    assert summary["max_parameter_change"] > 0.0


def test_grpo_from_scratch_smoke_trains_on_environment_rewards() -> None:
    summary = _load("grpo_from_scratch").main(["--smoke"])
    history = summary["history"]
    assert [h["step"] for h in history] == [1, 2]
    assert summary["warmup"]["last_loss"] < summary["warmup"]["first_loss"]
    assert sum(h["groups_with_signal"] for h in history) > 0
    assert any(len(set(group)) > 1 for h in history for group in h["rewards"])
    assert max(h["mean_validity"] for h in history) > 0.0
    assert all(-1.0 <= r <= 1.3 for h in history for group in h["rewards"] for r in group)
    assert summary["max_parameter_change"] > 0.0


def test_learning_rate_table() -> None:
    module = _load("train_grpo")
    assert module.default_learning_rate("Qwen/Qwen3-4B") == 1e-6
    assert module.default_learning_rate("Qwen/Qwen3-8B-Instruct") == 5e-8
    assert module.default_learning_rate("Qwen/Qwen2.5-7B-Instruct") == 3e-7
    assert module.default_learning_rate("ibm-granite/granite-3.3-8b-instruct") == 3e-7
    assert module.default_learning_rate("/models/llama") == 1e-6
