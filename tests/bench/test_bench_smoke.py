"""Smoke test of `python -m bench`: every piece runs on tiny sizes and the JSON is well formed.

No timing is asserted (a benchmark reports times, it does not judge them in tests); what is
asserted is that each figure exists for every registered game, is a real measurement and
survives the JSON file.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from bench import Metric, Sizes, median, percentile
from bench.__main__ import ROOT, run_all, table, write_json
from engine import all_games
from render import has_picture

TINY = Sizes(
    playout_plies=30, renders=2, enemy_phases=1, host_actions=3, host_sessions=3, host_rounds=2,
    think_s=0.01, human_rounds=1, human_think_s=0.01, knee_rounds=1,
    startup_sessions=30, stored_templates=3, memory_sessions=3, baseline_commits=3,
    ai_games=2, ai_budget_s=0.01, ai_level_moves=1,
)


@pytest.fixture(scope="module")
def metrics(tmp_path_factory: pytest.TempPathFactory) -> list[Metric]:
    return run_all(TINY, tmp_path_factory.mktemp("bench"))


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
        assert ratio.value == pytest.approx(names[f"{game.id}.render.ms_median"].value
                                            / names[f"baseline.png_ms.{game.id}"].value)


def test_picture_cache_memory_is_reported(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    assert names["render.cache_kib"].value > 0 and "static layers" in names["render.cache_kib"].note
    assert names["render.layer_kib"].value > 0


def test_throughput_without_pictures_and_the_knee_are_measured(metrics: list[Metric]) -> None:
    names = _by_name(metrics)
    assert names["host.actions_per_s.3.no_pictures"].value > 0
    keep = names["host.pictures_keep_pct.3"]
    assert keep.minimum == 50.0
    assert keep.value == pytest.approx(100 * names["host.actions_per_s.3"].value
                                       / names["host.actions_per_s.3.no_pictures"].value)
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
    for name in ("host.action.p50_ms.1", "host.action.p99_ms.1", "host.refused.p99_ms.1",
                 "host.action.p99_ms.3", "host.action.p99_ms.3.human", "host.actions_per_s.3",
                 "baseline.sqlite_commit_ms"):
        assert names[name].value > 0, name
    assert names["host.action.p99_ms.1"].value >= names["host.action.p50_ms.1"].value
    assert "6 moves, 3 sessions" in names["host.action.p50_ms.3"].note


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
