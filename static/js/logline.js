// One line of the game log, for the table and its replay: the table's own events (a take-back,
// a time-out), then the game renderer's line, else the server's readable line, else the
// generic renderer's account of the event's fields.

import { t } from "./i18n.js";
import * as generic from "./games/_generic.js";

/** The line of `event`, or null when the renderer hides it. `renderer` is the game's (or the
 *  generic one, `isGeneric`), `ctx` its context, `seatName(seat)` the seat's name. */
export function logLine(event, renderer, ctx, seatName, isGeneric) {
  if (event.type === "action_undone" || event.type === "clock_timeout") {
    const name = typeof event.seat === "number" ? seatName(event.seat) : "?";
    return t(`log.${event.type}`, { name });
  }
  let text;
  try {
    text = renderer?.describeEvent ? renderer.describeEvent(event, ctx) : undefined;
  } catch (err) {
    console.warn("describeEvent failed", err);
    text = undefined;
  }
  if (text === null) return null; // the renderer hides this event
  // No line of the game's own (or only the generic renderer's): the server's readable line.
  if ((text === undefined || text === "" || isGeneric) && event.text) return event.text;
  if (text === undefined || text === "") text = generic.describeEvent(event, ctx);
  return text;
}
