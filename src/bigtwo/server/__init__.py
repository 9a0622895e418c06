"""The multiplayer server: rooms, seats for people and bots, a browser table, games that survive restarts.

``bigtwo serve`` runs :func:`create_app` on uvicorn. Needs the ``server`` extra (FastAPI, uvicorn,
SQLAlchemy, Alembic, psycopg).
"""

from bigtwo.server.app import create_app

__all__ = ["create_app"]
