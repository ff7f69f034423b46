"""The lobby's list from the database, and when each turn of an analysis was stored.

- ``games`` gains ``listed`` and ``moved_at``, written by every move on a shared database
  (PostgreSQL), in the move's own statement: ``listed`` is what the lobby's list shows of
  the game after the move (its players, their computer levels and scores, and its move
  count, as JSON), ``moved_at`` when the move was stored, in microseconds on the database
  server's clock (one clock for every process). Every process answers the list of the
  games being played now (``GET /api/games``, web/playing.py) from them; null for the
  games of an SQLite file, whose one process keeps the list in memory.
- ``analysed`` gains ``at`` (ms since the Unix epoch, indexed): the moment the turn was
  stored. Each process on a shared database deletes the turns stored longer ago than
  ``web/leases.py``'s ``ANALYSIS_KEPT_MS``; a game's analysis asked for again after that
  is computed again from its stored moves. The turns stored before count as stored when
  the migration ran.

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("listed", sa.Text, nullable=True))
        games.add_column(sa.Column("moved_at", sa.BigInteger, nullable=True))
    with op.batch_alter_table("analysed") as analysed:
        analysed.add_column(sa.Column("at", sa.BigInteger, nullable=True))
    op.execute(sa.text("UPDATE analysed SET at = :now").bindparams(now=time.time_ns() // 10**6))
    op.create_index("analysed_at", "analysed", ["at"])


def downgrade() -> None:
    op.drop_index("analysed_at", "analysed")
    with op.batch_alter_table("analysed") as analysed:
        analysed.drop_column("at")
    with op.batch_alter_table("games") as games:
        games.drop_column("moved_at")
        games.drop_column("listed")
