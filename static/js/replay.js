// The replay page (/replays/{id}): a finished game step by step, from the stored log, with
// full information or from one seat's (or a spectator's) point of view. Each step is drawn by
// the game's own renderer (static/js/games/<game>.js, loaded by name like the table page) with
// no legal actions; the full-information state is shown as a tree by the generic renderer.
// This file never looks at a game id beyond loading the renderer module and the sheet of that
// name (static/css/<game>.css, scoped under the board: gamestyle.js).

import { checkIdentity, identity, getTable, getReplaySteps, getReplay, listGames } from "./api.js";
import { h, fill, toast } from "./dom.js";
import { initI18n, t, currentLang, onLangChange, useGameStrings, renderMessage } from "./i18n.js";
import { showGone, isGone } from "./gone.js";
import { mountHeader, showError, errorText, seatName, playerName, levelName, gameTitle } from "./common.js";
import * as generic from "./games/_generic.js";
import { resignedTag, resultNote } from "./endings.js";
import { installReadable } from "./readable.js";
import { fillFairPanel } from "./fairness.js";
import { logLine } from "./logline.js";
import { useGameStyles, scopeToGame } from "./gamestyle.js";
import { animated } from "./motion.js";
import { opponentName } from "./result.js";

const tableId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());
const query = new URLSearchParams(location.search);
const PAGE = 500; // the server's largest page of steps
const PLAY_MS = 1100;

const state = {
  table: null,
  game: null,
  renderer: null,
  perspective: query.get("perspective") || null,
  steps: {}, // "perspective lang" -> [step] (index = version - 1); the steps' lines are in lang
  final: 0,
  index: 0, // the step shown (version - 1)
  playing: null, // the autoplay timer
  loading: false,
  wanted: null, // the perspective being loaded
  replay: null, // GET /replay: the revealed seed
};

const board = document.getElementById("board");

// ------------------------------------------------------------------ loading

async function loadRenderer(game) {
  scopeToGame(board, game);
  await useGameStrings(game);
  try {
    state.renderer = await import(`./games/${encodeURIComponent(game)}.js`);
    await useGameStyles(game);
  } catch (err) {
    console.info(`no renderer for ${game}; using the generic one`, err);
    state.renderer = generic;
  }
}

const stepsKey = (perspective, lang = currentLang()) => `${perspective} ${lang}`;

/** Every step of the game from one perspective (pages of PAGE versions), with the server's
 *  readable lines in the page's language (the same lines as the table page's log). */
async function loadSteps(perspective) {
  const lang = currentLang();
  const key = stepsKey(perspective, lang);
  if (state.steps[key]) return state.steps[key];
  const steps = [];
  let start = 1;
  for (;;) {
    const page = await getReplaySteps(tableId, perspective, start, PAGE, lang);
    steps.push(...page.steps);
    state.final = page.version;
    if (!page.steps.length || start + PAGE > page.version) break;
    start += PAGE;
  }
  state.steps[key] = steps;
  return steps;
}

function steps() {
  const own = state.steps[stepsKey(state.perspective)];
  if (own) return own;
  // While the steps in a new language load, the ones at hand (the boards are the same).
  const other = Object.keys(state.steps).find((key) => key.startsWith(`${state.perspective} `));
  return other ? state.steps[other] : [];
}

function currentStep() {
  return steps()[state.index] || null;
}

function perspectiveSeat(perspective = state.perspective) {
  return /^\d+$/.test(perspective || "") ? Number(perspective) : null;
}

// ------------------------------------------------------------------ drawing a step

function context() {
  return {
    t,
    lang: currentLang(),
    act: () => false, // a replay is read-only
    seatName: (seat) => seatName(state.table, seat),
    mySeat: perspectiveSeat(),
    pending: false,
    table: state.table,
    replay: true,
  };
}

function pictureOf(step) {
  const last = step.version === state.final;
  return {
    version: step.version,
    status: last ? "finished" : "playing",
    game: state.table.game,
    to_act: step.to_act || [],
    seat: perspectiveSeat(),
    view: state.perspective === "full" ? step.state : step.view,
    legal_actions: [],
    result: last ? state.table.result || null : null,
  };
}

function drawBoard() {
  const step = currentStep();
  if (!step) {
    fill(board, h("div", { class: "board-empty" }, h("p", { class: "board-empty-title" }, t("replay.loading"))));
    return;
  }
  const picture = pictureOf(step);
  const full = state.perspective === "full";
  const renderer = full ? generic : state.renderer || generic;
  const root = h("div", { class: ["replay-board", full ? "replay-full" : ""] });
  try {
    renderer.render(root, picture, context());
  } catch (err) {
    console.warn("the renderer failed on this step; showing the generic board", err);
    generic.render(root, picture, context());
  }
  // A step forward moves its pieces as the table does (motion.js: not with reduced motion).
  animated(board, step.version, () => fill(board, full ? h("p", { class: "replay-full-note" }, t("replay.full_note")) : null, root));
}

/** An event's line, as the table page's log gives it: the game's own, else the server's. */
function describe(event) {
  return logLine(event, state.renderer, context(), (seat) => playerName(state.table, seat));
}

function actionLine(step) {
  if (!step.action) return t("replay.initial");
  const who = typeof step.actor === "number" ? seatName(state.table, step.actor) : "?";
  if (step.kind === "undo") return renderMessage({ key: "table.line.action_undone", params: { seat: { seat: step.actor } } }, (seat) => playerName(state.table, seat));
  // The game's own line for the action (its message, else the server's text in the page's language).
  const action = renderMessage(step.action_message) ?? step.action_text ?? generic.actionText(step.action);
  return t("replay.action", { name: who, action });
}

function renderStepPanel() {
  const panel = document.getElementById("step-panel");
  const step = currentStep();
  if (!step) {
    panel.replaceChildren(h("h2", null, t("replay.this_step")));
    return;
  }
  const lines = (step.events || []).map(describe).filter((x) => x !== null);
  fill(
    panel,
    h("h2", null, t("replay.this_step")),
    h("p", { class: ["step-action", step.action ? "" : "initial"], "data-testid": "step-action" }, actionLine(step)),
    lines.length
      ? h("ul", { class: "step-events", "data-testid": "step-events" }, lines.map((line) => h("li", null, line)))
      : null,
    step.to_act?.length && step.version !== state.final
      ? h("p", { class: "muted small" }, t("replay.to_act", { names: step.to_act.map((s) => seatName(state.table, s)).join(", ") }))
      : null,
  );
}

function renderLog() {
  const list = document.getElementById("log-list");
  const items = [];
  for (const step of steps().slice(0, state.index + 1)) {
    const current = step.version === state.index + 1;
    const lines = step.action ? (step.events || []).map(describe).filter((x) => x !== null) : [t("replay.initial")];
    if (!lines.length) lines.push(actionLine(step));
    for (const line of lines) {
      items.push(
        h(
          "li",
          { class: ["replay-log-line", current ? "current" : ""], "data-version": step.version },
          h("button", { type: "button", class: "log-jump", onclick: () => go(step.version - 1) }, line),
        ),
      );
    }
  }
  list.replaceChildren(...items);
  const last = list.querySelector("li.current");
  if (last) list.scrollTop = last.offsetTop - list.offsetTop - list.clientHeight + last.offsetHeight + 8;
}

function renderSeats() {
  const panel = document.getElementById("seats");
  const table = state.table;
  if (!table) return;
  const result = table.result || {};
  const places = result.places || {};
  const scores = result.scores || {};
  const step = currentStep();
  const toAct = new Set(step && step.version !== state.final ? step.to_act : []);
  const seat = perspectiveSeat();
  fill(
    panel,
    h("h2", null, t("seats.title")),
    h(
      "ul",
      { class: "seat-list" },
      table.seats.map((s) =>
        h(
          "li",
          { class: ["seat-row", s.seat === seat ? "mine" : "", toAct.has(s.seat) ? "to-act" : ""], "data-seat": s.seat },
          h("span", { class: "seat-turn", "aria-hidden": "true" }, toAct.has(s.seat) ? "▶" : ""),
          h("span", { "aria-hidden": "true" }),
          h(
            "span",
            { class: "seat-name" },
            s.player
              ? h("a", { href: `/players/${encodeURIComponent(s.player.id)}` }, seatName(table, s.seat))
              : seatName(table, s.seat),
            resignedTag(result, s.seat),
            // A person's seat that a bot played (taken over or resigned): which level.
            s.player && s.bot_level
              ? h(
                  "span",
                  { class: "seat-bot-for replay-bot-level", "data-testid": "bot-level" },
                  t("replay.bot_took_over", { level: levelName(s.bot_level) }),
                )
              : null,
          ),
          places[s.seat] !== undefined || places[String(s.seat)] !== undefined
            ? placeAndScore(places[s.seat] ?? places[String(s.seat)], scores[s.seat] ?? scores[String(s.seat)])
            : null,
        ),
      ),
      // The automatic opponents the rules play (Ginkgopolis' Hal, MINE!'s dummy) are in the
      // game too: listed with their place (issue 35.8).
      (result.others || []).map((o) =>
        h(
          "li",
          { class: "seat-row seat-other", "data-other": o.id },
          h("span", { class: "seat-turn", "aria-hidden": "true" }),
          h("span", { class: "bot-icon", "aria-hidden": "true" }, "⚙"),
          h("span", { class: "seat-name" }, opponentName(table.game, o)),
          o.place !== undefined && o.place !== null ? placeAndScore(o.place, o.score) : null,
        ),
      ),
    ),
    resultNote(result),
  );
}

function placeAndScore(place, score) {
  const known = score !== undefined && score !== null;
  return h(
    "span",
    { class: "seat-score", title: known ? t("result.points", { n: score }) : null },
    t("result.place", { n: place }),
    known ? ` · ${score}` : null,
  );
}

function renderFair() {
  const panel = document.getElementById("fair");
  const r = state.replay;
  if (!r?.seed_commitment) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  fillFairPanel(panel, tableId, r.seed_commitment, r.seed_secret);
}

function perspectiveLabel(p) {
  if (p === "full") return t("replay.perspective.full");
  if (p === "spectator") return t("replay.perspective.spectator");
  return t("replay.perspective.seat", { name: seatName(state.table, Number(p)) });
}

function button(id, label, icon, onclick, disabled) {
  return h(
    "button",
    { type: "button", class: "btn replay-btn", id, title: label, "aria-label": label, onclick, disabled },
    h("span", { "aria-hidden": "true" }, icon),
  );
}

function renderControls() {
  const box = document.getElementById("replay-controls");
  const table = state.table;
  if (!table) return;
  const total = state.final || 1;
  const at = state.index + 1;
  const perspectives = ["full", "spectator", ...table.seats.map((s) => String(s.seat))];
  const select = h(
    "select",
    {
      id: "perspective",
      onchange: (e) => setPerspective(e.target.value),
      disabled: state.loading,
    },
    perspectives.map((p) => h("option", { value: p, selected: p === (state.wanted || state.perspective) }, perspectiveLabel(p))),
  );
  const slider = h("input", {
    type: "range",
    id: "replay-slider",
    min: 1,
    max: total,
    step: 1,
    value: at,
    "aria-label": t("replay.slider"),
    "aria-valuetext": t("replay.step", { n: at, total }),
    oninput: (e) => go(Number(e.target.value) - 1, { keepPlaying: false }),
  });
  const playing = Boolean(state.playing);
  const hadFocus = box.contains(document.activeElement) ? document.activeElement.id : null;
  fill(
    box,
    h(
      "div",
      { class: "replay-row" },
      h(
        "a",
        { class: "btn btn-link replay-back", href: `/tables/${encodeURIComponent(tableId)}` },
        t("replay.back_to_table"),
      ),
      h("label", { class: "perspective", for: "perspective" }, h("span", null, t("replay.perspective")), select),
    ),
    h(
      "div",
      { class: "replay-row replay-transport" },
      button("replay-first", t("replay.first"), "«", () => go(0), state.loading || at <= 1),
      button("replay-prev", t("replay.prev"), "‹", () => go(state.index - 1), state.loading || at <= 1),
      h(
        "button",
        {
          type: "button",
          class: ["btn", "btn-primary", "replay-play"],
          id: "replay-play",
          "aria-pressed": playing ? "true" : "false",
          onclick: togglePlay,
          disabled: state.loading || !steps().length,
        },
        h("span", { "aria-hidden": "true" }, playing ? "❙❙ " : "▶ "),
        playing ? t("replay.pause") : t("replay.play"),
      ),
      button("replay-next", t("replay.next"), "›", () => go(state.index + 1), state.loading || at >= total),
      button("replay-last", t("replay.last"), "»", () => go(total - 1), state.loading || at >= total),
      slider,
      h("span", { class: "replay-step", id: "replay-step", "data-testid": "replay-step" }, t("replay.step", { n: at, total })),
    ),
  );
  if (hadFocus) {
    const again = document.getElementById(hadFocus);
    if (again && !again.disabled) again.focus({ preventScroll: true });
    else document.getElementById("replay-play")?.focus({ preventScroll: true });
  }
}

function renderTitle() {
  const game = state.game || (state.table ? { id: state.table.game, title: state.table.game } : null);
  document.getElementById("table-title").textContent = game
    ? `${t("replay.title")} · ${gameTitle(game)} · #${tableId.slice(0, 6)}`
    : t("replay.title");
  document.title = game ? `${t("replay.title")} · ${gameTitle(game)} · Partida` : t("replay.page_title");
}

function render() {
  if (isGone()) return;
  renderTitle();
  renderControls();
  drawBoard();
  renderStepPanel();
  renderSeats();
  renderLog();
  renderFair();
  document.body.dataset.version = String(state.index + 1);
  document.body.dataset.perspective = state.perspective || "";
  document.body.dataset.status = state.loading ? "loading" : "ready";
}

// ------------------------------------------------------------------ moving

function remember() {
  const params = new URLSearchParams(location.search);
  params.set("perspective", state.perspective);
  params.set("v", String(state.index + 1));
  history.replaceState(null, "", `${location.pathname}?${params}`);
}

function go(index, { keepPlaying = true } = {}) {
  const count = steps().length;
  if (!count) return;
  state.index = Math.max(0, Math.min(count - 1, index));
  if (!keepPlaying || state.index >= count - 1) stopPlay();
  remember();
  render();
}

function stopPlay() {
  clearInterval(state.playing);
  state.playing = null;
}

function togglePlay() {
  if (state.playing) {
    stopPlay();
    render();
    return;
  }
  if (state.index >= steps().length - 1) state.index = 0;
  state.playing = setInterval(() => go(state.index + 1), PLAY_MS);
  render();
}

async function setPerspective(perspective) {
  stopPlay();
  state.loading = true;
  state.wanted = perspective;
  render();
  try {
    await loadSteps(perspective);
    state.perspective = perspective; // switch only once its steps are here
  } catch (err) {
    showError(err);
  }
  state.loading = false;
  state.wanted = null;
  state.index = Math.min(state.index, Math.max(0, steps().length - 1));
  remember();
  render();
}

function onKey(event) {
  if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1 };
  if (event.key in moves) go(state.index + moves[event.key], { keepPlaying: false });
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(steps().length - 1);
  else if (event.key === " " && !event.target.closest("button, a")) togglePlay();
  else return;
  event.preventDefault();
}

// ------------------------------------------------------------------ start

/** The replay cannot be shown: a message (a key, or an error's text) in place of the page. */
function showFatal(message) {
  const links = state.table ? [{ key: "replay.back_to_table", href: `/tables/${encodeURIComponent(tableId)}` }] : [];
  showGone({ ...message, links });
}

async function main() {
  await initI18n();
  installReadable(document.getElementById("main"));
  mountHeader({ onIdentityChange: () => render() });
  renderTitle();
  await checkIdentity();
  try {
    // In the page's language: the result's tie-break text (the board may show it) follows it.
    state.table = await getTable(tableId, currentLang());
  } catch (err) {
    showFatal(err.status === 404 || err.status === 422 ? { key: "table.not_found" } : { text: errorText(err), hint: null });
    return;
  }
  if (state.table.status !== "finished") {
    showFatal({ key: "replay.not_finished", hint: null });
    return;
  }
  const me = identity();
  const mine = me ? state.table.seats.find((s) => s.player?.id === me.id) : null;
  const valid = ["full", "spectator", ...state.table.seats.map((s) => String(s.seat))];
  if (!valid.includes(state.perspective)) state.perspective = mine ? String(mine.seat) : "spectator";
  state.loading = true;
  const [games] = await Promise.all([
    listGames().catch(() => []),
    loadRenderer(state.table.game),
    loadSteps(state.perspective).catch((err) => {
      showError(err);
      return [];
    }),
    getReplay(tableId)
      .then((r) => {
        state.replay = r;
      })
      .catch(() => {}),
  ]);
  state.game = games.find((g) => g.id === state.table.game) || null;
  state.loading = false;
  const wanted = Number(query.get("v"));
  state.index = Number.isInteger(wanted) && wanted >= 1 ? Math.max(0, Math.min(wanted, steps().length) - 1) : 0;
  render();
  document.addEventListener("keydown", onKey);
  onLangChange((lang) => {
    render();
    getTable(tableId, lang)
      .then((table) => {
        state.table = table;
        render();
      })
      .catch(() => {});
    // The server's lines come in one language: this perspective's steps again, in the new one.
    loadSteps(state.perspective)
      .then(() => render())
      .catch(() => {});
  });
  window.partida = { state }; // for debugging and the browser tests
}

main().catch((err) => {
  console.error(err);
  toast(errorText(err), "error");
});
