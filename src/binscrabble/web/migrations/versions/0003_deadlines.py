"""Each timed game's deadline, for the server's alarm.

``games`` gains ``deadline``: when the seat to move loses on time unless it moves first
(milliseconds since the Unix epoch; null when untimed or over). It is indexed, so the alarm
asks the database for the deadlines coming up instead of loading every open timed game.
Timed games stored before this migration have none: the server reckons it once, in the
background, when it starts.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("deadline", sa.BigInteger, nullable=True))
    op.create_index("games_deadline", "games", ["deadline"])


def downgrade() -> None:
    op.drop_index("games_deadline", "games")
    with op.batch_alter_table("games") as games:
        games.drop_column("deadline")
