"""The e2e tests run as two units of work, each in one pytest-xdist worker and in order, each closed
by its own run of the API schema check (tests/e2e/test_api_schema.py), which checks the traffic of
every test of its unit: so every request and answer of the run is checked, and the two halves of
the e2e time run side by side. Which module goes where only balances the halves (the modules that
play whole games, against the rest); a module named nowhere is in "rest", and checked there.
"""

from __future__ import annotations

UNITS = ("games", "rest")
# File-name prefixes of the modules that play whole games.
GAMES = ("test_e2e_battlelore", "test_e2e_dire_alliance", "test_e2e_ignite", "test_e2e_table")
SCHEMA_MODULE = "test_api_schema.py"


def unit_of(nodeid: str) -> str:
    """The unit of an e2e test, by its id (`tests/e2e/test_x.py::test_y[...]`); the schema check
    is parametrized by the unit it closes."""
    module, _, name = nodeid.partition("::")
    file = module.rsplit("/", 1)[-1]
    if file == SCHEMA_MODULE:
        unit = name[name.rindex("[") + 1 : -1]
        assert unit in UNITS, nodeid
        return unit
    return UNITS[0] if file.startswith(GAMES) else UNITS[1]
