// The player page (/players/{id}): ratings per game, games played and won, the finished games
// with place and score (each linking to its replay) and a per-game leaderboard.

import { checkIdentity, identity, getPlayer, getLeaderboard, listGames } from "./api.js";
import { h, fill, toast } from "./dom.js";
import { initI18n, t, currentLang, onLangChange } from "./i18n.js";
import { mountHeader, errorText, gameTitle } from "./common.js";
import { showGone } from "./gone.js";
import { installReadable } from "./readable.js";

const playerId = decodeURIComponent(location.pathname.replace(/\/+$/, "").split("/").pop());

const state = {
  player: null,
  games: [],
  board: { game: null, rows: null, error: "" },
};

function game(id) {
  return state.games.find((g) => g.id === id) || { id, title: id };
}

function when(iso) {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return date.toLocaleString(currentLang(), { dateStyle: "medium", timeStyle: "short" });
}

function rating(value) {
  return typeof value === "number" ? String(Math.round(value)) : "—";
}

// ------------------------------------------------------------------ sections

function renderHead() {
  const p = state.player;
  const head = document.getElementById("player-head");
  const mine = identity()?.id === p.id;
  const stats = p.stats || { played: 0, won: 0 };
  fill(
    head,
    h("h1", { "data-testid": "player-name" }, p.name, mine ? h("span", { class: "tag" }, t("seat.you")) : null),
    h(
      "p",
      { class: "lead", "data-testid": "player-stats" },
      t("player.summary", { played: stats.played, won: stats.won }),
    ),
  );
  document.title = `${p.name} · Partida`;
}

function renderRatings() {
  const p = state.player;
  const panel = document.getElementById("ratings");
  const byGame = p.stats?.by_game || {};
  const ids = [...new Set([...(p.ratings || []).map((r) => r.game), ...Object.keys(byGame)])];
  const rows = ids.map((id) => {
    const r = (p.ratings || []).find((x) => x.game === id);
    const s = byGame[id] || { played: 0, won: 0 };
    return h(
      "tr",
      { "data-game": id },
      h("th", { scope: "row" }, gameTitle(game(id))),
      // Each cell carries its column's name: on a phone a row stacks into a labelled card.
      h(
        "td",
        { class: "num rating-cell", "data-label": t("player.rating"), title: r ? t("player.rating_detail", { mu: r.mu, sigma: r.sigma }) : null },
        r ? rating(r.rating) : "—",
      ),
      // The leaderboard's own count (its "rated games"), so both say the same number.
      h("td", { class: "num", "data-label": t("player.rated"), "data-testid": "rated-games" }, String(r ? r.games : 0)),
      h("td", { class: "num", "data-label": t("player.played") }, String(s.played)),
      h("td", { class: "num", "data-label": t("player.won") }, String(s.won)),
    );
  });
  fill(
    panel,
    h("h2", { id: "ratings-title" }, t("player.ratings")),
    rows.length ? h("div", { class: "table-scroll" }, ratingsTable(rows)) : h("p", { class: "muted empty" }, t("player.no_ratings")),
    rows.length ? h("p", { class: "hint" }, t("player.rating_hint")) : null,
    h("p", { class: "hint", "data-testid": "unrated-hint" }, t("player.unrated_hint")),
  );
}

function ratingsTable(rows) {
  return h(
    "table",
    { class: "data-table ratings-table", "data-testid": "ratings" },
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { scope: "col" }, t("player.game")),
        h("th", { scope: "col", class: "num" }, t("player.rating")),
        h("th", { scope: "col", class: "num" }, t("player.rated")),
        h("th", { scope: "col", class: "num" }, t("player.played")),
        h("th", { scope: "col", class: "num" }, t("player.won")),
      ),
    ),
    h("tbody", null, rows),
  );
}

/** Why a finished game left the rating alone (the server's `unrated_reason`). */
function unratedTag(g) {
  if (g.rated !== false || g.ended_by_admin) return null;
  const why = t(g.unrated_reason === "fewer_than_two_people" ? "player.unrated.fewer_than_two_people" : "player.unrated.other");
  return h("span", { class: "tag tag-unrated", title: why, "data-testid": "unrated" }, t("player.not_rated"), h("span", { class: "sr-only" }, `: ${why}`));
}

function placeText(g) {
  if (g.ended_by_admin) return t("player.ended_by_admin");
  if (g.cancelled) return t("ending.cancelled");
  if (g.place === null || g.place === undefined) return "—";
  const place = t("player.place_of", { place: g.place, n: g.players });
  return g.resigned ? `${place} · ${t("ending.resigned_seat")}` : place;
}

function renderHistory() {
  const p = state.player;
  const panel = document.getElementById("history");
  const games = p.games || [];
  fill(
    panel,
    h("h2", { id: "history-title" }, t("player.history")),
    games.length
      ? h(
          "ol",
          { class: "history-list", "data-testid": "history" },
          games.map((g) =>
            h(
              "li",
              { class: ["history-item", g.place === 1 && !g.ended_by_admin ? "won" : ""], "data-table-id": g.table_id },
              h(
                "span",
                { class: "history-place", "data-testid": "place" },
                g.place === 1 && !g.ended_by_admin ? h("span", { class: "trophy", "aria-hidden": "true" }, "★ ") : null,
                placeText(g),
              ),
              h(
                "span",
                { class: "history-main" },
                h("strong", { class: "table-game" }, gameTitle(game(g.game)), unratedTag(g)),
                h("span", { class: "muted small" }, when(g.finished_at)),
              ),
              h(
                "span",
                { class: "history-score", "data-testid": "score" },
                g.score === null || g.score === undefined ? "" : t("result.points", { n: g.score }),
              ),
              h(
                "a",
                { class: "btn", href: `/replays/${encodeURIComponent(g.table_id)}`, "data-action": "replay" },
                t("player.replay"),
              ),
            ),
          ),
        )
      : h("p", { class: "muted empty" }, t("player.no_games")),
  );
}

async function loadBoard(gameId) {
  state.board = { game: gameId, rows: null, error: "" };
  renderBoard();
  try {
    const rows = await getLeaderboard(gameId);
    if (state.board.game === gameId) state.board.rows = rows;
  } catch (err) {
    if (state.board.game === gameId) state.board.error = errorText(err);
  }
  renderBoard();
}

function renderBoard() {
  const panel = document.getElementById("leaderboard");
  const b = state.board;
  if (!state.games.length || !b.game) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  const select = h(
    "select",
    { id: "leaderboard-game", onchange: (e) => loadBoard(e.target.value) },
    state.games.map((g) => h("option", { value: g.id, selected: g.id === b.game }, gameTitle(g))),
  );
  let body;
  if (b.error) body = h("p", { class: "form-error" }, b.error);
  else if (!b.rows) body = h("p", { class: "muted" }, t("lobby.loading"));
  else if (!b.rows.length) body = h("p", { class: "muted empty" }, t("player.leaderboard_empty"));
  else {
    body = h(
      "ol",
      { class: "leaderboard-list", "data-testid": "leaderboard" },
      b.rows.map((row, i) =>
        h(
          "li",
          { class: ["leader-row", row.player.id === state.player?.id ? "mine" : ""], "data-player-id": row.player.id },
          h("span", { class: "leader-rank" }, t("result.place", { n: i + 1 })),
          h("a", { class: "leader-name", href: `/players/${encodeURIComponent(row.player.id)}` }, row.player.name),
          h("span", { class: "leader-rating num", title: t("player.rating") }, rating(row.rating)),
          h("span", { class: "leader-games muted small", "data-testid": "rated-games" }, t("player.rated_games_n", { n: row.games })),
        ),
      ),
    );
  }
  const hadFocus = document.activeElement?.id === "leaderboard-game";
  fill(
    panel,
    h(
      "div",
      { class: "panel-head" },
      h("h2", { id: "leaderboard-title" }, t("player.leaderboard")),
      h("label", { class: "filter" }, h("span", { class: "sr-only" }, t("player.game")), select),
    ),
    body,
  );
  if (hadFocus) select.focus();
}

function render() {
  if (!state.player) return;
  renderHead();
  renderRatings();
  renderHistory();
  renderBoard();
  document.body.dataset.status = "ready";
}


async function main() {
  await initI18n();
  installReadable(document.getElementById("main"));
  mountHeader({ onIdentityChange: () => render() });
  onLangChange(() => render());
  await checkIdentity();
  let games;
  try {
    [state.player, games] = await Promise.all([getPlayer(playerId), listGames().catch(() => [])]);
  } catch (err) {
    showGone(err.status === 404 || err.status === 422 ? { key: "player.not_found" } : { text: errorText(err), hint: null });
    return;
  }
  state.games = games;
  render();
  // The leaderboard of the game this player has played most (else the first game).
  const byGame = state.player.stats?.by_game || {};
  const best = Object.entries(byGame).sort((a, b) => b[1].played - a[1].played)[0]?.[0];
  const first = best && games.some((g) => g.id === best) ? best : games[0]?.id;
  if (first) await loadBoard(first);
}

main().catch((err) => {
  console.error(err);
  toast(errorText(err), "error");
});
