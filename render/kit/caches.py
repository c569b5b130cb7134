"""The picture caches: built once per key and shared by threads, bounded by count or by bytes."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable

from PIL import Image

_cache_lock = threading.Lock()
_cache: dict[Hashable, Image.Image] = {}


def cached(key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
    """A picture built once per key and shared by every thread; callers must never mutate it.

    Two threads may both build a missing picture; the first stored wins, so all see one copy.
    """
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    img = build()
    with _cache_lock:
        return _cache.setdefault(key, img)


_recent_lock = threading.Lock()
_recent: OrderedDict[Hashable, Image.Image] = OrderedDict()
RECENT_KEEP = 24


def cached_recent(key: Hashable, build: Callable[[], Image.Image]) -> Image.Image:
    """Like cached(), for pictures with unbounded keys (a game's terrain): only the most recent
    RECENT_KEEP are kept, so memory stays bounded however many games a bot hosts."""
    with _recent_lock:
        hit = _recent.get(key)
        if hit is not None:
            _recent.move_to_end(key)
            return hit
    img = build()
    with _recent_lock:
        img = _recent.setdefault(key, img)
        _recent.move_to_end(key)
        while len(_recent) > RECENT_KEEP:
            _recent.popitem(last=False)
        return img


class LRU:
    """A cache of pictures bounded by their bytes: the least recently used go first.

    Two threads may build the same missing entry; the first stored wins, so all share one copy.
    """

    def __init__(self, max_bytes: int) -> None:
        self.max_bytes = max_bytes
        self._lock = threading.Lock()
        self._items: OrderedDict[Hashable, tuple[object, int]] = OrderedDict()
        self._bytes = 0
        self.evicted = 0

    def get(self, key: Hashable, build: Callable[[], object], size: Callable[[object], int]) -> object:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
                return hit[0]
        value = build()
        n = size(value)
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                return hit[0]
            self._items[key] = (value, n)
            self._bytes += n
            while self._bytes > self.max_bytes and len(self._items) > 1:
                _, (_, gone) = self._items.popitem(last=False)
                self._bytes -= gone
                self.evicted += 1
            return value

    def clear(self) -> None:
        """Drop every entry (a bench measuring what a new session costs starts from none)."""
        with self._lock:
            self._items.clear()
            self._bytes = 0

    def report(self) -> tuple[int, int, int]:
        """(entries, bytes, evicted so far)."""
        with self._lock:
            return len(self._items), self._bytes, self.evicted


def image_bytes(img: Image.Image) -> int:
    return img.width * img.height * len(img.getbands())


# A static layer is a whole board in palette mode (one byte a pixel: 0.4-0.9 MB); 48 MB keeps
# about sixty distinct boards per drawing process. Stamps are a few kilobytes each.
LAYERS = LRU(48 * 1024 * 1024)
STAMPS = LRU(16 * 1024 * 1024)


def cache_report() -> dict[str, int]:
    """What the picture caches hold in this process: entries, bytes and evictions of each."""
    out: dict[str, int] = {}
    for name, cache in (("layers", LAYERS), ("stamps", STAMPS)):
        entries, nbytes, evicted = cache.report()
        out[f"{name}"] = entries
        out[f"{name}_bytes"] = nbytes
        out[f"{name}_evicted"] = evicted
    return out
