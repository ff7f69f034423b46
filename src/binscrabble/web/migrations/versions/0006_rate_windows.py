"""The counting windows of the rate limits, shared by every server process; texts of any
length on PostgreSQL.

``rate_windows`` holds one row for each window of each limit and client being counted:
``key`` names the endpoint, the limit and the client, ``start`` is when the window began
(milliseconds since the Unix epoch, a multiple of the limit's period), ``hits`` how many
requests it counted, and ``expires`` when the row is of no more use (two periods after its
start: a sliding window weighs the one before). Rows past ``expires`` are deleted as the
server goes; the index on ``expires`` keeps that cheap. Only databases several processes
share (PostgreSQL) use it; one process on SQLite counts in memory.

``moves.notation`` and ``games.client`` become ``TEXT``: a table game stores a refused play as
it was entered behind ``refused`` (up to 208 characters), and a client behind a proxy is
what the proxy says. SQLite never enforced the lengths of ``VARCHAR``; PostgreSQL refused
the longer values, so only there are the columns changed (SQLite would copy the whole table
of moves to change a type it ignores). Going back leaves them ``TEXT``.

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
        sa.Column("key", sa.Text, primary_key=True),
        sa.Column("start", sa.BigInteger, primary_key=True),
        sa.Column("hits", sa.Integer, nullable=False),
        sa.Column("expires", sa.BigInteger, nullable=False),
    )
    op.create_index("rate_windows_expires", "rate_windows", ["expires"])
    if op.get_context().dialect.name != "sqlite":
        op.alter_column("moves", "notation", type_=sa.Text, existing_nullable=False)
        op.alter_column("games", "client", type_=sa.Text, existing_nullable=True)


def downgrade() -> None:
    # The texts stay TEXT: the stored ones may be longer than the old limits, and the older
    # code reads TEXT as well.
    op.drop_index("rate_windows_expires", "rate_windows")
    op.drop_table("rate_windows")
