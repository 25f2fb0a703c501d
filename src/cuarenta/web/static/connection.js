// The WebSocket, transport only: open it, reopen it with growing pauses when it drops, ping it, send a
// message (with the protocol's version), and hand every message received to the caller. What to send
// and what a message means are the caller's (session.js, moves.js).

/** The protocol version the page speaks (docs/protocol.md, "Version 2"; wire.js applies its frames). */
export const PROTOCOL = 2;

export class Connection {
  /**
   * @param {string} room the room, in the socket's address only for a cluster's proxy (docs/scaling.md):
   *   the server reads the room from the join message, never from here
   * @param {{open: () => void, message: (msg: object) => void, state: (what: "open" | "lost") => void}} on
   */
  constructor(room, on) {
    this.room = room;
    this.on = on;
    this.closed = false;
    this.retry = 0;
    this.ws = null;
    this.timer = null;
    this.pinger = null;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const base = location.pathname.replace(/[^/]*$/, "");
    let ws;
    try {
      ws = new WebSocket(`${scheme}://${location.host}${base}ws?room=${encodeURIComponent(this.room ?? "")}`);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.on.state("open");
      this.on.open();
      this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
    });
    ws.addEventListener("message", (ev) => {
      let msg;
      try {
        msg = JSON.parse(ev.data);
      } catch {
        return;
      }
      if (msg && typeof msg === "object") this.on.message(msg);
    });
    ws.addEventListener("close", () => {
      clearInterval(this.pinger);
      if (this.ws !== ws) return;
      this.ws = null;
      if (!this.closed) {
        this.scheduleReconnect();
        this.on.state("lost");
      }
    });
  }

  scheduleReconnect() {
    if (this.closed) return;
    const delay = Math.min(10000, 500 * 2 ** this.retry);
    this.retry += 1;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Send `obj` (with `v`); false when the socket is not open. */
  send(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: PROTOCOL, ...obj }));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
