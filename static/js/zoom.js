// Zoom (issue 18.2): a card, a tile or a whole city, enlarged in a dialog. A board marks what
// may be zoomed with `data-zoom`; the shell does the rest, the same for every game:
//   - touch or pen: a long press (it replaces hints.js' title bubble there); mouse: a right click;
//   - `[data-zoom-button]` inside a zoomable opens it (the affordance for big things a long
//     press would not suggest, such as the Ginkgopolis city);
//   - keyboard: "z" opens the focused zoomable, or the first one of the board the focus is
//     in; in the dialog ← and → step through the board's zoomables in reading order. So every
//     card is reachable without a tab stop per card (a table can show a hundred).
// The dialog shows an inert copy, laid out again larger (never the original: its handlers
// stay where they are) and fitted to the screen with all it draws inside (issue 35.7), with
// the element's own description under it: the only way to read a tooltip on a phone. Esc, a tap anywhere or the close button closes it and gives the focus
// back where it was.

import { h } from "./dom.js";
import { t } from "./i18n.js";

const LONG_PRESS_MS = 450;
const MOVE_TOLERANCE_PX = 10;
const MAX_SCALE = 5;
const TYPING = "input, textarea, select, [contenteditable]";
// The area whose zoomables "z" and the arrows go through.
const SCOPE = "#board, .figure-board, main";

let dialog = null;
let current = null;
let press = null;
// The click a finger's release makes after a long press opened the zoom: swallowed wherever
// it lands (on the card it would play it; on the dialog now over the card it would close it).
let swallowClick = false;
let lastPointer = "mouse";
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

/** How far what is drawn from `node` reaches past its own box (a price tag that hangs below
 *  a tile, the row numbers beside a city), in CSS px, with the whole drawn box's size. */
function drawnBox(node) {
  const own = node.getBoundingClientRect();
  let { left, top, right, bottom } = own;
  for (const child of node.querySelectorAll("*")) {
    for (const r of child.getClientRects()) {
      if (r.width <= 0 || r.height <= 0) continue;
      left = Math.min(left, r.left);
      top = Math.min(top, r.top);
      right = Math.max(right, r.right);
      bottom = Math.max(bottom, r.bottom);
    }
  }
  return {
    left: own.left - left,
    top: own.top - top,
    right: right - own.right,
    bottom: bottom - own.bottom,
    width: right - left,
    height: bottom - top,
  };
}

/** How much more room than its own box `el`'s sideways scrollers need to show everything. */
function hiddenWidth(el) {
  let more = 0;
  for (const node of [el, ...el.querySelectorAll("*")]) {
    const overflow = getComputedStyle(node).overflowX;
    if (overflow === "visible" || overflow === "clip") continue;
    more = Math.max(more, node.scrollWidth - node.clientWidth);
  }
  return more;
}

/** The height the zoom buttons inside `el` take (with their margins): the copy has none. */
function buttonsHeight(el) {
  let sum = 0;
  for (const b of el.querySelectorAll("[data-zoom-button]")) {
    const style = getComputedStyle(b);
    sum += b.offsetHeight + parseFloat(style.marginTop) + parseFloat(style.marginBottom);
  }
  return sum;
}

/** Open (or show in the open dialog) the enlarged copy of `el`, fitted to the screen: all
 *  of it (whatever hangs off its box, whatever its scrollers hide) inside the dialog. */
export function openZoom(el) {
  const width = el.offsetWidth || el.getBoundingClientRect().width;
  const height = el.offsetHeight || el.getBoundingClientRect().height;
  if (!width || !height) return;
  const d = ensureDialog();
  const copy = el.cloneNode(true);
  copy.removeAttribute("id");
  for (const node of copy.querySelectorAll("[id]")) node.removeAttribute("id");
  for (const node of copy.querySelectorAll("[data-zoom-button]")) node.remove();
  copy.removeAttribute("data-zoom");
  copy.classList.add("zoom-copy");
  // The copy is laid out at the width it had on the board (plus what its scrollers hid there,
  // so that nothing scrolls in the dialog) and at least its height there (less the zoom
  // button the copy leaves out: a card keeps its shape), then enlarged with CSS zoom (crisp text, a real
  // box); its shadow would be cut square by the stage.
  Object.assign(copy.style, {
    margin: "0",
    width: `${width + hiddenWidth(el)}px`,
    minHeight: `${height - buttonsHeight(el)}px`,
    height: "auto",
    zoom: "1",
    boxShadow: "none",
  });
  const sizer = h("div", { class: "zoom-sizer", inert: true, "aria-hidden": "true" }, inContext(el, copy));
  const stage = d.querySelector(".zoom-stage");
  stage.replaceChildren(sizer);
  d.querySelector(".zoom-caption").textContent = describe(el);
  d.querySelector(".zoom-keys").textContent = t("zoom.keys");
  d.querySelector(".zoom-close").textContent = t("zoom.close");
  current = el;
  if (!d.open) {
    const active = document.activeElement;
    returnFocus = active instanceof HTMLElement && active !== document.body ? active : null;
    d.showModal();
  }
  // Measured in place at its natural size: the room the dialog leaves (its width, less its
  // padding; the screen's height, less the caption and the button) and what the copy draws.
  const drawn = drawnBox(copy);
  const style = getComputedStyle(d);
  const padX = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  const roomX = Math.min(window.innerWidth * 0.96, 760) - padX - 2;
  const chrome = d.getBoundingClientRect().height - stage.getBoundingClientRect().height;
  const roomY = window.innerHeight * 0.92 - chrome - 2;
  // Small things grow (up to MAX_SCALE); big ones (a city on a phone) are fitted whole.
  const fit = Math.min(roomX / drawn.width, roomY / drawn.height);
  const scale = Math.max(0.1, Math.floor(Math.min(MAX_SCALE, fit) * 100) / 100);
  copy.style.zoom = String(scale);
  const px = (n) => `${Math.ceil(n * scale)}px`;
  sizer.style.padding = `${px(drawn.top)} ${px(drawn.right)} ${px(drawn.bottom)} ${px(drawn.left)}`;
  d.dataset.scale = String(scale);
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
  swallowClick = false; // a new gesture: whatever click it makes is its own
  lastPointer = event.pointerType;
  // A mouse has its right click; holding its button down is how one starts a drag.
  if (event.button !== 0 || event.pointerType === "mouse") return;
  const el = zoomableOf(event.target);
  if (!el || event.target.closest("[data-zoom-button]")) return;
  press = {
    x: event.clientX,
    y: event.clientY,
    timer: setTimeout(() => {
      press = null;
      // The release that ends a long press must neither play the card nor close the zoom.
      swallowClick = true;
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
  // A touch screen's own long press ends here too: its release is no tap.
  if (lastPointer !== "mouse") swallowClick = true;
  if (!dialog?.open) openZoom(el);
}

function onClick(event) {
  if (swallowClick) {
    swallowClick = false;
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
