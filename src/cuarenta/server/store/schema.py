"""The tables the code reads and writes, on one :data:`metadata` (made by the migrations in
``migrations/versions``; ``tests/test_store.py`` compares the migrated schema with these, so a migration
that forgets a column fails there). docs/storage.md "Schema" describes each column.

>>> [name in metadata.tables for name in ('rooms', 'seats', 'actions', 'finished', 'profiles')]
[True, True, True, True, True]
"""

from __future__ import annotations

from typing import Final

import sqlalchemy as sa

# -- the schema the code reads and writes (made by the migrations; a test compares the two) -----------------
metadata: Final = sa.MetaData()

rooms_table: Final = sa.Table(
    "rooms",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("level", sa.Text, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("mesa", sa.Integer, nullable=False),
    sa.Column("state", sa.Integer, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("mesa_state", sa.Integer, nullable=False, server_default=sa.text("0")),
    sa.Column("table_options", sa.Text),
    sa.Column("started", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),
    # the deal of the day's rooms, found by their seed (migration 0010; docs/daily.md)
    sa.Index("rooms_by_seed", "seed"),
)

seats_table: Final = sa.Table(
    "seats",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("level", sa.Text),
    sa.Column("token_hash", sa.Text),
    sa.Column("profile", sa.Text),
    sa.Column("left", sa.Boolean, nullable=False, server_default=sa.false()),
    # taking a seat back (migration 0007; docs/tables.md "Taking a seat back")
    sa.Column("code_hash", sa.Text),
    sa.Column("former_hash", sa.Text),
    sa.Column("former", sa.Text),
    sa.Column("vacant", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("seats_by_token", "token_hash"),
)

finished_table: Final = sa.Table(
    "finished",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("mesa", sa.Integer, primary_key=True),
    sa.Column("finished", sa.Text, nullable=False),
    sa.Column("level", sa.Text, nullable=False),
    sa.Column("players", sa.Integer, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),
    sa.Column("person_team", sa.Integer, nullable=False),
    sa.Column("winner", sa.Integer, nullable=False),
    sa.Column("chicas", sa.Text, nullable=False),
    sa.Column("chica_results", sa.Text, nullable=False),
    sa.Column("caidas", sa.Integer, nullable=False),
    sa.Column("limpias", sa.Integer, nullable=False),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("team_counts", sa.Text),
)

actions_table: Final = sa.Table(
    "actions",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("mesa", sa.Integer, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("prev", sa.Integer),
    sa.Column("action", sa.Text, nullable=False),
    sa.Column("at", sa.Text, nullable=False),
    sa.ForeignKeyConstraint(
        ["room", "mesa", "prev"], ["actions.room", "actions.mesa", "actions.seq"], name="actions_in_order"
    ),
    sa.CheckConstraint("(seq = 1 AND prev IS NULL) OR (seq > 1 AND prev = seq - 1)", name="actions_prev"),
)

legacy_table: Final = sa.Table(
    "legacy_games",
    metadata,
    sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
    sa.Column("game", sa.Text, nullable=False),
    sa.Column("problem", sa.Text, nullable=False),
)

# -- profiles and ratings (migration 0004; docs/tables.md "Profiles and ratings") ----------------------
profiles_table: Final = sa.Table(
    "profiles",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("key_hash", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
)

ratings_table: Final = sa.Table(
    "ratings",
    metadata,
    sa.Column("profile", sa.Text, sa.ForeignKey("profiles.id"), primary_key=True),
    sa.Column("mode", sa.Text, primary_key=True),
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("wins", sa.Integer, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    #: different opponents in rated mesas of the mode (migration 0006)
    sa.Column("opponents", sa.Integer, nullable=False, server_default=sa.text("0")),
)

rated_mesas_table: Final = sa.Table(
    "rated_mesas",
    metadata,
    sa.Column("room", sa.Text, primary_key=True),
    sa.Column("mesa", sa.Integer, primary_key=True),
    sa.Column("mode", sa.Text, nullable=False),
    sa.Column("finished", sa.Text, nullable=False),
    sa.Column("teams", sa.Text, nullable=False),  #: JSON [[ids of team 0], [ids of team 1]]
    sa.Column("winner", sa.Integer, nullable=False),
    sa.Column("changes", sa.Text, nullable=False),  #: JSON {profile id: change of displayed rating}
    #: why the mesa did not change the ratings (cuarenta.server.ratings.fairplay), NULL when it did
    #: (migration 0006)
    sa.Column("unrated", sa.Text),
)

# -- fair play (migration 0006; cuarenta.server.ratings.fairplay) -------------------------------------------
profile_addresses_table: Final = sa.Table(
    "profile_addresses",
    metadata,
    sa.Column("profile", sa.Text, sa.ForeignKey("profiles.id"), primary_key=True),
    sa.Column("address", sa.Text, primary_key=True),  #: a keyed hash of the client's network
    sa.Column("first_seen", sa.Text, nullable=False),
    sa.Column("last_seen", sa.Text, nullable=False),
    sa.Index("profile_addresses_by_address", "address"),
)

settings_table: Final = sa.Table(
    "settings",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("value", sa.Text, nullable=False),
)

# -- championships (migration 0008; docs/championships.md "Running a championship") -------------------
championships_table: Final = sa.Table(
    "championships",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    sa.Column("name", sa.Text, nullable=False),
    sa.Column("settings", sa.Text, nullable=False),  #: JSON Settings.to_dict()
    sa.Column("secret", sa.Text, nullable=False),  #: the library's secret (a number, as text): never sent
    sa.Column("organiser_hash", sa.Text, nullable=False),
    sa.Column("judge_hash", sa.Text, nullable=False),
    sa.Column("register_hash", sa.Text, nullable=False),
)

championship_actions_table: Final = sa.Table(
    "championship_actions",
    metadata,
    sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),  #: 1, 2 …: appending a seq twice fails (compare-and-set)
    sa.Column("action", sa.Text, nullable=False),  #: JSON action.to_dict()
    sa.Column("at", sa.Text, nullable=False),
)

championship_pairs_table: Final = sa.Table(
    "championship_pairs",
    metadata,
    sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
    sa.Column("pair", sa.Text, primary_key=True),
    sa.Column("token_hash", sa.Text),  #: NULL for a computer pair
    sa.Column("computer", sa.Text),  #: a computer pair's level, else NULL
)

championship_tables_table: Final = sa.Table(
    "championship_tables",
    metadata,
    sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
    sa.Column("partida", sa.Text, primary_key=True),
    sa.Column("room", sa.Text, nullable=False),
    sa.Column("opened", sa.Text, nullable=False),
)

hall_entries_table: Final = sa.Table(
    "hall_entries",
    metadata,
    sa.Column("championship", sa.Text, sa.ForeignKey("championships.id"), primary_key=True),
    sa.Column("partida", sa.Text, primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True),
    sa.Column("entry", sa.Text, nullable=False),  #: JSON entry.to_dict()
)

# -- puzzle ratings and reports (migration 0009; docs/analysis.md "Puzzle ratings") -----------------------
puzzle_ratings_table: Final = sa.Table(
    "puzzle_ratings",
    metadata,
    sa.Column("puzzle", sa.Text, primary_key=True),  #: a shipped puzzle's id; no row: its shipped rating
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("tries", sa.Integer, nullable=False),  #: the rated (first) tries
    sa.Column("solved", sa.Integer, nullable=False),  #: of them, the right ones
    sa.Column("updated", sa.Text, nullable=False),
)

puzzle_solvers_table: Final = sa.Table(
    "puzzle_solvers",
    metadata,
    sa.Column("solver_hash", sa.Text, primary_key=True),  #: SHA-256 of the page's random solver id
    sa.Column("mu", sa.Float, nullable=False),
    sa.Column("sigma", sa.Float, nullable=False),
    sa.Column("tries", sa.Integer, nullable=False),
    sa.Column("solved", sa.Integer, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
)

puzzle_tries_table: Final = sa.Table(
    "puzzle_tries",
    metadata,
    sa.Column("solver_hash", sa.Text, sa.ForeignKey("puzzle_solvers.solver_hash"), primary_key=True),
    sa.Column("puzzle", sa.Text, primary_key=True),  #: one row a solver and puzzle: the first try only
    sa.Column("solved", sa.Boolean, nullable=False),
    sa.Column("at", sa.Text, nullable=False),
)

puzzle_reports_table: Final = sa.Table(
    "puzzle_reports",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("puzzle", sa.Text, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),  #: plain text, at most puzzles.MAX_REASON_CHARS
    sa.Column("at", sa.Text, nullable=False),
    sa.Index("puzzle_reports_by_puzzle", "puzzle"),
)

# -- the deal of the day played offline (migration 0011; docs/daily.md "Offline") ----------------------------
daily_offline_table: Final = sa.Table(
    "daily_offline",
    metadata,
    sa.Column("id", sa.Text, primary_key=True),  #: a random id: the sender's handle on its entry
    sa.Column("day", sa.Text, nullable=False),  #: YYYY-MM-DD (UTC), the day of the record's seed
    sa.Column("name", sa.Text, nullable=False),  #: the person's name in the record ("" for none)
    sa.Column("score0", sa.Integer, nullable=False),  #: the person's points when the chica ended
    sa.Column("score1", sa.Integer, nullable=False),  #: the computer's
    sa.Column("result", sa.Integer, nullable=False),  #: score0 - score1
    sa.Column("received", sa.Text, nullable=False),
    sa.Column("digest", sa.Text, nullable=False, unique=True),  #: SHA-256 of the record: one row a record
    sa.Column("record", sa.Text, nullable=False),  #: the record as sent (checked by replaying it)
    sa.Index("daily_offline_by_day", "day"),
)

#: The columns of ``finished``, in order (a :class:`~cuarenta.server.store.rows.FinishedRow`'s fields).
FINISHED_COLUMNS: Final = tuple(c.name for c in finished_table.columns)

__all__ = [
    "FINISHED_COLUMNS",
    "actions_table",
    "championship_actions_table",
    "championship_pairs_table",
    "championship_tables_table",
    "championships_table",
    "daily_offline_table",
    "finished_table",
    "hall_entries_table",
    "legacy_table",
    "metadata",
    "profiles_table",
    "puzzle_ratings_table",
    "puzzle_reports_table",
    "puzzle_solvers_table",
    "puzzle_tries_table",
    "rated_mesas_table",
    "ratings_table",
    "rooms_table",
    "seats_table",
]
