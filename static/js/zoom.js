// Zoom (issue 18.2): a card, a tile or a whole city, enlarged in a dialog. A board marks what
// may be zoomed with `data-zoom`; the shell does the rest, the same for every game:
//   - touch or pen: a long press (it replaces hints.js' title bubble there); mouse: a right click;
//   - `[data-zoom-button]` inside a zoomable opens it (the affordance for big things a long
//     press would not suggest, such as the Ginkgopolis city);
//   - keyboard: "z" opens the focused zoomable, or the first one of the board the focus is
//     in; in the dialog ← and → step through the board's zoomables in reading order. So every
//     card is reachable without a tab stop per card (a table can show a hundred).
// The dialog shows an inert copy, laid out again larger (never the original: its handlers
// stay where they are), with the element's own description under it: the only way to read a
// tooltip on a phone. Esc, a tap anywhere or the close button closes it and gives the focus
// back where it was.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE_PX = 10;
const MIN_SCALE = 2;
const MAX_SCALE = 5;
const TYPING = "input, textarea, select, [contenteditable]";
// The area whose zoomables "z" and the arrows go through.
const SCOPE = "#board, .figure-board, main";

let dialog = null;
let current = null;
let press = null;
let swallowClickUntil = 0;
let returnFocus = null;

function zoomableOf(target) {
  return target instanceof Element ? target.closest("[data-zoom]") : null;
}

function visibleZoomables(scope) {
  return [...scope.querySelectorAll("[data-zoom]")].filter((el) => el.getClientRects().length > 0);
}

// ------------------------------------------------------------------ the dialog

function ensureDialog() {
  if (dialog) return dialog;
  dialog = h(
    "dialog",
    { class: "zoom-dialog", "aria-labelledby": "zoom-caption", "data-testid": "zoom" },
    h("div", { class: "zoom-stage" }),
    h("p", { id: "zoom-caption", class: "zoom-caption", "aria-live": "polite" }),
    h("p", { class: "zoom-keys", "aria-hidden": "true" }),
    h("button", { type: "button", class: "btn zoom-close" }, t("zoom.close")),
  );
  // A tap anywhere closes: on the copy, the caption, the button or the backdrop.
  dialog.addEventListener("click", () => dialog.close());
  dialog.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
    event.preventDefault();
    step(event.key === "ArrowRight" ? 1 : -1);
  });
  dialog.addEventListener("close", () => {
    dialog.querySelector(".zoom-stage").replaceChildren();
    current = null;
    if (returnFocus?.isConnected) returnFocus.focus({ preventScroll: true });
    returnFocus = null;
  });
  document.body.append(dialog);
  return dialog;
}

/** A box around the copy that carries the original's ancestors' classes (their custom
 *  properties and descendant selectors style it) without drawing any of their boxes. */
function inContext(el, copy) {
  let inner = copy;
  for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
    const wrap = document.createElement("div");
    if (a.className && typeof a.className === "string") wrap.className = a.className;
    for (const attr of a.attributes) if (attr.name.startsWith("data-")) wrap.setAttribute(attr.name, attr.value);
    wrap.style.display = "contents";
    wrap.append(inner);
    inner = wrap;
  }
  return inner;
}

function describe(el) {
  return el.getAttribute("title") || el.getAttribute("aria-label") || el.textContent.trim();
}

/** Open (or show in the open dialog) the enlarged copy of `el`. */
export function openZoom(el) {
  const width = el.offsetWidth || el.getBoundingClientRect().width;
  const height = el.offsetHeight || el.getBoundingClientRect().height;
  if (!width || !height) return;
  const d = ensureDialog();
  const room = Math.min(window.innerWidth * 0.9, 720) / width;
  const tall = (window.innerHeight * 0.62) / height;
  // Small things grow to fill the screen; big ones (a city) at least double and scroll.
  const scale = Math.min(MAX_SCALE, Math.max(MIN_SCALE, Math.min(room, tall)));
  const copy = el.cloneNode(true);
  copy.removeAttribute("id");
  for (const node of copy.querySelectorAll("[id]")) node.removeAttribute("id");
  for (const node of copy.querySelectorAll("[data-zoom-button]")) node.remove();
  copy.removeAttribute("data-zoom");
  copy.classList.add("zoom-copy");
  // CSS zoom lays the copy out again larger (crisp text, a real box to scroll) at the size it
  // had on the board, whatever its new parents; its shadow would be cut square by the stage.
  Object.assign(copy.style, { margin: "0", width: `${width}px`, height: `${height}px`, zoom: String(scale), boxShadow: "none" });
  d.querySelector(".zoom-stage").replaceChildren(h("div", { class: "zoom-sizer", inert: true, "aria-hidden": "true" }, inContext(el, copy)));
  d.querySelector(".zoom-caption").textContent = describe(el);
  d.querySelector(".zoom-keys").textContent = t("zoom.keys");
  d.querySelector(".zoom-close").textContent = t("zoom.close");
  d.dataset.scale = String(Math.round(scale * 100) / 100);
  current = el;
  if (!d.open) {
    const active = document.activeElement;
    returnFocus = active instanceof HTMLElement && active !== document.body ? active : null;
    d.showModal();
  }
}

export function closeZoom() {
  if (dialog?.open) dialog.close();
}

/** The next (1) or previous (-1) zoomable of the board the open one belongs to. */
function step(by) {
  if (!current) return;
  const scope = current.isConnected ? current.closest(SCOPE) : null;
  const all = scope ? visibleZoomables(scope) : [];
  const at = all.indexOf(current);
  if (at < 0 || !all.length) return;
  openZoom(all[(at + by + all.length) % all.length]);
}

// ------------------------------------------------------------------ gestures and keys

function cancelPress() {
  if (press) clearTimeout(press.timer);
  press = null;
}

function onPointerDown(event) {
  cancelPress();
  swallowClickUntil = 0; // a new gesture: whatever click it makes is its own
  // A mouse has its right click; holding its button down is how one starts a drag.
  if (event.button !== 0 || event.pointerType === "mouse") return;
  const el = zoomableOf(event.target);
  if (!el || event.target.closest("[data-zoom-button]")) return;
  press = {
    x: event.clientX,
    y: event.clientY,
    timer: setTimeout(() => {
      press = null;
      // The release that ends a long press must not also play the card.
      swallowClickUntil = performance.now() + 800;
      openZoom(el);
    }, LONG_PRESS_MS),
  };
}

function onPointerMove(event) {
  if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > MOVE_TOLERANCE_PX) cancelPress();
}

function onContextMenu(event) {
  const el = zoomableOf(event.target);
  if (!el) return;
  event.preventDefault();
  cancelPress();
  if (!dialog?.open) openZoom(el);
}

function onClick(event) {
  if (performance.now() < swallowClickUntil && !dialog?.contains(event.target)) {
    swallowClickUntil = 0;
    event.preventDefault();
    event.stopPropagation();
    return;
  }
  const button = event.target instanceof Element ? event.target.closest("[data-zoom-button]") : null;
  const el = button ? zoomableOf(button) : null;
  if (el) {
    event.preventDefault();
    openZoom(el);
  }
}

function onKeyDown(event) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.key !== "z" && event.key !== "Z") return;
  const target = event.target instanceof Element ? event.target : document.body;
  if (target.closest(TYPING) || dialog?.contains(target)) return;
  // The focused card, a card inside the focused control, else the board's first one.
  const scope = target.closest(SCOPE);
  const el = zoomableOf(target) || target.querySelector("[data-zoom]") || (scope ? visibleZoomables(scope)[0] : null);
  if (!el) return;
  event.preventDefault();
  openZoom(el);
}

let installed = false;

/** Listen on the whole page once (boards are redrawn at every frame; listeners stay put). */
export function installZoom() {
  if (installed) return;
  installed = true;
  document.addEventListener("pointerdown", onPointerDown, { passive: true });
  document.addEventListener("pointermove", onPointerMove, { passive: true });
  // A finger that starts to scroll the page ends in pointercancel: the press is off.
  for (const type of ["pointerup", "pointercancel", "dragstart"]) document.addEventListener(type, cancelPress, { passive: true });
  document.addEventListener("contextmenu", onContextMenu);
  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKeyDown);
}
