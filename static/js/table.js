// The table page (/tables/{id}): the same shell for every game. It keeps the table socket,
// the seats, the turn banner, the log and the result; the board is drawn by the game's
// renderer (static/js/games/<game>.js, loaded by name), which offers only legal_actions.
// This file never looks at a game id beyond loading the renderer module and the sheet of that
// name (static/css/<game>.css, scoped under the board: gamestyle.js).

import * as apiMod from "./api.js";
import { identity, checkIdentity, getTable, getLog, listGames, tableUrl, getChat, postChat, getReplay } from "./api.js";
import { postUndo, voteTakeover, takeBack } from "./api.js";
import { h, fill, toast, copyText } from "./dom.js";
import { initI18n, t, currentLang, onLangChange, useGameStrings, renderMessage } from "./i18n.js";
import { showGone, isGone } from "./gone.js";
import { TableSocket } from "./ws.js";
import { mountHeader, stickyNameForm, showError, errorText, seatName, playerName, levelName, levelPicker, gameTitle } from "./common.js";
import { initHints } from "./hints.js";
import { mountEndings } from "./endings.js";
import { animated, frameQueue } from "./motion.js";
import { lastMoves, markLastMoves } from "./lastmove.js";
import { playSound, soundOn, setSound } from "./sound.js";
import { decisionDock } from "./decision.js";
import { rankedEntries, winnerNames, bringIntoView } from "./result.js";
import { installReadable } from "./readable.js";
import { fillFairPanel } from "./fairness.js";
import { logLine } from "./logline.js";
import { useGameStyles, scopeToGame } from "./gamestyle.js";
import { foldPanel, onCompactChange } from "./fold.js";

const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
const inviteFromLink = new URLSearchParams(location.search).get("invite");
const LOG_LIMIT = 400;
const PENDING_TIMEOUT_MS = 10000;
const CLOCK_TICK_MS = 250;
const CLOCK_LOW_SECONDS = 30; // a clock is "low" under 30 s or under 10 % of its full time

const state = {
  table: null,
  game: null, // the game's catalog entry (title, bot_levels), if known
  picture: null,
  renderer: null,
  log: [],
  loggedVersion: 0,
  pending: null, // {id, version, kind: "action" | "undo", timer}
  sent: null, // {id, kind}: the last action or undo frame sent (its answer carries ref = id)
  undo: null, // {version}: my own action was accepted at this version; "Take back" is offered
  clock: null, // the picture's clock plus `offset` (server time − browser time, in seconds)
  conn: "connecting",
  myTurnBefore: false,
  botLevel: null,
  busy: false,
  chat: [], // [{id, player, text, at}], oldest first
  chatLoaded: false,
  replay: null, // GET /replay after the end: the revealed seed secret
};

let socket = null;
let header = null;
const nameFormFor = stickyNameForm((created) => {
  header.redraw();
  socket?.authenticate(created.token);
  render();
});
const board = document.getElementById("board");
// Resign, cancel by agreement, delete, "Play again" (issue 18.3).
const endings = mountEndings({ tableId, state, mySeat, isOwner, status, render });
const dock = decisionDock(board);
// On a phone the log and the chat are one-line summaries that open on a tap (fold.js).
const logFold = foldPanel(document.getElementById("log"), "log");
const chatFold = foldPanel(document.getElementById("chat"), "chat");
const seatsFold = foldPanel(document.getElementById("seats"), "seats");
for (const [folded, list] of [[logFold, "log-list"], [chatFold, "chat-list"]]) {
  folded.details.addEventListener("toggle", () => {
    const el = document.getElementById(list);
    if (folded.details.open) el.scrollTop = el.scrollHeight; // the newest line in sight
  });
}
onCompactChange(() => render()); // the board's parts fold (or unfold) with the screen size

// ------------------------------------------------------------------ helpers

function me() {
  return identity();
}

/** My seat: from the picture when there is one, else from the table's seats. Before the
 *  start only the table says who sits where (a picture from before leaving is stale). */
function mySeat() {
  const open = (state.table?.status || state.picture?.status) === "open";
  if (!open && state.picture && state.picture.seat !== null && state.picture.seat !== undefined) {
    return state.picture.seat;
  }
  const player = me();
  if (!player || !state.table) return null;
  const found = state.table.seats.find((s) => s.player?.id === player.id);
  return found ? found.seat : null;
}

function isOwner() {
  const player = me();
  return Boolean(player && state.table?.owner?.id === player.id);
}

function status() {
  return state.picture?.status || state.table?.status || "loading";
}

/** A bot plays my seat (I was away); I act again after taking the seat back. */
function mySeatTakenOver() {
  const seat = mySeat();
  return seat !== null && Boolean(state.table?.seats?.[seat]?.taken_over);
}

function isMyTurn() {
  const p = state.picture;
  if (!p || p.status !== "playing" || mySeatTakenOver()) return false;
  const seat = p.seat;
  return seat !== null && seat !== undefined && p.to_act.includes(seat) && p.legal_actions.length > 0;
}

function newActionId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function names(seats) {
  return seats.map((s) => seatName(state.table, s)).join(", ");
}

// ------------------------------------------------------------------ renderer

async function loadRenderer(game) {
  scopeToGame(board, game);
  await useGameStrings(game);
  try {
    state.renderer = await import(`./games/${encodeURIComponent(game)}.js`);
    await useGameStyles(game); // before the first board, which would otherwise flash unstyled
  } catch (err) {
    console.info(`no renderer for ${game}; using the generic one`, err);
    state.renderer = await import("./games/_generic.js");
  }
}

function context() {
  return {
    t,
    lang: currentLang(),
    act: sendAction,
    seatName: (seat) => seatName(state.table, seat),
    mySeat: state.picture?.seat ?? null,
    pending: Boolean(state.pending),
    table: state.table,
  };
}

// ------------------------------------------------------------------ actions

function clearPending() {
  if (state.pending) clearTimeout(state.pending.timer);
  state.pending = null;
}

/** Block the board until the answer to frame `id` (or a newer version) arrives. */
function startPending(kind, id, version) {
  state.sent = { id, kind };
  state.pending = {
    id,
    version,
    kind,
    timer: setTimeout(() => {
      if (state.pending?.id === id) {
        clearPending();
        socket?.sync();
        render();
      }
    }, PENDING_TIMEOUT_MS),
  };
}

/** Send one element of legal_actions, verbatim, with the version it was taken from. */
function sendAction(action) {
  const picture = state.picture;
  if (!picture || state.pending || mySeatTakenOver()) return false;
  const id = newActionId();
  const version = picture.version;
  startPending("action", id, version);
  const sent = socket?.send({ type: "action", version, action, id });
  if (!sent) {
    apiMod
      .postAction(tableId, version, action, id)
      .then((answer) => onState({ type: "state", ...answer, ref: id }))
      .catch((err) => onError({ error: { code: err.code, message: err.message, ...err.details }, ref: id }));
  }
  render();
  return true;
}

/** Take back my own last action (the server decides whether the game allows it). */
function sendUndo() {
  const picture = state.picture;
  if (!picture || state.pending || !state.undo) return false;
  const id = newActionId();
  const version = picture.version;
  startPending("undo", id, version);
  const sent = socket?.send({ type: "undo", version, id });
  if (!sent) {
    postUndo(tableId, version, id)
      .then((answer) => onState({ type: "state", ...answer, ref: id }))
      .catch((err) => onError({ error: { code: err.code, message: err.message, ...err.details }, ref: id }));
  }
  render();
  return true;
}

// ------------------------------------------------------------------ frames

function addEvents(events) {
  let added = false;
  for (const event of events || []) {
    if (typeof event.version === "number" && event.version <= state.loggedVersion) continue;
    state.log.push(event);
    added = true;
  }
  if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
  return added;
}

/** Events the log lacks, in version order: a frame may have moved loggedVersion past them
 * while this request was on its way. */
function fillEvents(events) {
  const present = new Set(state.log.map((event) => event.version));
  const missing = (events || []).filter((event) => !present.has(event.version));
  if (!missing.length) return;
  // Stable sort; an event without a version stays after the one before it.
  let last = 0;
  const keyed = [...state.log, ...missing].map((event) => {
    if (typeof event.version === "number") last = event.version;
    return { event, key: typeof event.version === "number" ? event.version : last };
  });
  state.log = keyed.sort((a, b) => a.key - b.key).map((item) => item.event);
  if (state.log.length > LOG_LIMIT) state.log.splice(0, state.log.length - LOG_LIMIT);
}

async function catchUpLog() {
  try {
    const log = await getLog(tableId, state.loggedVersion, currentLang());
    fillEvents(log.events);
    state.loggedVersion = Math.max(state.loggedVersion, log.version);
    renderLog();
  } catch (err) {
    console.warn("log catch-up failed", err);
  }
}

function onState(frame) {
  const previous = state.picture;
  if (previous && frame.version < previous.version) return; // an older picture: ignore
  // The answer to my frame may come after the broadcast of the same version: match by ref.
  if (frame.ref && state.sent?.id === frame.ref) state.sent = null;
  if (state.pending && (frame.ref === state.pending.id || frame.version > state.pending.version)) {
    clearPending();
  }
  // "Take back" is offered exactly when the server says this seat may take its last move back
  // (every state frame carries undoable: after my action, after a reload or a reconnect).
  state.undo = frame.status === "playing" && frame.undoable === true ? { version: frame.version } : null;
  state.clock = frame.clock ? { ...frame.clock, offset: frame.clock.server_time - Date.now() / 1000 } : null;
  const complete = frame.events_complete !== false;
  addEvents(frame.events);
  if (complete) state.loggedVersion = Math.max(state.loggedVersion, frame.version);
  else catchUpLog();
  state.picture = frame;
  // The game ended while this page looked on (a player's or a spectator's): the result comes
  // into view, wherever the page was scrolled to (issue 35.1).
  const ended = frame.status === "finished" && Boolean(previous) && previous.status !== "finished";
  if (state.table && frame.status && state.table.status !== frame.status) {
    state.table = { ...state.table, status: frame.status };
    getTable(tableId)
      .then((table) => {
        state.table = table;
        render();
        if (ended) showResult();
      })
      .catch(() => {});
  }
  if (frame.game && !state.renderer) {
    loadRenderer(frame.game).then(render);
  }
  const myTurnBefore = state.myTurnBefore;
  render();
  renderLog();
  if (ended) showResult();
  stepSound(previous, frame, myTurnBefore);
}

/** The result panel (its heading and the final ranking) into view, once laid out. */
function showResult() {
  requestAnimationFrame(() => bringIntoView(document.getElementById("result")));
}

/** The sound of a new step (when sounds are on): the end, my turn, or a move. */
function stepSound(previous, frame, myTurnBefore) {
  if (!previous || frame.version <= previous.version) return;
  if (frame.status === "finished" && previous.status !== "finished") playSound("end");
  else if (isMyTurn() && !myTurnBefore) playSound("turn");
  else if (frame.status === "playing") playSound("move");
}

function onError(frame) {
  const error = frame.error || {};
  const failed = frame.ref && state.sent?.id === frame.ref ? state.sent.kind : state.pending?.kind;
  if (state.pending && (frame.ref === undefined || frame.ref === null || frame.ref === state.pending.id)) {
    clearPending();
  }
  // The server said no to the undo (or the table moved on): stop offering it.
  if (failed === "undo" && error.code !== "network_error") state.undo = null;
  showError(error);
  if (error.code === "stale_version" || error.code === "not_your_turn") socket?.sync();
  if (error.code === "seat_taken_over") refreshTable();
  render();
}

function refreshTable() {
  getTable(tableId)
    .then((table) => {
      state.table = table;
      render();
    })
    .catch(() => {});
}

// State frames are drawn one visible step at a time (motion.js): a move lands before the next.
const stateFrames = frameQueue((frame) => onState(frame));

function onFrame(frame) {
  if (frame.type === "state") stateFrames.push(frame);
  else if (frame.type === "table") {
    if (frame.table) {
      const code = state.table?.invite_code;
      const before = state.table;
      state.table = code && !frame.table.invite_code ? { ...frame.table, invite_code: code } : frame.table;
      endings.onTable(before, state.table);
      noteDepartures(before, state.table);
      render();
    } else if (frame.deleted) {
      showFatal("table.deleted", null);
    }
  } else if (frame.type === "error") onError(frame);
  else if (frame.type === "chat" && frame.message) addChat([frame.message]);
}

function onStatus(status, detail) {
  if (status === "open" && state.conn !== "open" && state.pending) {
    // The answer to an action sent before a drop may be lost; the resync shows the truth.
    clearPending();
  }
  if (status === "open" && state.conn !== "open" && state.chatLoaded) catchUpChat();
  state.conn = status;
  if (status === "unauthorized") {
    // The remembered token is no longer valid: watch as a spectator.
    apiMod.clearIdentity();
    header?.redraw();
    toast(t("conn.unauthorized"), "error");
    connect();
  } else if (status === "not_found") {
    showFatal("table.not_found");
  }
  renderConn(detail);
}

function connect() {
  const previous = socket;
  const since = Math.max(state.loggedVersion, previous?.lastVersion || 0);
  previous?.close();
  socket = new TableSocket(tableId, { token: me()?.token || null, lang: currentLang, onFrame, onStatus });
  socket.lastVersion = since;
  window.partida = { socket, state }; // for debugging and the browser tests
  socket.connect();
}

// ------------------------------------------------------------------ rendering

function renderConn(detail) {
  const el = document.getElementById("conn");
  el.dataset.conn = state.conn;
  const label =
    state.conn === "open"
      ? t("conn.open")
      : state.conn === "reconnecting"
        ? t("conn.reconnecting")
        : state.conn === "connecting"
          ? t("conn.connecting")
          : t("conn.closed");
  el.textContent = label;
  el.title = detail?.delay ? t("conn.retry_in", { s: Math.ceil(detail.delay / 1000) }) : label;
  document.body.dataset.conn = state.conn;
}

function renderTitle() {
  const titleEl = document.getElementById("table-title");
  const game = state.game || (state.table ? { id: state.table.game, title: state.table.game } : null);
  titleEl.textContent = game ? `${gameTitle(game)} · #${tableId.slice(0, 6)}` : "";
  const rulesLink = document.getElementById("rules-link");
  if (rulesLink && game) Object.assign(rulesLink, { href: `/games/${encodeURIComponent(game.id)}/rules`, hidden: false });
  const base = game ? `${gameTitle(game)} · Partida` : "Partida";
  document.title = isMyTurn() && !state.pending ? `▶ ${t("turn.title")} · ${base}` : base;
}

function renderBanner() {
  const banner = document.getElementById("turn-banner");
  const st = status();
  const p = state.picture;
  let kind = "info";
  let text = "";
  let turn = "none";
  if (st === "loading") text = t("table.loading");
  else if (st === "open") {
    const taken = state.table ? state.table.seats.filter((s) => s.player || s.bot).length : 0;
    const total = state.table ? state.table.seats.length : 0;
    text = t("turn.waiting_players", { taken, total });
  } else if (st === "finished") {
    kind = "finished";
    // The winners are whoever is in first place, an automatic opponent too (Hal, the dummy);
    // a cancelled game or one ended early says so instead.
    const result = p?.result || {};
    const firsts = winnerNames(result, state.table);
    text = endings.bannerText(result) || (firsts.length ? t("turn.game_over_winner", { name: firsts.join(", ") }) : t("turn.game_over"));
  } else if (state.pending) {
    turn = "pending";
    text = t("turn.sending");
  } else if (isMyTurn()) {
    kind = "mine";
    turn = "me";
    text = t("turn.yours");
  } else if (p) {
    turn = "others";
    const waiting = (p.to_act || []).filter((s) => s !== p.seat);
    text = waiting.length ? t("turn.waiting_for", { names: names(waiting) }) : t("turn.waiting");
    if (p.seat === null || p.seat === undefined) text = `${t("turn.spectating")} · ${text}`;
  }
  banner.className = `turn-banner turn-${kind}`;
  let live = banner.querySelector(".turn-text");
  if (!live) {
    live = h("span", { class: "turn-text", role: "status", "aria-live": "polite" });
  }
  if (live.textContent !== text) live.textContent = text;
  document.body.dataset.status = st;
  document.body.dataset.turn = turn;
  document.body.dataset.version = String(p?.version ?? 0);
  return live;
}

// The banner's controls are made once and kept: every frame redraws the banner, and a button
// made anew under a click (pressed on the old one, released on the new) takes no click, and
// drops a keyboard user's focus. Each is updated in place; the banner's children change only
// when a control comes or goes.
const bannerControls = new Map();

function bannerControl(key, make) {
  let node = bannerControls.get(key);
  if (!node) {
    node = make();
    bannerControls.set(key, node);
  }
  return node;
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

function setAttr(node, name, value) {
  if (node.getAttribute(name) !== value) node.setAttribute(name, value);
}

/** Make ``parent``'s children exactly ``nodes`` (the same nodes stay where they are). */
function keepChildren(parent, nodes) {
  const now = parent.children;
  if (now.length === nodes.length && nodes.every((node, i) => now[i] === node)) return;
  const focused = document.activeElement;
  parent.replaceChildren(...nodes);
  if (focused && focused !== document.activeElement && nodes.includes(focused)) focused.focus();
}

/** My decision's prompt docked where I look, and a legal target in view (decision.js). */
function renderDock() {
  const mine = isMyTurn() || state.pending?.kind === "action";
  dock.update(mine, isMyTurn() ? JSON.stringify(state.picture.legal_actions) : null);
}

function maybeNotify() {
  const mine = isMyTurn();
  if (mine && !state.myTurnBefore && document.hidden && "Notification" in window) {
    if (Notification.permission === "granted" && localStorage.getItem("partida.notify") === "1") {
      try {
        new Notification(t("notify.title"), { body: t("notify.body"), tag: `partida-${tableId}` });
      } catch {
        /* some browsers only allow notifications from a service worker */
      }
    }
  }
  state.myTurnBefore = mine;
}

/** A selector that finds "the same" control after a re-render (by tag and data-* attributes). */
function focusKey(el) {
  if (!el || el === document.body || !board.contains(el)) return null;
  const data = Object.entries(el.dataset).map(([k, v]) => `[data-${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}="${CSS.escape(v)}"]`);
  if (el.id) return `#${CSS.escape(el.id)}`;
  return data.length ? `${el.tagName.toLowerCase()}${data.join("")}` : null;
}

function renderBoard() {
  const hadFocus = board.contains(document.activeElement);
  const key = focusKey(document.activeElement);
  drawBoard();
  if (!hadFocus) return;
  const again = key ? board.querySelector(key) : null;
  if (again && !again.disabled) again.focus({ preventScroll: true });
  else board.focus({ preventScroll: true });
}

function drawBoard() {
  const p = state.picture;
  board.setAttribute("aria-busy", state.pending ? "true" : "false");
  if (!p || !p.view) {
    const st = status();
    const table = state.table;
    fill(
      board,
      h(
        "div",
        { class: ["board-empty", st === "open" ? "waiting-room" : ""] },
        h("p", { class: "board-empty-title" }, st === "open" ? t("board.not_started") : t("table.loading")),
        st === "open" && table
          ? h(
              "ul",
              { class: "waiting-seats" },
              table.seats.map((s) =>
                h(
                  "li",
                  { class: ["waiting-seat", s.player || s.bot ? "taken" : "free"] },
                  h("span", { class: "chair", "aria-hidden": "true" }, s.bot ? "⚙" : s.player ? s.player.name.slice(0, 1).toUpperCase() : "+"),
                  h("span", null, seatName(table, s.seat)),
                ),
              ),
            )
          : null,
        st === "open" ? h("p", { class: "muted" }, t("board.not_started_hint")) : null,
      ),
    );
    return;
  }
  if (!state.renderer) return;
  // While a bot plays my seat, my board offers nothing (the server would refuse it).
  const shown = mySeatTakenOver() ? { ...p, legal_actions: [] } : p;
  try {
    const ctx = context();
    // Moves travel from where they were (motion.js); each seat's last move stays marked.
    animated(board, p.version, () => {
      state.renderer.render(board, shown, ctx);
      const colour = state.renderer.seatColour ? (seat) => state.renderer.seatColour(seat, p.view) : undefined;
      markLastMoves(board, lastMoves(state.log, state.renderer.lastMove, ctx), (seat) => seatName(state.table, seat), colour);
    });
    showScored(p);
  } catch (err) {
    console.error("renderer failed", err);
    board.replaceChildren(h("p", { class: "notice" }, t("board.render_failed")));
  }
}

// A renderer marks what a round's scoring gave ([data-scored="<key>"], a new key for each
// scoring): when a new one appears during the game, it comes into view for whoever has no
// decision to take (a decision brings its own targets into view: decision.js).
let scoredKey;

function showScored(picture) {
  const key = board.querySelector("[data-scored]")?.dataset.scored ?? null;
  const first = scoredKey === undefined;
  if (key === scoredKey) return;
  scoredKey = key;
  if (first || key === null || picture.status !== "playing" || isMyTurn()) return;
  // Looked up in the frame: a redraw before it replaces the marked element, and a decision
  // that came meanwhile has brought its own targets into view, which must stay there.
  requestAnimationFrame(() => {
    if (state.picture?.status !== "playing" || isMyTurn()) return;
    bringIntoView(board.querySelector("[data-scored]"));
  });
}

function scoresOf(picture) {
  if (!picture) return null;
  if (picture.result?.scores) return picture.result.scores;
  if (state.renderer?.scores) return state.renderer.scores(picture.view);
  if (Array.isArray(picture.view?.scores)) return picture.view.scores;
  return null;
}

function renderSeats() {
  const table = state.table;
  if (!table) {
    seatsFold.body.replaceChildren();
    return;
  }
  const p = state.picture;
  const scores = scoresOf(p);
  const mine = mySeat();
  const toAct = new Set(p?.status === "playing" ? p.to_act : []);
  seatsFold.heading.textContent = t("seats.title");
  // Folded on a phone: who is there, with the scores, and whose turn it is.
  seatsFold.note(
    table.seats
      .map((s) => {
        const score = scores ? scores[s.seat] ?? scores[String(s.seat)] : undefined;
        return `${toAct.has(s.seat) ? "▶ " : ""}${seatName(table, s.seat)}${score !== undefined ? ` ${score}` : ""}`;
      })
      .join(" · "),
  );
  fill(seatsFold.body,
    h(
      "ul",
      { class: "seat-list" },
      table.seats.map((s) => {
        const online = s.bot || s.connected;
        const score = scores ? scores[s.seat] ?? scores[String(s.seat)] : undefined;
        return h(
          "li",
          {
            class: [
              "seat-row",
              s.seat === mine ? "mine" : "",
              toAct.has(s.seat) ? "to-act" : "",
              s.taken_over ? "taken-over" : "",
            ],
            "data-seat": s.seat,
          },
          h("span", { class: "seat-turn", "aria-hidden": "true" }, toAct.has(s.seat) ? "▶" : ""),
          s.player || s.bot
            ? h("span", {
                class: ["dot", online ? "online" : "offline"],
                title: online ? t("seat.online") : t("seat.offline"),
              })
            : h("span", { class: "dot empty" }),
          h(
            "span",
            { class: "seat-name" },
            seatName(table, s.seat),
            s.seat === mine ? h("span", { class: "tag" }, t("seat.you")) : null,
            table.owner?.id && s.player?.id === table.owner.id
              ? h("span", { class: "tag tag-host", title: t("seat.host") }, t("seat.host"))
              : null,
            toAct.has(s.seat) ? h("span", { class: "sr-only" }, t("seat.to_act")) : null,
            h("span", { class: "sr-only" }, online ? t("seat.online") : t("seat.offline")),
          ),
          score !== undefined ? h("span", { class: "seat-score", title: t("seats.score") }, String(score)) : null,
          seatClock(s.seat),
          seatExtras(s, mine),
        );
      }),
    ),
    mine === null && status() !== "open" ? h("p", { class: "muted small" }, t("seats.you_watch")) : null,
  );
}

// ------------------------------------------------------------------ clocks

/** The picture's clock entry of one seat, or null when the table has no clock. */
function clockOf(seat) {
  return state.clock?.seats?.find((c) => c.seat === seat) || null;
}

/** Seconds left on a seat's clock now: running clocks count down from their deadline, read
 *  against the server's time (its offset from this browser measured when the frame came). */
function secondsLeft(entry) {
  if (entry.running && typeof entry.deadline === "number") {
    const serverNow = Date.now() / 1000 + (state.clock?.offset || 0);
    return Math.max(0, entry.deadline - serverNow);
  }
  return Math.max(0, Number(entry.seconds_left) || 0);
}

function pad(n) {
  return String(n).padStart(2, "0");
}

/** mm:ss (h:mm:ss past an hour) for real-time banks; days and hours for correspondence. */
function formatClock(seconds, mode) {
  const total = Math.ceil(seconds);
  const d = Math.floor(total / 86400);
  const hrs = Math.floor((total % 86400) / 3600);
  const min = Math.floor((total % 3600) / 60);
  const sec = total % 60;
  if (d > 0) return t("clock.days", { d, h: hrs });
  if (mode === "async" && hrs > 0) return t("clock.hours", { h: hrs, m: min });
  if (hrs > 0) return `${hrs}:${pad(min)}:${pad(sec)}`;
  return `${pad(min)}:${pad(sec)}`;
}

/** The seat's full time (bank or time per move), for the "low" highlight at 10 %. */
function fullTime(mode) {
  const tc = state.table?.time_control || {};
  return mode === "async" ? tc.move_seconds : tc.bank_seconds;
}

function paintClock(el, entry) {
  const mode = state.clock?.mode;
  const left = secondsLeft(entry);
  const full = fullTime(mode);
  const low = left <= CLOCK_LOW_SECONDS || (full > 0 && left <= full * 0.1);
  const text = formatClock(left, mode);
  const value = el.querySelector(".clock-value");
  if (value && value.textContent !== text) value.textContent = text;
  el.classList.toggle("running", Boolean(entry.running));
  el.classList.toggle("low", low);
  el.classList.toggle("out", left <= 0);
  el.dataset.running = entry.running ? "true" : "false";
  el.dataset.secondsLeft = String(Math.round(left * 10) / 10);
}

function seatClock(seat) {
  const entry = status() === "playing" ? clockOf(seat) : null;
  if (!entry) return null;
  const el = h(
    "span",
    {
      class: "seat-clock",
      role: "timer",
      "data-clock-seat": seat,
      title: t("clock.label"),
    },
    h("span", { class: "clock-icon", "aria-hidden": "true" }),
    h("span", { class: "sr-only" }, `${t("clock.label")}: `),
    h("span", { class: "clock-value" }),
    entry.running ? h("span", { class: "sr-only" }, ` (${t("clock.running")})`) : null,
  );
  paintClock(el, entry);
  return el;
}

/** Redraw the running clocks in place (no re-render: buttons under the pointer stay put). */
function tickClocks() {
  if (!state.clock) return;
  for (const el of document.querySelectorAll("#seats .seat-clock[data-clock-seat]")) {
    const entry = clockOf(Number(el.dataset.clockSeat));
    if (entry) paintClock(el, entry);
  }
}

// ------------------------------------------------------------------ absent players

/** Under a seat: "bot playing for …", or the vote to hand an away player's seat to a bot. */
function seatExtras(s, mine) {
  const table = state.table;
  if (s.resigned) return endings.seatNote(s);
  if (s.taken_over) {
    return h(
      "span",
      { class: "seat-sub seat-bot-for", "data-testid": "taken-over" },
      h("span", { class: "bot-icon", "aria-hidden": "true" }, "⚙ "),
      t("seat.taken_over", { name: s.player?.name || seatName(table, s.seat), level: levelName(s.bot_level) }),
    );
  }
  const canVote =
    status() === "playing" &&
    mine !== null &&
    s.seat !== mine &&
    s.player &&
    !s.bot &&
    !s.connected &&
    table?.time_control?.abandon === "vote" &&
    !(takeoverNotBefore.get(s.seat) > Date.now());
  if (!canVote) return null;
  const votes = s.takeover_votes || 0;
  return h(
    "span",
    { class: "seat-sub seat-takeover" },
    h(
      "button",
      {
        type: "button",
        class: "btn btn-small",
        "data-action": "takeover",
        "data-seat": s.seat,
        title: t("takeover.vote_title", { name: s.player.name }),
        disabled: state.busy,
        onclick: () => voteFor(s.seat),
      },
      t("takeover.vote"),
    ),
    votes ? h("span", { class: "takeover-votes muted small" }, t("takeover.votes", { n: votes })) : null,
  );
}

// The vote to hand a seat to a bot is offered only once it can work (issue 35.8): not before
// the player has been away for the table's grace. The page counts from when it saw the seat's
// dot go grey; a refusal (the server counts from the end of the presence lease) says how many
// seconds are left, and the button comes back then.
const takeoverNotBefore = new Map(); // seat -> Date.now() from which a vote may work
let takeoverTimer = null;

function waitForTakeover(seat, seconds) {
  const at = Date.now() + seconds * 1000;
  takeoverNotBefore.set(seat, at);
  clearTimeout(takeoverTimer);
  const next = Math.min(...takeoverNotBefore.values()) - Date.now();
  takeoverTimer = setTimeout(render, Math.max(0, next) + 50);
}

/** A seated player whose dot just went grey: not yet away for the grace. */
function noteDepartures(before, after) {
  const grace = Number(after?.time_control?.grace_seconds) || 0;
  for (const seat of after?.seats || []) {
    const was = before?.seats?.[seat.seat];
    if (seat.connected || seat.bot) takeoverNotBefore.delete(seat.seat);
    else if (was?.connected && was.player?.id === seat.player?.id) waitForTakeover(seat.seat, grace);
  }
}

/** A readable refusal: the server's numbers in the viewer's language when it gives them. */
function takeoverErrorText(err, seat) {
  const details = err.details || {};
  if (err.code === "takeover_refused" && typeof details.grace_seconds === "number") {
    const away = Number(details.away_seconds) || 0;
    const left = typeof details.wait_seconds === "number" ? details.wait_seconds : Math.max(1, details.grace_seconds - away);
    waitForTakeover(seat, left);
    return t("takeover.too_soon", { name: seatName(state.table, seat), away, left });
  }
  return errorText(err);
}

async function voteFor(seat) {
  if (state.busy) return;
  state.busy = true;
  try {
    state.table = await voteTakeover(tableId, seat);
    if (!state.table.seats[seat]?.taken_over) toast(t("takeover.voted"), "info");
  } catch (err) {
    toast(takeoverErrorText(err, seat), "error");
  } finally {
    state.busy = false;
    render();
  }
}

async function takeMySeatBack() {
  if (state.busy) return;
  state.busy = true;
  try {
    state.table = await takeBack(tableId);
    toast(t("takeover.taken_back"), "info");
    socket?.sync();
  } catch (err) {
    showError(err);
    refreshTable();
  } finally {
    state.busy = false;
    render();
  }
}

let takeoverDrawnFrom = null;

/** When a bot plays my seat: a clear banner with the way back. */
function renderTakeover() {
  const el = document.getElementById("takeover-banner");
  if (!el) return;
  const show = mySeatTakenOver() && status() === "playing";
  const key = show ? `${currentLang()}|${state.busy}` : null;
  if (key === takeoverDrawnFrom) return;
  takeoverDrawnFrom = key;
  el.hidden = !show;
  if (!show) {
    el.replaceChildren();
    return;
  }
  el.replaceChildren(
    h("span", { class: "takeover-icon", "aria-hidden": "true" }, "⚙"),
    h("span", { class: "takeover-text" }, t("takeover.mine")),
    h(
      "button",
      {
        type: "button",
        class: "btn btn-primary",
        "data-action": "take-back",
        disabled: state.busy,
        onclick: takeMySeatBack,
      },
      t("takeover.take_back"),
    ),
  );
}

// ------------------------------------------------------------------ setup

async function lobbyAction(fn) {
  if (state.busy) return;
  state.busy = true;
  renderSetup();
  try {
    const answer = await fn();
    if (answer && answer.seats) state.table = answer;
    else state.table = await getTable(tableId);
  } catch (err) {
    showError(err);
  } finally {
    state.busy = false;
    render();
  }
}

// What the setup panel was last drawn from. Presence and chat frames re-render the page
// often; rebuilding the panel under a pointer that is mid-click swallows the click.
let setupDrawnFrom = null;

function renderSetup() {
  const panel = document.getElementById("setup");
  const table = state.table;
  if (!table || status() !== "open") {
    setupDrawnFrom = null;
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  panel.hidden = false;
  const player = me();
  const seat = mySeat();
  const free = table.seats.filter((s) => !s.player && !s.bot).length;
  const drawnFrom = JSON.stringify([
    player?.id ?? null,
    seat,
    free,
    state.busy,
    isOwner(),
    state.game?.bot_levels || [],
    state.botLevel ?? null,
    table.owner?.name ?? null,
    table.private,
    table.invite_code ?? null,
    currentLang(),
  ]);
  if (drawnFrom === setupDrawnFrom && panel.childElementCount) return;
  setupDrawnFrom = drawnFrom;
  const parts = [h("h2", null, t("setup.title"))];
  if (!player) {
    parts.push(
      h("p", null, t("setup.need_name")),
      nameFormFor(),
    );
  } else if (seat === null && free > 0) {
    parts.push(
      h(
        "button",
        {
          type: "button",
          class: "btn btn-primary",
          "data-action": "join",
          disabled: state.busy,
          onclick: () =>
            lobbyAction(async () => {
              await apiMod.joinTable(tableId, inviteFromLink || state.table?.invite_code);
              return getTable(tableId);
            }),
        },
        t("table.join"),
      ),
    );
  } else if (seat === null) {
    parts.push(h("p", { class: "muted" }, t("setup.full")));
  }
  if (isOwner()) {
    const levels = state.game?.bot_levels || [];
    const picker = levelPicker(levels, {
      value: state.botLevel,
      preferred: state.game?.default_bot_level,
      id: "bot-level",
      hintId: "bot-level-hint",
      onChange: (level) => {
        state.botLevel = level;
      },
    });
    parts.push(
      h(
        "div",
        { class: "row" },
        h(
          "button",
          {
            type: "button",
            class: "btn",
            "data-action": "add-bot",
            disabled: state.busy || free === 0,
            onclick: () => lobbyAction(() => apiMod.addBot(tableId, picker.select.value || null)),
          },
          t("table.add_bot"),
        ),
        levels.length > 1
          ? h("label", { class: "inline" }, h("span", { class: "sr-only" }, t("table.bot_level")), picker.select)
          : null,
      ),
      levels.length > 1 ? picker.hint : null,
      h(
        "button",
        {
          type: "button",
          class: "btn btn-primary btn-wide",
          "data-action": "start",
          disabled: state.busy || free > 0,
          onclick: () => lobbyAction(() => apiMod.startTable(tableId)),
        },
        t("table.start"),
      ),
      free > 0 ? h("p", { class: "hint" }, t(free === 1 ? "setup.start_hint_one" : "setup.start_hint", { free })) : null,
    );
  } else if (seat !== null) {
    parts.push(h("p", { class: "muted" }, t("setup.wait_host", { name: table.owner?.name || "" })));
  }
  if (player && seat !== null) {
    parts.push(
      h(
        "button",
        {
          type: "button",
          class: "btn btn-link",
          "data-action": "leave",
          disabled: state.busy,
          onclick: () =>
            lobbyAction(async () => {
              await apiMod.leaveTable(tableId);
              return getTable(tableId).catch(() => {
                location.href = "/";
              });
            }),
        },
        t("table.leave"),
      ),
    );
  }
  const deleting = endings.deleteButton();
  if (deleting) parts.push(deleting);
  const link = tableUrl(tableId, table.invite_code || inviteFromLink);
  if (table.private) parts.push(h("p", { class: "hint" }, t("setup.private")));
  parts.push(
    h(
      "div",
      { class: "invite" },
      h("label", { for: "invite-link" }, t("invite.label")),
      h(
        "div",
        { class: "row" },
        h("input", { id: "invite-link", readonly: true, value: link, onfocus: (e) => e.target.select() }),
        h(
          "button",
          {
            type: "button",
            class: "btn",
            "data-action": "copy-link",
            onclick: async () => {
              const ok = await copyText(link);
              toast(ok ? t("invite.copied") : link, ok ? "info" : "error");
            },
          },
          t("invite.copy"),
        ),
      ),
    ),
  );
  fill(panel, parts);
}

function renderResult() {
  const panel = document.getElementById("result");
  const result = state.picture?.result;
  if (!result || status() !== "finished") {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  panel.hidden = false;
  const mine = mySeat();
  const rows = rankedEntries(result, state.table).map((e) =>
    h(
      "li",
      {
        class: ["rank-row", `place-${e.place}`, e.kind === "seat" && e.seat === mine ? "mine" : "", e.kind === "other" ? "rank-other" : ""],
        "data-seat": e.kind === "seat" ? e.seat : null,
        "data-other": e.kind === "other" ? e.id : null,
      },
      h("span", { class: "rank-place" }, t("result.place", { n: e.place })),
      h("span", { class: "rank-name" }, e.name, e.kind === "seat" ? endings.rankTag(result, e.seat) : null),
      e.score === undefined ? null : h("span", { class: "rank-score" }, t("result.points", { n: e.score })),
    ),
  );
  fill(panel, 
    h("h2", null, endings.bannerText(result) || t("result.title")),
    h("ol", { class: "ranking", "data-testid": "ranking" }, rows),
    tiebreakLines(result).map((line) => h("p", { class: "muted small", "data-testid": "tiebreak" }, line)),
    h(
      "div",
      { class: "actions" },
      endings.resultAction(),
      h(
        "a",
        { class: "btn", href: `/replays/${encodeURIComponent(tableId)}`, "data-action": "replay" },
        t("replay.watch"),
      ),
      h("a", { class: "btn", href: "/" }, t("result.back")),
    ),
  );
}

/**
 * How the ties were settled, for people: the game's own text in the page's language
 * (`tiebreak_text`, asked for with the socket's `lang`; "" when nothing needs explaining),
 * else the engine's plain record (`tiebreak`). One paragraph per line.
 */
function tiebreakLines(result) {
  const text = typeof result.tiebreak_text === "string" ? result.tiebreak_text : result.tiebreak || "";
  let lines = text.split("\n").filter((line) => line.trim());
  // The text ends with a line per resignation, its seat numbered: said again with the
  // player's name (issue 35.5), from the same messages.
  const resigned = typeof result.tiebreak_text === "string" && Array.isArray(result.resign_messages) ? result.resign_messages : [];
  const named = resigned.map((m) => renderMessage(m, (seat) => playerName(state.table, seat)));
  if (resigned.length && named.every((line) => line !== null) && lines.length >= resigned.length) {
    lines = [...lines.slice(0, lines.length - resigned.length), ...named];
  }
  return lines;
}

/** Lines for the events the table itself records (no game knows them). */
function describe(event) {
  return logLine(event, state.renderer, context(), (seat) => playerName(state.table, seat));
}

/** The whole log again (its readable lines in the current language). */
async function reloadLog() {
  try {
    const log = await getLog(tableId, 0, currentLang());
    state.log = [];
    state.loggedVersion = 0;
    addEvents(log.events);
    state.loggedVersion = log.version;
    renderLog();
  } catch (err) {
    console.warn("log reload failed", err);
  }
}

function renderLog() {
  const list = document.getElementById("log-list");
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const items = [];
  // A game may hide again what its rules no longer let be read (Luz strict_memory).
  const shown = state.renderer?.visibleLog ? state.renderer.visibleLog(state.log, state.picture?.view) : state.log;
  for (const event of shown) {
    const text = describe(event);
    if (text === null) continue;
    // Scoring events come with the server's step-by-step explanation (one line per step):
    // offered under the board's own summary line.
    const steps =
      typeof event.text === "string" && event.text.includes("\n") && text !== event.text
        ? h(
            "details",
            { class: "log-steps" },
            h("summary", null, t("log.steps")),
            h("div", { class: "log-steps-text" }, event.text),
          )
        : null;
    items.push(h("li", { class: `log-${event.type}`, "data-version": event.version }, text, steps));
  }
  if (!items.length) items.push(h("li", { class: "muted" }, t("log.empty")));
  list.replaceChildren(...items);
  logFold.note(items[items.length - 1].firstChild?.textContent || "");
  if (nearBottom) list.scrollTop = list.scrollHeight;
}

/** The sounds switch (off until switched on; remembered by the browser). */
function renderSoundToggle() {
  const on = soundOn();
  const toggle = bannerControl("sound", () =>
    h(
      "button",
      {
        type: "button",
        class: "btn btn-link sound-toggle",
        role: "switch",
        "data-action": "sound",
        onclick: () => {
          setSound(!soundOn());
          render();
        },
      },
      h("span", { "aria-hidden": "true" }, "♪ "),
      h("span", { class: "sound-label", "aria-hidden": "true" }),
      h("span", { class: "sound-state", "aria-hidden": "true" }),
    ),
  );
  setAttr(toggle, "aria-checked", on ? "true" : "false");
  setAttr(toggle, "aria-label", t("sound.label"));
  setAttr(toggle, "title", t("sound.hint"));
  setText(toggle.querySelector(".sound-label"), t("sound.label"));
  setText(toggle.querySelector(".sound-state"), on ? t("sound.on") : t("sound.off"));
  return toggle;
}

function notifyOn() {
  return localStorage.getItem("partida.notify") === "1" && Notification.permission === "granted";
}

function renderNotifyToggle() {
  if (!("Notification" in window)) return null;
  const toggle = bannerControl("notify", () =>
    h("button", {
      type: "button",
      class: "btn btn-link notify-toggle",
      onclick: async () => {
        if (notifyOn()) {
          localStorage.setItem("partida.notify", "0");
        } else {
          const permission = await Notification.requestPermission();
          localStorage.setItem("partida.notify", permission === "granted" ? "1" : "0");
          if (permission !== "granted") toast(t("notify.denied"), "error");
        }
        render();
      },
    }),
  );
  const on = notifyOn();
  setAttr(toggle, "aria-pressed", on ? "true" : "false");
  setText(toggle, on ? t("notify.off") : t("notify.on"));
  return toggle;
}

// ------------------------------------------------------------------ chat

const CHAT_LIMIT = 300;
let chatComposeKey = null;

function addChat(messages) {
  let added = false;
  const known = new Set(state.chat.map((m) => m.id));
  for (const message of messages || []) {
    if (!message || known.has(message.id)) continue;
    known.add(message.id);
    state.chat.push(message);
    added = true;
  }
  if (!added) return;
  state.chat.sort((a, b) => a.id - b.id);
  if (state.chat.length > CHAT_LIMIT) state.chat.splice(0, state.chat.length - CHAT_LIMIT);
  renderChat();
}

async function catchUpChat() {
  const since = state.chat.length ? state.chat[state.chat.length - 1].id : 0;
  try {
    addChat(await getChat(tableId, since));
  } catch (err) {
    console.warn("chat catch-up failed", err);
  }
  if (!state.chatLoaded) {
    state.chatLoaded = true;
    renderChat();
  }
}

function chatTime(at) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleTimeString(currentLang(), { hour: "2-digit", minute: "2-digit" });
}

function renderChat() {
  const list = document.getElementById("chat-list");
  if (!list) return;
  const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const mine = me()?.id;
  const items = state.chat.map((m) =>
    h(
      "li",
      { class: ["chat-line", m.player?.id === mine ? "mine" : ""], "data-chat-id": m.id },
      h("span", { class: "chat-who" }, m.player?.name || "?"),
      h("time", { class: "chat-time", datetime: m.at }, chatTime(m.at)),
      h("span", { class: "chat-text" }, m.text),
    ),
  );
  if (!items.length) {
    items.push(h("li", { class: "muted chat-empty" }, state.chatLoaded ? t("chat.empty") : t("table.loading")));
  }
  list.replaceChildren(...items);
  const newest = state.chat[state.chat.length - 1];
  chatFold.note(newest ? `${newest.player?.name || "?"}: ${newest.text}` : t("chat.empty"));
  if (nearBottom || list.dataset.seen !== String(state.chat.length)) list.scrollTop = list.scrollHeight;
  list.dataset.seen = String(state.chat.length);
}

async function sendChat(input, button) {
  const text = input.value.trim();
  if (!text) return;
  button.disabled = true;
  try {
    const message = await postChat(tableId, text);
    input.value = "";
    addChat([message]);
  } catch (err) {
    showError(err);
  } finally {
    button.disabled = false;
    input.focus();
  }
}

function renderChatCompose() {
  const box = document.getElementById("chat-compose");
  if (!box) return;
  const player = me();
  // Only the players seated at the table post into its chat; watchers read it.
  const seated = Boolean(player) && mySeat() !== null && mySeat() !== undefined;
  const key = `${player?.id || "-"}|${seated}|${currentLang()}`;
  if (key === chatComposeKey) return; // keep what is being typed
  chatComposeKey = key;
  const input = h("input", {
    id: "chat-input",
    name: "text",
    maxlength: 500,
    autocomplete: "off",
    disabled: !seated,
    placeholder: t("chat.placeholder"),
    "aria-describedby": seated ? null : "chat-hint",
    "aria-label": t("chat.label"),
  });
  const button = h("button", { type: "submit", class: "btn", id: "chat-send", disabled: !seated }, t("chat.send"));
  fill(
    box,
    h(
      "form",
      {
        class: "chat-form row",
        onsubmit: (event) => {
          event.preventDefault();
          sendChat(input, button);
        },
      },
      input,
      button,
    ),
    seated ? null : h("p", { class: "hint", id: "chat-hint" }, t("chat.seated_only")),
  );
}

// ------------------------------------------------------------------ fair shuffle

let fairKey = null;

function renderFair() {
  const panel = document.getElementById("fair");
  const table = state.table;
  const hex = table?.seed_commitment;
  if (!hex) {
    panel.hidden = true;
    return;
  }
  const finished = status() === "finished";
  if (finished && !state.replay) {
    state.replay = { loading: true };
    getReplay(tableId)
      .then((replay) => {
        state.replay = replay;
        render();
      })
      .catch((err) => {
        console.warn("could not load the replay", err);
        state.replay = { failed: true }; // no retry loop: the page shows the hint instead
      });
  }
  const secret = finished ? state.replay?.seed_secret : null;
  const key = `${hex}|${secret || ""}|${currentLang()}`;
  if (key === fairKey) return;
  fairKey = key;
  panel.hidden = false;
  fillFairPanel(panel, tableId, hex, finished ? secret : null, { pending: true });
}

function renderUndo() {
  const p = state.picture;
  if (!state.undo || !p || p.status !== "playing" || p.version !== state.undo.version || mySeatTakenOver()) return null;
  const button = bannerControl("undo", () =>
    h(
      "button",
      { type: "button", class: "btn btn-undo", "data-action": "undo", onclick: sendUndo },
      h("span", { "aria-hidden": "true" }, "↶ "),
      h("span", { class: "undo-label" }),
    ),
  );
  setAttr(button, "title", t("undo.title"));
  button.disabled = Boolean(state.pending);
  setText(button.querySelector(".undo-label"), t("undo.button"));
  return button;
}

function render() {
  if (isGone()) return; // the table is not there: nothing of it to draw
  renderTitle();
  const live = renderBanner();
  const notify = mySeat() !== null && status() !== "finished" ? renderNotifyToggle() : null;
  keepChildren(
    document.getElementById("turn-banner"),
    [live, renderUndo(), notify, renderSoundToggle()].filter(Boolean),
  );
  renderTakeover();
  renderBoard();
  renderSeats();
  renderSetup();
  renderResult();
  endings.render();
  renderFair();
  renderChatCompose();
  renderConn();
  renderDock();
  maybeNotify();
}

function showFatal(key, hint = "gone.hint") {
  socket?.close();
  showGone({ key, hint });
}

// ------------------------------------------------------------------ start

async function main() {
  await initI18n();
  initHints(board);
  installReadable(document.getElementById("main"));
  header = mountHeader({
    onIdentityChange: () => {
      connect();
      render();
    },
  });
  onLangChange(() => {
    render();
    renderLog();
    renderChat();
    // The server's log lines come in one language: fetch them again, and reconnect so
    // the socket's events carry the new language too.
    if (socket && state.table && state.table.status !== "open") {
      reloadLog();
      connect();
    }
  });
  render();
  await checkIdentity();
  header.redraw();
  try {
    state.table = await getTable(tableId);
  } catch (err) {
    // No table by that id (422: not even an id): say so rather than load forever.
    if (err.status === 404 || err.status === 422) showFatal("table.not_found");
    else showGone({ text: errorText(err), hint: null, links: [{ key: "gone.retry", href: location.href }] });
    return;
  }
  const [games] = await Promise.all([
    listGames().catch(() => []),
    state.table ? loadRenderer(state.table.game) : Promise.resolve(),
  ]);
  state.game = games.find((g) => g.id === state.table?.game) || null;
  if (state.table && state.table.status !== "open") {
    try {
      const log = await getLog(tableId, 0, currentLang());
      addEvents(log.events);
      state.loggedVersion = log.version;
    } catch (err) {
      console.warn("could not load the log", err);
    }
  }
  render();
  renderLog();
  connect();
  catchUpChat();
  setInterval(tickClocks, CLOCK_TICK_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) {
      if (!socket?.isOpen) socket?.reconnectNow();
      render();
    }
  });
}

main().catch((err) => {
  console.error(err);
  toast(errorText(err), "error");
});
