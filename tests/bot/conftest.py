"""Tests here that take `db_target` run on both backends: SQLite always, PostgreSQL when
TEST_DATABASE_URL names a server (see tests/storage/databases.py)."""

from tests.storage.databases import db_target

__all__ = ["db_target"]
