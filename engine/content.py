"""Typed content files shared by every game: a JSON file checked against pydantic v2 models.

A game's cards, maps and scenarios live in JSON data files. Each game declares their shape as
models deriving from `ContentModel` and loads them with `load(path, Model)`; a malformed file
raises one `ContentError` whose message names the file, the entry and the field, so a group
editing its own files (CONTENT_DIR) can find the mistake at once.

The whole API::

    class Fighter(ContentModel):          # extra keys refused, instances frozen
        name: str
        melee: int = Field(ge=0, le=10)   # every number bounded on both sides

    class Roster(ContentModel):
        fighters: tuple[Fighter, ...]

    roster = load(content_path("fighters.json", SHIPPED, folder), Roster)
    # bad "melee" in the third fighter ->
    # ContentError: fighters.json: entry fighters[2] "Ghoul", field `melee`: Input should be a
    #   valid integer (got "two")

* `ContentModel` -- the base class (``extra="forbid"``, ``frozen=True``). Validation is strict
  JSON: a number in quotes is not a number, a string is not a list; arrays fill tuple fields.
* `load(path, model)` -- read and validate one file; `parse(data, model, source)` does the same
  for JSON text or already-decoded data (tests, inline content).
* `content_path(name, shipped, folder)` -- a group's own file when its folder has one, else ours.
  Anything in the folder under that name counts: a folder, FIFO or broken link named like a
  content file is refused by `load`, never skipped in favour of ours.
* `read_json(path)` / `decode(text, source)` -- the file-level half of `load`, for a game that
  checks a file's shape by hand.
* `ContentError(source, entry, field, problem)` -- also raised by a game's own cross-file checks
  (a leader naming a fighter that does not exist), so every content message reads the same.
  Inside a model, a `model_validator` may simply raise ValueError: the entry is then the model's
  position in the file and the field is left out.

Whole classes of bad files are refused here, for every game at once, each as one ContentError
naming the file (and the entry and field where the problem sits inside the data): not a regular
file (a folder, a FIFO, a symlink loop), too large, not UTF-8, not JSON, nested deeper than
MAX_DEPTH, a number of more than MAX_DIGITS digits or not finite (NaN, Infinity, 1e999). And every
number a ContentModel takes must be bounded on both sides (`Field(ge=…, le=…)`, also inside
tuples and dicts): a model with an unbounded one is refused when its class is defined, so a
file can never ask the rules for 10**9 dice.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
import types
import typing
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

import annotated_types
from pydantic import BaseModel, ConfigDict, ValidationError

from engine.errors import GameError
from engine.words import count

M = TypeVar("M", bound=BaseModel)

# Keys whose value names an entry better than its position does.
_NAME_KEYS = ("name", "id", "key")
MAX_BYTES = 4 * 1024 * 1024  # the largest shipped file is about 60 KB
MAX_DEPTH = 24  # objects and arrays inside each other; the shipped files need 6
MAX_DIGITS = 12  # in one number, before any field's own bounds are checked


class ContentModel(BaseModel):
    """Base of every content model: unknown keys are refused (a typo is an error, not ignored),
    and every number has bounds on both sides."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        for name, info in cls.model_fields.items():
            if _unbounded(info.annotation, info.metadata):
                raise TypeError(
                    f"{cls.__name__}.{name}: every number in a content file needs the bounds the "
                    "rules allow, on both sides: Field(ge=…, le=…) or Annotated[int, Field(ge=…, le=…)]"
                )


def _bounded(metadata: Sequence[Any]) -> bool:
    low = any(isinstance(m, annotated_types.Ge | annotated_types.Gt) for m in metadata)
    high = any(isinstance(m, annotated_types.Le | annotated_types.Lt) for m in metadata)
    return low and high


def _unbounded(annotation: Any, metadata: Sequence[Any] = ()) -> bool:
    """Whether a number somewhere in this type may take any value."""
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        inner, *extra = typing.get_args(annotation)
        found = [m for e in extra for m in getattr(e, "metadata", [e])]
        return _unbounded(inner, [*metadata, *found])
    if annotation in (int, float):
        return not _bounded(metadata)
    if origin is typing.Literal or isinstance(annotation, type):
        return False  # a literal, bool, str or a model (checked when it was defined)
    if origin is typing.Union or origin is types.UnionType:
        return any(_unbounded(a, metadata) for a in typing.get_args(annotation))
    return any(_unbounded(a) for a in typing.get_args(annotation) if a is not Ellipsis)


class ContentError(GameError):
    """A content file is malformed; the message names the file, the entry and the field."""

    def __init__(self, source: str, entry: str, field: str, problem: str) -> None:
        # A name taken from a file that is not UTF-8 holds lone surrogates: shown as U+FFFD.
        source, entry, field = (_BAD_BYTE.sub("\ufffd", x) for x in (source, entry, field))
        self.source, self.entry, self.field, self.problem = source, entry, field, problem
        where = f"entry {entry}" if entry else "top level"
        if field:
            where += f", field `{field}`"
        super().__init__(f"{source}: {where}: {problem}")


def content_path(name: str, shipped: Path, folder: Path | str | None = None) -> Path:
    """The file `name` from a group's own `folder` when it has anything by that name (`load`
    refuses what is not a regular file), else the shipped stand-in."""
    if folder is not None and os.path.lexists(Path(folder) / name):
        return Path(folder) / name
    return shipped / name


def load(path: Path, model: type[M]) -> M:
    """Read `path` and validate it as `model`; any problem is one ContentError naming the file."""
    return parse(read_json(path), model, path.name)


def read_json(path: Path) -> Any:
    """The JSON in the content file `path`, decoded; any problem is one ContentError naming it.
    Only a regular file is opened, so a FIFO cannot hang the start."""
    try:
        info = os.stat(path)  # follows links: a loop or a dangling link fails here
    except OSError as exc:
        raise ContentError(path.name, "", "", f"cannot be read ({exc.strerror or exc}).") from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a folder" if stat.S_ISDIR(info.st_mode) else "a FIFO" if stat.S_ISFIFO(info.st_mode) else ""
        raise ContentError(path.name, "", "", f"is {kind or 'something'} where a regular file must be.")
    if info.st_size > MAX_BYTES:
        raise ContentError(
            path.name, "", "", f"is {info.st_size} bytes; a content file is at most {MAX_BYTES}."
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ContentError(path.name, "", "", f"cannot be read ({exc.strerror or exc}).") from None
    return decode(data, path.name)


class _Refused:
    """A value the decoder will not hand to a model (a huge or non-finite number, bad UTF-8),
    left in place so the error can name the entry and field it sits in."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _number(text: str) -> Any:
    digits = sum(ch.isdigit() for ch in text)
    if digits > MAX_DIGITS:
        shown = text if len(text) <= 20 else f"{text[:12]}…"
        return _Refused(f"is the number {shown} ({digits} digits); no field takes a number that large")
    value = float(text) if any(ch in text for ch in ".eE") else int(text)
    if isinstance(value, float) and not math.isfinite(value):
        return _Refused(f"is the number {text}, which is not finite")
    return value


def _constant(text: str) -> Any:
    return _Refused(f"is {text}, which JSON does not allow")


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}:,]')
_BAD_BYTE = re.compile("[\udc80-\udcff]")


def decode(data: str | bytes, source: str) -> Any:
    """JSON text (or UTF-8 bytes) decoded, with the checks of `read_json`. `source` names it."""
    if isinstance(data, bytes):
        # Undecodable bytes become lone surrogates, so the string holding them can be named.
        data = data.decode("utf-8", errors="surrogateescape")
    _check_depth(data, source)
    try:
        raw = json.loads(data, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        bad = _BAD_BYTE.search(data)
        if bad is not None:  # outside any string: say so, rather than what the JSON parser saw there
            byte = ord(bad.group(0)) - 0xDC00
            raise ContentError(
                source, "", "", f"is not UTF-8 text (the byte 0x{byte:02x} {_at(data, bad.start())})."
            ) from None
        raise ContentError(
            source, "", "", f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
        ) from None
    refused = _first_refused(raw)
    if refused is not None:
        loc, problem = refused
        entry, field = _locate(raw, loc)
        raise ContentError(source, entry, field, problem + ".")
    return raw


def _at(text: str, index: int) -> str:
    """Where `index` is in `text`, as an editor shows it."""
    line = text.count("\n", 0, index) + 1
    return f"at line {line}, column {index - text.rfind(chr(10), 0, index)}"


def _check_depth(text: str, source: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH before the recursive decoder meets it."""
    depth = 0
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                where = _at(text, m.start())
                raise ContentError(source, "", "", f"is nested more than {MAX_DEPTH} levels deep {where}.")
        elif token in "]}":
            depth -= 1


def _first_refused(raw: Any) -> tuple[list[int | str], str] | None:
    """Where the first refused value is (a path into the data), and why; depth-first, in order."""
    stack: list[tuple[list[int | str], Any]] = [([], raw)]
    while stack:
        path, node = stack.pop()
        if isinstance(node, _Refused):
            return path, node.problem
        if isinstance(node, str) and _BAD_BYTE.search(node):
            bad = _BAD_BYTE.search(node)
            assert bad is not None
            return path, f"is not UTF-8 text (the byte 0x{ord(bad.group(0)) - 0xDC00:02x})"
        if isinstance(node, dict):
            for key in node:
                if _BAD_BYTE.search(key):
                    return [*path, key], "is a key that is not UTF-8 text"
            stack += [([*path, k], v) for k, v in reversed(node.items())]
        elif isinstance(node, list):
            stack += [([*path, i], v) for i, v in reversed(list(enumerate(node)))]
    return None


def parse(data: str | bytes | Any, model: type[M], source: str) -> M:
    """Validate JSON text, or data already decoded from JSON, as `model`. `source` names it."""
    raw = decode(data, source) if isinstance(data, str | bytes) else data
    try:
        # Re-encoding keeps validation in pydantic's strict JSON mode whatever we were given.
        return model.model_validate_json(json.dumps(raw), strict=True)
    except ValidationError as exc:
        raise _first_error(source, raw, exc) from exc


def _first_error(source: str, raw: Any, exc: ValidationError) -> ContentError:
    errors = exc.errors(include_url=False)
    err = errors[0]
    entry, field = _locate(raw, err["loc"])
    problem = str(err["msg"])
    if err["type"] != "missing" and "input" in err and not isinstance(err["input"], dict | list):
        problem += f" (got {json.dumps(err['input'])})"
    if len(errors) > 1:
        problem += f"; {count(len(errors) - 1, 'more problem')} in this file"
    return ContentError(source, entry, field, problem + ".")


def _locate(raw: Any, loc: Sequence[int | str]) -> tuple[str, str]:
    """Split a pydantic error location into (entry, field) by walking the raw data.

    The entry is the deepest object on the path that carries a name (shown with it), else the
    deepest list element; the field is the rest of the path. Location parts that are not keys
    of the data (pydantic's union tags) are dropped.
    """
    path: list[int | str] = []
    node: Any = raw
    entry_len, entry_label = 0, ""
    for part in loc:
        in_list = isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)
        if in_list or (isinstance(node, dict) and part in node):
            node = node[part]
        elif isinstance(node, dict | list) and part != loc[-1]:
            continue  # a union tag or validator name, not a place in the file
        else:
            path.append(part)  # a missing key: the field itself
            node = None
            continue
        path.append(part)
        named = isinstance(node, dict) and next(
            (node[k] for k in _NAME_KEYS if isinstance(node.get(k), str)), None
        )
        if named:
            entry_len, entry_label = len(path), f' "{named}"'
        elif isinstance(part, int) and not entry_label:
            entry_len = len(path)
    return _dotted(path[:entry_len]) + (entry_label if entry_len else ""), _dotted(path[entry_len:])


def _dotted(parts: Sequence[int | str]) -> str:
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return out
