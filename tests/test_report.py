"""The HTML report and the terminal summary of an evaluation run, on a small run built by hand."""

from __future__ import annotations

import base64
import json
import math
import re
import statistics
import struct
from html.parser import HTMLParser
from pathlib import Path

import pytest

from prove_env.report import print_summary, write_report

COMPONENTS = ("validity", "coverage", "efficiency", "name", "argument", "state")
EVIL_TASK = 'calendar-<script>alert("x")</script>'
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
IMG = re.compile(r'<img src="data:image/png;base64,([A-Za-z0-9+/=]+)"')

# (task id, server, gold call names)
TASKS = [
    ("banking-001", "banking", ["get_balance"]),
    ("banking-002", "banking", ["list_accounts", "transfer"]),
    ("calendar-001", "calendar", ["get_current_time", "create_event"]),
    (EVIL_TASK, "calendar", ["list_events"]),
]


def _episode(task: tuple[str, str, list[str]], policy: str, trial: int, success: bool) -> dict:
    task_id, server, gold = task
    if policy == "gold":
        calls = [{"id": f"call_{i}", "name": n, "arguments": {}, "ok": True, "output": "{}"}
                 for i, n in enumerate(gold, 1)]
    else:
        calls = [{"id": "call_1", "name": "delete_everything", "arguments": {"x": 1}, "ok": False, "output": "error"}]
        if success:
            calls = calls[:0] + [{"id": "call_1", "name": gold[0], "arguments": {}, "ok": True, "output": "{}"}]
    scores = dict.fromkeys(COMPONENTS, 1.0 if success else 0.0)
    scores["efficiency"] = 0.0
    scores["validity"] = 1.0 if all(c["ok"] for c in calls) else 0.0
    total = round(0.5 * scores["validity"] + 0.5 * scores["coverage"] + 0.2 * scores["name"]
                  + 0.1 * scores["argument"], 6)
    if policy == "gold" and trial == 1 and task_id == "banking-002":
        total -= 0.15  # one slightly worse gold episode, so the histogram is not a single bar
    return {"task_id": task_id, "server": server, "policy": policy, "trial": trial, "reward": total,
            "success": success, "breakdown": {**scores, "success": success, "total": total}, "calls": calls,
            "steps": len(calls) + 1, "abstain": False}


def _aggregate(episodes: list[dict], trials: int) -> dict:
    """The metrics of a set of episodes, as the evaluator computes them."""
    tasks = sorted({e["task_id"] for e in episodes})
    per_trial = [statistics.fmean(e["success"] for e in episodes if e["trial"] == t) for t in range(trials)]
    calls = [c for e in episodes for c in e["calls"]]
    successes = {t: sum(e["success"] for e in episodes if e["task_id"] == t) for t in tasks}
    return {
        "tasks": len(tasks),
        "episodes": len(episodes),
        "success_rate": statistics.fmean(e["success"] for e in episodes),
        "success_rate_std": statistics.pstdev(per_trial),
        "reward_mean": statistics.fmean(e["reward"] for e in episodes),
        "reward_std": statistics.pstdev(e["reward"] for e in episodes),
        "reward_share": statistics.fmean(e["reward"] / (1.0 if e["abstain"] else 1.3) for e in episodes),
        "components": {c: statistics.fmean(e["breakdown"][c] for e in episodes) for c in COMPONENTS},
        "calls_per_task": len(calls) / len(episodes),
        "error_rate": sum(not c["ok"] for c in calls) / len(calls) if calls else 0.0,
        "pass_k": {str(k): statistics.fmean(math.comb(successes[t], k) / math.comb(trials, k) for t in tasks)
                   for k in range(1, trials + 1)},
    }


def _make_run(directory: Path, name: str, random_successes: set[tuple[str, int]],
              policies: tuple[str, ...] = ("gold", "random")) -> Path:
    """A run of `policies` on two servers, two trials; gold always succeeds, the others where told."""
    directory.mkdir(parents=True)
    policies, servers, trials = list(policies), ["banking", "calendar"], 2
    episodes = [_episode(task, policy, trial, policy == "gold" or (task[0], trial) in random_successes)
                for policy in policies for task in TASKS for trial in range(trials)]
    (directory / "trajectories.jsonl").write_text("".join(json.dumps(e) + "\n" for e in episodes))
    by_policy = {}
    for policy in policies:
        mine = [e for e in episodes if e["policy"] == policy]
        by_policy[policy] = {"overall": _aggregate(mine, trials),
                             "servers": {s: _aggregate([e for e in mine if e["server"] == s], trials)
                                         for s in servers}}
    metrics = {"name": name, "policies": policies, "trials": trials, "servers": servers, "reward_preset": "paper",
               "reward_maximum": 1.3, "abstention_maximum": 1.0, "by_policy": by_policy}
    (directory / "metrics.json").write_text(json.dumps(metrics, indent=1))
    return directory


@pytest.fixture
def run(tmp_path: Path) -> Path:
    # random: banking 1/4 episodes, calendar 2/4 episodes (one task on both trials).
    return _make_run(tmp_path / "after", "after training <v2>", {("banking-001", 0), ("calendar-001", 0),
                                                                 ("calendar-001", 1)})


@pytest.fixture
def baseline(tmp_path: Path) -> Path:
    # random: never succeeds on banking, 1/4 on calendar.
    return _make_run(tmp_path / "before", "before training", {("calendar-001", 1)})


class _Tables(HTMLParser):
    """Every table of a page as a list of rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._cell is not None:
            self.tables[-1][-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _tables(page: str) -> list[list[list[str]]]:
    parser = _Tables()
    parser.feed(page)
    return parser.tables


def _table_with(page: str, first_header: str, *columns: str) -> list[list[str]]:
    for table in _tables(page):
        if table[0][0] == first_header and all(c in table[0] for c in columns):
            return table
    raise AssertionError(f"no table with header {first_header!r} and columns {columns}")


def _pngs(page: str) -> list[bytes]:
    return [base64.b64decode(data, validate=True) for data in IMG.findall(page)]


def test_report_is_written_in_the_run_directory_and_self_contained(run):
    path = write_report(run)
    assert path == run / "report.html" and path.is_file()
    page = path.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*https?://""", page, re.IGNORECASE)
    assert "http://" not in page and "https://" not in page
    assert "<script" not in page.lower()
    assert "<link" not in page.lower()
    srcs = re.findall(r'src="([^"]*)"', page)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)


def test_report_embeds_four_decodable_png_plots(run):
    page = write_report(run).read_text(encoding="utf-8")
    images = _pngs(page)
    assert len(images) == 4  # reward distribution, per-server success, components, pass^k
    for png in images:
        assert png[:8] == PNG_SIGNATURE
        width, height = struct.unpack(">II", png[16:24])  # IHDR
        assert width >= 400 and height >= 200
        assert b"tEXt" not in png and b"tIME" not in png  # no software or date metadata
    assert len(set(images)) == 4


def test_report_shows_run_name_preset_and_a_row_per_server_and_policy(run):
    page = write_report(run).read_text(encoding="utf-8")
    assert "<title>Evaluation report: after training &lt;v2&gt;</title>" in page
    assert "<h1>Evaluation report: after training &lt;v2&gt;</h1>" in page
    assert "<code>paper</code>" in page

    overall = _table_with(page, "policy", "tasks", "episodes")
    assert [r[0] for r in overall[1:]] == ["gold", "random"]
    gold, random = overall[1], overall[2]
    assert gold[1:3] == ["4", "8"] and gold[3].startswith("100.0%")
    assert random[3].startswith("37.5%")  # 3 of 8 episodes
    assert random[3].endswith("± 12.5%")  # trial 0: 2/4, trial 1: 1/4

    per_server = _table_with(page, "server", "policy", "tasks")
    rows = per_server[1:]
    assert len(rows) == 4
    servers = [r[0] for r in rows]
    assert servers == ["banking", "", "calendar", ""]  # server named once per group
    assert [r[1] for r in rows] == ["gold", "random", "gold", "random"]
    success = {(s, r[1]): r[4].split()[0] for s, r in zip(["banking"] * 2 + ["calendar"] * 2, rows)}
    assert success == {("banking", "gold"): "100.0%", ("banking", "random"): "25.0%",
                       ("calendar", "gold"): "100.0%", ("calendar", "random"): "50.0%"}
    pass_col = per_server[0].index("pass^2")
    assert rows[3][pass_col] == "50.0%"  # calendar, random: one of two tasks on both trials


class _Anchors(HTMLParser):
    """The text under each element with an id, and the target of each link."""

    def __init__(self) -> None:
        super().__init__()
        self.text: dict[str, list[str]] = {}
        self.links: list[str] = []
        self._open: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        self._open.append((tag, attrs.get("id")))
        if attrs.get("id"):
            self.text[attrs["id"]] = []

    def handle_endtag(self, tag):
        while self._open and self._open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        for _, anchor in self._open:
            if anchor:
                self.text[anchor].append(data)


def _anchors(page: str) -> _Anchors:
    parser = _Anchors()
    parser.feed(page)
    return parser


def test_worst_episodes_are_per_server_and_leave_the_baselines_out(tmp_path):
    run = _make_run(tmp_path / "run", "run", {("banking-001", 0)}, policies=("gold", "model", "noop", "random"))
    page = write_report(run).read_text(encoding="utf-8")
    assert "<script>" not in page
    worst = _table_with(page, "task", "reward", "calls made")[1:]
    # model failed three banking episodes (one succeeded) and all four calendar ones; gold never failed.
    assert [r[1] for r in worst] == ["banking"] * 3 + ["calendar"] * 4
    assert all(r[2] == "model" and r[4] == "0.000" and r[5] == "✗" for r in worst)
    assert all(r[6] == "delete_everything (1 failed)" for r in worst)
    assert ("banking-001", "0") not in [(r[0], r[3]) for r in worst]
    assert 'calendar-<script>alert("x")</script>' in [r[0] for r in worst]  # escaped, so it reads back
    assert "The baselines noop, random are left out: they fail by design." in page


def test_every_worst_episode_links_to_its_trajectory(tmp_path):
    run = _make_run(tmp_path / "run", "run", set(), policies=("gold", "model"))
    page = write_report(run).read_text(encoding="utf-8")
    worst = _table_with(page, "task", "reward", "calls made")[1:]
    anchors = _anchors(page)
    links = [link for link in anchors.links if link.startswith("#trajectory-")]
    assert len(links) == len(worst) == 8 and len(set(links)) == 8
    for row, link in zip(worst, links, strict=True):
        text = "".join(anchors.text[link[1:]])
        assert row[0] in text and f"reward {row[4]}" in text  # the same episode
        if row[2] == "model":
            assert 'delete_everything {"x": 1}' in text and "failed" in text and "error" in text
    assert "calendar-&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in page


def test_worst_episodes_are_capped_per_server(tmp_path):
    run = _make_run(tmp_path / "bad", "bad", set(), policies=("gold", "model"))
    trajectories = run / "trajectories.jsonl"
    episodes = [json.loads(line) for line in trajectories.read_text().splitlines()]
    for e in episodes:  # make gold episodes fail too: eight candidates per server
        if e["policy"] == "gold":
            e.update(reward=0.1, success=False)
    trajectories.write_text("".join(json.dumps(e) + "\n" for e in episodes))
    worst = _table_with(write_report(run).read_text(encoding="utf-8"), "task", "reward", "calls made")[1:]
    assert [r[1] for r in worst] == ["banking"] * 5 + ["calendar"] * 5
    assert [r[4] for r in worst[:5]] == ["0.000"] * 4 + ["0.100"]


def test_worst_episodes_say_where_every_episode_succeeded(run, tmp_path):
    page = write_report(run).read_text(encoding="utf-8")  # gold and the baseline random
    assert not [t for t in _tables(page) if "calls made" in t[0]]
    assert "Every episode of gold succeeded on banking, calendar." in page
    assert "The baseline random is left out: it fails by design." in page
    only_baselines = _make_run(tmp_path / "baselines", "baselines", set(), policies=("noop", "random"))
    worst = _table_with(write_report(only_baselines).read_text(encoding="utf-8"), "task", "reward", "calls made")
    assert {r[2] for r in worst[1:]} == {"noop", "random"}  # nothing else ran: the baselines are what there is


def test_components_axis_holds_negative_efficiency(run):
    from prove_env.report import _components_figure

    metrics = json.loads((run / "metrics.json").read_text())
    metrics["by_policy"]["random"]["overall"]["components"]["efficiency"] = -0.4
    axes = _components_figure(metrics).axes[0]
    low, high = axes.get_ylim()
    bars = [(p.get_y(), p.get_y() + p.get_height()) for p in axes.patches]
    assert min(min(b) for b in bars) == pytest.approx(-0.4)
    assert all(low <= min(b) and max(b) <= high for b in bars)
    assert low < -0.4 and high > 1.0


def test_comparison_appears_only_with_compare_and_shows_deltas(run, baseline, tmp_path):
    alone = write_report(run).read_text(encoding="utf-8")
    assert "Comparison with another run" not in alone
    assert "Δ" not in alone

    page = write_report(run, compare=baseline, out=tmp_path / "cmp" / "report.html").read_text(encoding="utf-8")
    assert "Comparison with another run" in page
    assert len(_pngs(page)) == 5
    assert all(png[:8] == PNG_SIGNATURE for png in _pngs(page))

    table = _table_with(page, "policy", "metric", "Δ")
    assert table[0][2:4] == ["before training", "after training <v2>"]
    rows = {}
    policy = None
    for row in table[1:]:
        policy = row[0] or policy
        rows[(policy, row[1])] = row[2:]
    # random: 1/8 successes before, 3/8 after.
    assert rows[("random", "success rate")] == ["12.5%", "37.5%", "+25.0 pp"]
    assert rows[("gold", "success rate")] == ["100.0%", "100.0%", "+0.0 pp"]
    # The improvement is green, the lower error rate too; unchanged values are neither.
    assert '<span class="better">+25.0 pp</span>' in page
    assert '<span class="same">+0.0 pp</span>' in page
    error_before, error_after, error_delta = rows[("random", "error rate")]
    assert float(error_after.rstrip("%")) < float(error_before.rstrip("%")) and error_delta.startswith("-")
    assert f'<span class="better">{error_delta}</span>' in page


def test_a_worse_run_shows_red_deltas(run, baseline, tmp_path):
    page = write_report(baseline, compare=run, out=tmp_path / "r.html").read_text(encoding="utf-8")
    assert '<span class="worse">-25.0 pp</span>' in page
    table = page.split("Comparison with another run")[1].split("<table")[1].split("</table>")[0]
    assert '<span class="worse">' in table and '<span class="better">' not in table


def test_report_is_byte_identical_when_written_twice(run, baseline, tmp_path):
    first = write_report(run, out=tmp_path / "a.html").read_bytes()
    second = write_report(run, out=tmp_path / "b.html").read_bytes()
    assert first == second
    with_compare = [write_report(run, compare=baseline, out=tmp_path / f"c{i}.html").read_bytes() for i in (1, 2)]
    assert with_compare[0] == with_compare[1]
    assert with_compare[0] != first


def test_print_summary_has_a_row_per_server_and_policy_and_all_rows(run):
    metrics = json.loads((run / "metrics.json").read_text())
    text = print_summary(metrics)
    lines = text.splitlines()
    header = lines[0].split()
    assert header[:4] == ["server", "policy", "tasks", "success"] and header[-1] == "pass^2"
    for column in ("validity", "coverage", "calls/task"):
        assert column in lines[0]
    rows = [line.split() for line in lines[:lines.index("")] if not set(line) <= {"-", " "}][1:]
    assert [(r[0], r[1]) for r in rows] == [("banking", "gold"), ("banking", "random"), ("calendar", "gold"),
                                            ("calendar", "random"), ("all", "gold"), ("all", "random")]
    by_key = {(r[0], r[1]): r for r in rows}
    assert by_key[("banking", "random")][3] == "25.0%"
    assert by_key[("all", "random")][2:4] == ["4", "37.5%"]
    assert by_key[("calendar", "random")][-1] == "50.0%"
    # fixed width: every row as long as the header, the rules too; the notes follow a blank line
    table = lines[:lines.index("")]
    widths = {len(line) for line in table}
    assert len(widths) <= 2 and max(widths) == len(lines[1])
    assert lines[lines.index("") + 1].startswith("reward maximum 1.30 (abstention tasks 1.00); \"of max\"")


# -- numbers a reader could misread ---------------------------------------------------------------


def test_the_maximum_is_stated_with_abstention_tasks_and_the_mean_as_a_share_of_each_tasks_maximum(tmp_path):
    from prove_env.evaluate import evaluate
    from prove_env.task import fixture_tasks

    tasks = fixture_tasks("banking")
    assert any(t.abstain for t in tasks) and not all(t.abstain for t in tasks)
    metrics = evaluate(tasks, ["gold", "noop"], tmp_path, progress=False)
    page = write_report(tmp_path).read_text(encoding="utf-8")
    assert "maximum 1.30 (abstention tasks 1.00)" in page  # where the maximum is stated
    overall = _table_with(page, "policy", "mean reward ± std", "of each task's maximum")
    mean, share = overall[0].index("mean reward ± std"), overall[0].index("of each task's maximum")
    gold = overall[1]
    assert float(gold[mean].split()[0]) < 1.3 and gold[share] == "100.0%"  # the maximum on every task
    assert "efficiency (penalty, 0 is best)" in overall[0] and "efficiency" not in overall[0]
    text = print_summary(metrics)
    assert "of max" in text.splitlines()[0] and "abstention tasks 1.00" in text


def test_endpoint_errors_are_counted_at_the_top_of_the_report_and_under_the_summary(run):
    metrics = json.loads((run / "metrics.json").read_text())
    metrics["by_policy"]["random"]["overall"]["endpoint_errors"] = 3
    metrics["by_policy"]["random"]["servers"]["calendar"]["endpoint_errors"] = 3
    (run / "metrics.json").write_text(json.dumps(metrics))
    line = "random: 3 of 8 episodes were stopped by an endpoint error (calendar 3)"
    page = write_report(run).read_text(encoding="utf-8")
    assert line in page and page.index(line) < page.index("<section>")
    assert line in print_summary(metrics)
    metrics["by_policy"]["random"]["overall"]["endpoint_errors"] = 0
    assert "endpoint error" not in print_summary(metrics)


def _twenty_server_run(directory: Path, name: str, successes: int) -> Path:
    """A run on every server (twenty, long names included), three policies, two trials."""
    from prove_env.registry import server_names

    servers = list(server_names())
    assert len(servers) >= 20
    tasks = [(f"{s}-{n:03d}", s, ["list_things", "get_thing"]) for s in servers for n in range(2)]
    policies, trials = ["gold", "noop", "random"], 2
    episodes = [_episode(task, policy, trial, policy == "gold" or (i + trial) % successes == 0)
                for policy in policies for i, task in enumerate(tasks) for trial in range(trials)]
    directory.mkdir(parents=True)
    (directory / "trajectories.jsonl").write_text("".join(json.dumps(e) + "\n" for e in episodes))
    by_policy = {p: {"overall": _aggregate([e for e in episodes if e["policy"] == p], trials),
                     "servers": {s: _aggregate([e for e in episodes if e["policy"] == p and e["server"] == s], trials)
                                 for s in servers}} for p in policies}
    metrics = {"name": name, "policies": policies, "trials": trials, "servers": servers, "reward_preset": "paper",
               "reward_maximum": 1.3, "abstention_maximum": 1.0, "by_policy": by_policy}
    (directory / "metrics.json").write_text(json.dumps(metrics))
    return directory


def _drawn_texts(fig) -> list:
    """Every piece of text the figure draws (tick labels outside the axis limits are not drawn)."""
    from matplotlib.text import Text

    hidden = set()
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            low, high = sorted(axis.get_view_interval())
            for tick in axis.get_major_ticks() + axis.get_minor_ticks():
                if not low - 1e-9 <= tick.get_loc() <= high + 1e-9:
                    hidden.update({id(tick.label1), id(tick.label2)})
    return [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip() and id(t) not in hidden]


def _layout_problems(fig) -> list[str]:
    """Texts drawn over each other, or cut off at the figure's edge."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    boxes = [(t.get_text(), t.get_window_extent(renderer)) for t in _drawn_texts(fig)]
    problems = [f"{a!r} over {b!r}" for i, (a, box_a) in enumerate(boxes) for b, box_b in boxes[i + 1:]
                if box_a.overlaps(box_b)]
    problems += [f"{text!r} cut off" for text, box in boxes
                 if box.x0 < -0.5 or box.y0 < -0.5 or box.x1 > fig.bbox.x1 + 0.5 or box.y1 > fig.bbox.y1 + 0.5]
    return problems


@pytest.mark.parametrize("servers", ["two", "twenty"])
def test_no_chart_draws_text_over_text(servers, run, baseline, tmp_path):
    from prove_env import report
    from prove_env.report import load_run

    if servers == "twenty":
        run = _twenty_server_run(tmp_path / "twenty", "after", 3)
        baseline = _twenty_server_run(tmp_path / "twenty-before", "before", 5)
    metrics, episodes = load_run(run)
    other, _ = load_run(baseline)
    figures = {
        "success per server": report._server_success_figure(metrics),
        "reward distribution": report._reward_distribution_figure(metrics, episodes),
        "components": report._components_figure(metrics),
        "pass^k": report._pass_k_figure(metrics),
        "comparison": report._comparison_figure(metrics, other, ("before", "after")),
    }
    problems = {name: found for name, fig in figures.items() if (found := _layout_problems(fig))}
    assert not problems
    page = write_report(run, compare=baseline).read_text(encoding="utf-8")
    assert len(_pngs(page)) == len(figures)  # the page shows each of these charts
