// The "How to play" page (/games/{id}/rules): the same shell for every game. It loads the
// game's content fragment (static/rules/<game>.<lang>.html), builds a table of contents from
// its <h2>s and draws every <figure data-figure="name"> with the game's own renderer, from
// the picture GET /api/v1/games/{id}/figures/{name} answers (shaped like a table frame).
// Like table.js, it never looks at a game id beyond loading files of that name (the game's
// sheet too, scoped under each figure: gamestyle.js).

import { listGames, ApiError } from "./api.js";
import { h } from "./dom.js";
import { initI18n, t, currentLang, onLangChange, useGameStrings, usePageStrings, applyI18n } from "./i18n.js";
import { mountHeader, gameTitle, errorText } from "./common.js";
import { initHints } from "./hints.js";
import { installReadable } from "./readable.js";
import { useGameStyles, scopeToGame } from "./gamestyle.js";

const gameId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").slice(-2)[0]);
const content = document.getElementById("rules-content");

const state = {
  game: null, // the catalog entry (title), if the server lists it
  renderer: null,
  pictures: new Map(), // figure name -> Promise of its picture (figures never change)
  drawn: 0, // bumps on every redraw, so a slow load of an older language is dropped
};

// ------------------------------------------------------------------ loading

async function loadRenderer() {
  try {
    state.renderer = await import(`./games/${encodeURIComponent(gameId)}.js`);
    await useGameStyles(gameId); // before the first figure, which would otherwise flash unstyled
  } catch (err) {
    console.info(`no renderer for ${gameId}; using the generic one`, err);
    state.renderer = await import("./games/_generic.js");
  }
}

function picture(name) {
  if (!state.pictures.has(name)) {
    const url = `/api/v1/games/${encodeURIComponent(gameId)}/figures/${encodeURIComponent(name)}`;
    const promise = fetch(url, { headers: { Accept: "application/json" } }).then(async (response) => {
      const body = await response.json().catch(() => ({}));
      if (!response.ok) throw new ApiError(response.status, body?.error);
      return body;
    });
    promise.catch(() => state.pictures.delete(name)); // a later redraw may try again
    state.pictures.set(name, promise);
  }
  return state.pictures.get(name);
}

async function fetchContent(lang) {
  const response = await fetch(`/static/rules/${encodeURIComponent(gameId)}.${lang}.html`, { cache: "no-cache" });
  if (!response.ok) return null;
  return response.text();
}

// ------------------------------------------------------------------ figures

/** How many seats the figure's table has: the view says it in one of the usual ways, or the
 *  seats that appear in the picture tell. */
function seatCount(p) {
  const view = p.view || {};
  for (const key of ["n_players", "num_players", "players_count", "seat_count"]) {
    if (Number.isInteger(view[key])) return view[key];
  }
  for (const key of ["players", "seats"]) {
    if (Array.isArray(view[key]) && view[key].length) return view[key].length;
  }
  const seats = [p.seat ?? 0, ...(p.to_act || []), ...Object.keys(p.result?.scores || {}).map(Number)];
  return Math.max(...seats) + 1;
}

function context(p) {
  const n = seatCount(p);
  return {
    t,
    lang: currentLang(),
    act: () => false, // a picture in a book: nothing is sent
    seatName: (seat) => t("seat.number", { n: seat + 1 }),
    mySeat: p.seat ?? null,
    pending: false,
    table: {
      id: null,
      game: gameId,
      status: p.status,
      seats: Array.from({ length: n }, (_, seat) => ({ seat, player: null, bot: false, connected: true })),
    },
  };
}

function showFigureError(figure, name, detail) {
  figure.dataset.figureState = "error";
  const message = h(
    "p",
    { class: "figure-error notice", role: "note" },
    t("rules.figure_failed", { name }),
    detail ? h("span", { class: "figure-error-detail" }, ` (${detail})`) : null,
  );
  figure.querySelector(".figure-board")?.replaceChildren(message);
}

// A figure is a picture of one moment: its parts ("Seat 2", "Central board") are groups of
// the picture, not landmarks of the page, where every figure would repeat them (issue 35.8).
const LANDMARKS = "section, aside, nav, main, form, [role=region], [role=complementary], [role=navigation], [role=main], [role=form], [role=search]";

function notLandmarks(board) {
  for (const el of board.querySelectorAll(LANDMARKS)) {
    // A named <section> or <form> counts as a landmark whatever its role says (axe reads it
    // so): the part becomes a <div> group with the same attributes and children.
    const group = document.createElement("div");
    for (const { name, value } of el.attributes) group.setAttribute(name, value);
    group.setAttribute("role", "group");
    group.append(...el.childNodes);
    el.replaceWith(group);
  }
}

async function drawFigure(figure, token) {
  const name = figure.dataset.figure || "";
  let board = figure.querySelector(":scope > .figure-board");
  if (!board) {
    board = h("div", { class: "figure-board board" });
    scopeToGame(board, gameId); // the game's sheet applies inside its figures only
    figure.prepend(board);
    // Pictures are for looking: a click (or the key that would click) plays nothing and
    // must not change a renderer's own selection either. Long-press hints still work.
    board.addEventListener("click", (event) => {
      event.preventDefault();
      event.stopPropagation();
    }, true);
  }
  figure.dataset.figureState = "loading";
  board.replaceChildren(h("p", { class: "muted figure-loading" }, t("rules.figure_loading")));
  let p;
  try {
    p = await picture(name);
  } catch (err) {
    if (token === state.drawn) showFigureError(figure, name, errorText(err));
    return;
  }
  if (token !== state.drawn) return;
  if (!figure.querySelector("figcaption") && p.caption) figure.append(h("figcaption", null, p.caption));
  const frame = p;
  try {
    board.replaceChildren();
    state.renderer.render(board, frame, context(frame));
    if (!board.childNodes.length) throw new Error("the renderer drew nothing");
    notLandmarks(board);
    figure.dataset.figureState = "drawn";
  } catch (err) {
    console.error("figure failed", name, err);
    showFigureError(figure, name, err.message);
  }
}

// ------------------------------------------------------------------ page

function buildToc() {
  const list = document.getElementById("rules-toc-list");
  const items = [];
  content.querySelectorAll("h2").forEach((heading, index) => {
    const section = heading.closest("section[id]");
    let target = section && section.querySelector("h2") === heading ? section.id : heading.id;
    if (!target) {
      target = `rules-part-${index + 1}`;
      heading.id = target;
    }
    items.push(h("li", null, h("a", { href: `#${target}` }, heading.textContent.trim())));
  });
  list.replaceChildren(...items);
  document.getElementById("rules-toc").hidden = items.length === 0;
}

function renderTitle() {
  const title = gameTitle(state.game || { id: gameId, title: gameId });
  document.getElementById("rules-game").textContent = t("rules.heading", { game: title });
  document.title = t("rules.page_title_game", { game: title });
}

async function render() {
  const token = ++state.drawn;
  const lang = currentLang();
  document.body.dataset.status = "loading";
  renderTitle();
  let text = null;
  try {
    text = await fetchContent(lang);
  } catch (err) {
    console.warn("could not load the rules", err);
  }
  if (token !== state.drawn) return;
  if (text === null) {
    content.replaceChildren(
      h("h1", null, t("rules.heading", { game: gameTitle(state.game || { id: gameId, title: gameId }) })),
      h("p", { class: "notice rules-missing", role: "status" }, t("rules.missing")),
    );
    buildToc();
    document.body.dataset.status = "missing";
    return;
  }
  const template = document.createElement("template");
  template.innerHTML = text;
  template.content.querySelectorAll("script").forEach((el) => el.remove());
  content.replaceChildren(template.content);
  content.lang = lang;
  buildToc();
  const figures = [...content.querySelectorAll("figure[data-figure]")];
  await Promise.all(figures.map((figure) => drawFigure(figure, token)));
  if (token !== state.drawn) return;
  document.body.dataset.status = "ready";
  if (location.hash) document.getElementById(location.hash.slice(1))?.scrollIntoView();
}

async function main() {
  usePageStrings("rules");
  await initI18n();
  mountHeader();
  await Promise.all([
    useGameStrings(gameId),
    loadRenderer(),
    listGames()
      .then((games) => {
        state.game = games.find((g) => g.id === gameId) || null;
      })
      .catch(() => {}),
  ]);
  applyI18n(document);
  initHints(content);
  installReadable(content);
  onLangChange(() => render());
  await render();
}

main().catch((err) => {
  console.error(err);
  document.body.dataset.status = "error";
  content.replaceChildren(h("p", { class: "notice" }, t("rules.failed")));
});
