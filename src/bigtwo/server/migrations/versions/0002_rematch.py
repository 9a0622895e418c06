"""A finished room names the room of its rematch (the same seats, a new deal).

Revision ID: 0002
Revises: 0001
Create Date: 2025-02-01
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("rematch", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rematch")
