// The MINE! board. It draws the view the server sent and offers exactly its legal_actions:
// the gear score track with the central coal supply in its hub, the die and the round, every
// director's board with its six locations (face-down cards, raid stacks with the colour card
// of their victim, the coal stock on the Expedition), the own hand with the legal placements
// highlighted, and the numbers of the last resolution step by step.
// It knows no rules: what is clickable comes only from picture.legal_actions.

import { h, fill } from "../dom.js";
import { fold, keepOpen } from "../fold.js";

// ------------------------------------------------------------------ component data (cosmetic)

/** Each colour also has a shape, so no information rides on the colour alone. */
const SYMBOL = { c0: "▲", c1: "●", c2: "■", c3: "◆", c4: "★", c5: "✚" };
const LOCATIONS = ["events", "shelter", "watchtower", "expedition", "mine", "recruitment"];
/** The helmet value a profession card shows at each location (rules §2.5). */
const VALUE_AT = { shelter: "atk", watchtower: "def", mine: "ext", recruitment: "rec" };
const STATS = ["atk", "def", "ext", "rec"];
const GLYPH = {
  miner: "⚒",
  pit_builder: "⌂",
  foreman: "⚑",
  watchman: "♜",
  brawler: "⚔",
  engineer: "⚙",
  firedamp: "✸",
  safety_lamp: "☼",
  big_order: "✉",
  rich_seam: "◆",
  hiring_day: "✚",
  strike: "⚠",
  cage_breakdown: "⇊",
  gendarmes: "⚖",
  back: "⚒",
};
// [first id, count, kind, atk, def, ext, rec] (the printed cards, §2.5 and §2.6)
const CARD_TABLE = [
  [1, 24, "miner", 2, 1, 2, 1],
  [25, 24, "pit_builder", 1, 2, 1, 1],
  [49, 3, "foreman", 1, 1, 1, 3],
  [52, 3, "watchman", 1, 3, 0, 1],
  [55, 3, "brawler", 3, 1, 0, 1],
  [58, 3, "engineer", 0, 1, 3, 1],
  [61, 3, "firedamp"],
  [64, 1, "safety_lamp"],
  [65, 1, "big_order"],
  [66, 1, "rich_seam"],
  [67, 1, "hiring_day"],
  [68, 1, "strike"],
  [69, 1, "cage_breakdown"],
  [70, 1, "gendarmes"],
];

function cardInfo(id) {
  for (const [first, count, kind, atk, def, ext, rec] of CARD_TABLE) {
    if (id >= first && id < first + count) {
      return { id, kind, event: atk === undefined, atk, def, ext, rec };
    }
  }
  return { id, kind: "unknown", event: false };
}

// Remembered between renders, per board root (a rules page draws several figures at once):
// the card being placed (reset when the version changes), the last picture and context, and
// the round whose resolution was already shown step by step (animate each report only once).
const boards = new WeakMap();
// Working copies for the board being drawn now (loaded from and saved to `boards`).
let draft = { version: -1, card: null };
let animatedReport = null;
let rendering = null;

// ------------------------------------------------------------------ names

/** The colour's neutral name (rules §2.4: red, blue, green, yellow, purple, orange). */
function colourOf(ctx, colour) {
  return ctx.t(`mine.colour.${colour}`);
}

/** "Red": the colour's name as a name of its own (a director nobody runs, a swatch). */
function colourTitle(ctx, colour) {
  return colourOf(ctx, colour).replace(/^./, (ch) => ch.toUpperCase());
}

function colourId(d) {
  return `c${d}`;
}

/** The person (or bot, or the dummy) who runs director d. */
function directorName(ctx, d, nSeats) {
  if (d >= nSeats) return ctx.t("mine.dummy_name");
  return typeof ctx.seatName === "function" ? ctx.seatName(d) : colourTitle(ctx, colourId(d));
}

/** "Ana (red)": the name and its colour (hints, buttons); just "Red" when the name is the colour. */
function namedColour(ctx, d, nSeats) {
  const name = directorName(ctx, d, nSeats);
  const colour = colourOf(ctx, colourId(d));
  if (name.toLowerCase() === colour.toLowerCase()) return name;
  return ctx.t("mine.name_colour", { name, colour });
}

/** "▲ Ana (red)": the colour's shape, then the name and colour (log lines, reports). */
function tagged(ctx, d, nSeats) {
  return `${SYMBOL[colourId(d)] || ""} ${namedColour(ctx, d, nSeats)}`;
}

function kindName(ctx, kind) {
  return ctx.t(`mine.kind.${kind}`);
}

function cardName(ctx, id) {
  return kindName(ctx, cardInfo(id).kind);
}

function locName(ctx, loc) {
  return ctx.t(`mine.loc.${loc}`);
}

function statName(ctx, stat) {
  return ctx.t(`mine.stat.${stat}`);
}

/** A readable description of a card for screen readers and tooltips. */
function cardLabel(ctx, id) {
  const c = cardInfo(id);
  if (c.event) return `${kindName(ctx, c.kind)}: ${ctx.t(`mine.effect.${c.kind}`)}`;
  return ctx.t("mine.card_label", { name: kindName(ctx, c.kind), atk: c.atk, def: c.def, ext: c.ext, rec: c.rec });
}

function colourSwatch(ctx, colour, extra) {
  return h(
    "span",
    {
      class: ["swatch", `col-${colour}`, extra],
      role: "img",
      "aria-label": colourTitle(ctx, colour),
      title: colourTitle(ctx, colour),
    },
    SYMBOL[colour],
  );
}

// ------------------------------------------------------------------ cards

/** A card face: the kind, its glyph and its four helmet values (the one that counts here marked). */
function cardFace(ctx, id, opts = {}) {
  const c = cardInfo(id);
  const counts = opts.location ? VALUE_AT[opts.location] : null;
  const tag = opts.button ? "button" : "div";
  const attrs = {
    class: ["mcard", "face", c.event ? "event" : "profession", `k-${c.kind}`, opts.size || "small", opts.class],
    "data-card": id,
    // Where the card travels (static/js/motion.js): its key, and where it comes from.
    "data-flip": opts.flip,
    "data-flip-from": opts.from,
    "data-zoom": "", // a long press enlarges it (zoom.js)
    title: opts.title || cardLabel(ctx, id),
  };
  if (opts.button) {
    Object.assign(attrs, opts.button);
    attrs.type = "button";
  } else {
    attrs.role = "img";
    attrs["aria-label"] = opts.label || cardLabel(ctx, id);
  }
  const small = opts.size !== "large";
  const body = c.event
    ? [
        h("span", { class: "mcard-glyph", "aria-hidden": "true" }, GLYPH[c.kind]),
        opts.size === "large" ? h("span", { class: "mcard-effect", "aria-hidden": "true" }, ctx.t(`mine.effect_short.${c.kind}`)) : null,
      ]
    : [
        h("span", { class: "mcard-glyph", "aria-hidden": "true" }, GLYPH[c.kind]),
        small
          ? counts
            ? h("span", { class: "helmet-one", "aria-hidden": "true" }, h("small", null, statName(ctx, counts)), h("b", null, String(c[counts])))
            : null
          : h(
          "span",
          { class: "helmets", "aria-hidden": "true" },
          STATS.map((s) =>
            h("span", { class: ["helmet", `h-${s}`, counts === s ? "counts" : ""] }, h("small", null, statName(ctx, s)), h("b", null, String(c[s]))),
          ),
        ),
      ];
  return h(
    tag,
    attrs,
    h("span", { class: "mcard-name", "aria-hidden": "true" }, kindName(ctx, c.kind)),
    body,
    opts.badge || null,
  );
}

/** A face-down card: nothing but the pit-head back. */
function cardBack(ctx, extra, flip = {}) {
  return h(
    "div",
    {
      class: ["mcard", "back", "small", extra],
      role: "img",
      "aria-label": ctx.t("mine.face_down"),
      title: ctx.t("mine.face_down"),
      "data-flip": flip.flip,
      "data-flip-from": flip.from,
    },
    h("span", { class: "mcard-glyph", "aria-hidden": "true" }, GLYPH.back),
  );
}

/** A placed card. Its key is its place in the director's row (face down or up, it stays the
 *  same card); a new one comes from the card in my hand, or from its director's hand count. */
function placedCard(ctx, d, p) {
  const index = d.placed.indexOf(p);
  const flip = {
    flip: `mine-placed-${d.director}-${index}`,
    from: `${p.card === null || p.card === undefined ? "" : `mine-card-${p.card} `}mine-hand-${d.director}`,
  };
  if (p.card === null || p.card === undefined) return cardBack(ctx, null, flip);
  const secret = !p.revealed;
  return cardFace(ctx, p.card, {
    ...flip,
    location: p.location,
    class: secret ? "secret" : "revealed",
    label: secret ? `${cardLabel(ctx, p.card)} — ${ctx.t("mine.only_you")}` : cardLabel(ctx, p.card),
    badge: secret ? h("span", { class: "secret-mark", "aria-hidden": "true", title: ctx.t("mine.only_you") }, "◐") : null,
  });
}

function coalCubes(n, max = 10) {
  const cubes = [];
  for (let i = 0; i < Math.min(n, max); i += 1) cubes.push(h("span", { class: "cube", "aria-hidden": "true" }));
  if (n > max) cubes.push(h("span", { class: "cube-more", "aria-hidden": "true" }, `+${n - max}`));
  return cubes;
}

function dieFace(value, label) {
  const pips = {
    1: [5],
    2: [1, 9],
    3: [1, 5, 9],
    4: [1, 3, 7, 9],
    5: [1, 3, 5, 7, 9],
    6: [1, 3, 4, 6, 7, 9],
  }[value] || [];
  const cells = [];
  for (let i = 1; i <= 9; i += 1) cells.push(h("span", { class: pips.includes(i) ? "pip" : "nopip" }));
  return h("span", { class: "die", role: "img", "aria-label": label, title: label }, cells);
}

// ------------------------------------------------------------------ the gear (score track + supply)

function gear(ctx, view) {
  const NS = "http://www.w3.org/2000/svg";
  const svg = (tag, attrs, ...kids) => {
    const el = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
    for (const kid of kids.flat()) if (kid) el.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
    return el;
  };
  const SPACES = 31; // 0..30
  const step = (2 * Math.PI) / SPACES;
  const angle = (i) => -Math.PI / 2 + i * step;
  // The toothed rim.
  const teeth = [];
  for (let i = 0; i < SPACES; i += 1) {
    const a = angle(i);
    const pts = [
      [a - step * 0.32, 104],
      [a - step * 0.22, 117],
      [a + step * 0.22, 117],
      [a + step * 0.32, 104],
    ];
    teeth.push(pts.map(([aa, r]) => `${(Math.cos(aa) * r).toFixed(1)},${(Math.sin(aa) * r).toFixed(1)}`).join(" "));
  }
  const spaces = [];
  for (let i = 0; i < SPACES; i += 1) {
    const a = angle(i);
    const x = Math.cos(a) * 91;
    const y = Math.sin(a) * 91;
    const goal = i === view.end_score;
    spaces.push(
      svg(
        "g",
        { class: ["space", goal ? "goal" : "", i % 5 === 0 ? "fifth" : ""].join(" ") },
        svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: goal ? 10.5 : 8.6 }),
        svg("text", { x: x.toFixed(1), y: (y + 3.3).toFixed(1), "text-anchor": "middle" }, String(i)),
      ),
    );
  }
  // Pawns: grouped by space, a small cluster just inside the track.
  const bySpace = new Map();
  for (const d of view.directors) {
    const s = Math.max(0, Math.min(30, d.score));
    if (!bySpace.has(s)) bySpace.set(s, []);
    bySpace.get(s).push(d);
  }
  const pawns = [];
  for (const [s, ds] of bySpace) {
    const a = angle(s);
    const cx = Math.cos(a) * 66;
    const cy = Math.sin(a) * 66;
    ds.forEach((d, j) => {
      const cols = Math.min(ds.length, 3);
      const row = Math.floor(j / 3);
      const col = j % 3;
      const x = cx + (col - (cols - 1) / 2) * 13;
      const y = cy + (row - (ds.length > 3 ? 0.5 : 0)) * 13;
      pawns.push(
        svg(
          "g",
          { class: `pawn col-${d.colour}`, "data-director": d.director, "data-flip": `mine-pawn-${d.director}` },
          svg("circle", { cx: x.toFixed(1), cy: y.toFixed(1), r: 7.2 }),
          svg("text", { x: x.toFixed(1), y: (y + 3.2).toFixed(1), "text-anchor": "middle" }, SYMBOL[d.colour]),
        ),
      );
    });
  }
  const n = view.n_seats;
  const label = ctx.t("mine.gear_label", {
    goal: view.end_score,
    scores: view.directors.map((d) => `${directorName(ctx, d.director, n)} ${d.score}`).join(", "),
  });
  const picture = svg(
    "svg",
    { viewBox: "-122 -122 244 244", class: "gear-svg", role: "img", "aria-label": label },
    ...teeth.map((p) => svg("polygon", { class: "gear-tooth", points: p })),
    svg("circle", { class: "gear-body", r: 105 }),
    svg("circle", { class: "gear-groove", r: 79 }),
    spaces,
    svg("circle", { class: "gear-hub", r: 40 }),
    svg("text", { class: "hub-num", y: 6, "text-anchor": "middle" }, String(view.supply)),
    svg("text", { class: "hub-label", y: 21, "text-anchor": "middle" }, ctx.t("mine.supply_short")),
    pawns,
  );
  const legend = h(
    "ul",
    { class: "gear-legend" },
    view.directors.map((d) =>
      h(
        "li",
        { class: [`col-${d.colour}`], "data-director": d.director },
        colourSwatch(ctx, d.colour),
        h("span", { class: "legend-name" }, directorName(ctx, d.director, n)),
        h("b", { class: "legend-score" }, String(d.score)),
      ),
    ),
  );
  return h(
    "section",
    { class: "mine-gear", "data-flip-frame": "mine-gear", "aria-label": ctx.t("mine.gear_title") },
    h("h3", { class: "sr-only" }, ctx.t("mine.gear_title")),
    picture,
    legend,
  );
}

function centralPanel(ctx, view) {
  const variantBits = view.variant
    ? h(
        "div",
        { class: "info-row die-card-row" },
        h("span", { class: "info-label" }, ctx.t("mine.die_card")),
        view.die_card
          ? h("span", { class: "die-card", "data-die-card": view.die_card },
              h("b", null, view.die_card),
              h("small", null, ctx.t("mine.die_card_values", { mine: view.mine_max, sale: view.sale_limit })))
          : h("span", { class: "muted" }, "—"),
        view.used_die_cards.length
          ? h("small", { class: "used-die-cards" }, ctx.t("mine.used_die_cards", { cards: view.used_die_cards.join(", ") }))
          : null,
      )
    : null;
  const top = view.discard_pile.length ? view.discard_pile[view.discard_pile.length - 1] : null;
  return h(
    "section",
    { class: "mine-central", "data-flip-frame": "mine-central", "aria-label": ctx.t("mine.central_title") },
    h(
      "div",
      { class: "info-row supply-row", "data-supply": view.supply },
      h("span", { class: "info-label" }, ctx.t("mine.supply")),
      h("span", { class: "cubes" }, coalCubes(view.supply, 20)),
      h("b", { class: "info-num" }, String(view.supply)),
    ),
    view.variant
      ? h("div", { class: "info-row" }, h("span", { class: "info-label" }, ctx.t("mine.box")), h("b", { class: "info-num" }, String(view.box)))
      : null,
    view.coal_created
      ? h("div", { class: "info-row" }, h("span", { class: "info-label" }, ctx.t("mine.created")), h("b", { class: "info-num" }, String(view.coal_created)))
      : null,
    variantBits,
    h(
      "div",
      { class: "piles" },
      h(
        "div",
        { class: "pile", "data-pile": "draw" },
        h("div", { class: "pile-stack", "aria-hidden": "true" }, view.draw_pile_size ? cardBack(ctx, "pile-card", { flip: "mine-draw" }) : h("div", { class: "mcard small empty" })),
        h("span", { class: "pile-label" }, ctx.t("mine.draw_pile", { n: view.draw_pile_size })),
      ),
      h(
        "div",
        { class: "pile", "data-pile": "discard" },
        h("div", { class: "pile-stack" }, top !== null ? cardFace(ctx, top, { class: "pile-card", flip: `mine-pile-${top}`, from: `mine-card-${top}` }) : h("div", { class: "mcard small empty", "aria-hidden": "true" })),
        h("span", { class: "pile-label" }, ctx.t("mine.discard_pile", { n: view.discard_pile.length })),
      ),
    ),
  );
}

// ------------------------------------------------------------------ a director's board

function statChip(cls, label, value, glyph, flip) {
  return h(
    "span",
    { class: ["stat", cls], title: label, "data-flip": flip },
    glyph ? h("span", { class: "stat-glyph", "aria-hidden": "true" }, glyph) : null,
    h("b", null, String(value)),
    h("span", { class: "sr-only" }, ` ${label}`),
  );
}

function directorHead(ctx, view, d, { mine, toAct }) {
  const n = view.n_seats;
  const holder = view.die_holder === d.director;
  return h(
    "header",
    { class: "dir-head", "data-flip": `mine-head-${d.director}` },
    colourSwatch(ctx, d.colour, "big"),
    h(
      "div",
      { class: "dir-names" },
      h("span", { class: "dir-name" }, directorName(ctx, d.director, n),
        mine ? h("span", { class: "tag" }, ctx.t("seat.you")) : null,
        d.is_dummy ? h("span", { class: "tag tag-dummy", title: ctx.t("mine.dummy_help") }, ctx.t("mine.dummy_tag")) : null),
      h("span", { class: "dir-colour" }, colourTitle(ctx, d.colour)),
    ),
    h(
      "div",
      { class: "dir-badges" },
      holder ? dieFace(view.die_value, ctx.t("mine.die_holder")) : null,
      toAct ? h("span", { class: "turn-dot", title: ctx.t("seat.to_act") }, "▶", h("span", { class: "sr-only" }, ctx.t("seat.to_act"))) : null,
      d.passed ? h("span", { class: "state-chip passed" }, ctx.t("mine.passed")) : d.done && view.phase === "placement" ? h("span", { class: "state-chip done" }, ctx.t("mine.done")) : null,
    ),
    h(
      "div",
      { class: "dir-stats" },
      statChip("score", ctx.t("mine.score"), d.score, "★"),
      statChip("hand-size", ctx.t("mine.hand_size"), d.hand_size, "▯", `mine-hand-${d.director}`),
      statChip("placed", ctx.t("mine.placed_count", { n: d.placed_count, max: view.max_placed }), `${d.placed_count}/${view.max_placed}`, "↓"),
    ),
  );
}

function colourCardsHeld(ctx, d) {
  if (!d.colour_cards.length) return null;
  return h(
    "div",
    { class: "colour-cards", title: ctx.t("mine.colour_cards_help") },
    h("span", { class: "cc-label" }, ctx.t("mine.colour_cards")),
    d.colour_cards.map((v) => colourCard(ctx, colourId(v), "held")),
  );
}

function colourCard(ctx, colour, extra) {
  return h(
    "span",
    { class: ["colour-card", `col-${colour}`, extra], role: "img", "aria-label": ctx.t("mine.colour_card", { colour: colourOf(ctx, colour) }), title: ctx.t("mine.colour_card", { colour: colourOf(ctx, colour) }) },
    SYMBOL[colour],
  );
}

/** One location of a director's board, with its cards and (for me, now) its target buttons. */
function locationCell(ctx, view, d, loc, targets) {
  const n = view.n_seats;
  const step = LOCATIONS.indexOf(loc) + 1;
  const revealed = view.revealed_step >= step;
  const here = d.placed.filter((p) => p.location === loc);
  let content;
  if (loc === "expedition") {
    content = h(
      "div",
      { class: "stock", "data-stock": d.stock },
      h("span", { class: "cubes" }, coalCubes(d.stock)),
      h("b", { class: "stock-num" }, ctx.t("mine.stock_n", { n: d.stock })),
    );
  } else if (loc === "shelter") {
    content = d.stacks.map((s) =>
      h(
        "div",
        { class: ["raid-stack", `vs-${s.colour}`], "data-victim": s.victim, "data-size": s.size },
        h(
          "span",
          { class: "raid-victim" },
          colourCard(ctx, s.colour, "on-stack"),
          h("span", { class: "raid-vs" }, ctx.t("mine.vs", { name: directorName(ctx, s.victim, n) })),
        ),
        h("div", { class: "cards-row" }, here.filter((p) => p.victim === s.victim).map((p) => placedCard(ctx, d, p))),
      ),
    );
  } else {
    content = here.length ? h("div", { class: "cards-row" }, here.map((p) => placedCard(ctx, d, p))) : null;
  }
  const targetButtons = (targets || []).map(({ action, text, title }) =>
    h(
      "button",
      {
        type: "button",
        class: ["target-btn", "legal", action.victim !== undefined && action.victim !== null ? `col-c${action.victim}` : ""],
        "data-location": action.location,
        "data-victim": action.victim ?? null,
        title,
        disabled: ctx.pending,
        onclick: () => ctx.act(action),
      },
      text,
    ),
  );
  const empty = !here.length && loc !== "expedition";
  return h(
    "div",
    {
      class: ["loc", `loc-${loc}`, targets && targets.length ? "target" : "", revealed ? "revealed" : "", empty ? "empty" : ""],
      "data-location": loc,
      role: "group",
      "aria-label": `${step}. ${locName(ctx, loc)}`,
    },
    h("span", { class: "loc-head" }, h("span", { class: "loc-step", "aria-hidden": "true" }, String(step)), h("span", { class: "loc-name" }, locName(ctx, loc))),
    content,
    targetButtons.length ? h("div", { class: "targets" }, targetButtons) : null,
  );
}

function directorBoard(ctx, view, d, { mine, toAct, targetsByLoc }) {
  return h(
    "section",
    {
      class: ["mine-director", `col-${d.colour}`, mine ? "is-me" : "", toAct ? "to-act" : "", d.is_dummy ? "dummy" : "", d.passed ? "passed" : ""],
      "data-director": d.director,
      "data-flip-frame": `mine-d-${d.director}`,
      "data-seat": d.seat ?? null,
      // The own board: what a placement is about (its highlighted locations take the card).
      "data-decision-focus": mine ? "" : null,
      "aria-label": namedColour(ctx, d.director, view.n_seats),
    },
    directorHead(ctx, view, d, { mine, toAct }),
    colourCardsHeld(ctx, d),
    d.is_dummy && d.pending_cards
      ? h("p", { class: "dummy-plan small" }, ctx.t("mine.dummy_pending", { n: d.pending_cards }))
      : null,
    h(
      "div",
      { class: "locations" },
      LOCATIONS.map((loc) => locationCell(ctx, view, d, loc, mine ? targetsByLoc.get(loc) : null)),
    ),
  );
}

// ------------------------------------------------------------------ the hand and the decision

/** What placing `card` costs, read from the view: the card itself, one of the round's
 * placements and, for a first raid on a victim, the colour card that opens the stack. */
function placementCost(ctx, view, card, action) {
  const me = view.directors[view.you] || null;
  const parts = [
    ctx.t("mine.cost.place", { card: cardName(ctx, card), n: (me ? me.placed_count : 0) + 1, max: view.max_placed }),
  ];
  if (action.location === "shelter") {
    const open = !(me && me.stacks.some((s) => s.victim === action.victim));
    parts.push(
      ctx.t(open ? "mine.cost.raid_open" : "mine.cost.raid_join", {
        colour: colourOf(ctx, colourId(action.victim)),
        name: namedColour(ctx, action.victim, view.n_seats),
      }),
    );
  }
  return parts.join(" ");
}

function placementTargets(ctx, view, card, places) {
  const n = view.n_seats;
  const info = cardInfo(card);
  const byLoc = new Map();
  for (const a of places.filter((x) => x.card === card)) {
    const stat = VALUE_AT[a.location];
    const value = stat ? info[stat] : null;
    const valueText = stat ? ` · ${statName(ctx, stat)} ${value}` : "";
    let text;
    let what;
    if (a.location === "shelter") {
      text = [SYMBOL[colourId(a.victim)], " ", ctx.t("mine.raid_target", { name: namedColour(ctx, a.victim, n) }), valueText];
      what = ctx.t("mine.hint.shelter", { name: namedColour(ctx, a.victim, n), value });
    } else if (a.location === "events") {
      text = [ctx.t("mine.place_here")];
      what = `${ctx.t("mine.hint.events")} — ${kindName(ctx, info.kind)}: ${ctx.t(`mine.effect.${info.kind}`)}`;
    } else {
      text = [ctx.t("mine.place_here"), valueText];
      what = ctx.t(`mine.hint.${a.location}`, { value });
    }
    const title = `${what}. ${placementCost(ctx, view, card, a)}`;
    if (!byLoc.has(a.location)) byLoc.set(a.location, []);
    byLoc.get(a.location).push({ action: a, text, title });
  }
  return byLoc;
}

function handPanel(ctx, view, picture, { places, discards }) {
  const here = rendering;
  const hand = view.hand || [];
  const placeable = new Set(places.map((a) => a.card));
  const discardBy = new Map(discards.map((a) => [a.card, a]));
  const active = placeable.size > 0 || discardBy.size > 0;
  const cards = hand.map((id) => {
    const discard = discardBy.get(id);
    const canPlace = placeable.has(id);
    const legal = Boolean(discard) || canPlace;
    const selected = draft.card === id;
    const label = cardLabel(ctx, id);
    const title = discard
      ? ctx.t("mine.title.discard", { card: cardName(ctx, id), n: view.must_discard, limit: view.hand_limit })
      : canPlace
        ? `${ctx.t("mine.title.choose", { card: cardName(ctx, id) })} — ${label}`
        : label;
    return cardFace(ctx, id, {
      flip: `mine-card-${id}`,
      from: "mine-draw", // a card new in my hand was drawn
      size: "large",
      class: [legal ? "legal" : "", active && !legal ? "illegal" : "", selected ? "selected" : "", discard ? "discardable" : ""],
      title,
      button: {
        disabled: !legal || ctx.pending,
        "aria-pressed": canPlace ? (selected ? "true" : "false") : null,
        "aria-label": discard ? `${ctx.t("mine.discard_this")}: ${label}` : canPlace ? `${ctx.t("mine.choose_card")}: ${label}` : label,
        onclick: discard
          ? () => ctx.act(discard)
          : canPlace
            ? () => {
                pick(here, picture.version, selected ? null : id);
              }
            : null,
      },
    });
  });
  return h(
    "section",
    { class: "mine-hand", "data-flip-frame": "mine-hand", "aria-label": ctx.t("mine.my_hand", { n: hand.length }) },
    h("h3", null, ctx.t("mine.my_hand", { n: hand.length }), h("small", { class: "muted-light" }, ctx.t("mine.hand_limit", { n: view.hand_limit }))),
    hand.length ? h("div", { class: "hand-cards" }, cards) : h("p", { class: "muted-light small" }, ctx.t("mine.hand_empty")),
  );
}

function decisionPanel(ctx, view, picture, { places, pass, discards, targetsByLoc, myDir }) {
  const here = rendering;
  const n = view.n_seats;
  if (discards.length) {
    return h(
      "section",
      { class: "mine-decision discard" },
      h("h3", null, ctx.t("mine.discard_title", { n: view.must_discard })),
      h("p", { class: "hint" }, ctx.t("mine.discard_hint", { limit: view.hand_limit })),
    );
  }
  if (places.length || pass) {
    const selected = draft.card;
    const steps = [
      { key: "card", done: selected !== null, now: selected === null },
      { key: "location", done: false, now: selected !== null },
    ];
    const chosenTargets = selected !== null ? [...targetsByLoc.entries()] : [];
    return h(
      "section",
      { class: "mine-decision place", "aria-labelledby": "mine-decision-title" },
      h("h3", { id: "mine-decision-title" }, ctx.t("mine.your_turn", { n: myDir.placed_count, max: view.max_placed })),
      h(
        "ol",
        { class: "steps" },
        steps.map((s, i) =>
          h("li", { class: [s.done ? "done" : "", s.now ? "now" : ""], "aria-current": s.now ? "step" : null },
            h("span", { class: "step-n", "aria-hidden": "true" }, s.done ? "✓" : String(i + 1)),
            ctx.t(`mine.step.${s.key}`)),
        ),
      ),
      selected !== null
        ? h(
            "div",
            { class: "chosen" },
            cardFace(ctx, selected, { size: "small" }),
            h("div", { class: "chosen-text" },
              h("b", null, cardName(ctx, selected)),
              h("span", { class: "small" }, ctx.t("mine.chosen_hint"))),
            h(
              "button",
              { type: "button", class: "btn btn-link cancel-choice", onclick: () => pick(here, picture.version, null) },
              ctx.t("mine.cancel"),
            ),
          )
        : h("p", { class: "hint" }, ctx.t("mine.pick_card_hint")),
      selected !== null
        ? h(
            "div",
            { class: "target-list", role: "group", "aria-label": ctx.t("mine.step.location") },
            chosenTargets.map(([loc, list]) =>
              h("div", { class: "target-group", "data-location": loc },
                h("span", { class: "target-loc" }, `${LOCATIONS.indexOf(loc) + 1}. ${locName(ctx, loc)}`),
                list.map(({ action, text, title }) =>
                  h("button", {
                    type: "button",
                    class: ["btn", "target-choice", "legal", action.victim !== undefined && action.victim !== null ? `col-c${action.victim}` : ""],
                    "data-location": action.location,
                    "data-victim": action.victim ?? null,
                    title,
                    disabled: ctx.pending,
                    onclick: () => ctx.act(action),
                  }, text),
                ),
              ),
            ),
          )
        : null,
      pass
        ? h(
            "div",
            { class: "pass-row" },
            h("button", { type: "button", class: "btn pass-btn legal", "data-action": "pass", title: ctx.t("mine.title.pass", { n: myDir.placed_count, max: view.max_placed }), disabled: ctx.pending, onclick: () => ctx.act(pass) }, ctx.t("mine.pass")),
            h("span", { class: "small muted-light" }, ctx.t("mine.pass_hint")),
          )
        : null,
    );
  }
  // Not my decision: say what is going on.
  let text;
  if (view.phase === "over") text = ctx.t("mine.phase.over");
  else if (view.phase === "discard") text = ctx.t("mine.waiting_discard", { names: view.to_act.map((s) => directorName(ctx, s, n)).join(", ") });
  else if (view.turn !== null && view.turn !== undefined) text = ctx.t("mine.waiting_turn", { name: directorName(ctx, view.turn, n) });
  else text = ctx.t("mine.waiting");
  return h("section", { class: "mine-decision idle", "data-waiting": view.phase !== "over" }, h("p", null, text));
}

// ------------------------------------------------------------------ status line and turn order

function statusLine(ctx, view) {
  const n = view.n_seats;
  return h(
    "div",
    { class: "mine-status" },
    h("span", { class: "mine-round" }, ctx.t("mine.round", { n: view.round, total: view.rounds })),
    h(
      "span",
      { class: "mine-die" },
      dieFace(view.die_value, ctx.t("mine.die_shows", { n: view.die_value })),
      h("span", null, ctx.t("mine.die_held_by", { name: directorName(ctx, view.die_holder, n) })),
    ),
    h("span", { class: "mine-limit", title: ctx.t("mine.sale_limit_help") }, ctx.t("mine.sale_limit", { n: view.sale_limit })),
    view.mine_max !== null && view.mine_max !== undefined
      ? h("span", { class: "mine-limit" }, ctx.t("mine.mine_max", { n: view.mine_max }))
      : null,
    h("span", { class: "mine-phase" }, ctx.t(`mine.phase.${view.phase}`)),
  );
}

function turnOrder(ctx, view) {
  if (view.phase === "over") return null;
  const n = view.n_seats;
  const byId = new Map(view.directors.map((d) => [d.director, d]));
  return h(
    "ol",
    { class: "turn-order", "aria-label": ctx.t("mine.turn_order") },
    view.turn_order.map((id) => {
      const d = byId.get(id);
      const now = view.turn === id || (view.phase === "discard" && view.to_act.includes(id));
      return h(
        "li",
        { class: [`col-${d.colour}`, now ? "now" : "", d.done ? "done" : ""], "aria-current": now ? "true" : null },
        h("span", { class: "to-sym", "aria-hidden": "true" }, SYMBOL[d.colour]),
        h("span", null, directorName(ctx, id, n)),
        d.passed ? h("small", null, ctx.t("mine.passed")) : d.done ? h("small", null, "4/4") : h("small", null, `${d.placed_count}/${view.max_placed}`),
      );
    }),
  );
}

// ------------------------------------------------------------------ the resolution, step by step

function reportPanel(ctx, view) {
  const r = view.last_round;
  if (!r) return null;
  const n = view.n_seats;
  const name = (d) => tagged(ctx, d, n);
  const ids = view.directors.map((d) => d.director);
  const events = Object.entries(r.event_owners || {});
  const animate = animatedReport !== `${r.round}:${view.phase}`;
  animatedReport = `${r.round}:${view.phase}`;
  const step = (i, title, body) =>
    h("li", { class: ["report-step", animate ? "reveal" : ""], style: { "--i": String(i) }, "data-step": i },
      h("h4", null, h("span", { class: "loc-step", "aria-hidden": "true" }, String(i)), title),
      body);
  const row = (cells) => h("tr", null, cells);
  return h(
    "section",
    { class: "mine-report", "aria-label": ctx.t("mine.report_title", { n: r.round }), "data-scored": `round-${r.round}` },
    h("h3", null, ctx.t("mine.report_title", { n: r.round })),
    h(
      "ol",
      { class: "report-steps" },
      step(1, locName(ctx, "events"),
        h("p", null,
          r.firedamp ? ctx.t("mine.report.firedamp", { n: r.firedamp }) : ctx.t("mine.report.no_firedamp"),
          events.length ? h("span", { class: "report-events" }, " · ", events.map(([kind, d]) => `${kindName(ctx, kind)} (${name(d)})`).join(", ")) : null)),
      step(2, ctx.t("mine.report.raids"),
        r.raids.length
          ? h("ul", { class: "raid-lines" }, r.raids.map((x) =>
              h("li", { class: `raid-${x.outcome}` }, raidText(ctx, x, n))))
          : h("p", null, ctx.t("mine.report.no_raids"))),
      step(4, locName(ctx, "expedition"),
        h("table", { class: "report-table" },
          h("thead", null, row([h("td", { class: "corner" }), ids.map((d) => h("th", { scope: "col", title: directorName(ctx, d, n) }, h("span", { "aria-hidden": "true" }, SYMBOL[colourId(d)]), h("span", { class: "sr-only" }, directorName(ctx, d, n))))])),
          h("tbody", null,
            row([h("th", { scope: "row" }, ctx.t("mine.report.limit")), ids.map((d) => h("td", null, String(r.sale_limits[d] ?? "")))]),
            row([h("th", { scope: "row" }, ctx.t("mine.report.sold")), ids.map((d) => h("td", { class: "num-strong" }, r.sold[d] ? `+${r.sold[d]}` : "0"))])))),
      r.extraction.length
        ? step(5, locName(ctx, "mine"),
            h("table", { class: "report-table" },
              h("thead", null, row([h("td", { class: "corner" }), ids.map((d) => h("th", { scope: "col", title: directorName(ctx, d, n) }, h("span", { "aria-hidden": "true" }, SYMBOL[colourId(d)]), h("span", { class: "sr-only" }, directorName(ctx, d, n))))])),
              h("tbody", null,
                row([h("th", { scope: "row" }, ctx.t("mine.report.extraction")), ids.map((d) => h("td", { class: r.blasted[d] ? "blasted" : "" }, r.blasted[d] ? `✸ 0` : String(r.extraction[d] ?? "")))]),
                row([h("th", { scope: "row" }, ctx.t("mine.report.taken")), ids.map((d) => h("td", { class: "num-strong" }, String(r.taken[d] ?? "")))]))))
        : null,
      r.drawn.length
        ? step(6, locName(ctx, "recruitment"),
            h("table", { class: "report-table" },
              h("thead", null, row([h("td", { class: "corner" }), ids.map((d) => h("th", { scope: "col", title: directorName(ctx, d, n) }, h("span", { "aria-hidden": "true" }, SYMBOL[colourId(d)]), h("span", { class: "sr-only" }, directorName(ctx, d, n))))])),
              h("tbody", null,
                row([h("th", { scope: "row" }, ctx.t("mine.report.drawn")), ids.map((d) => h("td", null, String(r.drawn[d] ?? "")))]),
                row([h("th", { scope: "row" }, ctx.t("mine.report.discarded")), ids.map((d) => h("td", null, String(r.discarded[d] ?? "")))]))))
        : null,
    ),
    h("p", { class: "small muted-light" }, ctx.t("mine.report_hint")),
  );
}

/** Before the first resolution: the order in which the locations will resolve. */
function orderPanel(ctx) {
  return h(
    "section",
    { class: "mine-report mine-order", "aria-label": ctx.t("mine.order_title") },
    h("h3", null, ctx.t("mine.order_title")),
    h(
      "ol",
      { class: "order-steps" },
      LOCATIONS.map((loc) =>
        h("li", null, h("span", { class: "loc-step", "aria-hidden": "true" }, String(LOCATIONS.indexOf(loc) + 1)),
          h("b", null, locName(ctx, loc)), " — ", h("span", { class: "small" }, ctx.t(`mine.order.${loc}`))),
      ),
    ),
  );
}

function raidText(ctx, x, n) {
  const params = {
    raider: tagged(ctx, x.raider, n),
    victim: tagged(ctx, x.victim, n),
    atk: x.attack,
    def: x.defence,
    claim: x.claim,
    taken: x.taken,
  };
  return ctx.t(`mine.raid.${x.outcome}`, params);
}

// ------------------------------------------------------------------ the end

function finalPanel(ctx, view, result) {
  if (!view.final) return null;
  // The server's text in the page's language when it sent one ("" = no tie to explain).
  const tiebreak = typeof result?.tiebreak_text === "string" ? result.tiebreak_text : view.final.tiebreak;
  const n = view.n_seats;
  const byId = new Map(view.directors.map((d) => [d.director, d]));
  return h(
    "section",
    { class: "mine-final", "aria-label": ctx.t("mine.final_title") },
    h("h3", null, ctx.t("mine.final_title"), " · ", ctx.t(`mine.end.${view.final.reason}`)),
    h(
      "ol",
      { class: "final-order", "data-testid": "mine-final" },
      view.final.order.map((id, i) => {
        const d = byId.get(id);
        return h(
          "li",
          { class: [`col-${d.colour}`, d.is_dummy ? "dummy" : "", i === 0 ? "winner" : ""], "data-director": id },
          h("span", { class: "final-place" }, ctx.t("result.place", { n: i + 1 })),
          colourSwatch(ctx, d.colour),
          h("span", { class: "final-name" }, directorName(ctx, id, n),
            d.is_dummy ? h("span", { class: "tag tag-dummy" }, ctx.t("mine.dummy_tag")) : null),
          h("span", { class: "final-colour small" }, colourTitle(ctx, d.colour)),
          h("b", { class: "final-score" }, ctx.t("mine.points", { n: d.score })),
          h("span", { class: "final-stock small" }, ctx.t("mine.stock_n", { n: d.stock })),
        );
      }),
    ),
    view.final.order.length && byId.get(view.final.order[0]).is_dummy
      ? h("p", { class: "dummy-won" }, ctx.t("mine.dummy_won"))
      : null,
    tiebreak
      ? tiebreak.split("\n").map((line) => h("p", { class: "small muted-light" }, ctx.t("mine.tiebreak", { text: line })))
      : null,
  );
}

function helpBox(ctx, view) {
  return keepOpen(h(
    "details",
    { class: "mine-help" },
    h("summary", null, ctx.t("mine.help.title")),
    h("ul", null, ["goal", "place", "raid", "order", "sell", "mine", "recruit", "colours"].map((k) => h("li", null, ctx.t(`mine.help.${k}`)))),
    h(
      "ul",
      { class: "colour-list" },
      ["c0", "c1", "c2", "c3", "c4", "c5"].map((c) => h("li", null, colourSwatch(ctx, c), " ", colourTitle(ctx, c))),
    ),
  ), "mine-help", false);
}

function discardList(ctx, view) {
  if (!view.discard_pile.length) return null;
  const counts = new Map();
  for (const id of view.discard_pile) {
    const k = cardInfo(id).kind;
    counts.set(k, (counts.get(k) || 0) + 1);
  }
  return keepOpen(h(
    "details",
    { class: "mine-discards" },
    h("summary", null, ctx.t("mine.discard_pile", { n: view.discard_pile.length })),
    h("ul", { class: "discard-kinds" }, [...counts.entries()].map(([k, c]) =>
      h("li", null, h("span", { class: "mini-glyph", "aria-hidden": "true" }, GLYPH[k]), `${kindName(ctx, k)} × ${c}`))),
  ), "mine-discards", false);
}

/** The one line of another director's folded board on a phone: colour, name, points, cards. */
function directorLine(ctx, view, d, toAct) {
  return [
    colourSwatch(ctx, d.colour),
    " ",
    h("b", null, directorName(ctx, d.director, view.n_seats)),
    toAct ? " ▶" : null,
    " · ",
    ctx.t("mine.fold_line", { score: d.score, hand: d.hand_size, placed: d.placed_count, max: view.max_placed, stock: d.stock }),
    d.passed ? ` · ${ctx.t("mine.passed")}` : null,
  ];
}

/** The resolution panel (or the order of resolution) of the centre: a summary on a phone. */
function foldedReport(ctx, view, panel) {
  if (!panel) return null;
  const title = panel.querySelector("h3")?.textContent || "";
  return fold("mine-report", title, panel, { class: "mine-fold mine-report-fold" });
}

// ------------------------------------------------------------------ render

/** Choose (or drop, card null) the card being placed on the board drawn in `root`. */
function pick(root, version, card) {
  const board = root && boards.get(root);
  if (!board) return;
  board.draft = { version, card };
  render(root, board.picture, board.ctx);
  // The first location offered, on the own board (the docked prompt leaves its list to the board).
  const shown = (el) => el.getClientRects().length > 0;
  const el = [...root.querySelectorAll(".target-choice, .mine-director.is-me .target-btn, .mine-hand button.selected, .mine-hand button.legal")].find(shown);
  el?.focus({ preventScroll: true });
}

export function render(root, picture, baseCtx) {
  const board = boards.get(root) || { draft: { version: -1, card: null }, animated: null };
  board.picture = picture;
  board.ctx = baseCtx;
  boards.set(root, board);
  rendering = root;
  draft = board.draft;
  animatedReport = board.animated;
  try {
    draw(root, picture, baseCtx);
  } finally {
    board.draft = draft;
    board.animated = animatedReport;
  }
}

function draw(root, picture, baseCtx) {
  // A "How to play" figure (it has a name) names its seats by colour: they are nobody's.
  const figure = picture.name !== undefined && picture.name !== null;
  const ctx = figure
    ? { ...baseCtx, seatName: (s) => colourTitle(baseCtx, colourId(s)) }
    : baseCtx;
  const view = picture.view;
  const legal = picture.legal_actions || [];
  const places = legal.filter((a) => a.type === "place");
  const pass = legal.find((a) => a.type === "pass") || null;
  const discards = legal.filter((a) => a.type === "discard");
  if (draft.version !== picture.version || (draft.card !== null && !places.some((a) => a.card === draft.card))) {
    draft = { version: picture.version, card: null };
  }
  const me = view.you;
  const n = view.directors.length;
  // "running" is how a rules-page figure says the game goes on.
  const toAct = new Set(picture.status === "playing" || picture.status === "running" ? view.to_act : []);
  const targetsByLoc = draft.card !== null ? placementTargets(ctx, view, draft.card, places) : new Map();
  const start = me ?? 0;
  const order = Array.from({ length: n }, (_, i) => (start + i) % n);
  const others = me === null || me === undefined ? order : order.slice(1);
  const myDir = me !== null && me !== undefined ? view.directors[me] : null;
  const board = (d, mine) => directorBoard(ctx, view, d, { mine, toAct: toAct.has(d.director), targetsByLoc });

  fill(
    root,
    h(
      "div",
      {
        class: ["mine-game", `phase-${view.phase}`, me === null || me === undefined ? "spectator" : "", draft.card !== null ? "choosing" : ""],
        "data-phase": view.phase,
        "data-round": view.round,
        "data-version": picture.version,
      },
      statusLine(ctx, view),
      turnOrder(ctx, view),
      h(
        "div",
        { class: "mine-felt" },
        h("div", { class: "mine-centre" }, gear(ctx, view), centralPanel(ctx, view), finalPanel(ctx, view, picture.result) || (figure ? reportPanel(ctx, view) || orderPanel(ctx) : foldedReport(ctx, view, reportPanel(ctx, view) || orderPanel(ctx)))),
        // On a phone, the other directors' boards are one-line summaries that open on a tap.
        h(
          "div",
          { class: ["mine-others", `n-${others.length}`] },
          others.map((id) => {
            const d = view.directors[id];
            const one = board(d, false);
            return figure ? one : fold(`mine-d-${id}`, directorLine(ctx, view, d, toAct.has(d.director)), one, { class: `mine-fold col-${d.colour}` });
          }),
        ),
        myDir
          ? h(
              "div",
              { class: "mine-mine" },
              board(myDir, true),
              // The prompt and the hand it asks about: docked together while it is my decision.
              h("div", { class: "mine-side", "data-decision": figure ? null : "" }, decisionPanel(ctx, view, picture, { places, pass, discards, targetsByLoc, myDir }), handPanel(ctx, view, picture, { places, discards })),
            )
          : null,
      ),
      h("div", { class: "mine-extras" }, view.final ? reportPanel(ctx, view) : null, discardList(ctx, view), figure ? null : helpBox(ctx, view)),
    ),
  );
}

/** Per-seat scores (pawn spaces) for the shell's seat list; the dummy has no seat. */
export function scores(view) {
  if (!view?.directors) return null;
  const out = {};
  for (const d of view.directors) if (d.seat !== null && d.seat !== undefined) out[d.seat] = d.score;
  return out;
}

// ------------------------------------------------------------------ the log

function nSeatsOf(ctx) {
  return ctx.table?.seats?.length ?? 6;
}

/** A seat's colour on the board (its director's), for the shell's last-move marks. */
export function seatColour(seat) {
  return `var(--c${seat})`;
}

/** What a director's move touched on the board (data-flip keys), for the last-move marks;
 *  the dummy (no seat) is not marked. */
export function lastMove(event, ctx) {
  const d = event.director;
  if (typeof d !== "number" || d >= nSeatsOf(ctx)) return null;
  switch (event.type) {
    case "card_placed":
      return { seat: d, keys: [`mine-placed-${d}-${event.placed_count - 1}`] };
    case "placement_passed":
      return { seat: d, keys: [`mine-head-${d}`] };
    case "card_discarded":
      return event.automatic ? null : { seat: d, keys: [`mine-pile-${event.card}`] };
    default:
      return null;
  }
}
