// Short phone pages (issue 35.2): on a phone, what the player only looks at now and then (the
// other players' areas, the reference panels, the log) is a one-line summary that opens on a
// tap; the player's own area and the shared board stay open. Native <details>/<summary>: a tap,
// Enter or Space opens it, and a screen reader says whether it is open.
//
// A board is drawn again at every step: what the player opened stays open (and what they
// closed, closed), keyed by a name the renderer gives, for as long as the page lives. On a wide
// screen (a laptop) a player's area is drawn whole, as before; a reference panel is open there
// unless the renderer says otherwise. This module knows no game.

import { h } from "./dom.js";

/** The width at which the page becomes a phone page (as readable.css's top bar). */
export const PHONE_QUERY = "(max-width: 760px)";

const media = typeof window !== "undefined" && window.matchMedia ? window.matchMedia(PHONE_QUERY) : null;
const chosen = new Map(); // key -> open, as the player left it
const listeners = new Set();

if (media) media.addEventListener("change", () => listeners.forEach((fn) => fn()));

/** True on a phone-sized page: parts fold into summaries. */
export function compact() {
  return Boolean(media?.matches);
}

/** Call `fn` when the page crosses between phone and wide (to draw the board again). */
export function onCompactChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Forget what the player opened and closed (a new table on the same page). */
export function resetFolds() {
  chosen.clear();
}

/**
 * Make `details` remember its state under `key`: open as the player left it, else `open`
 * (the default, a boolean or a function of compact()). Returns the element.
 */
export function keepOpen(details, key, open) {
  const fallback = typeof open === "function" ? open(compact()) : Boolean(open);
  setOpen(details, chosen.has(key) ? chosen.get(key) : fallback);
  details.dataset.fold = key;
  details.addEventListener("toggle", () => {
    // The toggle of our own setting comes too: only a change from it is the player's.
    if (details.open === setBy.get(details)) return;
    setBy.set(details, details.open);
    chosen.set(key, details.open);
  });
  const summary = details.querySelector(":scope > summary");
  if (summary) {
    // The shell gives the focus back to "the same" control after a redraw (by its data-*).
    summary.dataset.foldSummary = key;
    // A tap, Enter or Space clicks the summary, which then opens or closes its part: noted at
    // once, as a board drawn again before the toggle event comes must keep the player's choice.
    summary.addEventListener("click", () => {
      const next = !details.open;
      setBy.set(details, next);
      chosen.set(key, next);
    });
  }
  return details;
}

const setBy = new WeakMap(); // details -> the state this module last gave it

function setOpen(details, open) {
  setBy.set(details, open);
  details.open = open;
}

/**
 * A part of the board that folds on a phone: `<details class="fold">` whose summary is
 * `summary` (one line of real information: a name, a score, key counts) and whose body is
 * `body`. On a wide screen the body is returned as it is, unless `always`.
 *
 * options: `open` the default state on a phone (closed), `always` fold on wide screens too
 * (then open there by default), `class` extra classes, `label` the summary's accessible name.
 */
export function fold(key, summary, body, options = {}) {
  const { open = false, always = false } = options;
  if (!compact() && !always) return body;
  // What the player can act on now is never folded away.
  if (!always && [body].flat().some((el) => el instanceof Element && el.querySelector(".legal"))) return body;
  const details = h(
    "details",
    { class: ["fold", options.class || ""] },
    h(
      "summary",
      { class: "fold-summary", "aria-label": options.label || null },
      h("span", { class: "fold-line" }, summary),
    ),
    h("div", { class: "fold-body" }, body),
  );
  return keepOpen(details, key, (phone) => (phone ? open : true));
}

/**
 * Fold a static panel of the page (the log, the chat): its heading becomes the summary, with
 * `line()` beside it, a short account of what is inside (the newest log line, the number of
 * messages); open on a wide screen, closed on a phone until opened. Returns
 * `{details, body, heading, note(text)}`: a panel drawn again draws into `body`.
 */
export function foldPanel(panel, key) {
  const heading = panel.querySelector(":scope > h2") || h("h2");
  const line = h("span", { class: "fold-line fold-note" });
  const summary = h("summary", { class: "fold-summary" }, heading, line);
  const body = h("div", { class: "fold-body" });
  body.append(...Array.from(panel.childNodes));
  const details = h("details", { class: "fold fold-panel" }, summary, body);
  panel.replaceChildren(details);
  panel.classList.add("folds");
  keepOpen(details, key, (phone) => !phone);
  onCompactChange(() => {
    if (!chosen.has(key)) setOpen(details, !compact());
  });
  return {
    details,
    body,
    heading,
    note(text) {
      if (line.textContent !== text) line.textContent = text;
    },
  };
}
