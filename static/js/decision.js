// Act where you look (issue 18.1): while the current decision is mine, the renderer's prompt
// ([data-decision]: the question and its buttons, and whatever the renderer put with it) is
// docked to the bottom of the viewport, and when a new decision starts with no legal target in
// sight, the nearest one is scrolled into view, so that the prompt and a target are on screen
// together without the player scrolling.
//
// Renderers only mark things: `data-decision` on the prompt, class `legal` on every control
// that sends (or arms) one of legal_actions. This module knows no game.

const LEGAL = ".legal";
const MARGIN = 8; // px between a target scrolled into sight inside the dock and the dock's edge

/**
 * The dock of one board element. `update(mine, key)` after every render of the board:
 * `mine` = the decision is the viewer's now, `key` = what identifies the decision (a target is
 * brought into view once per key, never again while the player looks elsewhere).
 */
export function decisionDock(board) {
  const root = document.documentElement;
  let docked = false;
  let prompt = null; // the [data-decision] element whose size is watched
  let lastKey = null;

  const sizes = new ResizeObserver(() => measure());
  // Renderers redraw the board on their own for a step taken inside one decision (a card
  // chosen, now its location): the dock stays (the body attribute), the watched element
  // follows, and the step's targets are brought into view as a new decision's are.
  const watcher = new MutationObserver(() => {
    if (docked && board.querySelector("[data-decision]") !== prompt) {
      measure();
      revealInDock();
      if (lastKey !== null) reveal();
    }
  });
  watcher.observe(board, { childList: true, subtree: true });
  window.addEventListener("resize", () => measure());
  sizes.observe(board);

  function currentPrompt() {
    return board.querySelector("[data-decision]");
  }

  /** The dock's height and the board column's place, as CSS variables for app.css. */
  function measure() {
    const el = docked ? currentPrompt() : null;
    if (el !== prompt) {
      if (prompt) sizes.unobserve(prompt);
      prompt = el;
      if (prompt) sizes.observe(prompt);
    }
    const box = board.getBoundingClientRect();
    root.style.setProperty("--dock-left", `${Math.round(box.left)}px`);
    root.style.setProperty("--dock-width", `${Math.round(box.width)}px`);
    const height = prompt ? Math.ceil(prompt.getBoundingClientRect().height) : 0;
    root.style.setProperty("--dock-height", `${height}px`);
  }

  function setDocked(on) {
    if (on === docked && (!on || currentPrompt() === prompt)) return;
    docked = on;
    if (on) document.body.dataset.dock = "on";
    else delete document.body.dataset.dock;
    measure();
  }

  /** The strip of the viewport not covered by the dock. */
  function freeStrip() {
    const dock = docked && prompt ? prompt.getBoundingClientRect().top : window.innerHeight;
    return { top: 0, bottom: Math.min(window.innerHeight, dock) };
  }

  function usable(el) {
    return !el.disabled && el.getClientRects().length > 0 && el.getAttribute("aria-hidden") !== "true";
  }

  /** A tall prompt scrolls inside the dock: its first target must not hide below the fold. */
  function revealInDock() {
    if (!docked || !prompt) return;
    const targets = Array.from(prompt.querySelectorAll(LEGAL)).filter(usable);
    if (!targets.length) return;
    const frame = prompt.getBoundingClientRect();
    const inside = (box) => box.top >= frame.top && box.bottom <= frame.bottom;
    if (targets.some((el) => inside(el.getBoundingClientRect()))) return;
    const box = targets[0].getBoundingClientRect();
    prompt.scrollTop += box.bottom > frame.bottom ? box.bottom - frame.bottom + MARGIN : box.top - frame.top - MARGIN;
  }

  /**
   * Bring into view what the decision is about: the part of the board the renderer marked
   * ([data-decision-focus]: an own board, the city) whole when it fits above the dock, else
   * the nearest legal target of the board outside the dock when none is in view.
   */
  function reveal() {
    const strip = freeStrip();
    const room = strip.bottom - strip.top;
    const behavior = window.matchMedia("(prefers-reduced-motion: reduce)").matches ? "auto" : "smooth";
    const inView = (box) => box.top >= strip.top && box.bottom <= strip.bottom;
    const inDock = (el) => docked && prompt && prompt.contains(el);
    const targets = Array.from(board.querySelectorAll(LEGAL)).filter((el) => usable(el) && !inDock(el));
    const focus = board.querySelector("[data-decision-focus]");
    if (focus && usable(focus)) {
      const box = focus.getBoundingClientRect();
      const fits = box.height <= room;
      if (fits || !targets.length) {
        if (!inView(box)) {
          const block = !fits || box.top < strip.top ? "start" : "end";
          focus.scrollIntoView({ block, inline: "nearest", behavior });
        }
        if (!targets.length || targets.some((el) => focus.contains(el))) return;
      }
    }
    if (!targets.length) return; // every target is in the prompt itself, which is in view
    const boxes = targets.map((el) => ({ el, box: el.getBoundingClientRect() }));
    if (boxes.some(({ box }) => inView(box) && box.right > 0 && box.left < window.innerWidth)) return;
    const distance = ({ box }) => (box.bottom > strip.bottom ? box.bottom - strip.bottom : strip.top - box.top);
    const nearest = boxes.reduce((a, b) => (distance(b) < distance(a) ? b : a));
    // Centred in the strip above the dock (html's scroll-padding-bottom is the dock's height),
    // so what surrounds the target (a whole shaft, a row of cards) comes along with it.
    nearest.el.scrollIntoView({ block: "center", inline: "nearest", behavior });
  }

  return {
    update(mine, key) {
      setDocked(Boolean(mine) && Boolean(currentPrompt()));
      if (!mine) {
        lastKey = null;
        return;
      }
      measure();
      revealInDock(); // a redrawn prompt starts scrolled to its top
      // No key while my action is on its way: the board still shows the decision just taken.
      if (key !== null && key !== lastKey && !document.hidden) {
        lastKey = key;
        reveal();
      }
    },
  };
}
