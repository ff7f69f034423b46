"""Clocks that wait for every seat, that lose no time to a restart, and late settlements.

- ``seats`` gains ``joined``: when the seat's first request with its token came
  (milliseconds since the Unix epoch; null until then, and for computer seats). A timed
  game's clocks start once every person seat has joined. The person seats of games
  stored before count as joined when their game was made (their clocks ran from then).
- ``departures`` gains ``settled``: when the server settled a seat's leaving (a time-out
  may be settled after the moment the time ran out, ``at``); the next seat's time runs
  from then. Null for departures stored before (then ``at``).
- ``moves`` gains ``next_seat``: the seat to move after the move, stored with it, so that
  a move need not also update its game's row (``games.to_move`` is written only when the
  game's ending or deadline changes, and when a seat leaves); null for moves stored before.
- ``heartbeat``: one row, when the server last said it was alive (the alarm writes it
  every half minute, and as the server stops).
- ``pauses``: each stretch of time the server was down (from its last heartbeat to its
  next start); no clock runs in them.

Revision ID: 0005
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("joined", sa.BigInteger, nullable=True))
    op.execute(
        "UPDATE seats SET joined = (SELECT COALESCE(games.created_at, 0) FROM games "
        "WHERE games.id = seats.game_id) WHERE computer IS NULL"
    )
    with op.batch_alter_table("departures") as departures:
        departures.add_column(sa.Column("settled", sa.BigInteger, nullable=True))
    with op.batch_alter_table("moves") as moves:
        moves.add_column(sa.Column("next_seat", sa.Integer, nullable=True))
    op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    op.create_table(
        "pauses",
        sa.Column("down_from", sa.BigInteger, primary_key=True),
        sa.Column("down_to", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pauses")
    op.drop_table("heartbeat")
    with op.batch_alter_table("moves") as moves:
        moves.drop_column("next_seat")
    with op.batch_alter_table("departures") as departures:
        departures.drop_column("settled")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("joined")
