"""Smoke test of `python -m bench`: every piece runs on tiny sizes and the JSON is well formed.

No timing is asserted (a benchmark reports times, it does not judge them in tests); what is
asserted is that each figure exists for every registered game, is a real measurement and
survives the JSON file.
"""

from __future__ import annotations

import asyncio
import json
import logging
import math
from pathlib import Path

import pytest

from bench import Metric, Sizes, median, percentile
from bench.__main__ import ROOT, SECTIONS, load_metrics, machine, run_all, table, write_json
from bench.loop_bench import CallbackMeter, WakeUpMonitor
from engine import all_games
from render import has_picture

TINY = Sizes(
    playout_plies=30,
    renders=2,
    enemy_phases=1,
    host_actions=3,
    host_sessions=3,
    host_rounds=2,
    think_s=0.01,
    human_rounds=1,
    human_think_s=0.01,
    knee_rounds=1,
    startup_sessions=30,
    stored_templates=3,
    memory_sessions=3,
    baseline_commits=3,
    ai_games=2,
    ai_budget_s=0.01,
    ai_level_moves=1,
)


ERRORS: list[logging.LogRecord] = []  # what the bot logged as errors during the run


@pytest.fixture(scope="module")
def metrics(tmp_path_factory: pytest.TempPathFactory) -> list[Metric]:
    handler = logging.Handler(logging.ERROR)
    handler.emit = ERRORS.append  # type: ignore[method-assign]
    logger = logging.getLogger("tablebot")
    logger.addHandler(handler)
    try:
        return run_all(TINY, tmp_path_factory.mktemp("bench"))
    finally:
        logger.removeHandler(handler)


def test_every_picture_of_the_run_was_drawn(metrics: list[Metric]) -> None:
    # Each section runs its own event loop (asyncio.run): the picture workers of one must not
    # fail the next one's pictures (announce.py logs a failed picture and posts without it).
    assert metrics and not [r.getMessage() for r in ERRORS]


def _by_name(metrics: list[Metric]) -> dict[str, Metric]:
    return {m.name: m for m in metrics}


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(100, 0, -1)]
    assert percentile(values, 99) == 99.0
    assert percentile(values, 100) == 100.0
    assert median([3.0, 1.0, 2.0]) == 2.0
    assert math.isnan(percentile([], 50))


def test_a_figure_at_or_over_its_target_is_flagged_missed() -> None:
    assert Metric("x", 50.0, "ms", target=50.0).missed
    assert not Metric("x", 49.9, "ms", target=50.0).missed
    assert not Metric("x", 1e9, "ms").missed


def test_every_registered_game_has_engine_and_render_figures(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    assert has_picture("ignis") and has_picture("ignite")
    for game in all_games():
        assert names[f"{game.id}.engine.plies_per_s"].value > 0
        if not has_picture(game.id):
            # A game whose picture module has not landed yet is listed, not measured.
            assert math.isnan(names[f"{game.id}.render.ms_median"].value)
            continue
        for suffix in ("render.ms_median", "render.ms_max", "render.bytes", "render.x_floor"):
            assert names[f"{game.id}.{suffix}"].value > 0, f"{game.id}.{suffix}"
        assert names[f"baseline.png_ms.{game.id}"].value > 0
        assert names[f"{game.id}.render.ms_max"].value >= names[f"{game.id}.render.ms_median"].value
        ratio = names[f"{game.id}.render.x_floor"]
        assert ratio.target == 5.0
        assert ratio.value == pytest.approx(
            names[f"{game.id}.render.ms_median"].value / names[f"baseline.png_ms.{game.id}"].value
        )


def test_picture_cache_memory_is_reported(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    # Every Ignite game has a map of its own: a new one adds a static layer to the cache.
    ignite = names["ignite.render.session_kib"]
    assert ignite.value > 0 and "most recent" in ignite.note
    assert names["ignite.render.new_session_ms"].value > 0
    assert names["render.cache_kib"].value > 0 and "static layers" in names["render.cache_kib"].note
    assert names["render.layer_kib"].value > 0


def test_throughput_without_pictures_and_the_knee_are_measured(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    assert names["host.actions_per_s.3.no_pictures"].value > 0
    keep = names["host.pictures_keep_pct.3"]
    assert keep.minimum == 50.0
    assert keep.value == pytest.approx(
        100 * names["host.actions_per_s.3"].value / names["host.actions_per_s.3.no_pictures"].value
    )
    knee = names["host.knee_moves_per_s.3"]
    assert "p99" in knee.note
    steps = [m for m in metrics if m.name.startswith("host.action.p99_ms.3.at_")]
    assert steps and all(m.value > 0 for m in steps)


def test_a_figure_under_its_minimum_is_flagged_missed() -> None:
    assert Metric("x", 49.0, "%", minimum=50.0).missed
    assert not Metric("x", 50.0, "%", minimum=50.0).missed


def test_enemy_phase_is_measured_when_ignite_is_registered(metrics: list[Metric]) -> None:
    phase = _by_name(metrics)["ignite.enemy_phase.ms"]
    if any(g.id == "ignite" for g in all_games()):
        assert phase.value > 0 and "phases" in phase.note
    else:
        assert math.isnan(phase.value) and "not measured" in phase.note


def test_host_figures_are_named_after_the_session_count(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    for name in (
        "host.action.p50_ms.1",
        "host.action.p99_ms.1",
        "host.refused.p99_ms.1",
        "host.action.p99_ms.3",
        "host.action.p99_ms.3.human",
        "host.actions_per_s.3",
        "baseline.sqlite_commit_ms",
    ):
        assert names[name].value > 0, name
    assert names["host.action.p99_ms.1"].value >= names["host.action.p50_ms.1"].value
    assert "6 moves, 3 sessions" in names["host.action.p50_ms.3"].note


def test_one_sessions_p99_target_is_twice_the_picture_and_ten_commits(metrics: list[Metric]) -> None:
    # Issue 42's bound, worked out from the same run's own figures.
    names = _by_name(metrics)
    p99 = names["host.action.p99_ms.1"]
    assert p99.target == pytest.approx(
        2 * names["host.action.render_ms"].value + 10 * names["baseline.sqlite_commit_ms"].value
    )
    assert names["host.action.p99_ms.1.replay_alongside"].value > 0


def test_host_figures_say_what_a_move_sends_to_the_database(metrics: list[Metric]) -> None:
    # Counted by the backend itself: the round trips a few repository calls fan out into.
    names = _by_name(metrics)
    assert names["host.action.sql_statements"].value >= 1
    assert names["host.action.bytes_written"].value > 0
    assert names["host.refused.sql_statements"].value < names["host.action.sql_statements"].value


def test_start_up_answers_a_move_in_a_stored_game(metrics: list[Metric]) -> None:
    startup = _by_name(metrics)["storage.startup_s.30"]
    assert startup.value > 0
    assert "plays `" in startup.note
    assert _by_name(metrics)["storage.session_kib"].value > 0


def test_ai_figures_cover_every_level_and_both_matches(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    for level in ("random", "easy", "medium", "hard"):
        assert names[f"ignis.ai.{level}.move_ms"].value > 0
    for match in ("hard_vs_random", "hard_vs_medium"):
        pct = names[f"ignis.ai.{match}.win_pct"]
        assert 0 <= pct.value <= 100 and "2 games" in pct.note
    assert names["ignis.ai.budget_s"].value == TINY.ai_budget_s


def test_json_is_a_list_of_name_value_unit(metrics: list[Metric], tmp_path: Path) -> None:
    out = tmp_path / "out" / "bench.json"
    written = write_json(metrics, out)
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert isinstance(rows, list) and len(rows) == written
    assert written == sum(1 for m in metrics if not math.isnan(m.value))
    for row in rows:
        assert set(row) == {"name", "value", "unit"}
        assert isinstance(row["name"], str) and isinstance(row["unit"], str)
        assert isinstance(row["value"], (int, float)) and math.isfinite(row["value"])
    assert len({r["name"] for r in rows}) == len(rows), "a figure name appears twice"


def test_table_lists_every_figure(metrics: list[Metric]) -> None:
    text = table(metrics, "header")
    for m in metrics:
        assert m.name in text
    assert ROOT.joinpath("bench", "__main__.py").is_file()


def test_event_loop_figures_come_from_the_flat_out_load(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    worst = names["host.loop.worst_callback_ms"]
    assert worst.value > 0 and worst.target == 100.0 and "3 Ignis games x 2 moves" in worst.note
    assert names["host.loop.busy_stretch_ms"].value >= 0
    assert math.isfinite(names["host.loop.late_p99_ms"].value)


def test_callback_meter_names_the_heaviest_callback_and_puts_the_loop_back() -> None:
    original = asyncio.events.Handle._run

    def heavy() -> None:
        sum(i * i for i in range(300_000))

    def light() -> None:
        pass

    async def main() -> tuple[CallbackMeter, WakeUpMonitor]:
        loop = asyncio.get_running_loop()
        monitor = WakeUpMonitor()
        watcher = loop.create_task(monitor.run())
        with CallbackMeter() as meter:
            for call in (light, heavy, light):
                loop.call_soon(call)
            await asyncio.sleep(3 * WakeUpMonitor.TICK)
        watcher.cancel()
        return meter, monitor

    meter, monitor = asyncio.run(main())
    assert "heavy" in meter.worst_callback and meter.count >= 3
    assert monitor.late and len(monitor.late) == len(monitor.busy)
    assert asyncio.events.Handle._run is original


def test_only_runs_the_sections_named(tmp_path: Path) -> None:
    got = run_all(TINY, tmp_path, only=("render",))
    rendered = ("render.", "baseline.png", "baseline.pillow")
    assert got and all(m.name.startswith(rendered) or ".render." in m.name for m in got)
    assert set(SECTIONS) >= {"engine", "render", "host", "loop", "storage", "ai"}


def test_the_header_names_the_machine_and_its_load() -> None:
    rows = load_metrics((0.5, 0.4, 0.3))
    assert [m.name for m in rows] == ["bench.loadavg_1m.start", "bench.loadavg_1m.end"]
    assert rows[0].value == 0.5 and rows[1].value >= 0
    assert "cores" in machine()


def test_replay_figures_cover_both_games_and_the_loop_beside_a_replay(metrics: list[Metric]) -> None:
    names = {m.name: m for m in metrics}
    for game_id in ("ignis", "ignite"):
        for figure in ("frames", "total_ms", "ms_per_frame", "board_ms", "x_board", "bytes_per_frame"):
            m = names[f"replay.{game_id}.{figure}"]
            assert m.value > 0 and not math.isnan(m.value), m
    for run in ("quiet", "replaying"):
        assert names[f"replay.loop.{run}.action_p99_ms"].value > 0
    assert "replays" in names["replay.loop.replaying.action_p99_ms"].note


def test_the_raid_enemy_phase_bench_runs_through() -> None:
    # Run alone (`python -m bench.dire_alliance_bench`), outside `python -m bench`: it had stopped
    # on renamed minions and on the questions the phase asks, and nobody saw.
    from bench.dire_alliance_bench import enemy_phase_ms

    ms = enemy_phase_ms(2)
    assert math.isfinite(ms) and ms > 0
