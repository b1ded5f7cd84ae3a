// The last move of each player stays marked on the board until that player moves again.
//
// The shell reads the log (each event carries its version and `actor`, the seat whose action
// made it); the game's renderer says what an event touched with an optional export
//   lastMove(event, ctx) -> null | [flip keys] | {seat, keys}
// naming the data-flip keys of the board elements (see motion.js) and, when the event is
// another seat's than the actor's (a resolution that moves everybody), whose move it was; and
//   seatColour(seat, view) -> a CSS colour (optional): the seat's colour in the game.
// The newest version at which a seat moved holds its marks; "Take back" clears them.

import { h } from "./dom.js";

/** Per seat, the keys its latest move touched: Map seat → {version, keys}. */
export function lastMoves(events, touched, ctx) {
  const latest = new Map();
  if (typeof touched !== "function") return latest;
  for (const event of events || []) {
    if (event.type === "action_undone" && typeof event.seat === "number") {
      latest.delete(event.seat);
      continue;
    }
    let out = null;
    try {
      out = touched(event, ctx);
    } catch (err) {
      console.warn("lastMove failed", err);
    }
    if (!out) continue;
    const keys = Array.isArray(out) ? out : out.keys;
    const seat = Array.isArray(out) ? event.actor : out.seat;
    if (typeof seat !== "number" || !keys || !keys.length) continue;
    const version = typeof event.version === "number" ? event.version : 0;
    const current = latest.get(seat);
    if (!current || version > current.version) latest.set(seat, { version, keys: [...keys] });
    else if (version === current.version) current.keys.push(...keys);
  }
  return latest;
}

/** Mark the elements of `root` that each seat's last move touched: class last-move, the seat
 *  in data-last-seat (a colour of the shell's), or the game's own colour for the seat when
 *  `colour(seat)` gives one, and a tag with its name. */
export function markLastMoves(root, latest, label, colour = () => null) {
  for (const [seat, { keys }] of latest) {
    const name = label(seat);
    const own = colour(seat);
    for (const key of keys) {
      const el = root.querySelector(`[data-flip="${CSS.escape(key)}"]`);
      if (!el || el instanceof SVGElement) continue;
      if (el.classList.contains("last-move")) continue;
      el.classList.add("last-move");
      el.dataset.lastSeat = String(seat);
      if (own) el.style.setProperty("--last", own);
      // A name tag (a real element: the games' own ::before/::after are taken), placed against
      // the element itself; colour is never the only sign of whose move it was.
      if (getComputedStyle(el).position === "static") el.style.position = "relative";
      const tag = h("span", { class: "last-move-tag", "aria-hidden": "true" }, name);
      el.append(tag);
      keepOnPage(tag);
    }
  }
}

/** A tag hangs off its element's corner, so near the screen's edge it would widen the page
 *  (a sideways scroll on a phone), and near the edge of a box that clips or scrolls sideways
 *  (a city's scroller) it would make that box scroll: slide it back inside both. */
function keepOnPage(tag) {
  const margin = 2;
  let left = margin;
  let right = document.documentElement.clientWidth - margin;
  for (let box = tag.parentElement; box && box !== document.body; box = box.parentElement) {
    if (getComputedStyle(box).overflowX === "visible") continue;
    const b = box.getBoundingClientRect();
    left = Math.max(left, b.left + box.clientLeft);
    right = Math.min(right, b.left + box.clientLeft + box.clientWidth);
    break;
  }
  // An element scrolled out of its box's view keeps its tag where it is: the box's scrolling
  // shows both together.
  const own = tag.parentElement.getBoundingClientRect();
  if (own.left < left - margin - 1 || own.right > right + margin + 1) return;
  const r = tag.getBoundingClientRect();
  let shift = 0;
  if (r.right > right) shift = right - r.right;
  if (r.left + shift < left) shift = left - r.left;
  // Moved by `left`, not a transform: the page's scroll width counts a transformed box where
  // it sat before the transform.
  if (shift) tag.style.left = `${Math.round(parseFloat(getComputedStyle(tag).left) + shift)}px`;
}
