// Protocol version 2 of the socket (docs/protocol.md, "Version 2"): the page joins (or watches) with
// `"v": 2` and is sent one `snapshot`, then one `event` per change of the table (only what changed), and
// after a reconnect with `since` the events it missed followed by `resumed`. A Wire applies them and hands
// the rest of the page, for each, the version-1 `state` message they add up to (with that change's
// `events`), so that nothing else of the page changes: the queue, the table, the presence read the same
// messages as before. The other messages (`table`, `pace`, `reaction`, `error`, `pong`) pass through.
//
//   const wire = new Wire();
//   wire.receive({type: "snapshot", version: 17, ...})  // → [{type: "state", state: 17, ...}]
//   wire.receive({type: "event", base: 17, version: 18, ...})  // → [{type: "state", state: 18, ...}]
//   wire.version  // 18: the `since` of the next join

/** The fields of a snapshot a version-1 `state` has as they are. */
const SNAPSHOT_FIELDS = ["room", "mesa", "seat", "seats", "status", "table", "event_count"];
/** The fields an event or `resumed` carries when they changed (each with its whole new value). */
const CHANGED_FIELDS = ["mesa", "seats", "status", "table", "event_count"];

export class Wire {
  constructor() {
    /** the version-1 `state` (without `events`) the frames applied so far add up to, or null */
    this.held = null;
    /** while a join with `since` is answered: the events replayed so far (shown at once on `resumed`) */
    this.replayed = null;
  }

  /** The last version applied (the `since` of a reconnect), or null before a snapshot. */
  get version() {
    return this.held ? this.held.state : null;
  }

  /** The room of the state held, or null. */
  get room() {
    return this.held ? this.held.room : null;
  }

  /** A join or watch with `since` was sent: the events replayed before `resumed` make one message, as
   * version 1's answer to such a join did (the queue shows them as it shows a move). */
  expectReplay() {
    this.replayed = [];
  }

  /** The messages a frame from the server means to the page (version-1 shapes), in order; a frame
   * that does not follow the state held (a version skipped) gives `{type: "resync"}`: join again
   * without `since`. */
  receive(frame) {
    switch (frame.type) {
      case "snapshot":
        return [this.snapshot(frame)];
      case "event":
        return this.event(frame);
      case "resumed":
        return this.resumed(frame);
      case "table":
        if (this.held) Object.assign(this.held, { seats: frame.seats, status: frame.status, table: frame.table });
        return [frame];
      case "error":
        if (this.replayed) {
          // the join was refused; a `since` the server never had (it restarted) asks for a snapshot
          this.replayed = null;
          if (frame.code === "bad_message" && this.held) {
            this.held = null;
            return [{ type: "resync" }];
          }
        }
        return [frame];
      default:
        return [frame];
    }
  }

  snapshot(frame) {
    const held = { room: frame.room, state: frame.version, view: structuredClone(frame.view) };
    for (const key of SNAPSHOT_FIELDS) if (key in frame) held[key] = structuredClone(frame[key]);
    held.view.hand = [];
    this.held = held;
    this.replayed = null;
    this.applyPrivate(frame.private);
    return this.message(frame.events || []);
  }

  event(frame) {
    const held = this.held;
    if (!held || frame.base !== held.state) {
      this.held = null;
      this.replayed = null;
      return [{ type: "resync" }];
    }
    held.state = frame.version;
    for (const key of CHANGED_FIELDS) if (frame[key] !== undefined && frame[key] !== null) held[key] = structuredClone(frame[key]);
    const view = held.view;
    Object.assign(view, structuredClone(frame.view || {}));
    const events = frame.events || [];
    const history = [...(view.history || []), ...events];
    view.history = frame.history ? history.slice(-frame.history) : [];
    if (frame.private !== undefined) this.applyPrivate(frame.private);
    if (this.replayed) {
      // a new mesa's event carries all of its events
      this.replayed = frame.mesa !== undefined && frame.mesa !== null ? [...events] : [...this.replayed, ...events];
      return [];
    }
    return [this.message(events)];
  }

  resumed(frame) {
    const held = this.held;
    if (!held) return [{ type: "resync" }];
    held.state = frame.version;
    for (const key of CHANGED_FIELDS) if (key in frame) held[key] = structuredClone(frame[key]);
    this.applyPrivate(frame.private);
    const events = this.replayed || [];
    this.replayed = null;
    return [this.message(events)];
  }

  /** A seat's private part (null: a spectator, who has no moves). */
  applyPrivate(part) {
    const held = this.held;
    if (part === null || part === undefined) {
      Object.assign(held, { legal: [], moves: [], hints: [] });
      return;
    }
    held.legal = part.legal || [];
    held.moves = part.moves || [];
    if (part.hints !== undefined) held.hints = part.hints;
    if (part.hand !== undefined) held.view.hand = part.hand;
  }

  /** The version-1 `state` message of the state held, with `events`: a copy the page may keep. */
  message(events) {
    return { type: "state", v: 2, ...structuredClone(this.held), events };
  }
}
