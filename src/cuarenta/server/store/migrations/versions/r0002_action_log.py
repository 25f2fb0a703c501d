"""The action log: one row per action instead of the whole game rewritten after every move.

- new table ``actions`` (room, mesa, seq, prev, action, at): primary key (room, mesa, seq), and a
  composite foreign key (room, mesa, prev) → (room, mesa, seq) with ``CHECK`` prev = seq - 1 (NULL for
  seq 1), so the database refuses a duplicate and an out-of-order row;
- new table ``legacy_games``: the saved game of a room this upgrade could not turn into a log, kept with
  the reason (the room is reported as corrupt when opened, never dropped);
- new columns ``rooms.practice``, ``rooms.mesa_state`` (the state counter when the current mesa began)
  and ``finished.practice``;
- every room's ``game`` (``Game.to_json()`` of its current mesa) is replayed, checked against the room
  (rules, the mesa's seed, the state counter) and written as action rows; then ``rooms.game`` is dropped.
  Finished mesas keep their rows as they are.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import hashlib
import json

import sqlalchemy as sa
from alembic import op

from cuarenta.game import Game
from cuarenta.rules import Rules

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# the tables as this revision reads and writes them (frozen here: later revisions may change them)
_rooms = sa.table(
    "rooms",
    sa.column("id", sa.Text),
    sa.column("updated", sa.Text),
    sa.column("rules", sa.Text),
    sa.column("seed", sa.Text),
    sa.column("mesa", sa.Integer),
    sa.column("state", sa.Integer),
    sa.column("game", sa.Text),
    sa.column("mesa_state", sa.Integer),
)
_actions = sa.table(
    "actions",
    sa.column("room", sa.Text),
    sa.column("mesa", sa.Integer),
    sa.column("seq", sa.Integer),
    sa.column("prev", sa.Integer),
    sa.column("action", sa.Text),
    sa.column("at", sa.Text),
)
_legacy = sa.table(
    "legacy_games", sa.column("room", sa.Text), sa.column("game", sa.Text), sa.column("problem", sa.Text)
)


def upgrade() -> None:
    op.create_table(
        "actions",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("mesa", sa.Integer, primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True),
        sa.Column("prev", sa.Integer),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("at", sa.Text, nullable=False),
        sa.ForeignKeyConstraint(
            ["room", "mesa", "prev"],
            ["actions.room", "actions.mesa", "actions.seq"],
            name="actions_in_order",
        ),
        sa.CheckConstraint("(seq = 1 AND prev IS NULL) OR (seq > 1 AND prev = seq - 1)", name="actions_prev"),
    )
    op.create_table(
        "legacy_games",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.id"), primary_key=True),
        sa.Column("game", sa.Text, nullable=False),
        sa.Column("problem", sa.Text, nullable=False),
    )
    op.add_column("rooms", sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()))
    op.add_column("rooms", sa.Column("mesa_state", sa.Integer, nullable=False, server_default=sa.text("0")))
    op.add_column("finished", sa.Column("practice", sa.Boolean, nullable=False, server_default=sa.false()))
    _convert_saved_games(op.get_bind())
    op.drop_column("rooms", "game")


def _convert_saved_games(conn: sa.Connection) -> None:
    """Every room's saved game becomes its current mesa's action rows (or a ``legacy_games`` row)."""
    ids = [str(i) for i in conn.execute(sa.select(_rooms.c.id).order_by(_rooms.c.id)).scalars()]
    for room_id in ids:
        row = conn.execute(
            sa.select(
                _rooms.c.updated, _rooms.c.rules, _rooms.c.seed, _rooms.c.mesa, _rooms.c.state, _rooms.c.game
            ).where(_rooms.c.id == room_id)
        ).one()
        try:
            actions = saved_actions(row.rules, row.seed, row.mesa, row.state, row.game)
        except (ValueError, TypeError, KeyError) as exc:  # the engine's errors are ValueErrors
            problem = (
                f"its saved game could not be turned into an action log when the database was upgraded: {exc}"
            )
            conn.execute(sa.insert(_legacy).values(room=room_id, game=str(row.game), problem=problem))
            conn.execute(sa.update(_rooms).where(_rooms.c.id == room_id).values(mesa_state=row.state))
            continue
        if actions:
            conn.execute(
                sa.insert(_actions),
                [
                    {
                        "room": room_id,
                        "mesa": row.mesa,
                        "seq": seq,
                        "prev": seq - 1 if seq > 1 else None,
                        "action": action,
                        "at": row.updated,
                    }
                    for seq, action in enumerate(actions, start=1)
                ],
            )
        conn.execute(
            sa.update(_rooms).where(_rooms.c.id == room_id).values(mesa_state=row.state - len(actions))
        )


def mesa_seed(room_seed: int | str, mesa: int) -> int:
    """The seed of mesa ``mesa`` of a room, as the server derived it when this migration was written (a copy
    of :func:`cuarenta.server.authority.model.mesa_seed`: a migration does not follow the server's code).

    >>> mesa_seed(7, 1) == mesa_seed(7, 1) != mesa_seed(7, 2)
    True
    """
    digest = hashlib.sha256(f"cuarenta-room/{room_seed}/mesa/{mesa}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def saved_actions(rules_json: str, seed_json: str, mesa: object, state: object, game_json: str) -> list[str]:
    """The actions of a room's saved game, checked as resuming the room will check them; ValueError if not.

    The game must load (``Game.from_json`` replays it and compares the saved state), be dealt from the
    room's rules and the mesa's seed, replay from ``Game.new`` to the same state, and fit the room's
    state counter (at least one count per earlier mesa before this mesa's actions).
    """
    rules = Rules.from_dict(json.loads(rules_json))
    seed = json.loads(seed_json)
    if not isinstance(seed, int | str) or isinstance(seed, bool):
        raise ValueError(f"the room seed {seed!r} is not a number or text")
    if not isinstance(mesa, int) or isinstance(mesa, bool) or mesa < 1:
        raise ValueError(f"mesa {mesa!r} is not a mesa number")
    if not isinstance(state, int) or isinstance(state, bool):
        raise ValueError(f"state {state!r} is not a count")
    game = Game.from_json(game_json)
    if game.rules != rules:
        raise ValueError("the saved game's rules differ from the room's")
    if game.seed != mesa_seed(seed, mesa):
        raise ValueError(f"the saved game is not mesa {mesa} of the room (another seed)")
    actions = [str(a) for a in game.actions]
    again = Game.replay(rules, mesa_seed(seed, mesa), actions)
    if again.state_summary() != game.state_summary():
        raise ValueError("the saved game's actions do not replay to the saved game")
    if state - len(actions) < mesa - 1:
        raise ValueError(
            f"state {state} is less than the {len(actions)} actions of mesa {mesa} and its start"
        )
    return actions


def downgrade() -> None:
    raise NotImplementedError("cuarenta's migrations go forward only: restore a backup to go back")
