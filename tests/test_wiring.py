"""The wiring (server/wiring.py), the server's settings (server/settings.py) and a table's policy
(server/authority/policy.py): what the authority is given, and what a table may do, survive a reload."""

from __future__ import annotations

from pathlib import Path

import pytest

from cuarenta import Rules
from cuarenta.server.authority.core import Authority
from cuarenta.server.authority.errors import TableError
from cuarenta.server.authority.model import DEFAULT_MAX_ROOMS, TableOptions
from cuarenta.server.authority.policy import TablePolicies, TablePolicy
from cuarenta.server.championships import Championships
from cuarenta.server.ratings.rating import StoreRatings
from cuarenta.server.settings import ServerSettings
from cuarenta.server.store import Store
from cuarenta.server.thinking import make_thinking
from cuarenta.server.wiring import TableRooms, build_authority


@pytest.fixture
def store(tmp_path: Path) -> Store:
    opened = Store.in_dir(tmp_path)
    yield opened  # type: ignore[misc]
    opened.close()


def test_one_process_is_an_authority_with_the_stores_ratings(store: Store) -> None:
    authority = build_authority(store, ServerSettings(bot_delay=0.25, workers=0, max_rooms=9))
    assert type(authority) is Authority and isinstance(authority, TableRooms)
    assert authority.bot_delay == 0.25 and authority.max_rooms == 9
    assert isinstance(authority.ratings, StoreRatings)
    assert authority.policies.default.rated_by is authority.ratings  # an ordinary rated table: the store
    assert build_authority(store, ServerSettings(workers=0)).max_rooms == DEFAULT_MAX_ROOMS


def test_the_settings_refuse_what_cannot_run() -> None:
    with pytest.raises(ValueError, match="bot_delay"):
        ServerSettings(bot_delay=-1)
    with pytest.raises(ValueError, match="max_rooms"):
        ServerSettings(max_rooms=0)
    with pytest.raises(ValueError, match="PostgreSQL"):
        ServerSettings(redis="redis://localhost:6379/0", database="sqlite:///x.db")
    settings = ServerSettings(allow_origins=["https://a.example"], server_names=["a.example"])  # type: ignore[arg-type]
    assert settings.allow_origins == ("https://a.example",) and settings.server_names == ("a.example",)
    ServerSettings(redis="redis://localhost:6379/0", database="postgresql+psycopg://u@h/db")


def test_the_keyword_options_are_the_settings_fields() -> None:
    """``create_app``'s keyword options (``SettingsOptions``, beside ``bot_delay`` and ``workers``) are
    the fields of ``ServerSettings``, every one: a new setting is a keyword of ``create_app`` at once."""
    import dataclasses

    from cuarenta.server.settings import SettingsOptions

    fields = {f.name for f in dataclasses.fields(ServerSettings)}
    assert set(SettingsOptions.__annotations__) | {"bot_delay", "workers"} == fields
    made = ServerSettings.of(0, 2, max_rooms=0, node=None, server_names=iter(["a.example"]))
    assert made == ServerSettings(bot_delay=0, workers=2, server_names=("a.example",))
    with pytest.raises(TypeError):
        ServerSettings.of(no_such_option=1)  # type: ignore[call-arg]


def test_cluster_rooms_still_builds_a_node_and_warns(store: Store) -> None:
    from redis.asyncio import Redis

    from cuarenta.server.cluster import ClusterRooms, RedisBus

    client = Redis.from_url("redis://localhost:1/0")  # never connected: nothing is opened here
    with pytest.warns(DeprecationWarning, match="build_authority"):
        node = ClusterRooms(store, bot_delay=0, redis=client, node="n9", max_rooms=3)
    assert type(node) is Authority and isinstance(node.bus, RedisBus)
    assert node.bus.node == "n9" and node.max_rooms == 3 and isinstance(node.ratings, StoreRatings)


def partida(authority: Authority, policy: TablePolicy | None = None) -> str:
    room, _ = authority.open_partida(
        rules=Rules.preset("a_todo_rigor", players=4),
        seats=["open", "open", "open", "open"],
        names=["A1", "B1", "A2", "B2"],
        seed=77,
        clock=None,
        championship="c1",
        partida="r1t1",
        policy=policy,
    )
    return room.id


def test_a_tables_policy_comes_back_when_it_is_read_again(store: Store) -> None:
    """Given when the table is made; derived again from its stored options once it left memory."""
    judged = TablePolicy(rematch=False, judged=True, reserved=True, keeps_seed=True)
    policies = TablePolicies()
    policies.add(lambda options: judged if options.championship == "c1" else None)
    authority = Authority(store, bot_delay=0, thinking=make_thinking(0), policies=policies)
    room_id = partida(authority, judged)
    assert authority.policy(authority.table(room_id)) is judged
    authority.max_rooms = 1
    other, _ = authority.create(rules=Rules(), level="facil")
    assert authority.room_in_memory(room_id) is None  # evicted: its policy forgotten with it
    again = authority.table(room_id)
    assert again is not other and authority.policy(again) is judged  # derived from the stored options
    with pytest.raises(TableError) as refused:  # a reserved seat is not taken with the invite
        authority.join_table(room_id, invite=again.table.invite if again.table else "", name="X")
    assert refused.value.code == "championship_seat"


def test_without_its_rule_a_table_has_the_default_policy(store: Store) -> None:
    """The authority itself knows no championship: a table whose service registered no rule is an
    ordinary table (no judge: set_paused refuses it)."""
    authority = Authority(store, bot_delay=0, thinking=make_thinking(0))
    room_id = partida(authority)
    room = authority.table(room_id)
    assert authority.policy(room) == TablePolicy()
    with pytest.raises(TableError) as refused:
        authority.set_paused(room_id, True, "lunch")
    assert refused.value.code == "not_championship" and not authority.table(room_id).paused


def test_the_championships_service_gives_its_tables_its_policy(store: Store) -> None:
    authority = build_authority(store, ServerSettings(bot_delay=0, workers=0))
    service = Championships(authority, store)
    room_id = partida(authority, service.table_policy)
    policy = authority.policy(authority.table(room_id))
    assert policy is service.table_policy
    assert not policy.rematch and policy.judged and policy.reserved and policy.keeps_seed
    ordinary = TableOptions(invite="x")
    assert authority.policies(ordinary) is authority.policies.default
    authority.set_paused(room_id, True, "lunch")  # a judged table: its judge pauses it
    assert authority.table(room_id).paused
