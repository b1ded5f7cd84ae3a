// A page whose subject is not there — a table, replay or player link that leads nowhere, or
// a table closed while you look at it: the page says so, in its language, in place of its
// panels, instead of a board that says "Loading…" forever. (Unknown addresses get the
// server's own 404 page, static/404.html.)

import { h, fill } from "./dom.js";
import { t, onLangChange } from "./i18n.js";

let shown = null;

function draw() {
  const { key, params, text, hint, links } = shown;
  const message = key ? t(key, params) : text;
  let box = document.getElementById("gone");
  if (!box) {
    box = h("section", { id: "gone", class: "gone", "data-testid": "gone", tabindex: "-1" });
    document.getElementById("main").prepend(box);
  }
  fill(
    box,
    h("h1", { class: "gone-title" }, message),
    hint ? h("p", { class: "gone-hint" }, t(hint)) : null,
    h(
      "p",
      { class: "gone-links" },
      links.map((link) => h("a", { class: "btn", href: link.href }, t(link.key))),
      h("a", { class: "btn btn-primary", href: "/" }, t("result.back")),
    ),
  );
  document.title = `${message} · Partida`;
}

/**
 * Replace the page's panels by one message: `key` (a translation key, redrawn when the
 * language changes) or `text` (an error's own text), a `hint` (a key; null for none), then
 * links back (`links`: [{key, href}]) and to the lobby. The panels stay in the page, hidden,
 * so late redraws find them.
 */
export function showGone({ key = null, params = null, text = "", hint = "gone.hint", links = [] } = {}) {
  const first = shown === null;
  shown = { key, params, text, hint, links };
  document.body.dataset.status = "gone";
  for (const child of document.getElementById("main").children) {
    if (child.id !== "gone") child.hidden = true;
  }
  // What belongs to a table that is not there: its title, its rules link, the connection dot.
  for (const id of ["table-title", "rules-link", "conn"]) {
    const el = document.getElementById(id);
    if (el) el.hidden = true;
  }
  const skip = document.querySelector(".skip-link");
  if (skip) {
    skip.setAttribute("href", "#gone");
    skip.dataset.i18n = "a11y.skip"; // "Skip to content": the board is not there
    skip.textContent = t("a11y.skip");
  }
  draw();
  if (first) onLangChange(() => draw());
}

export function isGone() {
  return shown !== null;
}
