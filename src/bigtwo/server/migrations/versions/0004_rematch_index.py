"""An index on the room a finished room names as its rematch: deleting a rematch room never started (expired, or
closed by its host) unlinks it from the finished room that named it, without reading every room.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-28
"""

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_rooms_rematch", "rooms", ["rematch"])


def downgrade() -> None:
    op.drop_index("ix_rooms_rematch", table_name="rooms")
