"""`python -m bench [--quick] [--json FILE]`: every benchmark, a table on stdout, JSON to a file.

Runs engine, render, host and storage one after another on an otherwise idle process, then the
AI matches in two processes, so no timing shares the cores with the AI's search.
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
from collections.abc import Callable
from pathlib import Path

from bench import FULL, QUICK, Metric, Sizes
from engine import all_games

ROOT = Path(__file__).resolve().parent.parent


def _section(title: str, run: Callable[[], list[Metric]]) -> list[Metric]:
    print(f"… {title}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    out = run()
    print(f"  {title} done in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return out


def run_all(sizes: Sizes, folder: Path, *, ai: bool = True) -> list[Metric]:
    import asyncio

    from bench import ai_bench, engine_bench, host_bench, render_bench, storage_bench

    games = all_games()
    metrics: list[Metric] = []
    metrics += _section("engine", lambda: engine_bench.run(games, sizes.playout_plies, sizes.enemy_phases))
    metrics += _section("render", lambda: render_bench.run(games, sizes.renders))
    metrics += _section("host", lambda: asyncio.run(host_bench.run(
        folder, sizes.host_actions, sizes.host_sessions, sizes.host_rounds, sizes.think_s,
        sizes.baseline_commits, sizes.human_rounds, sizes.human_think_s, sizes.knee_rounds)))
    metrics += _section("storage", lambda: storage_bench.run(
        folder, games, sizes.startup_sessions, sizes.memory_sessions, ROOT, sizes.stored_templates))
    if ai:
        metrics += _section("ignis AI", lambda: ai_bench.run(sizes.ai_games, sizes.ai_budget_s,
                                                             sizes.ai_level_moves))
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
        target = (f"< {_number(m.target)}" if m.target is not None
                  else f">= {_number(m.minimum)}" if m.minimum is not None else "")
        flag = " MISSED" if m.missed else ""
        lines.append(f"{m.name:<{width}}  {_number(m.value):>10}  {m.unit:<9} {target:>8}  "
                     f"{m.note}{flag}".rstrip())
    return "\n".join(lines)


def write_json(metrics: list[Metric], out: Path) -> int:
    """The figures as a JSON list of {name, value, unit}; one not measured (NaN) is left out,
    since JSON has no NaN. Returns how many were written."""
    out.parent.mkdir(parents=True, exist_ok=True)
    rows = [m.to_json() for m in metrics if not math.isnan(m.value)]
    out.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return len(rows)


def machine() -> str:
    return (f"{os.cpu_count()} cores, Python {platform.python_version()}, "
            f"{platform.system()} {platform.machine()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a reduced run, under a minute")
    parser.add_argument("--json", metavar="FILE", help="write the figures here as a JSON list")
    parser.add_argument("--no-ai", action="store_true", help="skip the Ignis AI matches")
    args = parser.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    with tempfile.TemporaryDirectory(prefix="tablebot-bench-") as tmp:
        metrics = run_all(sizes, Path(tmp), ai=not args.no_ai)
    mode = "quick (reduced sizes" + (f"; AI: {sizes.ai_games} games, {sizes.ai_budget_s:g} s per "
                                     "hard move" if not args.no_ai else "") + ")" if args.quick else "full"
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
