"""Typed content files shared by every game: a JSON file checked against pydantic v2 models.

A game's cards, maps and scenarios live in JSON data files. Each game declares their shape as
models deriving from `ContentModel` and loads them with `load(path, Model)`; a malformed file
raises one `ContentError` whose message names the file, the entry and the field, so a group
editing its own files (CONTENT_DIR) can find the mistake at once.

The whole API::

    class Fighter(ContentModel):          # extra keys refused, instances frozen
        name: str
        melee: int = Field(ge=0)

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
* `ContentError(source, entry, field, problem)` -- also raised by a game's own cross-file checks
  (a leader naming a fighter that does not exist), so every content message reads the same.
  Inside a model, a `model_validator` may simply raise ValueError: the entry is then the model's
  position in the file and the field is left out.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.errors import GameError

M = TypeVar("M", bound=BaseModel)

# Keys whose value names an entry better than its position does.
_NAME_KEYS = ("name", "id", "key")


class ContentModel(BaseModel):
    """Base of every content model: unknown keys are refused (a typo is an error, not ignored)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


class ContentError(GameError):
    """A content file is malformed; the message names the file, the entry and the field."""

    def __init__(self, source: str, entry: str, field: str, problem: str) -> None:
        self.source, self.entry, self.field, self.problem = source, entry, field, problem
        where = f"entry {entry}" if entry else "top level"
        if field:
            where += f", field `{field}`"
        super().__init__(f"{source}: {where}: {problem}")


def content_path(name: str, shipped: Path, folder: Path | str | None = None) -> Path:
    """The file `name` from a group's own `folder` when it has one, else the shipped stand-in."""
    if folder is not None and (Path(folder) / name).is_file():
        return Path(folder) / name
    return shipped / name


def load(path: Path, model: type[M]) -> M:
    """Read `path` and validate it as `model`; any problem is one ContentError naming the file."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ContentError(path.name, "", "", f"cannot be read ({exc.strerror or exc}).") from exc
    return parse(text, model, path.name)


def parse(data: str | bytes | Any, model: type[M], source: str) -> M:
    """Validate JSON text, or data already decoded from JSON, as `model`. `source` names it."""
    if isinstance(data, str | bytes):
        try:
            raw = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ContentError(
                source, "", "", f"is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}."
            ) from exc
    else:
        raw = data
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
        problem += f"; {len(errors) - 1} more problem(s) in this file"
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
