"""A server starts without Alembic's step-by-step INFO lines (issue 89: seven of them at every start), and a host
who sets Alembic's own logger to INFO still gets them."""

from __future__ import annotations

import logging

from bigtwo.server.db import make_engine, migrate


def test_migrating_says_nothing_at_info(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    migrate(make_engine(str(tmp_path / "quiet.sqlite3")))
    assert not [r for r in caplog.records if r.name.startswith("alembic")]
    assert logging.getLogger("alembic").level == logging.NOTSET  # left as it was


def test_a_host_who_asks_for_alembics_messages_gets_them(tmp_path, caplog):
    caplog.set_level(logging.INFO)
    logging.getLogger("alembic").setLevel(logging.INFO)
    try:
        migrate(make_engine(str(tmp_path / "loud.sqlite3")))
    finally:
        logging.getLogger("alembic").setLevel(logging.NOTSET)
    assert [r for r in caplog.records if r.name.startswith("alembic")]
