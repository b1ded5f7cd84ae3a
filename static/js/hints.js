// Hints on touch screens. A board explains its controls with `title` (renderers set one on
// every clickable legal action); a mouse shows it on hover, but a finger cannot hover. So a
// long press (~500 ms) on an element with a title inside the board shows that title in a
// small bubble, until the finger lifts, the page scrolls or another tap lands. The click
// that ends a long press is swallowed: asking "what is this?" must never play the move.

const LONG_PRESS_MS = 500;
const MOVE_TOLERANCE_PX = 10;

let bubble = null;
let windowHooked = false;

function bubbleEl() {
  if (!bubble) {
    bubble = document.createElement("div");
    bubble.className = "hint-bubble";
    bubble.setAttribute("role", "tooltip");
    bubble.hidden = true;
    document.body.append(bubble);
  }
  return bubble;
}

export function hideHint() {
  if (bubble) bubble.hidden = true;
}

/** Show `text` in the bubble next to `target` (above it when there is room, else below). */
export function showHint(target, text) {
  const el = bubbleEl();
  el.textContent = text;
  el.hidden = false;
  const box = target.getBoundingClientRect();
  const width = el.offsetWidth;
  const height = el.offsetHeight;
  const margin = 8;
  const left = Math.min(Math.max(margin, box.left + box.width / 2 - width / 2), window.innerWidth - width - margin);
  const above = box.top - height - margin;
  const top = above >= margin ? above : Math.min(box.bottom + margin, window.innerHeight - height - margin);
  el.style.left = `${Math.max(margin, left)}px`;
  el.style.top = `${Math.max(margin, top)}px`;
}

/** Turn on long-press hints for every element with a title inside `root` (once per root). */
export function initHints(root) {
  if (!root || root.dataset.hints === "on") return;
  root.dataset.hints = "on";
  let timer = null;
  let start = null;
  let pressed = false; // the current touch became a long press: swallow its click

  const cancel = () => {
    clearTimeout(timer);
    timer = null;
  };

  root.addEventListener("pointerdown", (event) => {
    cancel();
    hideHint();
    pressed = false;
    if (event.pointerType === "mouse") return; // a mouse hovers: the native title does it
    if (event.target.closest?.("[data-zoom]")) return; // zoom.js: the enlarged copy shows the title
    const target = event.target.closest?.("[title]");
    if (!target || !root.contains(target) || !target.getAttribute("title")) return;
    start = { x: event.clientX, y: event.clientY };
    timer = setTimeout(() => {
      timer = null;
      pressed = true;
      showHint(target, target.getAttribute("title"));
    }, LONG_PRESS_MS);
  });
  root.addEventListener("pointermove", (event) => {
    if (!timer || !start) return;
    if (Math.hypot(event.clientX - start.x, event.clientY - start.y) > MOVE_TOLERANCE_PX) cancel();
  });
  const release = () => {
    cancel();
    hideHint();
  };
  root.addEventListener("pointerup", release);
  root.addEventListener("pointercancel", release);
  root.addEventListener(
    "click",
    (event) => {
      if (!pressed) return;
      pressed = false;
      event.preventDefault();
      event.stopPropagation();
    },
    true,
  );
  // The browser's own long-press menu would cover the bubble.
  root.addEventListener("contextmenu", (event) => {
    if (pressed || timer) event.preventDefault();
  });
  if (!windowHooked) {
    windowHooked = true;
    window.addEventListener("scroll", hideHint, { passive: true, capture: true });
    document.addEventListener("pointerdown", (event) => {
      if (bubble && !bubble.hidden && !event.target.closest?.("[data-hints='on']")) hideHint();
    });
  }
}
