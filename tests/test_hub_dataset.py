"""A `prove-env synth` output directory is a Hugging Face dataset as it stands (the real `datasets`)."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import datasets
import pytest
import yaml

from prove_env import __version__
from prove_env.cli import build_parser, main
from prove_env.env import ProveEnv
from prove_env.evaluate import run_episode
from prove_env.policies import GoldPolicy, NoopPolicy
from prove_env.registry import get_toolkit, server_names
from prove_env.synthesis.card import FEATURES, dependency_depth, row_task, write_card
from prove_env.task import fixture_tasks, load_tasks

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--servers", "banking,calendar", "--n", "16", "--seed", "0", "--tasks-per-world", "8"]


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hub") / "set"
    assert main(["synth", *ARGS, "--out", str(folder), "--workers", "1", "--no-progress"]) == 0
    return folder


def _header(out: Path) -> dict:
    text = (out / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    return yaml.safe_load(text.split("---\n")[1])


def _visible(server: str) -> set[str]:
    return {spec.name for spec in get_toolkit(server).visible_specs()}


def _load(out: Path, *args: str) -> datasets.DatasetDict:
    return datasets.load_dataset(str(out), *args, cache_dir=str(out.parent / "hf-cache"))


def test_the_card_names_a_config_per_server_and_all_with_splits_features_and_license(out):
    header = _header(out)
    assert header["license"] == "apache-2.0"
    configs = {c["config_name"]: c for c in header["configs"]}
    assert set(configs) == {"all", "banking", "calendar"} and configs["all"]["default"] is True
    assert {f["path"] for f in configs["banking"]["data_files"]} == {"data/banking/train.parquet",
                                                                    "data/banking/test.parquet"}
    for info in header["dataset_info"]:
        assert [f["name"] for f in info["features"]] == [name for name, _, _ in FEATURES]
        assert {s["name"] for s in info["splits"]} == {"train", "test"}
    for split in ("train", "test"):
        for server in ("banking", "calendar"):
            assert (out / "data" / server / f"{split}.parquet").is_file()  # beside train.jsonl and test.jsonl


def test_load_dataset_loads_the_folder_and_each_config_alone(out):
    train, test = load_tasks(out / "train.jsonl"), load_tasks(out / "test.jsonl")
    everything = _load(out)
    assert (everything["train"].num_rows, everything["test"].num_rows) == (len(train), len(test))
    for server in ("banking", "calendar"):
        one = _load(out, server)
        assert one["train"]["id"] == [t.id for t in train if t.server == server]
        assert one["test"]["id"] == [t.id for t in test if t.server == server]
    by_id = {t.id: t for t in train + test}
    for split in ("train", "test"):
        for row in everything[split]:
            assert row_task(row) == by_id[row["id"]]  # every field of every task comes back


def test_each_row_carries_its_difficulty_features(out):
    rows = list(_load(out)["train"]) + list(_load(out)["test"])
    assert any("distractors" in r["perturbations"] for r in rows)
    for row in rows:
        task = row_task(row)
        assert row["gold_length"] == len(task.gold_calls) and row["turns"] == len(task.user_turns)
        assert row["dependency_depth"] == dependency_depth(task)
        assert row["perturbations"] == task.metadata["perturbations"]
        assert row["writes"] == (task.gold_digest != task.start_digest)
        assert row["servers"][0] == task.server
        others = {t["function"]["name"] for t in task.tools or []} - _visible(task.server)  # the distractors
        assert others <= {name for server in row["servers"][1:] for name in _visible(server)}
        assert bool(others) == (len(row["servers"]) > 1)


def test_dependency_depth_is_the_longest_chain_of_reference_calls():
    depth = {t.id: dependency_depth(t) for server in ("banking", "calendar") for t in fixture_tasks(server)}
    assert depth["banking-002"] == 3  # find_customers -> list_accounts -> transfer
    assert depth["calendar-004"] == 2  # list_pending_invitations -> two independent answers to it
    assert 0 in {dependency_depth(t) for t in fixture_tasks("banking") if t.abstain}


def test_the_reference_outcomes_are_what_the_policies_get(out):
    rows = list(_load(out)["train"])
    assert all(r["gold_success"] for r in rows)
    checked = [r for r in rows if not r["abstain"]][:3] + [r for r in rows if r["abstain"]][:1]
    for row in checked:
        env = ProveEnv(row["server"])
        try:
            task = row_task(row)
            gold, noop = run_episode(env, GoldPolicy(), task, 0), run_episode(env, NoopPolicy(), task, 0)
        finally:
            env.close()
        assert (gold["success"], gold["reward"]) == (row["gold_success"], pytest.approx(row["gold_reward"]))
        assert noop["success"] == row["noop_success"]


def test_the_cards_one_command_writes_the_same_set_again(out, tmp_path):
    text = (out / "README.md").read_text(encoding="utf-8")
    command = re.search(r"## Reproduce\n\n```bash\n(.*?)\n```", text, re.DOTALL).group(1)
    argv = shlex.split(command.replace("DIR", str(tmp_path / "again")))
    assert argv[0] == "prove-env"
    assert main([*argv[1:], "--workers", "1", "--no-progress"]) == 0
    for name in ("train.jsonl", "test.jsonl", "README.md", "data/banking/train.parquet"):
        assert (tmp_path / "again" / name).read_bytes() == (out / name).read_bytes(), name
    for figure in ("Run seed 0", f"prove-env {__version__}", "## How the tasks are made", "| banking |",
                   "**Reference calls per task:**", "the gates are: every reference call succeeds"):
        assert figure in text


def test_without_pyarrow_synth_still_writes_the_tasks_and_says_the_parquet_files_were_skipped(out, tmp_path,
                                                                                             monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # `import pyarrow` raises ImportError
    small = tmp_path / "small"
    assert main(["synth", "--servers", "banking", "--n", "3", "--out", str(small), "--workers", "1",
                 "--no-progress", "--tasks-per-world", "3"]) == 0
    err = capsys.readouterr().err
    assert "pyarrow is not installed: the Parquet files were skipped" in err and f"prove-env card {small}" in err
    assert len(load_tasks(small / "train.jsonl")) + len(load_tasks(small / "test.jsonl")) == 3
    assert not (small / "data").exists() and "configs:" not in _header(small)
    monkeypatch.delitem(sys.modules, "pyarrow")
    assert main(["card", str(small)]) == 0  # once pyarrow is there, the card command writes them
    assert _load(small)["train"].num_rows + _load(small)["test"].num_rows == 3
    assert write_card(small).skipped is None


def test_the_paper_scale_command_is_documented_and_covers_the_twenty_servers():
    text = (ROOT / "docs" / "hub-dataset.md").read_text(encoding="utf-8")
    command = re.search(r"^prove-env synth --n 13500 [^\n]*", text, re.MULTILINE).group(0)
    args = build_parser().parse_args(shlex.split(command)[1:])
    assert args.n == 13500 and args.servers is None and len(server_names()) == 20  # every server, 675 tasks each
    assert "[docs/hub-dataset.md](docs/hub-dataset.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
