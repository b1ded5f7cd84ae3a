// Wide tables on a narrow screen (issue 18.2). A container marked `.table-scroll` or
// `[data-hscroll]` scrolls sideways; this module says so when it does: it keeps
// `data-overflow` on the container ("none", "right", "left" or "both": where more is hidden)
// and `data-hint` (the words of the cue, in the page's language). static/css/readable.css
// draws the cue from them: the hidden side fades out and a line above the table says to swipe.
// Phones hide scroll bars until one scrolls, so without this a cut-off column looks missing.

import { t } from "./i18n.js";

const SELECTOR = ".table-scroll, [data-hscroll]";

function update(el) {
  if (!el.isConnected) {
    sizes?.unobserve(el);
    if (el.firstElementChild) sizes?.unobserve(el.firstElementChild);
    return;
  }
  const hidden = el.scrollWidth - el.clientWidth;
  let overflow = "none";
  if (hidden > 1) {
    const left = el.scrollLeft > 1;
    const right = el.scrollLeft < hidden - 1;
    overflow = left && right ? "both" : left ? "left" : "right";
  }
  if (el.dataset.overflow !== overflow) el.dataset.overflow = overflow;
  const hint = overflow === "none" ? "" : t("hscroll.hint");
  if ((el.dataset.hint || "") !== hint) el.dataset.hint = hint;
}

let sizes = null;
const seen = new WeakSet();

function adopt(el) {
  if (seen.has(el)) return;
  seen.add(el);
  el.addEventListener("scroll", () => update(el), { passive: true });
  // The container's width changes with the window; its content's with every redraw.
  sizes.observe(el);
  if (el.firstElementChild) sizes.observe(el.firstElementChild);
  update(el);
}

/** Watch `root` (and what is drawn into it later) for sideways scrolling containers. */
export function watchScrollers(root = document.body) {
  if (!sizes) {
    sizes = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const el = entry.target.matches(SELECTOR) ? entry.target : entry.target.parentElement;
        if (el?.matches(SELECTOR)) update(el);
        else sizes.unobserve(entry.target);
      }
    });
  }
  const scan = () => root.querySelectorAll(SELECTOR).forEach(adopt);
  new MutationObserver(scan).observe(root, { childList: true, subtree: true });
  scan();
}
