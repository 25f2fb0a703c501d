"""Taking a seat back from another device (docs/tables.md, "Taking a seat back").

New columns of ``seats``:

- ``code_hash``: the hash of a person's seat code (``cuarenta.server.authority.codes``), ``NULL`` for the
  seats taken before this revision (their holder may ask for a code: ``POST /api/tables/{room}/code``);
- ``former_hash`` and ``former``: the hash of the seat's last token that was replaced, and why
  (``reclaimed``: the person took the seat back with the code; ``handed``: the creator gave it to someone
  new), so that the old token is told so rather than "unknown";
- ``vacant``: a seat the creator handed over, which the computer plays until someone new takes it
  (``false`` for every existing seat).

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
    op.add_column("seats", sa.Column("code_hash", sa.Text))
    op.add_column("seats", sa.Column("former_hash", sa.Text))
    op.add_column("seats", sa.Column("former", sa.Text))
    op.add_column("seats", sa.Column("vacant", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("vacant")
        batch.drop_column("former")
        batch.drop_column("former_hash")
        batch.drop_column("code_hash")
