// The Luz board. It draws the view the server sent and offers exactly its legal_actions:
// your own hand as card backs (colour and order, "+" at the high end), every other hand
// face up, bets and safety beads, the trick, tricks won and the score sheet.
// It knows no rules: what is clickable comes only from picture.legal_actions.

import { h, fill } from "../dom.js";
import { keepOpen } from "../fold.js";

const SUN = "☀";

// Remembered between renders: the bet being composed (reset when the version changes).
let betDraft = { version: -1, tricks: null, safety: false };

// ------------------------------------------------------------------ small pieces

function colourName(ctx, colour) {
  return ctx.t(`luz.colour.${colour}`);
}

function cardText(ctx, card) {
  return ctx.t("luz.card", { colour: colourName(ctx, card[0]), value: card.slice(1) });
}

function letter(ctx, colour) {
  return ctx.t(`luz.letter.${colour}`);
}

/** A face-up card: the value and the colour's letter in the corner (the sun on yellow). */
function cardFace(ctx, card, extra = {}) {
  const colour = card[0];
  const value = card.slice(1);
  return h(
    "div",
    {
      class: ["card", "face", `c-${colour}`, extra.class],
      role: "img",
      "aria-label": cardText(ctx, card),
      "data-card": card,
      // Where the card travels (static/js/motion.js): its key, and where it comes from.
      "data-flip": extra.flip,
      "data-flip-from": extra.from,
      "data-zoom": "", // a long press enlarges it (zoom.js)
      title: cardText(ctx, card),
    },
    h(
      "span",
      { class: "card-index", "aria-hidden": "true" },
      h("b", null, value),
      h("small", null, letter(ctx, colour)),
      colour === "Y" ? h("small", { class: "sun" }, SUN) : null,
    ),
    h("span", { class: "card-value", "aria-hidden": "true" }, value),
  );
}

/** A card back: its colour only (the letter, and the sun for yellow), never a value. */
function cardBackContent(ctx, colour) {
  return [
    h("span", { class: "card-corner", "aria-hidden": "true" }, letter(ctx, colour)),
    h("span", { class: "card-glass", "aria-hidden": "true" }, colour === "Y" ? SUN : letter(ctx, colour)),
  ];
}

function plusMarker(ctx, side) {
  return h(
    "div",
    { class: ["plus-marker", `plus-${side}`], title: ctx.t("luz.plus_title"), role: "img", "aria-label": ctx.t("luz.plus_title") },
    "+",
  );
}

/** Slots in the order the holder holds them: ascending towards the "+" end. */
function heldOrder(hand) {
  const slots = [...hand.slots].sort((a, b) => a.slot - b.slot);
  return hand.high_end === "left" ? slots.reverse() : slots;
}

/** For an own card: its rank inside its colour (1 = highest), from the slot order alone. */
function rankInColour(hand, slot) {
  const same = hand.slots.filter((s) => s.colour === slot.colour).map((s) => s.slot).sort((a, b) => b - a);
  return { rank: same.indexOf(slot.slot) + 1, count: same.length };
}

function beads(ctx, player) {
  if (player.bet === null || player.bet === undefined) {
    return h("div", { class: "luz-beads pending", "data-flip": `luz-bet-${player.seat}` }, h("span", { class: "muted" }, ctx.t("luz.no_bet_yet")));
  }
  const dots = [];
  for (let i = 0; i < player.bet; i += 1) {
    dots.push(h("span", { class: ["bead", "bead-bet", i < player.tricks_won ? "covered" : ""], "aria-hidden": "true" }));
  }
  if (player.safety) dots.push(h("span", { class: "bead bead-safety", "aria-hidden": "true", title: ctx.t("luz.safety") }));
  const over = player.tricks_won - player.bet;
  return h(
    "div",
    { class: "luz-beads", "data-flip": `luz-bet-${player.seat}` },
    h("span", { class: "bead-row" }, dots.length ? dots : h("span", { class: "bead bead-zero", "aria-hidden": "true" }, "0")),
    h(
      "span",
      { class: ["luz-bet-text", over > (player.safety ? 1 : 0) ? "over" : ""] },
      ctx.t(player.safety ? "luz.bet_safety_won" : "luz.bet_won", { bet: player.bet, won: player.tricks_won }),
    ),
  );
}

// ------------------------------------------------------------------ hands

function ownHand(ctx, view, player, playable, pending) {
  const hand = player.hand;
  const cards = heldOrder(hand).map((slot) => {
    const action = playable.get(slot.slot);
    const { rank, count } = rankInColour(hand, slot);
    const label = ctx.t("luz.own_card_label", { colour: colourName(ctx, slot.colour), rank, count });
    return h(
      "button",
      {
        type: "button",
        class: ["card", "back", `c-${slot.colour}`, action ? "legal" : "", playable.size && !action ? "illegal" : ""],
        "data-slot": slot.slot,
        "data-colour": slot.colour,
        "data-flip": `luz-slot-${hand.seat}-${slot.slot}`,
        disabled: !action || pending,
        "aria-label": action ? `${ctx.t("luz.play")}: ${label}` : label,
        // What a click does and costs: the card is turned face up for good.
        title: action ? ctx.t("luz.hint.play", { label, n: view.current_trick.number }) : label,
        onclick: action ? () => ctx.act(action) : null,
      },
      cardBackContent(ctx, slot.colour),
    );
  });
  return handRow(ctx, hand, cards, "mine");
}

function otherHand(ctx, player) {
  const hand = player.hand;
  const cards = heldOrder(hand).map((slot) =>
    slot.card
      ? cardFace(ctx, slot.card, { class: "in-hand", flip: `luz-slot-${hand.seat}-${slot.slot}` })
      : h(
          "div",
          { class: ["card", "back", `c-${slot.colour}`, "in-hand"], role: "img", "aria-label": colourName(ctx, slot.colour), "data-colour": slot.colour, "data-flip": `luz-slot-${hand.seat}-${slot.slot}` },
          cardBackContent(ctx, slot.colour),
        ),
  );
  return handRow(ctx, hand, cards, hand.values_visible ? "faces" : "backs");
}

function handRow(ctx, hand, cards, kind) {
  const plus = plusMarker(ctx, hand.high_end);
  const cells = cards.map((card) => h("span", { class: "cell" }, card));
  const row = hand.high_end === "left" ? [plus, ...cells] : [...cells, plus];
  return h(
    "div",
    {
      class: ["luz-hand", `hand-${kind}`],
      "data-seat": hand.seat,
      "data-count": hand.count,
      "data-flip": `luz-hand-${hand.seat}`,
      role: "group",
      "aria-label": ctx.t(kind === "mine" ? "luz.my_hand" : "luz.hand_of", { name: ctx.seatName(hand.seat), n: hand.count }),
    },
    cards.length ? row : h("span", { class: "muted small" }, ctx.t("luz.hand_empty")),
  );
}

// ------------------------------------------------------------------ players

function playerPanel(ctx, view, player, { mine, toAct, playable, pending }) {
  const name = ctx.seatName(player.seat);
  return h(
    "section",
    {
      class: ["luz-player", mine ? "is-me" : "", toAct ? "to-act" : "", player.is_first_player ? "first" : ""],
      "data-seat": player.seat,
      "data-flip-frame": `luz-p-${player.seat}`,
      "data-decision-focus": mine ? "" : null, // a bet is about the own hand
      "aria-label": name,
    },
    h(
      "header",
      { class: "luz-player-head" },
      h("span", { class: "luz-name" }, name),
      mine ? h("span", { class: "tag" }, ctx.t("seat.you")) : null,
      player.is_first_player
        ? h("span", { class: "first-marker", title: ctx.t("luz.first_player") }, ctx.t("luz.first_badge"))
        : null,
      toAct ? h("span", { class: "turn-dot", title: ctx.t("seat.to_act") }, "▶") : null,
      h("span", { class: "luz-score", title: ctx.t("luz.total") }, ctx.t("luz.points_short", { n: player.score })),
    ),
    beads(ctx, player),
    mine ? ownHand(ctx, view, player, playable, pending) : otherHand(ctx, player),
  );
}

// ------------------------------------------------------------------ the trick

function trickArea(ctx, view, order) {
  const trick = view.current_trick;
  const bySeat = new Map(trick.plays.map((p) => [p.seat, p]));
  const last = view.completed_tricks.length ? view.completed_tricks[view.completed_tricks.length - 1] : null;
  const spots = order.map((seat) => {
    const play = bySeat.get(seat);
    const winning = play && trick.winning_seat === seat;
    return h(
      "div",
      { class: ["trick-spot", play ? "played" : "waiting", winning ? "winning" : "", trick.leader === seat && play ? "leader" : ""], "data-seat": seat },
      play
        ? cardFace(ctx, play.card, { flip: `luz-card-${play.card}`, from: `luz-slot-${seat}-${play.slot}` })
        : h("div", { class: "card placeholder", "aria-hidden": "true" }),
      h("span", { class: "trick-name" }, ctx.seatName(seat)),
      winning ? h("span", { class: "trick-badge" }, ctx.t("luz.winning")) : null,
    );
  });
  const led = trick.led_colour;
  const over = view.phase === "finished";
  return h(
    "section",
    { class: "luz-trick", "data-flip-frame": "luz-trick", "aria-label": ctx.t("luz.trick_title", { n: trick.number }) },
    h(
      "div",
      { class: "luz-trick-head" },
      over ? null : h("span", null, ctx.t("luz.trick_title", { n: trick.number })),
      led ? h("span", { class: ["led", `c-${led}`] }, ctx.t("luz.led", { colour: colourName(ctx, led) })) : null,
    ),
    over ? null : h("div", { class: "trick-spots" }, spots),
    lastDealSummary(ctx, view),
    last
      ? h(
          "div",
          { class: "last-trick" },
          h("span", { class: "muted small" }, ctx.t("luz.last_trick", { n: last.number, name: ctx.seatName(last.winner) })),
          h(
            "div",
            { class: "mini-cards" },
            last.plays.map((p) =>
              cardFace(ctx, p.card, {
                class: ["mini", p.seat === last.winner ? "won" : ""],
                flip: `luz-last-${p.card}`,
                from: `luz-card-${p.card} luz-slot-${p.seat}-${p.slot}`,
              }),
            ),
          ),
        )
      : null,
  );
}

/** Between deals: what the deal that just ended gave everyone (shown while betting). */
function lastDealSummary(ctx, view) {
  if (view.phase !== "betting" || !view.deal_scores.length || view.completed_tricks.length) return null;
  const last = view.deal_scores[view.deal_scores.length - 1];
  return h(
    "div",
    { class: "deal-summary", "data-scored": `deal-${last.deal}` },
    h("strong", null, ctx.t("luz.deal_summary", { n: last.deal })),
    h(
      "ul",
      null,
      last.rows.map((r) =>
        h(
          "li",
          { class: r.points >= 0 ? "plus" : "minus" },
          h("span", null, ctx.seatName(r.seat)),
          h("span", { class: "sub" }, ctx.t(r.safety ? "luz.bet_safety_won" : "luz.bet_won", { bet: r.bet, won: r.won })),
          h("b", null, r.points > 0 ? `+${r.points}` : String(r.points)),
        ),
      ),
    ),
  );
}

/** A short "how to play" for newcomers, folded by default. */
function helpBox(ctx, view) {
  return keepOpen(h(
    "details",
    { class: "luz-help" },
    h("summary", null, ctx.t("luz.help.title")),
    h(
      "ul",
      null,
      ["goal", "hand", "bet", "play", view.trump ? "trump" : "no_trump", "score"].map((k) =>
        h("li", null, ctx.t(`luz.help.${k}`)),
      ),
    ),
  ), "luz-help", false);
}

// ------------------------------------------------------------------ action panels

function betPanel(ctx, picture) {
  const bets = picture.legal_actions.filter((a) => a.type === "place_bet");
  if (!bets.length) return null;
  if (betDraft.version !== picture.version) betDraft = { version: picture.version, tricks: null, safety: false };
  const values = [...new Set(bets.map((a) => a.tricks))].sort((a, b) => a - b);
  const find = (tricks, safety) => bets.find((a) => a.tricks === tricks && Boolean(a.safety) === safety);
  const chosen = betDraft.tricks !== null ? find(betDraft.tricks, betDraft.safety) : null;
  const safetyPossible = betDraft.tricks !== null && Boolean(find(betDraft.tricks, true));
  const deal = picture.view.deal;
  // Redraw this panel only (a rules page may show several boards at once).
  let panel = null;
  const rerender = () => panel?.replaceWith(betPanel(ctx, picture));
  panel = h(
    "section",
    { class: "luz-action-panel bet-panel", "aria-labelledby": "bet-title" },
    h("h3", { id: "bet-title" }, ctx.t("luz.bet_question")),
    h(
      "div",
      { class: "bet-options", role: "group", "aria-label": ctx.t("luz.bet_tricks") },
      values.map((n) =>
        h(
          "button",
          {
            type: "button",
            class: ["bet-option", "legal", betDraft.tricks === n ? "selected" : ""],
            "data-tricks": n,
            "aria-pressed": betDraft.tricks === n ? "true" : "false",
            title: ctx.t("luz.hint.bet_option", { n }),
            disabled: ctx.pending,
            onclick: () => {
              betDraft.tricks = n;
              if (!find(n, betDraft.safety)) betDraft.safety = false;
              rerender();
            },
          },
          String(n),
        ),
      ),
    ),
    h(
      "label",
      { class: ["safety-toggle", safetyPossible ? "" : "disabled"], title: ctx.t("luz.hint.safety") },
      h("input", {
        type: "checkbox",
        id: "bet-safety",
        checked: betDraft.safety,
        disabled: !safetyPossible || ctx.pending,
        onchange: (e) => {
          betDraft.safety = e.target.checked;
          rerender();
        },
      }),
      h("span", { class: "bead bead-safety", "aria-hidden": "true" }),
      ctx.t("luz.safety_toggle"),
    ),
    h("p", { class: "hint" }, ctx.t("luz.bet_hint", { exact: 10 * picture.view.deal, safe: 5 * picture.view.deal })),
    h(
      "button",
      {
        type: "button",
        class: ["btn", "btn-primary", "bet-confirm", chosen ? "legal" : ""],
        disabled: !chosen || ctx.pending,
        title: chosen
          ? ctx.t(chosen.safety ? "luz.hint.bet_safety" : "luz.hint.bet", { n: chosen.tricks, deal })
          : ctx.t("luz.bet_choose"),
        onclick: () => chosen && ctx.act(chosen),
      },
      chosen
        ? ctx.t(chosen.safety ? "luz.bet_confirm_safety" : "luz.bet_confirm", { n: chosen.tricks })
        : ctx.t("luz.bet_choose"),
    ),
  );
  return panel;
}

function highEndPanel(ctx, picture) {
  const choices = picture.legal_actions.filter((a) => a.type === "choose_high_end");
  if (!choices.length) return null;
  const view = picture.view;
  const holder = (view.viewer + 1) % view.n_players;
  return h(
    "section",
    { class: "luz-action-panel high-end-panel" },
    h("h3", null, ctx.t("luz.high_end_question", { name: ctx.seatName(holder) })),
    h("p", { class: "hint" }, ctx.t("luz.high_end_hint")),
    h(
      "div",
      { class: "row" },
      choices.map((a) =>
        h(
          "button",
          {
            type: "button",
            class: "btn legal",
            "data-side": a.side,
            disabled: ctx.pending,
            title: ctx.t(a.side === "left" ? "luz.hint.high_end_left" : "luz.hint.high_end_right", { name: ctx.seatName(holder) }),
            onclick: () => ctx.act(a),
          },
          ctx.t(`luz.high_end.${a.side}`),
        ),
      ),
    ),
  );
}

function playHint(ctx, picture) {
  const plays = picture.legal_actions.filter((a) => a.type === "play_card");
  if (!plays.length) return null;
  return h("p", { class: "luz-play-hint" }, ctx.t("luz.play_hint"));
}

// ------------------------------------------------------------------ score sheet

function scoreSheet(ctx, view) {
  const seats = view.players.map((p) => p.seat);
  const rows = view.deal_scores.map((d) =>
    h(
      "tr",
      null,
      h("th", { scope: "row" }, ctx.t("luz.deal_n", { n: d.deal })),
      seats.map((seat) => {
        const row = d.rows.find((r) => r.seat === seat);
        if (!row) return h("td", null, "—");
        return h(
          "td",
          { class: row.points >= 0 ? "plus" : "minus", title: ctx.t(row.safety ? "luz.bet_safety_won" : "luz.bet_won", { bet: row.bet, won: row.won }) },
          h("span", { class: "pts" }, row.points > 0 ? `+${row.points}` : String(row.points)),
          h("span", { class: "sub" }, ctx.t(row.safety ? "luz.sheet_bet_safety" : "luz.sheet_bet", { bet: row.bet, won: row.won })),
        );
      }),
    ),
  );
  // A reference panel: open on a wide screen once a deal is scored, a summary on a phone.
  return keepOpen(h(
    "details",
    { class: "luz-sheet" },
    h("summary", null, ctx.t("luz.score_sheet")),
    view.deal_scores.length
      ? h(
          "div",
          { class: "table-scroll", tabindex: 0 },
          h(
            "table",
            null,
            h("thead", null, h("tr", null, h("td", { class: "corner" }), seats.map((s) => h("th", { scope: "col" }, ctx.seatName(s))))),
            h("tbody", null, rows),
            h(
              "tfoot",
              null,
              h("tr", null, h("th", { scope: "row" }, ctx.t("luz.total")), view.scores.map((s) => h("td", { class: "total" }, String(s)))),
            ),
          ),
        )
      : h("p", { class: "muted small" }, ctx.t("luz.sheet_empty")),
  ), "luz-sheet", (phone) => !phone && view.deal_scores.length > 0);
}

function tricksList(ctx, view) {
  if (!view.completed_tricks.length) return null;
  return keepOpen(h(
    "details",
    { class: "luz-tricks" },
    h("summary", null, ctx.t("luz.tricks_this_deal", { n: view.completed_tricks.length + view.hidden_tricks })),
    view.hidden_tricks ? h("p", { class: "muted small" }, ctx.t("luz.hidden_tricks", { n: view.hidden_tricks })) : null,
    h(
      "ol",
      { class: "trick-history" },
      view.completed_tricks.map((tr) =>
        h(
          "li",
          { value: tr.number },
          h("div", { class: "mini-cards" }, tr.plays.map((p) => cardFace(ctx, p.card, { class: ["mini", p.seat === tr.winner ? "won" : ""] }))),
          h("span", { class: "small" }, ctx.t("luz.won_by", { name: ctx.seatName(tr.winner) })),
        ),
      ),
    ),
  ), "luz-tricks", false);
}

// ------------------------------------------------------------------ render

export function render(root, picture, ctx) {
  const view = picture.view;
  const n = view.n_players;
  const viewer = view.viewer;
  const bottom = viewer ?? 0;
  const order = Array.from({ length: n }, (_, i) => (bottom + i) % n); // clockwise from me
  const toAct = new Set(picture.status === "playing" ? picture.to_act : []);
  const playable = new Map(
    picture.legal_actions.filter((a) => a.type === "play_card").map((a) => [a.slot, a]),
  );
  const players = new Map(view.players.map((p) => [p.seat, p]));
  const panel = (seat, mine) =>
    playerPanel(ctx, view, players.get(seat), {
      mine,
      toAct: toAct.has(seat),
      playable: mine ? playable : new Map(),
      pending: ctx.pending,
    });
  const phaseText =
    view.phase === "finished"
      ? ctx.t("luz.phase.finished")
      : ctx.t("luz.status_line", {
          deal: view.deal,
          deals: view.deals_total,
          trick: view.trick_no,
        });
  const status = h(
    "div",
    { class: "luz-status" },
    h("span", { class: "luz-phase" }, phaseText),
    view.phase !== "finished" ? h("span", { class: "luz-phase-name" }, ctx.t(`luz.phase.${view.phase}`)) : null,
    view.trump
      ? h("span", { class: "luz-trump c-Y" }, SUN, " ", ctx.t("luz.trump", { colour: colourName(ctx, view.trump) }))
      : h("span", { class: "luz-trump" }, ctx.t("luz.no_trump")),
  );
  const others = order.slice(viewer === null ? 0 : 1);
  const actions = [betPanel(ctx, picture), highEndPanel(ctx, picture), playHint(ctx, picture)].filter(Boolean);
  fill(root, 
    h(
      "div",
      { class: ["luz", `phase-${view.phase}`, viewer === null ? "spectator" : ""], "data-phase": view.phase, "data-version": picture.version },
      status,
      h(
        "div",
        { class: "luz-felt" },
        h("div", { class: ["luz-opponents", `n-${others.length}`] }, others.map((seat) => panel(seat, false))),
        trickArea(ctx, view, order),
        viewer !== null
          ? h(
              "div",
              { class: "luz-mine" },
              panel(viewer, true),
              actions.length ? h("div", { class: "luz-actions", "data-decision": "" }, actions) : null,
            )
          : null,
      ),
      h("div", { class: "luz-extras" }, scoreSheet(ctx, view), tricksList(ctx, view), helpBox(ctx, view)),
    ),
  );
}

/** Per-seat totals for the shell's seat list. */
export function scores(view) {
  return view?.scores || null;
}

/**
 * The log lines the table may still show (rules §6 note 2): with strict_memory, while the game
 * runs, no card of a completed trick other than the last one, even one this page saw played
 * live. Mirrors the server's app/games/luz/memory.py: older tricks' card_played lines go, their
 * trick_won keeps its winner without its cards. "The last completed trick" runs across deals.
 */
export function visibleLog(events, view) {
  if (!view || !view.options?.strict_memory || view.phase === "finished") return events;
  const done = view.completed_tricks.length + view.hidden_tricks;
  const oldest = done ? [view.deal, done] : [view.deal - 1, 10];
  const older = (deal, n) => deal < oldest[0] || (deal === oldest[0] && n < oldest[1]);
  // Events before the first deal_started in the list belong to the deal before it.
  const start = events.find((event) => event.type === "deal_started");
  let deal = start ? start.deal - 1 : view.deal;
  const out = [];
  for (const event of events) {
    if (event.type === "deal_started") deal = event.deal;
    else if (event.type === "card_played" && older(deal, event.trick_no)) continue;
    else if (event.type === "trick_won" && older(deal, event.trick_no)) {
      const { text: _text, ...rest } = event;
      out.push({ ...rest, cards: [] });
      continue;
    } else if ((event.type === "hand_shown" || event.type === "hands_dealt") && event.deal < view.deal) continue;
    out.push(event);
  }
  return out;
}

/** What a move touched on the board (its data-flip keys), for the shell's last-move marks. */
export function lastMove(event) {
  switch (event.type) {
    case "card_played":
      return { seat: event.seat, keys: [`luz-card-${event.card}`, `luz-last-${event.card}`] };
    case "bet_placed":
      return { seat: event.seat, keys: [`luz-bet-${event.seat}`] };
    case "high_end_chosen":
      return { seat: event.sorter, keys: [`luz-hand-${event.seat}`] };
    default:
      return null;
  }
}

/** The log leaves out the dealt hands: they are on the board. */
export const quietEvents = ["hand_shown"];

