"""Accounts and their sessions; seats that name an account; rated tables; ratings and stored match results.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rated", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("account_id", sa.Integer))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("username", sa.String(24), nullable=False),
        sa.Column("username_key", sa.String(24), nullable=False, unique=True),
        sa.Column("password_hash", sa.String(256), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "ratings",
        sa.Column("player", sa.String(64), primary_key=True),
        sa.Column("family", sa.String(24), primary_key=True),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("matches", sa.Integer, nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "finished_matches",
        sa.Column("id", sa.String(96), primary_key=True),
        sa.Column("room_id", sa.String(16)),
        sa.Column("family", sa.String(24), nullable=False),
        sa.Column("preset", sa.String(40), nullable=False),
        sa.Column("rated", sa.Integer, nullable=False),
        sa.Column("public", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "match_results",
        sa.Column(
            "match_id", sa.String(96), sa.ForeignKey("finished_matches.id", ondelete="CASCADE"), primary_key=True
        ),
        sa.Column("seat", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("player", sa.String(64), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("place", sa.Integer, nullable=False),
        sa.Column("points", sa.Float, nullable=False),
        sa.Column("mu_before", sa.Float),
        sa.Column("sigma_before", sa.Float),
        sa.Column("mu_after", sa.Float),
        sa.Column("sigma_after", sa.Float),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_match_results_player", "match_results", ["player"])


def downgrade() -> None:
    op.drop_index("ix_match_results_player", "match_results")
    op.drop_table("match_results")
    op.drop_table("finished_matches")
    op.drop_table("ratings")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_table("accounts")
    op.drop_index("ix_seats_account_id", "seats")
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("account_id")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rated")
