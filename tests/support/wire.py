"""A version-2 client for the tests (docs/protocol.md, "Version 2"): it holds the version-1 ``state`` its
frames add up to, so that a test compares it with what a version-1 socket was sent."""

from __future__ import annotations

import copy
from typing import Any


class Reducer:
    """A version-2 client: applies snapshot, events, ``resumed`` and ``table`` messages; ``states`` holds,
    by version, the version-1 ``state`` (without ``events``) it has reached there (the last it held at
    that version, ``table`` messages included). ``keep=False`` keeps no ``states`` (a long run, a bench:
    only ``state``, the one it holds now)."""

    def __init__(self, *, keep: bool = True) -> None:
        self.state: dict[str, Any] = {}
        self.states: dict[int, dict[str, Any]] = {}
        self.keep = keep

    def _private(self, private: dict[str, Any] | None) -> None:
        s = self.state
        if private is None:  # a spectator
            s["legal"], s["moves"], s["hints"] = [], [], []
            return
        s["legal"], s["moves"] = private["legal"], private["moves"]
        if "hints" in private:
            s["hints"] = private["hints"]
        if "hand" in private:
            s["view"]["hand"] = private["hand"]

    def apply(self, frame: dict[str, Any]) -> None:
        kind = frame["type"]
        s = self.state
        if kind == "snapshot":
            self.state = s = {
                k: copy.deepcopy(frame[k]) for k in ("room", "mesa", "seat", "seats", "view", "status")
            }
            for k in ("table", "event_count"):
                if k in frame:
                    s[k] = frame[k]
            s["state"] = frame["version"]
            s["view"]["hand"] = []
            self._private(frame["private"])
        elif kind == "event":
            assert frame["base"] == s["state"], (frame["base"], s["state"])
            s["state"] = frame["version"]
            for k in ("mesa", "seats", "status", "table", "event_count"):
                if k in frame:
                    s[k] = frame[k]
            view = s["view"]
            view.update(copy.deepcopy(frame["view"]))
            history = view["history"] + frame["events"]
            view["history"] = history[-frame["history"] :] if frame["history"] else []
            # a replayed event (after a join with since) has no private part: the moves held are of an
            # older version, so nothing may be played from them until ``resumed`` says what is (a client
            # that played one was refused illegal_move and stood still: issue 25, item 17)
            self._private(frame.get("private", {"legal": [], "moves": []}))
        elif kind == "resumed":
            s["state"] = frame["version"]
            for k in ("seats", "status", "table", "event_count"):
                if k in frame:
                    s[k] = frame[k]
            self._private(frame["private"])
        elif kind == "table":
            s["seats"], s["status"], s["table"] = frame["seats"], frame["status"], frame["table"]
        else:
            return
        if self.keep:
            self.states[s["state"]] = copy.deepcopy(s)


def v1_states(frames: list[dict[str, Any]], hints: bool = True) -> dict[int, dict[str, Any]]:
    """What a version-1 socket was told, by state number: the last ``state`` at each with the ``table``
    messages after it applied, without what differs by design: ``v``, ``type``, ``events`` (and
    ``hints`` for a version-2 socket that did not ask)."""
    out: dict[int, dict[str, Any]] = {}
    last: dict[str, Any] | None = None
    for m in frames:
        if m["type"] == "state":
            drop = ("v", "type", "events") if hints else ("v", "type", "events", "hints")
            last = {k: v for k, v in m.items() if k not in drop}
            out[m["state"]] = last
        elif m["type"] == "table" and last is not None:
            last.update(seats=m["seats"], status=m["status"], table=m["table"])
    return out


__all__ = ["Reducer", "v1_states"]
