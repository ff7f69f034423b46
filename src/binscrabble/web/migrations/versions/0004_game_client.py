"""The client that made each game.

``games`` gains ``client``: the address of the client that created the game (or asked for
it as a rematch), as the rate limits count it (an IPv4 address, an IPv6 ``/64``). The lobby
lists a bounded number of one client's games, and the computer's moves in a game with no
person left are charged to it after a restart. Games stored before this migration have
none (null).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.add_column(sa.Column("client", sa.String(64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as games:
        games.drop_column("client")
