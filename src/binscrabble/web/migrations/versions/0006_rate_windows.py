"""The counting windows of the rate limits, shared by every server process.

``rate_windows`` holds one row for each window of each limit and client being counted:
``key`` names the endpoint, the limit and the client, ``start`` is when the window began
(milliseconds since the Unix epoch, a multiple of the limit's period), ``hits`` how many
requests it counted, and ``expires`` when the row is of no more use (two periods after its
start: a sliding window weighs the one before). Rows past ``expires`` are deleted as the
server goes; the index on ``expires`` keeps that cheap. Only databases several processes
share (PostgreSQL) use it; one process on SQLite counts in memory.

Revision ID: 0006
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "rate_windows",
        sa.Column("key", sa.String(200), primary_key=True),
        sa.Column("start", sa.BigInteger, primary_key=True),
        sa.Column("hits", sa.Integer, nullable=False),
        sa.Column("expires", sa.BigInteger, nullable=False),
    )
    op.create_index("rate_windows_expires", "rate_windows", ["expires"])


def downgrade() -> None:
    op.drop_index("rate_windows_expires", "rate_windows")
    op.drop_table("rate_windows")
