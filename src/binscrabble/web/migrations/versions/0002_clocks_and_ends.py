"""Clocks, the times of moves, seats that left, and how each game stands.

``games`` gains its clock (JSON, null when untimed), when it was created, the seat to move
(null once over) and why it ended (null while it goes on); ``moves`` gains when each move
was stored; ``departures`` holds each seat that resigned, ran out of time or aborted. Times
are milliseconds since the Unix epoch. Games stored before this migration are untimed and
get the seat to move their move count gives.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("clock", sa.Text, nullable=True))
        games.add_column(sa.Column("created_at", sa.BigInteger, nullable=True))
        games.add_column(sa.Column("to_move", sa.Integer, nullable=True))
        games.add_column(sa.Column("ended", sa.String(20), nullable=True))
    with op.batch_alter_table("moves") as moves:
        moves.add_column(sa.Column("at", sa.BigInteger, nullable=True))
    op.create_table(
        "departures",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("turn", sa.Integer, nullable=False),
        sa.Column("reason", sa.String(20), nullable=False),
        sa.Column("at", sa.BigInteger, nullable=True),
    )
    op.execute(
        "UPDATE games SET to_move = "
        "(SELECT count(*) FROM moves WHERE moves.game_id = games.id) % "
        "(SELECT count(*) FROM seats WHERE seats.game_id = games.id)"
    )
    op.create_index("games_open", "games", ["ended", "to_move"])


def downgrade() -> None:
    op.drop_index("games_open", "games")
    op.drop_table("departures")
    with op.batch_alter_table("moves") as moves:
        moves.drop_column("at")
    with op.batch_alter_table("games") as games:
        games.drop_column("ended")
        games.drop_column("to_move")
        games.drop_column("created_at")
        games.drop_column("clock")
