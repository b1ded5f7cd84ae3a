// A game's own sheet (static/css/<game id>.css), for every page that draws a board (table,
// replay, "How to play"; issue 19.5). The shell builds the sheet's address from the game id
// and marks the element the board is drawn in with `data-game="<game id>"`; every rule of a
// game's sheet sits under `:where([data-game="<game id>"])`, so a game styles only its own
// board and adds no specificity to its rules. Like the pages, it knows no game by name.

const loads = new Map(); // game id -> Promise, settled once its sheet is in (or missing)

/** Link the game's sheet once; the promise settles when it has loaded (or failed), so the
 *  first board is drawn styled, never as bare HTML first. A game without a sheet draws plain. */
export function useGameStyles(gameId) {
  if (!loads.has(gameId)) {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = `/static/css/${encodeURIComponent(gameId)}.css`;
    link.dataset.gameStyles = gameId;
    loads.set(
      gameId,
      new Promise((resolve) => {
        link.addEventListener("load", () => resolve(true), { once: true });
        link.addEventListener("error", () => {
          link.remove();
          resolve(false);
        }, { once: true });
      }),
    );
    document.head.append(link);
  }
  return loads.get(gameId);
}

/** Mark `el` as the root of a board of `gameId`: its sheet applies inside it, and only there. */
export function scopeToGame(el, gameId) {
  el.dataset.game = gameId;
}
