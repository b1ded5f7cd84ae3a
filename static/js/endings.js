// Ending a table other than by its rules, and the next one (issue 18.3): resign (with a
// confirmation), the owner's proposal to cancel and everybody's vote, deleting an open table,
// and "Play again" in the result panel. The table page and the lobby call in here with a line
// or two; the protocol is API-EXTENSIONS.md, "Ending a table".

import { api } from "./api.js";
import { h, fill, toast } from "./dom.js";
import { t, currentLang } from "./i18n.js";
import { seatName, levelName, showError } from "./common.js";

const path = (id, rest = "") => `/tables/${encodeURIComponent(id)}${rest}`;

export const resign = (id) => api("POST", path(id, "/resign"));
export const proposeCancel = (id) => api("POST", path(id, "/cancel"));
export const voteCancel = (id, agree) => api("POST", path(id, "/cancel/vote"), { agree });
export const deleteTable = (id) => api("DELETE", path(id));
export const rematch = (id) => api("POST", path(id, "/rematch"));

const tableHref = (id) => `/tables/${encodeURIComponent(id)}`;

// ------------------------------------------------------------------ lobby

/** The lobby's create form: what a resignation means at the new table. */
export function resignField() {
  const select = h(
    "select",
    { id: "create-on-resign", name: "on_resign" },
    ["last", "bot"].map((mode) => h("option", { value: mode }, t(`ending.on_resign.${mode}`))),
  );
  const node = h(
    "div",
    { class: "field" },
    h("label", { for: "create-on-resign" }, t("ending.on_resign")),
    select,
    h("small", { class: "hint" }, t("ending.on_resign_hint")),
  );
  return { node, read: () => select.value };
}

/** A finished table that its players cancelled says so instead of "Finished". */
export function statusKey(table) {
  return table.status === "finished" && table.result?.cancelled ? "ending.cancelled" : `status.${table.status}`;
}

/** The owner's "Delete" on an open table (lobby card or table page), after a confirmation. */
export function deleteButton(table, onDeleted) {
  return h(
    "button",
    {
      type: "button",
      class: "btn btn-link btn-danger-link",
      "data-action": "delete-table",
      onclick: async (event) => {
        if (!confirm(t("ending.delete_confirm"))) return;
        event.currentTarget.disabled = true;
        try {
          await deleteTable(table.id);
          toast(t("ending.deleted"), "info");
          onDeleted();
        } catch (err) {
          showError(err);
          event.currentTarget.disabled = false;
        }
      },
    },
    t("ending.delete"),
  );
}

// ------------------------------------------------------------------ results (every page)

/** Whether the owner may propose to cancel: the server's rule (app.tables.cancelling) needs
 * the owner playing their own seat and another person who still does. */
function canPropose(tb, seat) {
  const hasSay = (s) => Boolean(s?.player) && !s.bot && !s.resigned;
  return hasSay(seat) && tb.seats.some((s) => s.seat !== seat.seat && hasSay(s));
}

/** A tag for a seat that resigned, in a ranking or a seat list. */
export function resignedTag(result, seat) {
  const out = (result?.resigned || []).includes(seat);
  return out ? h("span", { class: "tag tag-resigned" }, t("ending.resigned_seat")) : null;
}

/** Why a game ended without its rules' result (cancelled, or every other seat resigned):
 *  the server's line in the page's language (`tiebreak_text`), else ours. */
export function resultNote(result) {
  if (!result?.cancelled && !result?.ended_early) return null;
  const text = result.tiebreak_text || t(result.cancelled ? "ending.cancelled_banner" : "ending.ended_early");
  return h("p", { class: "ending-note", "data-testid": "ending-note" }, text);
}

// ------------------------------------------------------------------ table page

/**
 * The table page's part: `page` gives what the page knows — {tableId, state, mySeat,
 * isOwner, status, render}. Returns the hooks the page calls.
 */
export function mountEndings(page) {
  const local = { busy: false, confirming: false, leaving: false, drawn: null, bannerDrawn: null };

  const table = () => page.state.table;
  const mine = () => {
    const seat = page.mySeat();
    return seat === null || seat === undefined ? null : table()?.seats?.[seat] || null;
  };

  async function run(fn) {
    if (local.busy) return;
    local.busy = true;
    redraw();
    try {
      const answer = await fn();
      if (answer && answer.seats) page.state.table = answer;
    } catch (err) {
      showError(err);
    } finally {
      local.busy = false;
      local.confirming = false;
      page.render();
    }
  }

  function go(id) {
    if (local.leaving || !id) return;
    local.leaving = true;
    toast(t("ending.going"), "info");
    location.href = tableHref(id);
  }

  // -------------------------------------------------------------- sidebar panel

  function renderPanel() {
    const panel = document.getElementById("endings");
    if (!panel) return;
    const seat = mine();
    const tb = table();
    // Something to do: resign while still in, or (the owner) propose to cancel.
    const show = page.status() === "playing" && tb && ((seat && !seat.resigned) || page.isOwner());
    const key = show
      ? JSON.stringify([
          seat?.resigned,
          seat?.taken_over,
          local.busy,
          local.confirming,
          page.isOwner(),
          Boolean(tb.cancel_vote),
          canPropose(tb, seat),
          tb.on_resign,
          currentLang(),
        ])
      : null;
    if (key === local.drawn) return;
    local.drawn = key;
    panel.hidden = !show;
    if (!show) {
      panel.replaceChildren();
      return;
    }
    const parts = [h("h2", null, t("ending.panel_title"))];
    if (seat && !seat.resigned) {
      if (local.confirming) {
        parts.push(
          h(
            "div",
            { class: "resign-confirm", role: "group", "aria-labelledby": "resign-question" },
            h("p", { id: "resign-question" }, t(tb.on_resign === "bot" ? "ending.resign_confirm_bot" : "ending.resign_confirm_last")),
            h(
              "div",
              { class: "row" },
              h(
                "button",
                {
                  type: "button",
                  class: "btn btn-danger",
                  "data-action": "resign-confirm",
                  disabled: local.busy,
                  onclick: () => run(() => resign(page.tableId)),
                },
                t("ending.resign_yes"),
              ),
              h(
                "button",
                {
                  type: "button",
                  class: "btn",
                  "data-action": "resign-cancel",
                  onclick: () => {
                    local.confirming = false;
                    redraw();
                  },
                },
                t("ending.keep_playing"),
              ),
            ),
          ),
        );
      } else {
        parts.push(
          h(
            "button",
            {
              type: "button",
              class: "btn",
              "data-action": "resign",
              disabled: local.busy,
              onclick: () => {
                local.confirming = true;
                redraw();
                document.querySelector("[data-action=resign-cancel]")?.focus();
              },
            },
            t("ending.resign"),
          ),
        );
      }
    } else if (seat?.resigned) {
      parts.push(h("p", { class: "muted" }, t("ending.resigned_me")));
    }
    if (page.isOwner() && canPropose(tb, seat) && !tb.cancel_vote && !local.confirming) {
      parts.push(
        h(
          "button",
          {
            type: "button",
            class: "btn btn-link",
            "data-action": "propose-cancel",
            disabled: local.busy,
            onclick: () => run(() => proposeCancel(page.tableId)),
          },
          t("ending.propose_cancel"),
        ),
        h("p", { class: "hint" }, t("ending.cancel_hint")),
      );
    }
    fill(panel, parts);
  }

  // -------------------------------------------------------------- the vote banner

  function renderBanner() {
    const el = document.getElementById("cancel-banner");
    if (!el) return;
    const tb = table();
    const playing = page.status() === "playing";
    const vote = playing ? tb?.cancel_vote : null;
    const seat = mine();
    // A player who resigned reads it where they look first (the board still moves).
    const resigned = playing && Boolean(seat?.resigned);
    const key =
      vote || resigned
        ? JSON.stringify([vote, seat?.seat ?? null, seat?.taken_over, resigned, local.busy, currentLang()])
        : null;
    if (key === local.bannerDrawn) return;
    local.bannerDrawn = key;
    el.hidden = !key;
    if (!key) {
      el.replaceChildren();
      return;
    }
    if (!vote) {
      fill(el, h("span", { class: "cancel-text", "data-testid": "resigned-note" }, t("ending.resigned_me")));
      return;
    }
    const waiting = vote.waiting || [];
    const askMe = seat && waiting.includes(seat.seat) && !seat.taken_over;
    const agreedMe = seat && (vote.agreed || []).includes(seat.seat);
    fill(
      el,
      resigned ? h("span", { class: "cancel-text" }, t("ending.resigned_me")) : null,
      h(
        "span",
        { class: "cancel-text" },
        t("ending.cancel_proposed", { name: vote.proposed_by?.name || "?" }),
        " ",
        h(
          "span",
          { class: "cancel-count" },
          t("ending.cancel_agreed", { n: (vote.agreed || []).length, total: (vote.agreed || []).length + waiting.length }),
        ),
        waiting.length && !askMe
          ? h("span", { class: "cancel-waiting" }, " ", t("ending.cancel_waiting", { names: waiting.map((s) => seatName(tb, s)).join(", ") }))
          : null,
      ),
      askMe
        ? h(
            "span",
            { class: "row" },
            h(
              "button",
              {
                type: "button",
                class: "btn btn-primary",
                "data-action": "cancel-agree",
                disabled: local.busy,
                onclick: () => run(() => voteCancel(page.tableId, true)),
              },
              t("ending.cancel_agree"),
            ),
            h(
              "button",
              {
                type: "button",
                class: "btn",
                "data-action": "cancel-refuse",
                disabled: local.busy,
                onclick: () => run(() => voteCancel(page.tableId, false)),
              },
              t("ending.keep_playing"),
            ),
          )
        : agreedMe
          ? h(
              "button",
              {
                type: "button",
                class: "btn btn-link",
                "data-action": "cancel-withdraw",
                disabled: local.busy,
                onclick: () => run(() => voteCancel(page.tableId, false)),
              },
              t(page.isOwner() ? "ending.cancel_withdraw" : "ending.cancel_change"),
            )
          : null,
    );
  }

  /** Finished: "Play again" in the turn banner too, the first thing a phone shows. */
  function renderTurnBanner() {
    const banner = document.getElementById("turn-banner");
    if (!banner || page.status() !== "finished" || page.mySeat() === null) return;
    if (banner.querySelector("[data-action=play-again]")) return;
    banner.append(playAgain("btn btn-primary btn-play-again-top"));
  }

  function playAgain(cls) {
    return h(
      "button",
      {
        type: "button",
        class: cls,
        "data-action": "play-again",
        title: t("ending.play_again_hint"),
        disabled: local.busy || local.leaving,
        onclick: async () => {
          if (local.busy) return;
          local.busy = true;
          try {
            const next = await rematch(page.tableId);
            go(next.id);
          } catch (err) {
            showError(err);
            local.busy = false;
            page.render();
          }
        },
      },
      h("span", { "aria-hidden": "true" }, "↻ "),
      t("ending.play_again"),
    );
  }

  function redraw() {
    renderPanel();
    renderBanner();
    renderTurnBanner();
  }

  // -------------------------------------------------------------- hooks for table.js

  return {
    render: redraw,

    /** A table frame or answer replaced `before`: follow "Play again", report a refusal. */
    onTable(before, after) {
      if (!before || !after) return;
      if (!before.next_table && after.next_table && page.mySeat() !== null) go(after.next_table);
      if (before.cancel_vote && !after.cancel_vote && after.status === "playing") {
        toast(t("ending.cancel_refused"), "info");
      }
    },

    /** The finished banner's text when the table made the result (cancelled), else null. */
    bannerText(result) {
      return result?.cancelled ? t("ending.cancelled_banner") : null;
    },

    /** Under a seat: "resigned" (a bot plays it for good). */
    seatNote(seat) {
      if (!seat.resigned) return null;
      return h(
        "span",
        { class: "seat-sub seat-resigned", "data-testid": "resigned" },
        h("span", { class: "bot-icon", "aria-hidden": "true" }, "⚑ "),
        t("ending.resigned_seat"),
        // The bot that plays the seat out, at the table's takeover level (issue 21).
        seat.bot_level
          ? h(
              "span",
              { class: "seat-bot-for", "data-testid": "resigned-bot" },
              t("ending.resigned_bot", { level: levelName(seat.bot_level) }),
            )
          : null,
      );
    },

    /** A tag for a ranking row of a seat that resigned. */
    rankTag: resignedTag,

    /** The result panel's first action: "Play again" for its players, else the way to the
     *  new table once they have made one. */
    resultAction() {
      const tb = table();
      if (!tb || page.status() !== "finished") return null;
      if (page.mySeat() === null) {
        return tb.next_table
          ? h("a", { class: "btn btn-primary", href: tableHref(tb.next_table), "data-action": "next-table" }, t("ending.next_table"))
          : null;
      }
      return playAgain("btn btn-primary btn-play-again");
    },

    /** The owner's "Delete" in the waiting room (back to the lobby after). */
    deleteButton() {
      const tb = table();
      if (!tb || page.status() !== "open" || !page.isOwner()) return null;
      return deleteButton(tb, () => {
        local.leaving = true;
        location.href = "/";
      });
    },
  };
}
