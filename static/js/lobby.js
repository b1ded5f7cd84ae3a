// The lobby (/): choose a name, create a table from a game's options_schema, see the open,
// running and finished tables (polled), join, add bots, start, share, spectate.

import * as apiMod from "./api.js";
import { identity, checkIdentity, listGames, listTables, tableUrl, myTables, getMe, setWebhook } from "./api.js";
import { h, fill, toast, copyText } from "./dom.js";
import { initI18n, t, onLangChange } from "./i18n.js";
import { mountHeader, stickyNameForm, showError, errorText, seatName, levelName, levelHint, levelPicker, defaultLevel, gameTitle } from "./common.js";
import { resignField, statusKey, deleteButton } from "./endings.js";
import { optionsFields, wholeChoices } from "./options-form.js";

const POLL_MS = 4000;
const STATUSES = ["open", "playing", "finished"];
const FINISHED_SHOWN = 12;

const state = {
  games: [],
  tables: [],
  filter: "",
  botLevel: {}, // table id -> chosen level
  busy: new Set(),
  loaded: false,
  mine: null, // GET /me/tables (null until loaded)
  myTurns: null, // ids of the tables where it was my turn at the last poll
  webhook: { loaded: false, url: null, error: "", saved: "" },
};
const MY_FINISHED_SHOWN = 4;

// ------------------------------------------------------------------ how to play

function rulesUrl(gameId) {
  return `/games/${encodeURIComponent(gameId)}/rules`;
}

/** The "How to play" link of one game (its rules page). */
function howToLink(game) {
  return h(
    "a",
    {
      class: "howto-link",
      href: rulesUrl(game.id),
      "data-rules-link": game.id,
      "aria-label": t("howto.link_game", { game: gameTitle(game) }),
    },
    t("howto.link"),
  );
}

/** Every game of the catalog with its "How to play" link (shown with or without a name). */
function renderGames() {
  const panel = document.getElementById("games");
  if (!panel) return;
  panel.hidden = !state.games.length;
  fill(
    panel,
    h("h2", { id: "games-title" }, t("lobby.games")),
    h(
      "ul",
      { class: "howto-list" },
      state.games.map((g) => h("li", { "data-game": g.id }, h("span", { class: "table-game" }, gameTitle(g)), howToLink(g))),
    ),
  );
}

// ------------------------------------------------------------------ time control (generic)

// Time per move offered for correspondence games (seconds).
const MOVE_CHOICES = [3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400];

function moveLabel(seconds) {
  if (seconds === 3600) return t("tc.move.one_hour");
  if (seconds < 86400) return t("tc.move.hours", { n: seconds / 3600 });
  if (seconds === 86400) return t("tc.move.one_day");
  return t("tc.move.days", { n: seconds / 86400 });
}

function choice(id, name, options, value) {
  const select = h(
    "select",
    { id, name },
    options.map(([v, label]) => h("option", { value: String(v) }, label)),
  );
  select.value = String(value);
  return select;
}

/** The "Time control" fieldset: a clock (none, real-time bank, time per move), what a
 *  time-out does, and what happens to the seat of a player who went away. Sends the
 *  server's time_control object; the defaults are the server's (no clock, vote, 2 min). */
function timeControlFields() {
  const clock = choice("tc-clock", "clock", [
    ["none", t("tc.clock.none")],
    ["realtime", t("tc.clock.realtime")],
    ["async", t("tc.clock.async")],
  ], "none");
  const bank = h("input", { type: "number", id: "tc-bank", name: "bank_minutes", min: 1, max: 1440, step: 1, value: 10 });
  const increment = h("input", { type: "number", id: "tc-increment", name: "increment_seconds", min: 0, max: 3600, step: 1, value: 10 });
  const move = choice("tc-move", "move_seconds", MOVE_CHOICES.map((v) => [v, moveLabel(v)]), 86400);
  const onTimeout = choice("tc-timeout", "on_timeout", [
    ["bot_move", t("tc.on_timeout.bot_move")],
    ["bot_takeover", t("tc.on_timeout.bot_takeover")],
  ], "bot_move");
  const abandon = choice("tc-abandon", "abandon", [
    ["vote", t("tc.abandon.vote")],
    ["auto", t("tc.abandon.auto")],
    ["off", t("tc.abandon.off")],
  ], "vote");
  const grace = h("input", { type: "number", id: "tc-grace", name: "grace_minutes", min: 1, max: 10080, step: 1, value: 2 });
  // How long bots wait before each move (the server's time_control.bot_pace).
  const pace = choice("tc-pace", "bot_pace", [
    ["fast", t("pace.fast")],
    ["normal", t("pace.normal")],
    ["slow", t("pace.slow")],
  ], "normal");
  // The level of the bot that plays a seat handed over (time-out, abandon, resignation):
  // the chosen game's levels; its default level sends nothing, so the server's default holds.
  const takeover = h("select", {
    id: "tc-takeover-level",
    name: "takeover_level",
    "aria-describedby": "tc-takeover-level-hint",
  });
  const takeoverHint = h("small", { class: "hint", id: "tc-takeover-level-hint" });
  let takeoverDefault = null;
  const syncTakeoverHint = () => {
    const level = levelHint(takeover.value);
    takeoverHint.textContent = level ? `${t("tc.takeover_level_hint")} ${level}` : t("tc.takeover_level_hint");
  };
  takeover.addEventListener("change", syncTakeoverHint);
  const setLevels = (levels, named = null) => {
    const previous = takeover.value;
    takeoverDefault = defaultLevel(levels, named);
    fill(
      takeover,
      levels.map((l) =>
        h(
          "option",
          { value: l, title: levelHint(l) || null },
          l === takeoverDefault ? t("tc.takeover_level.default", { level: levelName(l) }) : levelName(l),
        ),
      ),
    );
    takeover.value = levels.includes(previous) ? previous : takeoverDefault ?? "";
    takeoverBox.hidden = levels.length < 2;
    syncTakeoverHint();
  };
  const field = (id, label, input, extra = {}) =>
    h("div", { class: "field", ...extra }, h("label", { for: id }, label), input);
  const takeoverBox = field("tc-takeover-level", t("tc.takeover_level"), takeover);
  takeoverBox.append(takeoverHint);
  const realtimeBox = h(
    "div",
    { class: "tc-group tc-realtime" },
    field("tc-bank", t("tc.bank"), bank),
    field("tc-increment", t("tc.increment"), increment),
  );
  const asyncBox = h("div", { class: "tc-group tc-async" }, field("tc-move", t("tc.move"), move));
  const timeoutBox = field("tc-timeout", t("tc.on_timeout"), onTimeout);
  const graceBox = field("tc-grace", t("tc.grace"), grace);
  const sync = () => {
    realtimeBox.hidden = clock.value !== "realtime";
    asyncBox.hidden = clock.value !== "async";
    timeoutBox.hidden = clock.value === "none";
    graceBox.hidden = abandon.value === "off";
  };
  clock.addEventListener("change", sync);
  abandon.addEventListener("change", sync);
  sync();
  const whole = (input, fallback, low, high) => {
    const n = parseInt(input.value, 10);
    return Number.isFinite(n) ? Math.min(high, Math.max(low, n)) : fallback;
  };
  const node = h(
    "fieldset",
    { class: "time-control", id: "time-control" },
    h("legend", null, t("tc.title")),
    field("tc-clock", t("tc.clock"), clock),
    realtimeBox,
    asyncBox,
    timeoutBox,
    field("tc-abandon", t("tc.abandon"), abandon),
    graceBox,
    takeoverBox,
    field("tc-pace", t("pace.label"), pace),
    h("small", { class: "hint" }, t("tc.hint")),
  );
  const read = () => {
    const tc = { clock: clock.value, abandon: abandon.value, bot_pace: pace.value };
    if (clock.value === "realtime") {
      tc.bank_seconds = whole(bank, 10, 1, 1440) * 60;
      tc.increment_seconds = whole(increment, 10, 0, 3600);
    } else if (clock.value === "async") {
      tc.move_seconds = parseInt(move.value, 10);
    }
    if (clock.value !== "none") tc.on_timeout = onTimeout.value;
    if (abandon.value !== "off") tc.grace_seconds = whole(grace, 2, 1, 10080) * 60;
    if (takeover.value && takeover.value !== takeoverDefault) tc.takeover_level = takeover.value;
    return tc;
  };
  return { node, read, setLevels };
}

// ------------------------------------------------------------------ create form

function renderCreate() {
  const panel = document.getElementById("create");
  const me = identity();
  panel.hidden = !me;
  if (!me || !state.games.length) {
    fill(panel, 
      h("h2", null, t("create.title")),
      me ? h("p", { class: "muted" }, t("lobby.loading")) : null,
    );
    return;
  }
  const previous = panel.querySelector("#create-game")?.value;
  const gameSelect = h(
    "select",
    { id: "create-game", name: "game" },
    state.games.map((g) => h("option", { value: g.id }, gameTitle(g))),
  );
  if (previous && state.games.some((g) => g.id === previous)) gameSelect.value = previous;
  const dynamic = h("div", { class: "create-dynamic" });
  let reader = null;
  let seatsInput = null;
  const gameRules = h("small", { class: "hint" });
  const drawGame = () => {
    const game = state.games.find((g) => g.id === gameSelect.value) || state.games[0];
    gameRules.replaceChildren(howToLink(game));
    const lo = Math.max(1, game.min_players);
    const hi = game.max_players;
    const seats = Math.min(hi, Math.max(lo, 3));
    const opts = optionsFields(game, seats);
    reader = opts.read;
    seatsInput = h("input", {
      type: "number",
      id: "create-seats",
      name: "seats",
      min: lo,
      max: hi,
      step: 1,
      value: seats,
      required: true,
    });
    // The seat choices of the options (who starts) follow the number of seats.
    seatsInput.addEventListener("input", () => {
      const n = parseInt(seatsInput.value, 10);
      if (n >= lo && n <= hi) opts.setSeats(n);
    });
    fill(dynamic, 
      h(
        "div",
        { class: "field" },
        h("label", { for: "create-seats" }, t("create.seats")),
        seatsInput,
        h("small", { class: "hint" }, t("create.seats_range", { min: lo, max: hi })),
      ),
      opts.fields.length
        ? h(
            "details",
            { class: "options" },
            h("summary", null, t("create.options")),
            h("div", { class: "options-grid" }, opts.fields),
          )
        : null,
    );
  };
  const timeControl = timeControlFields();
  const drawLevels = () => {
    const game = state.games.find((g) => g.id === gameSelect.value) || state.games[0];
    timeControl.setLevels(game.bot_levels || [], game.default_bot_level);
  };
  gameSelect.addEventListener("change", () => {
    drawGame();
    drawLevels();
  });
  drawGame();
  drawLevels();
  const privateBox = h("input", { type: "checkbox", id: "create-private", name: "private" });
  const onResign = resignField();
  const submit = h("button", { type: "submit", class: "btn btn-primary", id: "create-submit" }, t("create.submit"));
  const form = h(
    "form",
    {
      id: "create-form",
      onsubmit: async (event) => {
        event.preventDefault();
        submit.disabled = true;
        try {
          const table = await apiMod.createTable(
            gameSelect.value,
            parseInt(seatsInput.value, 10),
            reader(),
            privateBox.checked,
            timeControl.read(),
            onResign.read(),
          );
          location.href = `/tables/${encodeURIComponent(table.id)}`;
        } catch (err) {
          showError(err);
          submit.disabled = false;
        }
      },
    },
    h("div", { class: "field" }, h("label", { for: "create-game" }, t("create.game")), gameSelect, gameRules),
    dynamic,
    timeControl.node,
    onResign.node,
    h(
      "div",
      { class: "field field-check" },
      h("label", { for: "create-private" }, privateBox, " ", t("create.private")),
      h("small", { class: "hint" }, t("create.private_hint")),
    ),
    h("div", { class: "actions" }, submit),
  );
  panel.replaceChildren(h("h2", null, t("create.title")), form);
  wholeChoices(form);
}

// ------------------------------------------------------------------ tables list

async function runAction(tableId, fn, { reload = true } = {}) {
  if (state.busy.has(tableId)) return;
  state.busy.add(tableId);
  try {
    await fn();
  } catch (err) {
    showError(err);
  } finally {
    state.busy.delete(tableId);
    if (reload) await refreshTables();
  }
}

function seatChip(table, seat) {
  const info = table.seats[seat];
  const me = identity();
  const mine = me && info.player?.id === me.id;
  const cls = ["seat-chip", info.player ? "taken" : info.bot ? "bot" : "free", mine ? "mine" : ""];
  const online = info.bot || info.connected;
  // A person's seat that a bot plays (taken over, resigned) names the bot's level on hover.
  const botFor =
    info.player && info.bot ? t("seat.taken_over", { name: info.player.name, level: levelName(info.bot_level) }) : null;
  return h(
    "li",
    { class: cls, title: botFor },
    info.player || info.bot
      ? h("span", {
          class: ["dot", online ? "online" : "offline"],
          role: "img",
          title: online ? t("seat.online") : t("seat.offline"),
          "aria-label": online ? t("seat.online") : t("seat.offline"),
        })
      : null,
    info.bot ? h("span", { class: "bot-icon", "aria-hidden": "true" }, "⚙ ") : null,
    seatName(table, seat),
  );
}

function tableCard(table) {
  const me = identity();
  const game = state.games.find((g) => g.id === table.game) || { id: table.game, title: table.game };
  const mySeat = me ? table.seats.findIndex((s) => s.player?.id === me.id) : -1;
  const isOwner = me && table.owner?.id === me.id;
  const free = table.seats.filter((s) => !s.player && !s.bot).length;
  const href = `/tables/${encodeURIComponent(table.id)}`;
  const actions = [];
  if (table.status === "open") {
    if (me && mySeat < 0 && free > 0) {
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "btn btn-primary",
            "data-action": "join",
            onclick: () =>
              runAction(table.id, async () => {
                await apiMod.joinTable(table.id);
                location.href = href;
              }, { reload: false }),
          },
          t("table.join"),
        ),
      );
    }
    if (isOwner && free > 0) {
      const levels = game.bot_levels || [];
      const picker = levelPicker(levels, {
        value: state.botLevel[table.id],
        preferred: game.default_bot_level,
        hintId: `bot-level-hint-${table.id}`,
        onChange: (level) => {
          state.botLevel[table.id] = level;
        },
      });
      actions.push(
        h(
          "span",
          { class: "btn-group" },
          h(
            "button",
            {
              type: "button",
              class: "btn",
              "data-action": "add-bot",
              onclick: () => runAction(table.id, () => apiMod.addBot(table.id, picker.select.value || null)),
            },
            t("table.add_bot"),
          ),
          levels.length > 1 ? picker.select : null,
        ),
      );
      // What the chosen level plays like, on its own line right under the select.
      if (levels.length > 1) actions.push(picker.hint);
    }
    if (isOwner && free === 0) {
      actions.push(
        h(
          "button",
          {
            type: "button",
            class: "btn btn-primary",
            "data-action": "start",
            onclick: () =>
              runAction(table.id, async () => {
                await apiMod.startTable(table.id);
                location.href = href;
              }, { reload: false }),
          },
          t("table.start"),
        ),
      );
    }
  }
  actions.push(
    h(
      "a",
      { class: "btn", href, "data-action": "open" },
      mySeat >= 0
        ? t("lobby.go_to_table")
        : table.status === "finished"
          ? t("lobby.see_result")
          : table.status === "playing"
            ? t("lobby.spectate")
            : t("lobby.look"),
    ),
  );
  if (table.status === "open" && isOwner) actions.push(deleteButton(table, () => refreshTables()));
  if (table.status !== "finished" && (!table.private || table.invite_code)) {
    actions.push(
      h(
        "button",
        {
          type: "button",
          class: "btn btn-link",
          "data-action": "copy-link",
          onclick: async () => {
            const link = tableUrl(table.id, table.invite_code);
            const ok = await copyText(link);
            toast(ok ? t("invite.copied") : link, ok ? "info" : "error");
          },
        },
        t("invite.copy"),
      ),
    );
  }
  return h(
    "article",
    { class: ["table-card", `status-${table.status}`], "data-table-id": table.id, "data-status": table.status },
    h(
      "header",
      null,
      h("strong", { class: "table-game" }, gameTitle(game)),
      h("span", { class: ["badge", `badge-${table.status}`, table.result?.cancelled ? "badge-cancelled" : ""] }, t(statusKey(table))),
      table.private ? h("span", { class: "badge badge-private", title: t("create.private_hint") }, t("table.private")) : null,
      h("code", { class: "table-id", title: table.id }, `#${table.id.slice(0, 6)}`),
    ),
    h("ul", { class: "seat-chips", "aria-label": t("table.seats") }, table.seats.map((s) => seatChip(table, s.seat))),
    h("p", { class: "muted small" }, t("lobby.host", { name: table.owner?.name || "?" })),
    h("div", { class: "actions" }, actions),
  );
}

function renderTables() {
  const root = document.getElementById("tables-list");
  const filterSelect = document.getElementById("game-filter");
  const current = state.filter;
  fill(filterSelect, 
    h("option", { value: "" }, t("lobby.all_games")),
    state.games.map((g) => h("option", { value: g.id }, gameTitle(g))),
  );
  filterSelect.value = current;
  if (!state.loaded) {
    root.replaceChildren(h("p", { class: "muted" }, t("lobby.loading")));
    return;
  }
  const shown = state.tables.filter((tb) => !state.filter || tb.game === state.filter);
  const sections = STATUSES.map((status) => {
    let items = shown.filter((tb) => tb.status === status);
    if (status === "finished") items = items.slice(0, FINISHED_SHOWN);
    return h(
      "section",
      { class: "table-group", "data-group": status, "aria-labelledby": `group-${status}` },
      h("h3", { id: `group-${status}` }, t(`lobby.group.${status}`), " ", h("span", { class: "count" }, String(items.length))),
      items.length
        ? h("div", { class: "table-cards" }, items.map(tableCard))
        : h("p", { class: "muted empty" }, t(`lobby.none.${status}`)),
    );
  });
  root.replaceChildren(...sections);
}

let lastListing = "";

async function refreshTables() {
  try {
    // One listing per status, so that no number of finished (or other) tables can push the
    // open ones out of a page; open and playing tables follow the server's cursor.
    const [open, playing, finished] = await Promise.all([
      listTables("open"),
      listTables("playing"),
      listTables("finished", 1),
    ]);
    const tables = [...open, ...playing, ...finished];
    document.getElementById("lobby-offline").hidden = true;
    const listing = JSON.stringify(tables);
    if (listing === lastListing && state.loaded) return; // nothing changed: keep focus and inputs
    lastListing = listing;
    state.tables = tables;
    state.loaded = true;
    document.getElementById("lobby-offline").hidden = true;
  } catch (err) {
    document.getElementById("lobby-offline").hidden = false;
    if (err.code !== "network_error") showError(err);
  }
  renderTables();
}

// ------------------------------------------------------------------ identity panel

function renderIdentity() {
  const panel = document.getElementById("identity");
  const me = identity();
  if (me) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  panel.hidden = false;
  const form = nameFormFor();
  if (panel.contains(form)) return; // keep what is being typed across re-renders
  fill(panel, h("h2", null, t("name.title")), form);
}

// ------------------------------------------------------------------ my tables (signed in)

function notifyOn() {
  return "Notification" in window && Notification.permission === "granted" && localStorage.getItem("partida.notify") === "1";
}

function alertNewTurns(tables) {
  const now = new Set(tables.filter((tb) => tb.my_turn).map((tb) => tb.id));
  const before = state.myTurns;
  state.myTurns = now;
  if (!before) return; // the first look is no news
  for (const tb of tables) {
    if (!tb.my_turn || before.has(tb.id)) continue;
    const game = gameTitle(state.games.find((g) => g.id === tb.game) || { id: tb.game, title: tb.game });
    const body = t("mytables.notify_body", { game });
    if (notifyOn()) {
      try {
        const note = new Notification(t("notify.title"), { body, tag: `partida-${tb.id}` });
        note.onclick = () => {
          window.focus();
          location.href = `/tables/${encodeURIComponent(tb.id)}`;
        };
      } catch {
        /* some browsers only allow notifications from a service worker */
      }
    }
    if (!document.hidden) toast(body, "info");
  }
}

let lastMine = "";

async function refreshMine() {
  if (!identity()) {
    state.mine = null;
    state.myTurns = null;
    lastMine = "";
    renderMine();
    return;
  }
  try {
    const tables = await myTables();
    alertNewTurns(tables);
    const listing = JSON.stringify(tables);
    if (listing === lastMine && state.mine) return;
    lastMine = listing;
    state.mine = tables;
  } catch (err) {
    if (err.status === 401) return;
    if (err.code !== "network_error") console.warn("my tables", err);
    return;
  }
  renderMine();
}

function myTableRow(table) {
  const game = state.games.find((g) => g.id === table.game) || { id: table.game, title: table.game };
  const others = table.seats.filter((s) => s.seat !== table.my_seat).map((s) => seatName(table, s.seat));
  const href =
    table.status === "finished" ? `/replays/${encodeURIComponent(table.id)}` : `/tables/${encodeURIComponent(table.id)}`;
  const badge = table.my_turn
    ? h("span", { class: "badge badge-turn", "data-testid": "your-turn" }, t("mytables.your_turn"))
    : h("span", { class: ["badge", `badge-${table.status}`, table.result?.cancelled ? "badge-cancelled" : ""] }, t(statusKey(table)));
  return h(
    "li",
    { class: ["my-table", table.my_turn ? "my-turn" : "", `status-${table.status}`], "data-table-id": table.id },
    h(
      "a",
      { class: "my-table-link", href },
      h("span", { class: "my-table-head" }, h("strong", { class: "table-game" }, gameTitle(game)), badge),
      h(
        "span",
        { class: "my-table-sub muted small" },
        others.length ? t("mytables.with", { names: others.join(", ") }) : `#${table.id.slice(0, 6)}`,
        table.status === "finished" ? ` · ${t("mytables.replay")}` : "",
      ),
    ),
  );
}

function renderNotifyButton() {
  if (!("Notification" in window)) return null;
  const on = notifyOn();
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-link",
      id: "notify-toggle",
      "aria-pressed": on ? "true" : "false",
      onclick: async () => {
        if (on) localStorage.setItem("partida.notify", "0");
        else {
          const permission = await Notification.requestPermission();
          localStorage.setItem("partida.notify", permission === "granted" ? "1" : "0");
          if (permission !== "granted") toast(t("notify.denied"), "error");
        }
        renderMine();
      },
    },
    on ? t("mytables.notify_off") : t("mytables.notify_on"),
  );
}

async function loadWebhook() {
  try {
    const me = await getMe();
    state.webhook = { ...state.webhook, loaded: true, url: me.webhook_url || null };
  } catch {
    state.webhook = { ...state.webhook, loaded: true };
  }
  renderMine();
}

async function saveWebhook(url) {
  state.webhook = { ...state.webhook, error: "", saved: "" };
  try {
    const me = await setWebhook(url);
    state.webhook = { loaded: true, url: me.webhook_url || null, error: "", saved: url ? t("webhook.saved") : t("webhook.cleared") };
  } catch (err) {
    state.webhook = { ...state.webhook, error: errorText(err), saved: "" };
  }
  webhookKey = null;
  renderMine();
  document.getElementById(state.webhook.error ? "webhook-url" : "webhook-status")?.focus?.();
}

let webhookKey = null;
let webhookBox = null;

function webhookPanel() {
  const w = state.webhook;
  const key = JSON.stringify([w, currentLangKey()]);
  if (webhookBox && key === webhookKey) return webhookBox; // keep what is being typed
  const open = webhookBox?.open || Boolean(w.error);
  webhookKey = key;
  const input = h("input", {
    id: "webhook-url",
    type: "url",
    inputmode: "url",
    placeholder: "https://…",
    maxlength: 2000,
    "aria-describedby": "webhook-help",
    "aria-invalid": w.error ? "true" : null,
  });
  const before = webhookBox?.querySelector("#webhook-url");
  input.value = before?.dataset.dirty && !w.saved ? before.value : w.url || "";
  if (input.value !== (w.url || "")) input.dataset.dirty = "1";
  input.addEventListener("input", () => {
    input.dataset.dirty = "1";
  });
  webhookBox = h(
    "details",
    { class: "webhook", id: "webhook", open },
    h("summary", null, t("webhook.title")),
    h(
      "form",
      {
        class: "webhook-form",
        onsubmit: (event) => {
          event.preventDefault();
          const value = input.value.trim();
          saveWebhook(value || null);
        },
      },
      h("label", { for: "webhook-url" }, t("webhook.label")),
      input,
      h("small", { class: "hint", id: "webhook-help" }, t("webhook.hint")),
      w.error ? h("p", { class: "form-error", id: "webhook-error", role: "alert" }, w.error) : null,
      h(
        "p",
        { class: "small webhook-status", id: "webhook-status", tabindex: "-1" },
        w.saved ? h("span", { class: "ok" }, `${w.saved} `) : null,
        w.loaded ? (w.url ? t("webhook.current", { url: w.url }) : t("webhook.none")) : "",
      ),
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "btn btn-primary", id: "webhook-save" }, t("webhook.save")),
        w.url
          ? h(
              "button",
              { type: "button", class: "btn", id: "webhook-clear", onclick: () => saveWebhook(null) },
              t("webhook.clear"),
            )
          : null,
      ),
    ),
  );
  return webhookBox;
}

let langKey = 0;
function currentLangKey() {
  return langKey;
}

function renderMine() {
  const panel = document.getElementById("my-tables");
  const me = identity();
  if (!me) {
    panel.hidden = true;
    panel.replaceChildren();
    webhookBox = null;
    return;
  }
  panel.hidden = false;
  const tables = state.mine || [];
  const live = tables.filter((tb) => tb.status !== "finished");
  const done = tables.filter((tb) => tb.status === "finished").slice(0, MY_FINISHED_SHOWN);
  const turns = live.filter((tb) => tb.my_turn).length;
  const hadFocus = panel.contains(document.activeElement) ? document.activeElement.id : null;
  const box = webhookPanel();
  fill(
    panel,
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "my-tables-title" }, t("mytables.title"), turns ? h("span", { class: "turn-count", "data-testid": "turn-count" }, String(turns)) : null),
      h("a", { class: "small", href: `/players/${encodeURIComponent(me.id)}`, id: "my-page-link" }, t("mytables.my_page")),
    ),
    state.mine === null
      ? h("p", { class: "muted" }, t("lobby.loading"))
      : live.length
        ? h("ul", { class: "my-table-list", id: "my-table-list" }, live.map(myTableRow))
        : h("p", { class: "muted empty" }, t("mytables.none")),
    done.length
      ? h(
          "details",
          { class: "my-finished" },
          h("summary", null, t("mytables.finished", { n: done.length })),
          h("ul", { class: "my-table-list" }, done.map(myTableRow)),
        )
      : null,
    h("div", { class: "my-tools" }, renderNotifyButton()),
    box,
  );
  if (hadFocus) document.getElementById(hadFocus)?.focus({ preventScroll: true });
}

function renderAll() {
  renderMine();
  renderIdentity();
  renderCreate();
  renderGames();
  renderTables();
}

let header;
const nameFormFor = stickyNameForm(() => {
  header.redraw();
  renderAll();
  refreshMine();
  loadWebhook();
});

async function main() {
  await initI18n();
  header = mountHeader({
    onIdentityChange: () => {
      state.webhook = { loaded: false, url: null, error: "", saved: "" };
      webhookBox = null;
      renderAll();
      refreshMine();
    },
  });
  document.getElementById("game-filter").addEventListener("change", (e) => {
    state.filter = e.target.value;
    renderTables();
  });
  onLangChange(() => {
    langKey += 1;
    renderAll();
  });
  renderAll();
  await checkIdentity();
  header.redraw();
  try {
    state.games = await listGames();
  } catch (err) {
    showError(err);
  }
  renderAll();
  await Promise.all([refreshTables(), refreshMine(), identity() ? loadWebhook() : null]);
  setInterval(() => {
    if (!document.hidden) refreshTables();
    refreshMine(); // also in the background: it drives the turn notifications
  }, POLL_MS);
  document.addEventListener("visibilitychange", () => {
    if (!document.hidden) {
      refreshTables();
      refreshMine();
    }
  });
}

main();
