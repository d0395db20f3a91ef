"""The report of an evaluation run: one self-contained HTML page, and a plain-text summary.

An evaluation run directory `RUN/` holds `trajectories.jsonl` (one episode a line) and
`metrics.json` (aggregates per policy, overall and per server). `write_report(RUN)` turns them
into `RUN/report.html`: tables of the metrics, the worst episodes, and plots embedded as base64
PNG images, with inline CSS and no external resources. With `compare=OTHER_RUN` the page also
sets the two runs side by side (e.g. before and after training), with deltas `RUN - OTHER_RUN`.

`print_summary(metrics)` renders the same metrics as a fixed-width text table for the terminal.
Both state the reward maximum with the lower one of abstention tasks, show the mean reward also as
a share of each task's own maximum, and count the episodes an endpoint error stopped.

The output is deterministic: the same input gives byte-identical files (no timestamps; the PNG
files carry no software or date metadata).
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from prove_env.reward import COMPONENTS

__all__ = ["load_run", "print_summary", "render_report", "write_report", "endpoint_errors"]

PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860", "#da8bc3", "#8c8c8c")
# Reference policies that fall short by design (doing nothing, random calls): the worst-episodes
# table leaves them out whenever another policy ran, since their failures say nothing about a task.
BASELINES = ("noop", "random")
WORST_PER_SERVER = 5
MAX_CALL_NAMES = 8
MAX_OUTPUT_CHARS = 600  # of each tool output shown in a trajectory (trajectories.jsonl has it whole)
DPI = 100


# --------------------------------------------------------------------------------------------
# Input


def load_run(run_dir: str | Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(metrics, episodes) of a run directory; episodes in file order, blank lines skipped."""
    run_dir = Path(run_dir)
    metrics = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
    episodes = []
    path = run_dir / "trajectories.jsonl"
    if path.exists():
        for line in path.read_text(encoding="utf-8").split("\n"):  # not splitlines: JSON may hold U+2028 raw
            if line.strip():
                episodes.append(json.loads(line))
    return metrics, episodes


def _policies(metrics: dict[str, Any]) -> list[str]:
    """Policies in the run's order, then any that only appear under `by_policy`."""
    listed = list(metrics.get("policies") or [])
    return listed + sorted(p for p in metrics.get("by_policy", {}) if p not in listed)


def _servers(metrics: dict[str, Any]) -> list[str]:
    listed = list(metrics.get("servers") or [])
    seen = {s for m in metrics.get("by_policy", {}).values() for s in m.get("servers", {})}
    return listed + sorted(seen - set(listed))


def _overall(metrics: dict[str, Any], policy: str) -> dict[str, Any]:
    return metrics.get("by_policy", {}).get(policy, {}).get("overall", {})


def _server(metrics: dict[str, Any], policy: str, server: str) -> dict[str, Any]:
    return metrics.get("by_policy", {}).get(policy, {}).get("servers", {}).get(server, {})


def _number(value: Any) -> float | None:
    """`value` as a finite float, else None (missing, null, NaN, not a number)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if math.isfinite(value) else None


def _largest_k(metrics: dict[str, Any]) -> int | None:
    ks = {int(k) for p in _policies(metrics) for k in _overall(metrics, p).get("pass_k", {})}
    return max(ks) if ks else None


def _pass_k(m: dict[str, Any], k: int | None) -> float | None:
    return None if k is None else _number(m.get("pass_k", {}).get(str(k)))


def _color(index: int) -> str:
    return PALETTE[index % len(PALETTE)]


# --------------------------------------------------------------------------------------------
# Formatting


def _fmt(value: Any, digits: int = 3) -> str:
    number = _number(value)
    return "—" if number is None else f"{number:.{digits}f}"


def _pct(value: Any, digits: int = 1) -> str:
    number = _number(value)
    return "—" if number is None else f"{100 * number:.{digits}f}%"


def _int(value: Any) -> str:
    number = _number(value)
    return "—" if number is None else str(int(number))


def _esc(text: Any) -> str:
    return html.escape(str(text), quote=True)


# --------------------------------------------------------------------------------------------
# Plots


def _png(fig: Figure) -> str:
    """The figure as an `<img>` tag with an embedded PNG (no metadata, so the bytes are stable)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, metadata={"Software": None})
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return f'<img src="data:image/png;base64,{data}" alt="{_esc(fig.get_label())}">'


def _figure(label: str, width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), layout="constrained", label=label)


def _style(ax: Axes, *, grid_axis: str = "y") -> None:
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.grid(axis=grid_axis, color="#e3e3e3", linewidth=0.8)
    ax.set_axisbelow(True)
    ax.tick_params(labelsize=9)


def _grouped_bars(ax: Axes, groups: Sequence[str], series: Sequence[tuple[str, list[float | None], dict]],
                  *, value_fmt: Callable[[float], str] | None = None, horizontal: bool = False) -> None:
    """Bars of each series side by side for every group; `series` is (label, values, bar style).

    Horizontal bars put each group's name on a line of its own (the first group on top), so
    twenty servers' names stay readable; vertical bars suit a few short names.
    """
    width = 0.8 / max(1, len(series))
    for i, (label, values, style) in enumerate(series):
        positions = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        lengths = [v if v is not None else 0.0 for v in values]
        if horizontal:
            bars = ax.barh(positions, lengths, width * 0.92, label=label, **style)
        else:
            bars = ax.bar(positions, lengths, width * 0.92, label=label, **style)
        if value_fmt is not None and len(groups) * len(series) <= 24:
            labels = [value_fmt(v) if v is not None else "" for v in values]
            ax.bar_label(bars, labels=labels, fontsize=7, padding=2, color="#444444")
    if horizontal:
        ax.set_yticks(range(len(groups)), groups)
        ax.set_ylim(len(groups) - 0.5, -0.5)  # the first group on top
    else:
        ax.set_xticks(range(len(groups)), groups)


def _group_height(series: int) -> float:
    """Inches a group of `series` horizontal bars takes."""
    return 0.1 + 0.12 * max(1, series)


def _percent_axis(axis: Any) -> None:
    axis.set_major_formatter(lambda v, _: f"{100 * v:.0f}%")


def _reward_distribution_figure(metrics: dict[str, Any], episodes: list[dict[str, Any]]) -> Figure:
    """Histogram of episode rewards, one panel per policy, with the reward maximum marked."""
    policies = _policies(metrics)
    rewards = {p: [r for e in episodes if e.get("policy") == p if (r := _number(e.get("reward"))) is not None]
               for p in policies}
    maximum = _number(metrics.get("reward_maximum"))
    everything = [r for rs in rewards.values() for r in rs]
    low = min([0.0, *everything])
    high = max([maximum or 0.0, *everything, low + 1e-9])
    edges = [low + (high - low) * i / 26 for i in range(27)]

    fig = _figure("Reward distribution per policy", 9, 0.5 + 1.45 * max(1, len(policies)))
    axes = fig.subplots(max(1, len(policies)), 1, sharex=True, squeeze=False)[:, 0]
    for i, (ax, policy) in enumerate(zip(axes, policies)):
        _style(ax)
        values = rewards[policy]
        if values:
            ax.hist(values, bins=edges, color=_color(i), alpha=0.85, edgecolor="white", linewidth=0.5)
            mean = sum(values) / len(values)
            ax.axvline(mean, color="#333333", linewidth=1, linestyle=":", label=f"mean {mean:.3f}")
        if maximum is not None:
            ax.axvline(maximum, color="#c0392b", linewidth=1.2, linestyle="--", label=_maximum_label(metrics))
        ax.set_ylabel("episodes", fontsize=9)
        ax.set_title(f"{policy} ({len(values)} episodes)", fontsize=10, loc="left")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=8, frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    axes[-1].set_xlabel("episode reward", fontsize=9)
    return fig


def _server_success_figure(metrics: dict[str, Any]) -> Figure:
    """Success rate per server, one bar per policy, a server a line."""
    servers, policies = _servers(metrics), _policies(metrics)
    fig = _figure("Success rate per server", 9, max(2.4, 1.2 + _group_height(len(policies)) * len(servers)))
    ax = fig.subplots()
    _style(ax, grid_axis="x")
    series = [(p, [_number(_server(metrics, p, s).get("success_rate")) for s in servers], {"color": _color(i)})
              for i, p in enumerate(policies)]
    _grouped_bars(ax, servers, series, value_fmt=lambda v: f"{100 * v:.0f}%", horizontal=True)
    ax.set_xlim(0, 1.12)
    _percent_axis(ax.xaxis)
    ax.set_xlabel("success rate", fontsize=9)
    fig.legend(fontsize=8, frameon=False, ncols=len(policies), loc="outside lower center")
    return fig


def _component_names(metrics: dict[str, Any]) -> list[str]:
    present = {c for p in _policies(metrics) for c in _overall(metrics, p).get("components", {})}
    return [c for c in COMPONENTS if c in present] + sorted(present - set(COMPONENTS))


def _component_label(component: str, separator: str = " ") -> str:
    """A component's name, saying that efficiency is a penalty: 0 is its best, below 0 a cost."""
    return f"efficiency{separator}(penalty, 0 is best)" if component == "efficiency" else component


def _components_figure(metrics: dict[str, Any]) -> Figure:
    """Mean of each reward component, one bar per policy, on an axis that holds every bar.

    Efficiency is a penalty (0 or below), so the axis reaches below 0 whenever a mean is negative.
    """
    components, policies = _component_names(metrics), _policies(metrics)
    fig = _figure("Reward components per policy", 9, 3.6)
    ax = fig.subplots()
    _style(ax)
    series = [(p, [_number(_overall(metrics, p).get("components", {}).get(c)) for c in components],
               {"color": _color(i)}) for i, p in enumerate(policies)]
    _grouped_bars(ax, [_component_label(c, "\n") for c in components], series, value_fmt=lambda v: f"{v:.2f}")
    values = [v for _, vs, _ in series for v in vs if v is not None]
    low, high = min([0.0, *values]), max([1.0, *values])
    margin = 0.12 * (high - low)
    ax.set_ylim(low - margin if low < 0 else 0.0, high + margin)
    if low < 0:
        ax.axhline(0, color="#999999", linewidth=0.8)
    ax.set_ylabel("mean score", fontsize=9)
    fig.legend(fontsize=8, frameon=False, ncols=len(policies), loc="outside lower center")
    return fig


def _pass_k_figure(metrics: dict[str, Any]) -> Figure:
    """pass^k against k: the chance that all k trials of a task succeed, one line per policy."""
    fig = _figure("pass^k per policy", 9, 3.4)
    ax = fig.subplots()
    _style(ax, grid_axis="both")
    all_ks: set[int] = set()
    for i, policy in enumerate(_policies(metrics)):
        points = sorted((int(k), v) for k, raw in _overall(metrics, policy).get("pass_k", {}).items()
                        if (v := _number(raw)) is not None)
        if points:
            all_ks.update(k for k, _ in points)
            ax.plot(*zip(*points), marker="o", color=_color(i), label=policy, linewidth=1.8)
    ax.set_xticks(sorted(all_ks))
    ax.set_ylim(-0.03, 1.05)
    _percent_axis(ax.yaxis)
    ax.set_xlabel("k (trials that must all succeed)", fontsize=9)
    ax.set_ylabel("pass^k", fontsize=9)
    ax.margins(x=0.05)
    if all_ks:
        fig.legend(fontsize=8, frameon=False, ncols=len(_policies(metrics)), loc="outside lower center")
    return fig


def _comparison_figure(metrics: dict[str, Any], other: dict[str, Any], names: tuple[str, str]) -> Figure:
    """Per-server success of both runs, one panel per policy side by side (a server a line): the
    compared run faded, this run solid."""
    policies = _union(_policies(other), _policies(metrics))
    servers = _union(_servers(other), _servers(metrics))
    fig = _figure("Success rate per server, both runs", 9, max(2.4, 1.4 + _group_height(2) * len(servers)))
    axes = fig.subplots(1, max(1, len(policies)), sharey=True, squeeze=False)[0, :]
    for i, (ax, policy) in enumerate(zip(axes, policies)):
        _style(ax, grid_axis="x")
        series = [
            (names[0], [_number(_server(other, policy, s).get("success_rate")) for s in servers],
             {"color": _color(i), "alpha": 0.35, "hatch": "//", "edgecolor": _color(i), "linewidth": 0}),
            (names[1], [_number(_server(metrics, policy, s).get("success_rate")) for s in servers],
             {"color": _color(i)}),
        ]
        _grouped_bars(ax, servers, series, value_fmt=lambda v: f"{100 * v:.0f}%", horizontal=True)
        ax.set_xlim(0, 1.25)  # room for the value labels
        ax.set_xticks([0.0, 0.5, 1.0])  # and none at the edge, where the next panel's 0% is
        _percent_axis(ax.xaxis)
        ax.set_title(policy, fontsize=10, loc="left")
        ax.set_xlabel("success rate", fontsize=9)
    keys = [Patch(facecolor="#888888", alpha=0.35, hatch="//", edgecolor="#888888", linewidth=0, label=names[0]),
            Patch(facecolor="#888888", label=names[1])]
    fig.legend(handles=keys, fontsize=8, frameon=False, ncols=2, loc="outside lower center")
    return fig


def _union(first: Iterable[str], second: Iterable[str]) -> list[str]:
    result = list(first)
    return result + [x for x in second if x not in result]


# --------------------------------------------------------------------------------------------
# Tables


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], *, text_columns: int = 1,
           numeric_until: int | None = None, css: str = "") -> str:
    """An HTML table of already-escaped cells: the first `text_columns` columns are text, the
    others numbers (right-aligned) up to `numeric_until`, text again after it."""
    def cells(row: Sequence[str], tag: str) -> str:
        numeric = range(text_columns, len(row) if numeric_until is None else numeric_until)
        return "".join(f'<{tag}{" class=num" if j in numeric else ""}>{cell}</{tag}>' for j, cell in enumerate(row))

    head = f"<thead><tr>{cells([_esc(h) for h in header], 'th')}</tr></thead>"
    body = "".join(f"<tr>{cells(row, 'td')}</tr>" for row in rows)
    return f'<div class="scroll"><table class="{css}">{head}<tbody>{body}</tbody></table></div>'


def _metric_cells(m: dict[str, Any], k: int | None) -> list[str]:
    std = _number(m.get("success_rate_std"))
    success = _pct(m.get("success_rate")) + (f' <span class="std">± {_pct(std)}</span>' if std is not None else "")
    reward = _fmt(m.get("reward_mean"))
    reward_std = _number(m.get("reward_std"))
    if reward_std is not None:
        reward += f' <span class="std">± {_fmt(reward_std)}</span>'
    return [_int(m.get("tasks")), _int(m.get("episodes")), success, reward, _pct(m.get("reward_share")),
            _fmt(m.get("calls_per_task"), 2), _pct(m.get("error_rate")), _pct(_pass_k(m, k))]


def _metric_header(k: int | None) -> list[str]:
    return ["tasks", "episodes", "success ± std", "mean reward ± std", "of each task's maximum", "calls / task",
            "error rate", f"pass^{k}" if k is not None else "pass^k"]


def _overall_table(metrics: dict[str, Any]) -> str:
    k = _largest_k(metrics)
    components = _component_names(metrics)
    rows = [[f"<b>{_esc(p)}</b>", *_metric_cells(_overall(metrics, p), k),
             *(_fmt(_overall(metrics, p).get("components", {}).get(c)) for c in components)]
            for p in _policies(metrics)]
    return _table(["policy", *_metric_header(k), *map(_component_label, components)], rows)


def _server_table(metrics: dict[str, Any]) -> str:
    k = _largest_k(metrics)
    components = _component_names(metrics)
    rows = []
    for server in _servers(metrics):
        for j, policy in enumerate(_policies(metrics)):
            m = _server(metrics, policy, server)
            first = f"<b>{_esc(server)}</b>" if j == 0 else ""
            rows.append([first, _esc(policy), *_metric_cells(m, k),
                         *(_fmt(m.get("components", {}).get(c)) for c in components)])
    return _table(["server", "policy", *_metric_header(k), *map(_component_label, components)], rows,
                  text_columns=2, css="grouped")


def _debugged_policies(metrics: dict[str, Any]) -> list[str]:
    """The policies whose failures are worth reading: all but the baselines, unless only baselines ran."""
    policies = _policies(metrics)
    return [p for p in policies if p not in BASELINES] or policies


def _worst_episodes(metrics: dict[str, Any], episodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per server, the lowest-reward episodes of the debugged policies that did not succeed (ties
    broken by task, policy and trial, so the order is stable)."""
    def key(e: dict[str, Any]) -> tuple:
        reward = _number(e.get("reward"))
        return (math.inf if reward is None else reward, str(e.get("task_id")), str(e.get("policy")),
                _number(e.get("trial")) or 0)

    policies = set(_debugged_policies(metrics))
    servers = _union(_servers(metrics), sorted({str(e.get("server")) for e in episodes}))
    worst = []
    for server in servers:
        failed = [e for e in episodes
                  if str(e.get("server")) == server and e.get("policy") in policies and not e.get("success")]
        worst.extend(sorted(failed, key=key)[:WORST_PER_SERVER])
    return worst


def _worst_episodes_table(metrics: dict[str, Any], episodes: list[dict[str, Any]]) -> str:
    """The worst episodes, each task linked to its trajectory below the table (`trajectory-<n>`)."""
    worst = _worst_episodes(metrics, episodes)
    policies = _debugged_policies(metrics)
    left_out = [p for p in _policies(metrics) if p not in policies]
    notes = []
    if left_out:
        many = len(left_out) > 1
        notes.append(f"The baseline{'s' if many else ''} {_esc(', '.join(left_out))} "
                     f"{'are' if many else 'is'} left out: {'they fail' if many else 'it fails'} by design.")
    perfect = [s for s in _servers(metrics) if not any(e.get("server") == s for e in worst)]
    if perfect:
        notes.append(f"Every episode of {_esc(', '.join(policies))} succeeded on {_esc(', '.join(perfect))}.")
    note = "".join(f'<p class="note">{n}</p>' for n in notes)
    rows = []
    for number, e in enumerate(worst, 1):
        names = [str(c.get("name")) for c in e.get("calls") or []]
        failed = sum(1 for c in e.get("calls") or [] if c.get("ok") is False)
        shown = ", ".join(_esc(n) for n in names[:MAX_CALL_NAMES])
        if len(names) > MAX_CALL_NAMES:
            shown += f" … (+{len(names) - MAX_CALL_NAMES})"
        if not names:
            shown = '<span class="muted">no calls</span>'
        if failed:
            shown += f' <span class="bad">({failed} failed)</span>'
        if e.get("abstain"):
            shown += ' <span class="muted">(abstained)</span>'
        task = f'<a href="#trajectory-{number}">{_esc(e.get("task_id"))}</a>'
        rows.append([task, _esc(e.get("server")), _esc(e.get("policy")), _int(e.get("trial")),
                     _fmt(e.get("reward")), "✓" if e.get("success") else "✗", f'<span class="calls">{shown}</span>'])
    if not rows:
        return note or '<p class="muted">No episodes recorded.</p>'
    table = _table(["task", "server", "policy", "trial", "reward", "success", "calls made"], rows, text_columns=3,
                   numeric_until=5, css="worst")
    return table + note + _trajectories(worst)


def _trajectories(worst: list[dict[str, Any]]) -> str:
    """Each worst episode's calls, arguments, outcomes and (shortened) tool outputs, under its anchor."""
    blocks = []
    for number, e in enumerate(worst, 1):
        breakdown = e.get("breakdown") or {}
        parts = [f"{_esc(c)} {_fmt(breakdown.get(c))}" for c in COMPONENTS if c in breakdown]
        head = (f'<h3>{number}. {_esc(e.get("task_id"))} · {_esc(e.get("server"))} · {_esc(e.get("policy"))} · '
                f'trial {_int(e.get("trial"))} · reward {_fmt(e.get("reward"))}</h3>')
        lines = [f'<p class="note">{" · ".join(parts)}</p>' if parts else ""]
        if e.get("error"):
            lines.append(f'<p class="bad">{_esc(e.get("error"))}</p>')
        calls = e.get("calls") or []
        if not calls:
            lines.append('<p class="muted">no calls</p>')
        items = []
        for c in calls:
            output = str(c.get("output") or "")
            if len(output) > MAX_OUTPUT_CHARS:
                output = output[:MAX_OUTPUT_CHARS] + f" … ({len(output) - MAX_OUTPUT_CHARS} more characters)"
            verdict = '<span class="bad">failed</span>' if c.get("ok") is False else "ok"
            arguments = json.dumps(c.get("arguments"), ensure_ascii=False, default=str)
            items.append(f'<li><span class="calls"><b>{_esc(c.get("name"))}</b> {_esc(arguments)}</span> '
                         f"{verdict}<pre>{_esc(output)}</pre></li>")
        if items:
            lines.append(f"<ol>{''.join(items)}</ol>")
        blocks.append(f'<div class="trajectory" id="trajectory-{number}">{head}{"".join(lines)}</div>')
    return "".join(blocks)


# Metrics of the comparison table: (label, getter, kind, direction: +1 higher is better, -1 lower, 0 neither).
def _comparison_metrics(k: int | None) -> list[tuple[str, Callable[[dict], Any], str, int]]:
    rows: list[tuple[str, Callable[[dict], Any], str, int]] = [
        ("success rate", lambda m: m.get("success_rate"), "pct", +1),
        ("mean reward", lambda m: m.get("reward_mean"), "num", +1),
    ]
    if k is not None:
        rows.append((f"pass^{k}", lambda m: _pass_k(m, k), "pct", +1))
    for c in ("validity", "coverage", "state"):
        rows.append((c, lambda m, c=c: m.get("components", {}).get(c), "num", +1))
    rows += [("calls / task", lambda m: m.get("calls_per_task"), "num", 0),
             ("error rate", lambda m: m.get("error_rate"), "pct", -1)]
    return rows


def _delta_cell(before: Any, after: Any, kind: str, direction: int) -> str:
    a, b = _number(before), _number(after)
    if a is None or b is None:
        return "—"
    delta = b - a
    shown = f"{100 * delta:+.1f} pp" if kind == "pct" else f"{delta:+.3f}"
    if direction == 0 or abs(delta) < 0.0005:
        return f'<span class="same">{shown}</span>'
    better = delta * direction > 0
    return f'<span class="{"better" if better else "worse"}">{shown}</span>'


def _comparison_table(metrics: dict[str, Any], other: dict[str, Any], names: tuple[str, str]) -> str:
    ks = ({int(k) for p in _policies(metrics) for k in _overall(metrics, p).get("pass_k", {})}
          & {int(k) for p in _policies(other) for k in _overall(other, p).get("pass_k", {})})
    rows = []
    for policy in _union(_policies(other), _policies(metrics)):
        before, after = _overall(other, policy), _overall(metrics, policy)
        for j, (label, get, kind, direction) in enumerate(_comparison_metrics(max(ks) if ks else None)):
            show = _pct if kind == "pct" else _fmt
            rows.append([f"<b>{_esc(policy)}</b>" if j == 0 else "", _esc(label), show(get(before)),
                         show(get(after)), _delta_cell(get(before), get(after), kind, direction)])
    return _table(["policy", "metric", names[0], names[1], "Δ"], rows, text_columns=2,
                  css="grouped compare")


# --------------------------------------------------------------------------------------------
# Page


CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222; background: #f6f7f9;
       margin: 0; line-height: 1.45; }
main { max-width: 1200px; margin: 0 auto; padding: 28px 32px 48px; background: #fff; min-height: 100vh;
       box-shadow: 0 0 12px rgba(0,0,0,.05); }
h1 { font-size: 1.6em; margin: 0 0 4px; }
h2 { font-size: 1.2em; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 2px solid #e6e8eb; }
h3 { font-size: 1.0em; margin: 20px 0 8px; color: #444; }
.meta { color: #555; margin: 0 0 6px; font-size: .95em; }
.meta code { background: #f0f1f3; padding: 1px 5px; border-radius: 3px; }
.note { color: #666; font-size: .88em; margin: 4px 0 10px; }
table { border-collapse: collapse; font-size: .86em; margin: 8px 0 16px; width: 100%; }
th, td { padding: 5px 8px; border-bottom: 1px solid #eceef0; text-align: left; vertical-align: top; }
th { background: #f3f4f6; font-weight: 600; border-bottom: 2px solid #dcdfe3; vertical-align: bottom; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
th.num { text-align: right; }
.scroll { overflow-x: auto; }
tbody tr:hover { background: #fafbfc; }
table.grouped td:first-child { border-bottom-color: transparent; }
table.worst td:last-child { width: 40%; }
table.worst td:nth-child(6) { text-align: center; }
table.compare { width: auto; min-width: 66%; }
.trajectory { border-top: 1px solid #eceef0; padding: 4px 0 8px; }
.trajectory ol { margin: 4px 0; padding-left: 24px; font-size: .86em; }
.trajectory pre { margin: 2px 0 6px; padding: 4px 8px; background: #f6f7f9; white-space: pre-wrap;
                  word-break: break-word; font-size: .92em; }
table.compare td, table.compare th { padding-left: 18px; }
.calls { font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .92em; word-break: break-word; }
.std, .muted { color: #888; }
.bad, .worse { color: #c0392b; font-weight: 600; }
.better { color: #1e8449; font-weight: 600; }
.same { color: #888; }
img { display: block; max-width: 100%; height: auto; margin: 8px auto 4px; }
footer { margin-top: 40px; color: #999; font-size: .8em; }
"""


def _run_label(metrics: dict[str, Any], run_dir: Path) -> str:
    return str(metrics.get("name") or run_dir.name)


def _maximum_label(metrics: dict[str, Any]) -> str:
    """The reward maximum, with the lower one of abstention tasks: "maximum 1.30 (abstention tasks 1.00)"."""
    text = f"maximum {_fmt(metrics.get('reward_maximum'), 2)}"
    abstention = _number(metrics.get("abstention_maximum"))
    return text + (f" (abstention tasks {abstention:.2f})" if abstention is not None else "")


def endpoint_errors(metrics: dict[str, Any]) -> list[str]:
    """One line per policy some of whose episodes an endpoint error stopped, with the count per server."""
    lines = []
    for policy in _policies(metrics):
        overall = _overall(metrics, policy)
        errors = _number(overall.get("endpoint_errors")) or 0
        if not errors:
            continue
        where = [f"{s} {int(n)}" for s in _servers(metrics)
                 if (n := _number(_server(metrics, policy, s).get("endpoint_errors")))]
        lines.append(f"{policy}: {int(errors)} of {_int(overall.get('episodes'))} episodes were stopped by an endpoint "
                     f"error ({', '.join(where)}) and scored on what they did before it; the same command again "
                     "retries them")
    return lines


def _header(metrics: dict[str, Any], episodes: list[dict[str, Any]]) -> str:
    name = _esc(metrics.get("name") or "evaluation run")
    preset = _esc(metrics.get("reward_preset") or "unknown")
    facts = [
        f"reward preset <code>{preset}</code>, {_esc(_maximum_label(metrics))}",
        f"{len(_policies(metrics))} policies: {_esc(', '.join(_policies(metrics)))}",
        f"{len(_servers(metrics))} servers: {_esc(', '.join(_servers(metrics)))}",
        f"{_int(metrics.get('trials'))} trials per task",
        f"{len(episodes)} episodes",
    ]
    errors = "".join(f'<p class="bad">{_esc(line)}</p>' for line in endpoint_errors(metrics))
    return f"<h1>Evaluation report: {name}</h1><p class=meta>{' · '.join(facts)}</p>{errors}"


def _section(title: str, *parts: str, note: str = "") -> str:
    note_html = f'<p class="note">{note}</p>' if note else ""
    return f"<section><h2>{_esc(title)}</h2>{note_html}{''.join(parts)}</section>"


def _comparison_section(metrics: dict[str, Any], run_dir: Path, compare: Path) -> str:
    other, _ = load_run(compare)
    names = (_run_label(other, compare), _run_label(metrics, run_dir))
    if names[0] == names[1]:
        names = (f"{names[0]} ({compare.name})", f"{names[1]} ({run_dir.name})")
    if names[0] == names[1]:
        names = ("compared run", "this run")
    note = (f"Compared run <b>{_esc(names[0])}</b> against this run <b>{_esc(names[1])}</b>; "
            "Δ is this run minus the compared run, in percentage points (pp) for rates. "
            '<span class="better">Green</span> is better, <span class="worse">red</span> is worse.')
    return _section("Comparison with another run", _comparison_table(metrics, other, names),
                    _png(_comparison_figure(metrics, other, names)), note=note)


def render_report(run_dir: str | Path, compare: str | Path | None = None) -> str:
    """The HTML page of a run (and of its comparison with `compare`), as a string."""
    run_dir = Path(run_dir)
    metrics, episodes = load_run(run_dir)
    k = _largest_k(metrics)
    sections = [
        _section("Overall metrics per policy", _overall_table(metrics),
                 note="Success ± its standard deviation across trials. The reward's "
                      f"{_esc(_maximum_label(metrics))}: an abstention task scores 1 for calling nothing, so a "
                      "policy that earns every task's maximum has a mean below the maximum whenever some tasks "
                      "abstain; \"of each task's maximum\" is the mean of each episode's reward over its own task's "
                      "maximum (100% is the best there is). Efficiency is a penalty: 0 is its best, below 0 a cost "
                      "for calls beyond the budget. Error rate is the fraction of tool calls that failed; "
                      f"pass^{k if k is not None else 'k'}: all trials of a task succeed."),
        _section("Per-server metrics", _server_table(metrics), _png(_server_success_figure(metrics))),
        _section("Reward distribution", _png(_reward_distribution_figure(metrics, episodes)),
                 note="Episode rewards per policy; the dashed red line marks the reward maximum (abstention "
                      "tasks top out at 1), the dotted line the mean."),
        _section("Reward components", _png(_components_figure(metrics)),
                 note="Mean of each component of the reward over all episodes of a policy; efficiency is a "
                      "penalty, 0 at best."),
        _section("pass^k", _png(_pass_k_figure(metrics)),
                 note="Probability that all k trials of a task succeed, averaged over tasks."),
    ]
    if compare is not None:
        sections.append(_comparison_section(metrics, run_dir, Path(compare)))
    sections.append(_section(f"Worst episodes (lowest reward per server, up to {WORST_PER_SERVER} each)",
                             _worst_episodes_table(metrics, episodes),
                             note="Episodes that did not succeed, lowest reward first within each server; "
                                  "a task links to its trajectory."))
    title = _esc(f"Evaluation report: {metrics.get('name') or 'evaluation run'}")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{title}</title><style>{CSS}</style></head>\n<body><main>"
            f"{_header(metrics, episodes)}\n" + "\n".join(sections) +
            "\n<footer>Generated by prove-env report.</footer></main></body></html>\n")


def write_report(run_dir: str | Path, compare: str | Path | None = None, out: str | Path | None = None) -> Path:
    """Write the run's HTML report (default `RUN/report.html`) and return its path."""
    path = Path(out) if out is not None else Path(run_dir) / "report.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_report(run_dir, compare), encoding="utf-8")
    return path


# --------------------------------------------------------------------------------------------
# Terminal summary


def print_summary(metrics: dict[str, Any]) -> str:
    """A fixed-width text table: one row per (server, policy), then one "all" row per policy; then,
    after a blank line, what the maximum is and how many episodes endpoint errors stopped."""
    k = _largest_k(metrics)
    header = ["server", "policy", "tasks", "success", "mean reward", "of max", "validity", "coverage", "calls/task",
              "error rate", f"pass^{k}" if k is not None else "pass^k"]

    def row(server: str, policy: str, m: dict[str, Any]) -> list[str]:
        components = m.get("components", {})
        return [server, policy, _int(m.get("tasks")), _pct(m.get("success_rate")), _fmt(m.get("reward_mean")),
                _pct(m.get("reward_share")), _fmt(components.get("validity")), _fmt(components.get("coverage")),
                _fmt(m.get("calls_per_task"), 2), _pct(m.get("error_rate")), _pct(_pass_k(m, k))]

    rows = [row(s, p, _server(metrics, p, s)) for s in _servers(metrics) for p in _policies(metrics)]
    rows += [row("all", p, _overall(metrics, p)) for p in _policies(metrics)]
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))).rstrip()

    rule = "  ".join("-" * w for w in widths)
    body = [line(r) for r in rows]
    n_server_rows = len(rows) - len(_policies(metrics))
    notes = [f"reward {_maximum_label(metrics)}; \"of max\": the mean of each episode's reward over its own "
             "task's maximum"]
    notes += [f"endpoint errors: {line}" for line in endpoint_errors(metrics)]
    return "\n".join([line(header), rule, *body[:n_server_rows], rule, *body[n_server_rows:], "", *notes])
