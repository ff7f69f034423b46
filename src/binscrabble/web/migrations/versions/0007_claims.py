"""Claims on the work several server processes share.

``claims`` has one row a piece of work one process took on: the computer's moves of a game
(``kind`` ``computer``), settling a clock that ran out (``clock``) or a game's analysis
(``analysis``); ``owner`` names the process (its storage's origin) and ``expires`` (ms since
the Unix epoch) ends its lease unless the owner renews it. Another process takes a piece of
work only when nobody holds it or its lease expired (the owner died). The analysis' turns
are stored in ``analysed`` as they are done, so that every process answers with them and
the process that takes over a dead one's analysis goes on from the turns done.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "claims",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("kind", sa.String(16), primary_key=True),
        sa.Column("owner", sa.String(32), nullable=False),
        sa.Column("expires", sa.BigInteger, nullable=False),
    )
    op.create_index("claims_owner", "claims", ["owner"])
    op.create_table(
        "analysed",
        sa.Column("game_id", sa.String(32), primary_key=True),
        sa.Column("turn", sa.Integer, primary_key=True),
        sa.Column("facts", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("analysed")
    op.drop_index("claims_owner", "claims")
    op.drop_table("claims")
