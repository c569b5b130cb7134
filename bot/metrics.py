"""What the bot counts and times, as Prometheus metrics: one `Metrics` holds every metric object on
its own registry, and the code that does the work records into the current one (`get()`).

The host records here (actions, bot turns, pictures, storage, reminders, finished games) without
knowing HTTP; the Discord frontend records its first answers and Discord's errors; bot/health.py
serves the registry. Labels are bounded sets only (a game's id, a kind of work, Discord's status
and error codes): never a user, channel or session id, each of which would be a series of its own.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from typing import TypeVar

from prometheus_client import (
    GC_COLLECTOR,
    PLATFORM_COLLECTOR,
    PROCESS_COLLECTOR,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
)

T = TypeVar("T")

# Discord wants an interaction's first answer within 3 seconds of its creation; the bot defers at
# 1.5 s (bot/discord_frontend.py). The buckets resolve that range.
FIRST_ANSWER_BUCKETS = (0.05, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0)
# Work that takes from milliseconds (a move's commit) to seconds (a replay, an expert bot's turn).
WORK_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


class Metrics:
    """Every metric of one bot process, on `registry`. `process`: also the process's CPU, memory,
    open files and garbage collections (the client library's standard collectors)."""

    def __init__(self, registry: CollectorRegistry | None = None, *, process: bool = False) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        r = self.registry
        if process:
            for collector in (PROCESS_COLLECTOR, PLATFORM_COLLECTOR, GC_COLLECTOR):
                r.register(collector)
        # -- Discord's side: what players see of the bot's answers ---------------------------------
        self.first_answer_seconds = Histogram(
            "tablebot_first_answer_seconds",
            "Time from a command's or a press's creation (its snowflake, Discord's clock) to its first "
            "answer or deferral reaching Discord; one per interaction, by its first attempt.",
            buckets=FIRST_ANSWER_BUCKETS,
            registry=r,
        )
        self.first_answers_late = Counter(
            "tablebot_first_answers_late",
            "First answers sent more than 3 s after their interaction's creation (players see "
            "'The application did not respond').",
            registry=r,
        )
        self.first_answers_failed = Counter(
            "tablebot_first_answers_failed",
            "First answers (replies or deferrals) that Discord refused or the network lost.",
            registry=r,
        )
        self.posts_owed = Gauge(
            "tablebot_posts_owed",
            "Public posts that could not go out yet and wait to be retried.",
            registry=r,
        )
        self.discord_errors = Counter(
            "tablebot_discord_errors",
            "Discord's error answers by HTTP status and JSON error code (code '' when it sent none), "
            "and requests that got no answer (status 'none', code: the failure's kind).",
            ["status", "code"],
            registry=r,
        )
        self.pictures_without_embeds = Counter(
            "tablebot_pictures_without_embeds",
            "Channel messages sent with their pictures as plain attachments, no embed, because the "
            "bot lacks Embed Links there (Discord drops a bot's embeds without it).",
            registry=r,
        )
        self.places_gone = Counter(
            "tablebot_places_gone",
            "Channels, threads and servers found deleted (or the bot removed), by how: 'event' (a "
            "gateway event), 'start' (looked up at start), 'not_found' (a 404 confirmed by a fetch).",
            ["how"],
            registry=r,
        )
        # -- the games -----------------------------------------------------------------------------
        self.games_active = Gauge(
            "tablebot_games_active",
            "Games in play (started, not over), by game, as the database holds them.",
            ["game"],
            registry=r,
        )
        self.games_finished = Counter(
            "tablebot_games_finished",
            "Games this process saw end, by game and how: 'rules' (won, lost or drawn in play) or "
            "'players' (a resignation, a concession, a claim).",
            ["game", "by"],
            registry=r,
        )
        self.actions = Counter(
            "tablebot_actions",
            "Actions accepted and committed, by game and kind: 'person', 'bot' or 'timeout' (a "
            "decision's default taken when nobody answered).",
            ["game", "kind"],
            registry=r,
        )
        self.bot_turn_seconds = Histogram(
            "tablebot_bot_turn_seconds",
            "Time a bot seat took to choose its action, by game and level.",
            ["game", "level"],
            buckets=WORK_BUCKETS,
            registry=r,
        )
        self.reminders = Counter(
            "tablebot_reminders",
            "Reminders handed out for games waiting on someone (the last of a wait says it stalled).",
            registry=r,
        )
        # -- the work behind an answer ---------------------------------------------------------------
        self.picture_seconds = Histogram(
            "tablebot_picture_seconds",
            "Time to draw a picture, by what: 'board', 'close_up', 'recap' or 'replay'.",
            ["what"],
            buckets=WORK_BUCKETS,
            registry=r,
        )
        self.storage_seconds = Histogram(
            "tablebot_storage_seconds",
            "Time the database took, by operation: 'commit' (an action with its log row and snapshot), "
            "'ping' (the health check's query).",
            ["operation"],
            buckets=WORK_BUCKETS,
            registry=r,
        )
        # -- the process ------------------------------------------------------------------------------
        self.health_ok = Gauge(
            "tablebot_health_ok",
            "1 while a part of the health check passes, 0 while it fails ('gateway', 'database', "
            "'event_loop'), as /healthz found it at the last scrape.",
            ["check"],
            registry=r,
        )
        self.event_loop_lag_seconds = Gauge(
            "tablebot_event_loop_lag_seconds",
            "The event loop's worst lag in the last 10 s (how late it ran a timer): every "
            "interaction's 3 seconds wait behind it. Measured while the listener runs.",
            registry=r,
        )


_current = Metrics(process=True)


def get() -> Metrics:
    """The metrics the running bot records into."""
    return _current


def use(metrics: Metrics) -> Metrics:
    """Record into `metrics` from now on (a test's own registry); returns the ones used before."""
    global _current
    before, _current = _current, metrics
    return before


async def timed(histogram: Histogram, work: Awaitable[T]) -> T:
    """Await `work`, observing how long it took in `histogram` (a labelled child), failed or not."""
    start = time.perf_counter()
    try:
        return await work
    finally:
        histogram.observe(time.perf_counter() - start)


def picture(what: str) -> Histogram:
    """Where drawing a picture of this kind ('board', 'close_up', 'recap', 'replay') is timed."""
    return get().picture_seconds.labels(what)


def action_applied(game: str, kind: str, by_bot: bool, *, ended: bool) -> None:
    """An action was committed (`kind`: Play.apply's, 'action' or 'timeout'); `ended`: it ended
    the game by the rules."""
    get().actions.labels(game, "timeout" if kind == "timeout" else "bot" if by_bot else "person").inc()
    if ended:
        game_finished(game, "rules")


def game_finished(game: str, by: str) -> None:
    get().games_finished.labels(game, by).inc()


def reminder_sent() -> None:
    get().reminders.inc()
