"""A heartbeat row per server process, marked as the process stops.

- ``heartbeat`` had one row for every process (``id`` 1); it now has one a process:
  ``process`` (the process's ``Storage.origin``), ``at`` (when it last said it was alive,
  ms since the Unix epoch) and ``stopped`` (true once it stopped cleanly, ``at`` then the
  moment of its stop). A process that starts on a shared database (PostgreSQL) stores the
  time since the newest heartbeat as a pause when no other process is alive (a row not
  stopped and younger than ``ALIVE_MS``), so a lone process restarted at once after its
  stop loses no time to the restart. The old row is kept as that of a process that never
  stopped (the row does not say whether it did): the first start after the migration
  judges it as before, and a later start deletes it.
- The downgrade keeps the newest heartbeat as the one row.

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

#: The ``process`` of the row carried over from the one heartbeat of before (no process's
#: ``origin``, which are 16 hexadecimal digits).
CARRIED = "before 0010"


def upgrade() -> None:
    last = op.get_bind().execute(sa.text("SELECT MAX(at) FROM heartbeat")).scalar()
    op.drop_table("heartbeat")
    heartbeat = op.create_table(
        "heartbeat",
        sa.Column("process", sa.String(32), primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
        sa.Column("stopped", sa.Boolean, nullable=False, server_default=sa.false()),
    )
    if last is not None:
        op.bulk_insert(heartbeat, [{"process": CARRIED, "at": int(last), "stopped": False}])


def downgrade() -> None:
    last = op.get_bind().execute(sa.text("SELECT MAX(at) FROM heartbeat")).scalar()
    op.drop_table("heartbeat")
    heartbeat = op.create_table(
        "heartbeat",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("at", sa.BigInteger, nullable=False),
    )
    if last is not None:
        op.bulk_insert(heartbeat, [{"id": 1, "at": int(last)}])
