"""Puzzle ratings that move with the people who try them, and reports of wrong puzzles (issue 29;
docs/analysis.md "Puzzle ratings").

New tables:

- ``puzzle_ratings``: a puzzle's current rating (openskill's mu and sigma) once someone has tried it, with
  its rated tries and how many solved it; a puzzle without a row has its shipped rating;
- ``puzzle_solvers``: each solver's puzzle rating, keyed by the SHA-256 of the random id the page keeps;
- ``puzzle_tries``: the first try of each puzzle by each solver (the primary key makes a second first try
  impossible: only the first moves the ratings);
- ``puzzle_reports``: the reports of wrong puzzles (a short reason each).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle", sa.Text, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated", sa.Text, nullable=False),
    )
    op.create_table(
        "puzzle_solvers",
        sa.Column("solver_hash", sa.Text, primary_key=True),
        sa.Column("mu", sa.Float, nullable=False),
        sa.Column("sigma", sa.Float, nullable=False),
        sa.Column("tries", sa.Integer, nullable=False),
        sa.Column("solved", sa.Integer, nullable=False),
        sa.Column("updated", sa.Text, nullable=False),
    )
    op.create_table(
        "puzzle_tries",
        sa.Column("solver_hash", sa.Text, sa.ForeignKey("puzzle_solvers.solver_hash"), primary_key=True),
        sa.Column("puzzle", sa.Text, primary_key=True),
        sa.Column("solved", sa.Boolean, nullable=False),
        sa.Column("at", sa.Text, nullable=False),
    )
    op.create_table(
        "puzzle_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("puzzle", sa.Text, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("at", sa.Text, nullable=False),
    )
    op.create_index("puzzle_reports_by_puzzle", "puzzle_reports", ["puzzle"])


def downgrade() -> None:
    op.drop_index("puzzle_reports_by_puzzle", table_name="puzzle_reports")
    for name in ("puzzle_reports", "puzzle_tries", "puzzle_solvers", "puzzle_ratings"):
        op.drop_table(name)
