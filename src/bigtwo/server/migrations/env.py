"""Alembic environment: migrations run on the connection the server hands over (or a URL on the command line)."""

from alembic import context
from sqlalchemy import create_engine

from bigtwo.server.db import database_url, metadata

config = context.config
target_metadata = metadata


def run() -> None:
    conn = config.attributes.get("connection")
    if conn is not None:
        context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = database_url(config.get_main_option("sqlalchemy.url") or "bigtwo.sqlite3")
    engine = create_engine(url)
    with engine.begin() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("bigtwo migrations run online: give a database URL")
run()
