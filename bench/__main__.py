"""`python -m bench [--quick] [--json FILE] [--only SECTIONS]`: every benchmark, a table on
stdout, JSON to a file.

Runs engine, render, host, the event loop's responsiveness and storage one after another on an
otherwise idle process, then the AI matches in two processes, so no timing shares the cores with
the AI's search.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import tempfile
import time
from collections.abc import Callable, Collection
from pathlib import Path

from bench import FULL, QUICK, Metric, Sizes
from bot.host.collector import freeze_loaded, thaw_loaded
from engine import all_games

ROOT = Path(__file__).resolve().parent.parent


def _section(title: str, run: Callable[[], list[Metric]]) -> list[Metric]:
    print(f"… {title}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    out = run()
    print(f"  {title} done in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return out


SECTIONS = ("engine", "render", "host", "loop", "replay", "storage", "ai", "bots")
# Run only when named (`--only bots`): the bots' strength matches take hours at their full size.
ON_REQUEST = ("bots",)
DEFAULT_SECTIONS = tuple(s for s in SECTIONS if s not in ON_REQUEST)


def run_all(
    sizes: Sizes, folder: Path, *, ai: bool = True, only: Collection[str] = DEFAULT_SECTIONS
) -> list[Metric]:
    """Every section named in `only` (by default all but those run only on request), in the order
    of SECTIONS (the AI's only when `ai`)."""
    import asyncio

    from bench import (
        ai_bench,
        bot_bench,
        engine_bench,
        host_bench,
        loop_bench,
        render_bench,
        replay_bench,
        storage_bench,
    )

    games = all_games()
    # As the bot does after its start (bot/host/collector.py): what every section loaded so far
    # (every game's rules and content, the libraries) stays out of the collector's full passes,
    # so a full pass in the middle of a measured move walks only what the bench made since.
    freeze_loaded()
    runs: dict[str, tuple[str, Callable[[], list[Metric]]]] = {
        "engine": ("engine", lambda: engine_bench.run(games, sizes.playout_plies, sizes.enemy_phases)),
        "render": ("render", lambda: render_bench.run(games, sizes.renders)),
        "host": (
            "host",
            lambda: asyncio.run(
                host_bench.run(
                    folder,
                    sizes.host_actions,
                    sizes.host_sessions,
                    sizes.host_rounds,
                    sizes.think_s,
                    sizes.baseline_commits,
                    sizes.human_rounds,
                    sizes.human_think_s,
                    sizes.knee_rounds,
                )
            ),
        ),
        # The loop's own responsiveness under the flat-out load of the host section's sessions.
        "loop": (
            "event loop",
            lambda: asyncio.run(loop_bench.run(folder, sizes.host_sessions, sizes.host_rounds)),
        ),
        # Animated replays against board pictures, and the loop while replays are drawn (issue 28).
        "replay": (
            "replay",
            lambda: replay_bench.run(
                folder, sizes.host_sessions, sizes.host_rounds, small=sizes.renders < 10
            ),
        ),
        "storage": (
            "storage",
            lambda: storage_bench.run(
                folder, games, sizes.startup_sessions, sizes.memory_sessions, ROOT, sizes.stored_templates
            ),
        ),
        "ai": ("ignis AI", lambda: ai_bench.run(sizes.ai_games, sizes.ai_budget_s, sizes.ai_level_moves)),
        "bots": ("bots", lambda: bot_bench.run_all(sizes.bot_games)),
    }
    metrics: list[Metric] = []
    try:
        for name in SECTIONS:
            if name in only and (ai or name != "ai"):
                title, run = runs[name]
                metrics += _section(title, run)
    finally:
        thaw_loaded()  # a caller that goes on (the bench's tests) gets its collector back whole
    return metrics


def _number(value: float) -> str:
    if math.isnan(value):
        return "—"
    if abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.3g}" if abs(value) < 10 else f"{value:.1f}"


def table(metrics: list[Metric], header: str) -> str:
    width = max(len(m.name) for m in metrics)
    lines = [header, f"{'metric':<{width}}  {'value':>10}  {'unit':<9} {'target':>8}  note"]
    for m in metrics:
        target = (
            f"< {_number(m.target)}"
            if m.target is not None
            else f">= {_number(m.minimum)}"
            if m.minimum is not None
            else ""
        )
        flag = " MISSED" if m.missed else ""
        lines.append(
            f"{m.name:<{width}}  {_number(m.value):>10}  {m.unit:<9} {target:>8}  {m.note}{flag}".rstrip()
        )
    return "\n".join(lines)


def write_json(metrics: list[Metric], out: Path) -> int:
    """The figures as a JSON list of {name, value, unit}; one not measured (NaN) is left out,
    since JSON has no NaN. Returns how many were written."""
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [m.to_json() for m in metrics if not math.isnan(m.value)]
    out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return len(rows)


def cpu_model() -> str:
    """The CPU's model name as /proc/cpuinfo gives it ("" where there is none)."""
    try:
        lines = Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines()
    except OSError:
        return ""
    return next((line.split(":", 1)[1].strip() for line in lines if line.startswith("model name")), "")


def machine() -> str:
    model = cpu_model()
    return (
        f"{os.cpu_count()} cores{f' ({model})' if model else ''}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}"
    )


def load_metrics(before: tuple[float, float, float]) -> list[Metric]:
    """The machine's load average before and after the run: timings from a machine that other
    work kept busy (a load above its core count) are not comparable with a quiet one's."""
    after = os.getloadavg()
    cores = os.cpu_count() or 1
    return [
        Metric("bench.loadavg_1m.start", before[0], "procs", note=f"{cores} cores; 1-minute load average"),
        Metric("bench.loadavg_1m.end", after[0], "procs", note=f"5-minute: {after[1]:.2f} at the end"),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a reduced run, under a minute")
    parser.add_argument("--json", metavar="FILE", help="write the figures here as a JSON list")
    parser.add_argument("--no-ai", action="store_true", help="skip the Ignis AI matches")
    parser.add_argument(
        "--only", metavar="SECTIONS", help=f"a comma-separated part of the run: {','.join(SECTIONS)}"
    )
    args = parser.parse_args(argv)
    only = DEFAULT_SECTIONS if not args.only else tuple(s.strip() for s in args.only.split(","))
    unknown = [s for s in only if s not in SECTIONS]
    if unknown:
        parser.error(f"unknown section {', '.join(unknown)}; sections: {', '.join(SECTIONS)}")
    sizes = QUICK if args.quick else FULL
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="tablebot-bench-") as tmp:
        metrics = run_all(sizes, Path(tmp), ai=not args.no_ai, only=only)
    metrics += load_metrics(load)
    mode = (
        "quick (reduced sizes"
        + (f"; AI: {sizes.ai_games} games, {sizes.ai_budget_s:g} s per hard move" if not args.no_ai else "")
        + ")"
        if args.quick
        else "full"
    )
    if args.only:
        mode += f", only {', '.join(only)}"
    print(table(metrics, f"tablebot benchmarks, {mode}; {machine()}"))
    if args.json:
        count = write_json(metrics, Path(args.json))
        print(f"wrote {count} figures to {args.json}", file=sys.stderr)
    missed = [m.name for m in metrics if m.missed]
    if missed:
        print("targets missed: " + ", ".join(missed), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
