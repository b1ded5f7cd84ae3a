// One line of the game log, for the table and its replay: the catalogue's message the server
// sent with the event (app/games/messages.py), rendered in the page's language with the
// players' names; else the server's readable line; else the generic renderer's account of
// the event's fields.

import { renderMessage } from "./i18n.js";
import * as generic from "./games/_generic.js";

/** The line of `event`, or null when the game's renderer keeps it out of the log (its
 *  `quietEvents`: what the board already shows); `ctx` is the renderer's context,
 *  `seatName(seat)` the seat's name. */
export function logLine(event, renderer, ctx, seatName) {
  if (renderer?.quietEvents?.includes(event.type)) return null;
  const text = renderMessage(event.message, seatName);
  if (text !== null) return text;
  if (event.text) return event.text;
  return generic.describeEvent(event, ctx);
}
