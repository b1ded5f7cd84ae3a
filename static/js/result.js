// The final ranking as people read it: the seats and the automatic opponents the rules play
// (Ginkgopolis' Hal, MINE!'s dummy director: the result's `others`), each in its place. Used
// by the table's result panel and its "Game over" banner, so a solo seat that lost is shown
// second behind Hal rather than as "place 2" of a list of one.

import { t, hasKey } from "./i18n.js";
import { seatName } from "./common.js";

const at = (map, seat) => map?.[seat] ?? map?.[String(seat)];

/** An automatic opponent's name in the page's language: `<game>.participant.<id>` when the
 *  game has the key, else the English name the server sent. */
export function opponentName(game, other) {
  const key = `${game}.participant.${other.id}`;
  return hasKey(key) ? t(key) : other.name || other.id;
}

/**
 * Every ranked participant, best first: `{kind: "seat", seat, name, score, place}` or
 * `{kind: "other", id, name, score, place}`. Seats without a `places` entry take their
 * place from the ranking order (shared on equal scores), as results always did.
 */
export function rankedEntries(result, table) {
  const scores = result?.scores || {};
  const places = result?.places || {};
  const entries = [];
  let place = 0;
  let lastScore = null;
  (result?.ranking || []).forEach((seat, index) => {
    const score = at(scores, seat);
    if (at(places, seat) !== undefined) place = at(places, seat);
    else if (score !== lastScore) place = index + 1;
    lastScore = score;
    entries.push({ kind: "seat", seat, name: seatName(table, seat), score, place });
  });
  for (const other of result?.others || []) {
    entries.push({ kind: "other", id: other.id, name: opponentName(table?.game, other), score: other.score, place: other.place });
  }
  // Stable: seats keep the ranking's order among equal places, opponents follow them.
  return entries.map((e, i) => [e, i]).sort((a, b) => a[0].place - b[0].place || a[1] - b[1]).map(([e]) => e);
}

/** The names in first place (seats and opponents); empty when nobody is placed. */
export function winnerNames(result, table) {
  return rankedEntries(result, table)
    .filter((e) => e.place === 1)
    .map((e) => e.name);
}

/**
 * Bring `el` into view, whole when it fits (else its top at the top), unless it already is:
 * the result when a game ends, a round's scoring when a round is scored (issue 35.1). A
 * smooth scroll only for people who did not ask for reduced motion. True when it scrolled.
 */
export function bringIntoView(el) {
  if (!el || el.hidden || !el.getClientRects().length) return false;
  const box = el.getBoundingClientRect();
  const height = window.innerHeight;
  if (box.top >= 0 && box.bottom <= height) return false;
  const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  const behavior = reduced || document.hidden ? "auto" : "smooth";
  el.scrollIntoView({ block: box.height > height ? "start" : "nearest", inline: "nearest", behavior });
  return true;
}
