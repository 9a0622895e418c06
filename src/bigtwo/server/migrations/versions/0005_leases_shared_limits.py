"""Many server processes on one database: a lease per table (which process serves it), the lobby's listings,
the limits' events and the known addresses every process shares, and the address that opened each room.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("creator", sa.String(64)))
    op.create_index("ix_rooms_creator", "rooms", ["creator"])
    op.create_table(
        "leases",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(40), nullable=False),
        sa.Column("address", sa.String(200), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("wanted_by", sa.String(40)),
    )
    op.create_index("ix_leases_owner", "leases", ["owner"])
    op.create_table(
        "listings",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True)),
        sa.Column("summary", sa.JSON, nullable=False),
    )
    op.create_table(
        "limit_events",
        sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_limit_events_key_at", "limit_events", ["key", "at"])
    op.create_table(
        "known_addresses",
        sa.Column("username_key", sa.String(24), primary_key=True),
        sa.Column("address", sa.String(64), primary_key=True),
        sa.Column("at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("known_addresses")
    op.drop_index("ix_limit_events_key_at", table_name="limit_events")
    op.drop_table("limit_events")
    op.drop_table("listings")
    op.drop_index("ix_leases_owner", table_name="leases")
    op.drop_table("leases")
    op.drop_index("ix_rooms_creator", table_name="rooms")
    op.drop_column("rooms", "creator")
