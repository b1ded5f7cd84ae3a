// The table WebSocket (API.md): one socket, reconnects with exponential backoff and resyncs
// from the last version it saw (`?since=` on connect, `{"type":"sync"}` when asked).
// The token never goes in the URL (URLs end up in logs): `?auth=frame` on connect and the
// first frame is `{"type":"auth","token"}`.

import { pageInvite } from "./api.js";

const CLOSE_AUTH = 4401;
const CLOSE_NOT_FOUND = 4404;
const PING_EVERY_MS = 15000;
const SILENCE_LIMIT_MS = 40000;

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{token?: string|null, lang?: (() => string|null)|string|null,
   *          onFrame: (frame: object) => void,
   *          onStatus: (status: string, detail?: object) => void}} handlers
   * `lang` (a value or a function read at each connect) asks the server for each event's
   * readable line (`text`) in that language.
   */
  constructor(tableId, { token = null, lang = null, onFrame, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.lang = lang;
    this.onFrame = onFrame;
    this.onStatus = onStatus;
    this.lastVersion = 0;
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.retryTimer = null;
    this.pingTimer = null;
    this.lastHeard = Date.now();
    this._online = () => this.reconnectNow();
    this._offline = () => this.drop(); // the socket would be half-open: start over when back
    window.addEventListener("online", this._online);
    window.addEventListener("offline", this._offline);
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const params = new URLSearchParams();
    if (this.token) params.set("auth", "frame");
    if (this.lastVersion) params.set("since", String(this.lastVersion));
    const lang = typeof this.lang === "function" ? this.lang() : this.lang;
    if (lang) params.set("lang", lang);
    if (pageInvite) params.set("invite", pageInvite); // a private table's invite link
    const query = params.toString();
    return `${scheme}//${location.host}/api/v1/tables/${encodeURIComponent(this.tableId)}/ws${
      query ? `?${query}` : ""
    }`;
  }

  connect() {
    this.stopped = false;
    clearTimeout(this.retryTimer);
    this.onStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this._scheduleRetry();
      return;
    }
    this.ws = ws;
    const token = this.token;
    ws.onopen = () => {
      if (token) ws.send(JSON.stringify({ type: "auth", token }));
      this.lastHeard = Date.now();
      this.onStatus("open");
      this._startPing();
    };
    ws.onmessage = (message) => {
      this.lastHeard = Date.now();
      let frame;
      try {
        frame = JSON.parse(message.data);
      } catch {
        return;
      }
      if (frame.type === "state") {
        this.attempt = 0;
        if (typeof frame.version === "number") {
          this.lastVersion = Math.max(this.lastVersion, frame.version);
        }
      }
      if (frame.type !== "pong") this.onFrame(frame);
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      this._stopPing();
      if (this.stopped) return;
      if (event.code === CLOSE_AUTH) {
        this.onStatus("unauthorized", { reason: event.reason });
        return;
      }
      if (event.code === CLOSE_NOT_FOUND) {
        this.onStatus("not_found", { reason: event.reason });
        return;
      }
      this._scheduleRetry();
    };
    ws.onerror = () => {
      /* onclose follows and schedules the retry */
    };
  }

  _scheduleRetry() {
    if (this.stopped) return;
    const base = Math.min(15000, 500 * 2 ** this.attempt);
    const delay = Math.round(base * (0.75 + Math.random() * 0.5));
    this.attempt += 1;
    this.onStatus("reconnecting", { delay, attempt: this.attempt });
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), delay);
  }

  _startPing() {
    this._stopPing();
    this.pingTimer = setInterval(() => {
      if (Date.now() - this.lastHeard > SILENCE_LIMIT_MS) {
        this.drop(); // a half-open socket: start over
        return;
      }
      this.send({ type: "ping" });
    }, PING_EVERY_MS);
  }

  _stopPing() {
    clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send one frame; false when the socket is not open. */
  send(frame) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  /** Ask for the current state (and the events missed since our last version). */
  sync() {
    return this.send({ type: "sync", version: this.lastVersion || null });
  }

  /** Close the current socket as if the network dropped it; the backoff reconnects. */
  drop() {
    const ws = this.ws;
    if (!ws) return;
    this.ws = null;
    this._stopPing();
    try {
      ws.close();
    } catch {
      /* already closing */
    }
    this._scheduleRetry();
  }

  /** Reconnect at once (network back, a new identity); keeps lastVersion for the resync. */
  reconnectNow() {
    if (this.stopped) return;
    if (this.isOpen) {
      this.sync();
      return;
    }
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      try {
        ws.close();
      } catch {
        /* ignore */
      }
    }
    this.attempt = Math.max(this.attempt, 1);
    this.connect();
  }

  /** Use a token from now on (a name chosen on this page): re-authenticate the socket. */
  authenticate(token) {
    this.token = token;
    if (!this.send({ type: "auth", token })) this.reconnectNow();
  }

  close() {
    this.stopped = true;
    clearTimeout(this.retryTimer);
    this._stopPing();
    window.removeEventListener("online", this._online);
    window.removeEventListener("offline", this._offline);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
