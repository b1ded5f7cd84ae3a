// Moves that travel (FLIP: First, Last, Invert, Play — plain CSS transitions, no framework).
//
// Renderers mark what can move with stable keys; the shell measures the board before it is
// redrawn and animates after:
//   data-flip="key"          the element's identity on the board: an element with the same key
//                            before and after is slid from its old box to its new one;
//   data-flip-kind="kind"    an element new to the board first takes the place of one of the
//                            same kind that has just left it (a cube leaves a cart and appears
//                            in the cage: it flies from the cart);
//   data-flip-from="k1 k2"   otherwise it grows in from the first of these keys that was on
//                            the board (a worker from its player's supply, a card from a hand);
//   data-flip-frame="key"    a part of the board (a player's area, the trick): what stays in
//                            the same part is placed relative to it, so a part that only moved
//                            because the page around it changed (a longer prompt above, a
//                            panel that opened) does not set everything in it sliding.
// Nothing moves when the person asked for reduced motion, when the page is hidden, or when
// the board was redrawn without a new version (a seat connected, a card chosen).

export const FLIGHT_MS = 450;
// A step is on the screen at least this long before the next frame is drawn (when motion is on).
export const STEP_MS = 250;
// More frames than this waiting: the page fell behind (a slow phone), catch up.
const BACKLOG = 4;

const motionQuery =
  typeof window !== "undefined" && window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;
const lastVersion = new WeakMap(); // root → the version drawn last
let running = []; // the transitions of the flights on their way
let cleanupTimer = null;

// Counters for the browser tests and for debugging (window.partidaMotion).
const stats = { flights: 0, frames: 0 };
if (typeof window !== "undefined") window.partidaMotion = stats;

/** True when moves should be shown (the person did not ask for reduced motion). */
export function motionAllowed() {
  return !(motionQuery && motionQuery.matches) && !(typeof document !== "undefined" && document.hidden);
}

/** True while moves are on their way (paused ones count: the next step waits for them). */
export function inFlight() {
  running = running.filter((a) => a.playState === "running" || a.playState === "paused" || a.pending);
  return running.length > 0;
}

/** The boxes of the frames of `root` (and `root` itself under the key ""). */
function frames(root) {
  const out = new Map([["", root.getBoundingClientRect()]]);
  for (const el of root.querySelectorAll("[data-flip-frame]")) {
    const key = el.dataset.flipFrame;
    if (!out.has(key)) out.set(key, el.getBoundingClientRect());
  }
  return out;
}

function frameOf(el, root) {
  const frame = el.parentElement?.closest("[data-flip-frame]");
  return frame && root.contains(frame) ? frame.dataset.flipFrame : "";
}

/** Boxes of the keyed elements of `root` before a redraw, or null when nothing should move. */
export function capture(root, version) {
  const previous = lastVersion.get(root);
  lastVersion.set(root, version);
  if (!motionAllowed() || previous === undefined) return null;
  // The same step drawn again: nothing moves, unless flights are still on their way, which
  // then carry on from where they are now.
  if (previous === version && !inFlight()) return null;
  const boxes = new Map();
  for (const el of root.querySelectorAll("[data-flip]")) {
    const key = el.dataset.flip;
    if (boxes.has(key)) continue;
    const rect = el.getBoundingClientRect();
    if (!rect.width && !rect.height) continue; // not displayed (a closed <details>)
    boxes.set(key, { rect, kind: el.dataset.flipKind || null, frame: frameOf(el, root) });
  }
  return { boxes, frames: frames(root) };
}

/** SVG content is transformed in its own user units: scale the screen offset to them. */
function svgScale(el) {
  if (!(el instanceof SVGElement) || el instanceof SVGSVGElement) return null;
  const ctm = el.getScreenCTM?.();
  return ctm && ctm.a && ctm.d ? { x: ctm.a, y: ctm.d } : null;
}

/** Where a box measured before the redraw stands now, carried by its frame (the board itself
 *  when its frame is gone or was another): {left, top, width, height}. */
function carried(box, oldFrames, newFrames, frame = box.frame) {
  const key = oldFrames.has(frame) && newFrames.has(frame) ? frame : "";
  const was = oldFrames.get(key);
  const now = newFrames.get(key);
  return {
    left: box.rect.left - was.left + now.left,
    top: box.rect.top - was.top + now.top,
    width: box.rect.width,
    height: box.rect.height,
  };
}

/** Animate every keyed element of `root` from where it was (`before`, from capture) to where
 *  it is now. Returns how long the flights take (0 when nothing moved). */
export function play(root, before) {
  if (!before || !before.boxes.size) return 0;
  const { boxes } = before;
  const newFrames = frames(root);
  const after = [];
  const present = new Set();
  for (const el of root.querySelectorAll("[data-flip]")) {
    present.add(el.dataset.flip);
    after.push(el);
  }
  // Elements that left the board, by kind, in board order: the places new ones come from.
  const left = new Map();
  for (const [key, box] of boxes) {
    if (present.has(key) || !box.kind) continue;
    if (!left.has(box.kind)) left.set(box.kind, []);
    left.get(box.kind).push(box);
  }
  const moved = new Map(); // element → its full offset on screen {dx, dy}, for its descendants
  const flights = [];
  for (const el of after) {
    const rect = el.getBoundingClientRect();
    if (!rect.width && !rect.height) continue;
    const old = boxes.get(el.dataset.flip);
    let from = null;
    let entering = false;
    if (old) {
      // In the same frame as before: only its place inside the frame counts.
      const frame = frameOf(el, root);
      from = carried(old, before.frames, newFrames, old.frame === frame ? frame : "");
    } else {
      const pool = el.dataset.flipKind ? left.get(el.dataset.flipKind) : null;
      let source = pool && pool.length ? pool.shift() : null;
      for (const key of source ? [] : (el.dataset.flipFrom || "").split(/\s+/)) {
        if (key && boxes.has(key)) {
          source = boxes.get(key);
          break;
        }
      }
      if (source) from = carried(source, before.frames, newFrames, "");
      entering = Boolean(from);
    }
    if (!from) continue;
    // The nearest ancestor that moves carries this element with it: only the difference is ours.
    let carrier = el.parentElement;
    while (carrier && carrier !== root && !moved.has(carrier)) carrier = carrier.parentElement;
    const base = carrier && moved.has(carrier) ? moved.get(carrier) : null;
    if (entering && base) continue; // new inside something that moves: it travels with it
    const dx = from.left - rect.left;
    const dy = from.top - rect.top;
    const localX = dx - (base ? base.dx : 0);
    const localY = dy - (base ? base.dy : 0);
    // A nudge of a few pixels (a counter got wider) is not a move: drawn in place.
    if (!entering && Math.abs(localX) < 8 && Math.abs(localY) < 8) continue;
    moved.set(el, { dx, dy });
    const scale = svgScale(el);
    let transform = `translate(${scale ? localX / scale.x : localX}px, ${scale ? localY / scale.y : localY}px)`;
    if (entering && !scale) {
      // Grow from the source's size (a card out of a small pile, a worker out of a counter).
      const sx = Math.max(0.2, Math.min(3, from.width / rect.width || 1));
      const sy = Math.max(0.2, Math.min(3, from.height / rect.height || 1));
      transform += ` scale(${sx.toFixed(3)}, ${sy.toFixed(3)})`;
    }
    flights.push({ el, transform, entering });
  }
  if (!flights.length) return 0;
  for (const flight of flights) {
    const { el, transform, entering } = flight;
    // Above its neighbours on the way (z-index needs a positioned box; SVG has its own order).
    flight.lifted = !(el instanceof SVGElement) && getComputedStyle(el).position === "static";
    if (flight.lifted) el.style.position = "relative";
    el.style.transition = "none";
    el.style.transformOrigin = "top left";
    el.style.transform = transform;
    if (entering) el.style.opacity = "0.35";
    el.classList.add("flip-moving");
  }
  root.getBoundingClientRect(); // commit the inverted boxes before the transition starts
  for (const { el } of flights) {
    el.style.transition = `transform ${FLIGHT_MS}ms cubic-bezier(.2,.7,.3,1), opacity ${FLIGHT_MS}ms ease-out`;
    el.style.transform = "";
    el.style.opacity = "";
  }
  stats.flights += flights.length;
  // Only our own transitions (a game's looping CSS animation would never "land").
  running = flights.flatMap(({ el }) =>
    el.getAnimations().filter((a) => a.transitionProperty === "transform" || a.transitionProperty === "opacity"),
  );
  clearTimeout(cleanupTimer);
  cleanupTimer = setTimeout(() => {
    for (const { el, lifted } of flights) {
      el.style.transition = "";
      el.style.transformOrigin = "";
      if (lifted && !el.classList.contains("last-move")) el.style.position = "";
      el.classList.remove("flip-moving");
    }
  }, FLIGHT_MS + 50);
  return FLIGHT_MS;
}

/** Redraw `root` with `draw()` and animate what moved; `version` says whether this is a new step. */
export function animated(root, version, draw) {
  const before = capture(root, version);
  draw();
  return play(root, before);
}

/**
 * Frames in order, one visible step at a time: a frame waits until the moves of the one
 * before have landed (their transitions ended or were cut short) and that step was on the
 * screen for STEP_MS, so a bot's quick moves are each seen. With reduced motion, on a hidden
 * page, or when the page has fallen behind, frames are applied at once.
 */
export function frameQueue(apply) {
  const waiting = [];
  let timer = null;
  let shownAt = 0;
  const drain = () => {
    timer = null;
    while (waiting.length) {
      const hold =
        motionAllowed() && waiting.length <= BACKLOG ? (inFlight() ? 50 : shownAt + STEP_MS - performance.now()) : 0;
      if (hold > 0) {
        timer = setTimeout(drain, hold);
        return;
      }
      apply(waiting.shift());
      stats.frames += 1;
      shownAt = performance.now();
    }
  };
  return {
    push(frame) {
      waiting.push(frame);
      if (!timer) drain();
    },
  };
}
