"""A move in one statement on a shared database, and an index for the sweep.

- ``games`` gains ``departed``: how many seats left the game (resigned, ran out of time,
  aborted), kept with every departure. On a shared database (PostgreSQL) a move is stored
  by one statement that updates the game's row only while ``departed`` is the count its
  process knows of, and inserts the move: the row's update makes two processes storing a
  move and a departure of one game take turns, each seeing the other's, without a lock
  taken by a statement of its own. Filled from ``departures`` for the games stored before.
- ``games_sweep`` replaces ``games_open`` (migration 0002, on ``ended`` and ``to_move``
  for every game): a partial index of the games going on alone (``ended`` null), by ``id``
  and ``to_move``, the seat to move, which a shared database writes with every move. The
  sweep that looks for computers to move that nobody plays for (``web/leases.py``) reads
  the open games and their seat to move from it, and finds each one's seat by its key; a
  finished game is not in it, so the index stays the size of the games going on however
  many games are over, and a finished game's row changes without touching it. The games
  a server loads as it starts (``ended`` null) are read from it too. SQLite and
  PostgreSQL both take partial indexes.

Revision ID: 0008
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("departed", sa.Integer, nullable=False, server_default="0"))
    op.execute(
        "UPDATE games SET departed = (SELECT count(*) FROM departures "
        "WHERE departures.game_id = games.id)"
    )
    op.drop_index("games_open", "games")
    op.create_index(
        "games_sweep",
        "games",
        ["id", "to_move"],
        postgresql_where=sa.text("ended IS NULL"),
        sqlite_where=sa.text("ended IS NULL"),
    )


def downgrade() -> None:
    op.drop_index("games_sweep", "games")
    op.create_index("games_open", "games", ["ended", "to_move"])
    with op.batch_alter_table("games") as games:
        games.drop_column("departed")
