"""The Ignite tests build their positions with one set of helpers (positions.py): no two of the
folder's modules define the same helper, so a fix to how a position is built reaches every test."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).parent


def helper_bodies(source: str) -> dict[str, str]:
    """Each top-level helper (not a test) of a module, by name, as its body's syntax tree without
    its docstring: two helpers written alike compare equal whatever their names, comments and docstrings."""
    out = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("test_"):
            body = [
                s for s in node.body if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
            ]
            out[node.name] = ast.dump(ast.Module(body=body, type_ignores=[]))
    return out


def test_no_two_ignite_test_modules_define_the_same_helper() -> None:
    where = defaultdict(list)
    for path in sorted(HERE.glob("*.py")):
        for name, body in helper_bodies(path.read_text(encoding="utf-8")).items():
            where[body].append(f"{path.name}:{name}")
    copies = [places for places in where.values() if len({p.split(":")[0] for p in places}) > 1]
    assert not copies, f"helpers written twice (move them to positions.py): {copies}"


def test_a_copied_helper_compares_equal_whatever_its_name_and_docstring() -> None:
    one = helper_bodies('def minion(st):\n    """One."""\n    m = st.add()\n    return m\n')
    two = helper_bodies("def put_minion(st):\n    m = st.add()  # the same\n    return m\n")
    other = helper_bodies("def minion(st):\n    m = st.add(2)\n    return m\n")
    assert one["minion"] == two["put_minion"] != other["minion"]
