// Protocol version 2 of the socket (docs/protocol.md, "Version 2"), the only one the page speaks: the page
// joins (or watches) with `"v": 2` and is sent one `snapshot`, then one `event` per change of the table
// (only what changed), and after a reconnect with `since` the events it missed followed by `resumed`. A
// Wire holds the version-2 state those frames add up to — `room`, `version`, `mesa`, `seat`, `seats`,
// `view` (what everyone at the seat may see: no hand), `status`, `table`, `event_count` and the seat's
// `private` part (`{hand, legal, moves, hints}`; null for a spectator) — and hands the rest of the page,
// for each change, an `update`: that state with the change's `events`. The other messages (`table`,
// `pace`, `reaction`, `error`, `pong`) pass through.
//
//   const wire = new Wire();
//   wire.receive({type: "snapshot", version: 17, ...})  // → [{type: "update", version: 17, events, ...}]
//   wire.receive({type: "event", base: 17, version: 18, ...})  // → [{type: "update", version: 18, ...}]
//   wire.version  // 18: the `since` of the next join

/** The fields of a snapshot the state holds as they are. */
const SNAPSHOT_FIELDS = ["room", "version", "mesa", "seat", "seats", "status", "table", "event_count"];
/** The fields an event or `resumed` carries when they changed (each with its whole new value). */
const CHANGED_FIELDS = ["mesa", "seats", "status", "table", "event_count"];
/** A seat's private part before the frames said it (a spectator has none). */
const NO_PRIVATE = Object.freeze({ hand: [], legal: [], moves: [], hints: [] });

/** The private part of an `update` (or of the state held): a spectator's is empty. */
export function own(state) {
  return state?.private ?? NO_PRIVATE;
}

export class Wire {
  constructor() {
    /** the version-2 state (without `events`) the frames applied so far add up to, or null */
    this.held = null;
    /** while a join with `since` is answered: the events replayed so far (shown at once on `resumed`) */
    this.replayed = null;
  }

  /** The last version applied (the `since` of a reconnect), or null before a snapshot. */
  get version() {
    return this.held ? this.held.version : null;
  }

  /** The room of the state held, or null. */
  get room() {
    return this.held ? this.held.room : null;
  }

  /** A join or watch with `since` was sent: the events replayed before `resumed` make one update (the
   * queue shows them as it shows a move). */
  expectReplay() {
    this.replayed = [];
  }

  /** The messages a frame from the server means to the page, in order; a frame that does not follow the
   * state held (a version skipped) gives `{type: "resync"}`: join again without `since`. */
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
    const held = { view: structuredClone(frame.view), private: null };
    for (const key of SNAPSHOT_FIELDS) if (key in frame) held[key] = structuredClone(frame[key]);
    delete held.view.hand; // the seat's hand is its private part's
    this.held = held;
    this.replayed = null;
    this.applyPrivate(frame.private);
    return this.update(frame.events || []);
  }

  event(frame) {
    const held = this.held;
    if (!held || frame.base !== held.version) {
      this.held = null;
      this.replayed = null;
      return [{ type: "resync" }];
    }
    held.version = frame.version;
    for (const key of CHANGED_FIELDS) if (frame[key] !== undefined && frame[key] !== null) held[key] = structuredClone(frame[key]);
    const view = held.view;
    Object.assign(view, structuredClone(frame.view || {}));
    delete view.hand;
    const events = frame.events || [];
    const history = [...(view.history || []), ...events];
    view.history = frame.history ? history.slice(-frame.history) : [];
    if (frame.private !== undefined) this.applyPrivate(frame.private);
    if (this.replayed) {
      // a new mesa's event carries all of its events
      this.replayed = frame.mesa !== undefined && frame.mesa !== null ? [...events] : [...this.replayed, ...events];
      return [];
    }
    return [this.update(events)];
  }

  resumed(frame) {
    const held = this.held;
    if (!held) return [{ type: "resync" }];
    held.version = frame.version;
    for (const key of CHANGED_FIELDS) if (key in frame) held[key] = structuredClone(frame[key]);
    this.applyPrivate(frame.private);
    const events = this.replayed || [];
    this.replayed = null;
    return [this.update(events)];
  }

  /** A seat's private part as a frame says it (null: a spectator, who has none); a part without `hand`
   * or `hints` keeps the ones held. */
  applyPrivate(part) {
    const held = this.held;
    if (part === null || part === undefined) {
      held.private = null;
      return;
    }
    const before = held.private ?? NO_PRIVATE;
    held.private = {
      hand: structuredClone(part.hand ?? before.hand),
      legal: structuredClone(part.legal ?? []),
      moves: structuredClone(part.moves ?? []),
      hints: structuredClone(part.hints ?? before.hints),
    };
  }

  /** The `update` of the state held, with `events`: a copy the page may keep. */
  update(events) {
    return { type: "update", ...structuredClone(this.held), events };
  }
}
