// The Ginkgopolis board. It draws the view the server sent and offers exactly its
// legal_actions: the city grid (stacked tiles with colour, number and height, the owners'
// resources, construction-site pawns, the lettered urbanization tokens), every player's
// screen counts and tableau, the own hand and the tiles behind the own screen, the secret
// selection (who has chosen, whether a tile is attached) and the resolution step by step.
// It knows no rules: what is clickable comes only from picture.legal_actions; the card texts
// shown are the printed texts of the cards (component data), never a computed option.

import { h, fill } from "../dom.js";
import { renderMessage } from "../i18n.js";
import { fold, keepOpen } from "../fold.js";

// ------------------------------------------------------------------ component data (printed)

/** Every tile colour also has a symbol: what its buildings produce (rules §1). */
const GLYPH = { R: "⚙", Y: "★", B: "▦" };
const ITEM_GLYPH = { resource: "⚙", sp: "★", tile: "▦" };
const ITEM_OF = { R: "resource", Y: "sp", B: "tile" };
/** Each player colour also has a shape, so no information rides on the colour alone. */
const SHAPE = { orange: "●", green: "▲", black: "■", pink: "◆", natural: "✚" };
const TRIGGERS = ["exploit", "urbanize", "build_up"];
const TRIGGER_GLYPH = { exploit: "⚒", urbanize: "⌂", build_up: "⇧" };
/** Character cards C01…C27 (rules §4.4): colour and trigger, as printed. */
const CHARACTERS = "RU YB BB RB YB BE RE YU BU RU YU BB RE YE BB RU YE BE RB RB RE YB YU YE BE BU BU"
  .split(" ")
  .map((s) => ({ colour: s[0], trigger: { E: "exploit", U: "urbanize", B: "build_up" }[s[1]] }));
const PAWN = "♟";

const isUrb = (card) => card.startsWith("U-");
const isChar = (card) => /^C\d\d$/.test(card);
const colourOf = (card) => (isChar(card) ? CHARACTERS[Number(card.slice(1)) - 1].colour : card[0]);
const numberOf = (card) => Number(card.slice(1));
const cellKey = (c) => `${c[0]},${c[1]}`;

// Cell names, as app/games/ginkgopolis/describe.py gives them (cell_name) and as the board
// prints them on its edges: a column letter and a row number counted upwards, the centre
// tile (0, 0) being h8. Names never change as the city grows, so old log lines still match.
const CELL_ORIGIN = 8;
function columnName(index) {
  if (index < 1) return `-${columnName(1 - index)}`;
  let letters = "";
  for (let i = index; i > 0; i = Math.floor((i - 1) / 26)) letters = String.fromCharCode(97 + ((i - 1) % 26)) + letters;
  return letters;
}
const columnOf = (x) => columnName(x + CELL_ORIGIN);
const rowOf = (y) => String(y + CELL_ORIGIN);
const cellName = (c) => `${columnOf(c[0])}${rowOf(c[1])}`;
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

// Remembered between renders: the card armed in step 1 of the selection (per board: the
// rules page draws several boards at once), and the recent resolution events (the frames
// carry the events since the last one the page saw).
const armedOf = new WeakMap();
let armed = { version: -1, card: null };
const recent = { seen: 0, events: [], table: null };
let solo = false;

// ------------------------------------------------------------------ names and texts

function colourName(ctx, c) {
  return ctx.t(`ginkgopolis.colour.${c}`);
}

/** The colour as an adjective of a feminine noun (Spanish "loseta roja", "carta roja"). */
function colourF(ctx, c) {
  return ctx.t(`ginkgopolis.colour_f.${c}`);
}

function tileText(ctx, tile) {
  return ctx.t("ginkgopolis.tile_text", { colour: colourF(ctx, tile[0]), n: numberOf(tile) });
}

function cardText(ctx, card) {
  if (isUrb(card)) return ctx.t("ginkgopolis.urb_card", { letter: card.slice(2) });
  if (isChar(card)) return characterName(ctx, card);
  return ctx.t("ginkgopolis.building_card", { colour: colourF(ctx, card[0]), n: numberOf(card) });
}

/** A character by its kind ("Red Planner"): the cards have no names of their own. */
function characterName(ctx, card) {
  const ch = CHARACTERS[Number(card.slice(1)) - 1];
  return ctx.t(`ginkgopolis.char.${ch.colour}.${ch.trigger}`);
}

function itemText(ctx, item, n) {
  return `+${n}${ITEM_GLYPH[item]} ${ctx.t(`ginkgopolis.item.${item}`)}`;
}

/** The printed text of a tableau card (building cards 1–20, characters). */
function effectText(ctx, card) {
  if (isChar(card)) {
    const ch = CHARACTERS[Number(card.slice(1)) - 1];
    return ctx.t("ginkgopolis.effect.bonus", {
      trigger: ctx.t(`ginkgopolis.trigger.${ch.trigger}`),
      reward: itemText(ctx, ITEM_OF[ch.colour], 1),
    });
  }
  const c = card[0];
  const n = numberOf(card);
  if (n <= 9) {
    const reward = [itemText(ctx, ITEM_OF[c], 1)];
    if (n >= 7) reward.push(itemText(ctx, "sp", 1));
    return ctx.t("ginkgopolis.effect.bonus", {
      trigger: ctx.t(`ginkgopolis.trigger.${TRIGGERS[(n - 1) % 3]}`),
      reward: reward.join(" "),
    });
  }
  const other = { 11: { R: "Y", Y: "R", B: "R" }, 12: { R: "B", Y: "B", B: "Y" } };
  if (n === 10 || n === 13) return ctx.t("ginkgopolis.effect.owned_colour", { colour: colourName(ctx, c) });
  if (n === 11 || n === 12) return ctx.t("ginkgopolis.effect.owned_colour", { colour: colourName(ctx, other[n][c]) });
  if (n === 14) return ctx.t("ginkgopolis.effect.low");
  if (n === 15) return ctx.t("ginkgopolis.effect.tall");
  if (n >= 16 && n <= 18) {
    return ctx.t("ginkgopolis.effect.tableau_trigger", { trigger: ctx.t(`ginkgopolis.trigger.${TRIGGERS[n - 16]}`) });
  }
  if (n === 19) return ctx.t("ginkgopolis.effect.tableau_colour", { colour: colourF(ctx, c) });
  return ctx.t("ginkgopolis.effect.flat");
}

function playerName(ctx, view, p) {
  const pl = view?.players?.[p];
  if (pl?.hal) return ctx.t("ginkgopolis.hal");
  return ctx.seatName(pl ? pl.seat : p);
}

// ------------------------------------------------------------------ action hints (titles)
// What a clickable action does and costs, read from the action and from the view's
// selection_hints (the engine's own figures): the board computes no rule here.

function gainsText(ctx, gains) {
  return itemsList(ctx, { resources: gains?.resource || 0, tiles: gains?.tile || 0, sp: gains?.sp || 0 });
}

function selectHint(ctx, view, action) {
  const hint = (view.selection_hints || []).find((x) => x.card === action.card && (x.tile || null) === (action.tile || null));
  if (!hint) return cardText(ctx, action.card);
  const where = { cell: hint.cell ? cellName(hint.cell) : "?" };
  if (hint.action === "exploit") {
    if (isUrb(action.card)) return ctx.t("ginkgopolis.hint.exploit_urb");
    return ctx.t("ginkgopolis.hint.exploit_building", { ...where, height: hint.height, gains: gainsText(ctx, hint.gains) });
  }
  const tile = tileText(ctx, action.tile);
  if (hint.action === "urbanize") {
    return ctx.t("ginkgopolis.hint.urbanize", { ...where, letter: action.card.slice(2), tile, gains: gainsText(ctx, hint.gains) });
  }
  const costs = [];
  if (hint.sp_cost) costs.push(ctx.t("ginkgopolis.hint.cost_sp", { n: hint.sp_cost }));
  if (hint.colour_cost) costs.push(ctx.t("ginkgopolis.hint.cost_colour", { n: hint.colour_cost }));
  costs.push(ctx.t("ginkgopolis.hint.cost_place", { n: hint.resources }));
  const owner = hint.owner_sp ? ` ${ctx.t("ginkgopolis.hint.owner_sp", { n: hint.owner_sp })}` : "";
  return ctx.t("ginkgopolis.hint.build_up", { ...where, tile, height: hint.height, costs: costs.join(", ") }) + owner;
}

// ------------------------------------------------------------------ small pieces

/** Motion keys (static/js/motion.js): the piece's identity and where a new one comes from. */
function flip(key, from) {
  return { "data-flip": key, "data-flip-from": from };
}

/** A tile (or building card) face: colour, symbol and number. */
function tileFace(ctx, tile, extra = {}) {
  const c = tile[0];
  return h(
    extra.tag || "div",
    {
      class: ["gk-tile", `c-${c}`, extra.class],
      ...(extra.tag === "button" ? { type: "button" } : { role: "img" }),
      "aria-label": extra.label || tileText(ctx, tile),
      title: extra.title || tileText(ctx, tile),
      "data-tile": tile,
      "data-zoom": "",
      ...(extra.attrs || {}),
    },
    h("span", { class: "gk-glyph", "aria-hidden": "true" }, GLYPH[c]),
    h("span", { class: "gk-num", "aria-hidden": "true" }, String(numberOf(tile))),
  );
}

/** A card in a hand or a tableau: urbanization cards show their letter, building cards colour + number. */
function cardFace(ctx, card, extra = {}) {
  const urb = isUrb(card);
  const char = isChar(card);
  const c = urb ? "U" : colourOf(card);
  const text = cardText(ctx, card);
  const effect = urb ? ctx.t("ginkgopolis.urb_hint") : effectText(ctx, card);
  return h(
    extra.tag || "div",
    {
      class: ["gk-card", `c-${c}`, urb ? "urb" : "", char ? "char" : "", extra.class],
      ...(extra.tag === "button" ? { type: "button" } : { role: "img" }),
      "aria-label": extra.label || `${text}: ${effect}`,
      title: extra.title || `${text} — ${effect}`,
      "data-card": card,
      "data-zoom": "",
      ...(extra.attrs || {}),
    },
    urb
      ? [
          h("span", { class: "gk-card-kind", "aria-hidden": "true" }, "⌂"),
          h("span", { class: "gk-card-letter", "aria-hidden": "true" }, card.slice(2)),
        ]
      : char
        ? [
            h("span", { class: "gk-card-kind", "aria-hidden": "true" }, GLYPH[c]),
            // No printed name or number: the face shows the character's trigger, large.
            h("span", { class: "gk-card-char", "aria-hidden": "true" }, TRIGGER_GLYPH[CHARACTERS[Number(card.slice(1)) - 1].trigger]),
          ]
        : [
            h("span", { class: "gk-card-kind", "aria-hidden": "true" }, GLYPH[c]),
            h("span", { class: "gk-card-num", "aria-hidden": "true" }, String(numberOf(card))),
            h(
              "span",
              { class: "gk-card-eff", "aria-hidden": "true" },
              numberOf(card) <= 9 ? TRIGGER_GLYPH[TRIGGERS[(numberOf(card) - 1) % 3]] : "⚑",
            ),
          ],
  );
}

function cardBack(ctx, extra = {}) {
  return h(
    "div",
    { class: ["gk-card", "back", extra.class], role: "img", "aria-label": extra.label || ctx.t("ginkgopolis.card_back"), title: extra.label || ctx.t("ginkgopolis.card_back"), ...(extra.attrs || {}) },
    h("span", { class: "gk-back-leaf", "aria-hidden": "true" }, "❦"),
    extra.tile ? h("span", { class: "gk-tile-back", "aria-hidden": "true" }) : null,
  );
}

function swatch(colour) {
  return h("span", { class: ["gk-swatch", `pc-${colour}`], "aria-hidden": "true" }, SHAPE[colour] || "●");
}

function stat(icon, value, label, cls) {
  return h(
    "span",
    { class: ["gk-stat", cls], role: "img", title: label, "aria-label": `${label}: ${value}` },
    h("span", { class: "gk-stat-icon", "aria-hidden": "true" }, icon),
    h("b", { "aria-hidden": "true" }, String(value)),
  );
}

// ------------------------------------------------------------------ the city

function cityGrid(ctx, picture, view, marks) {
  const buildings = new Map(view.city.map((b) => [cellKey(b.cell), b]));
  const tokens = new Map(Object.entries(view.tokens).map(([letter, cell]) => [cellKey(cell), letter]));
  const cells = [...view.city.map((b) => b.cell), ...Object.values(view.tokens)];
  for (const k of marks.moves.keys()) cells.push(k.split(",").map(Number));
  const xs = cells.map((c) => c[0]);
  const ys = cells.map((c) => c[1]);
  const minX = Math.min(...xs) - 1;
  const maxX = Math.max(...xs) + 1;
  const minY = Math.min(...ys) - 1;
  const maxY = Math.max(...ys) + 1;
  const colourAt = (x, y) => buildings.get(`${x},${y}`)?.colour;
  // The first grid row and column hold the edge labels the cell names are made of (over
  // the columns and rows that hold something: the empty margin tracks stay collapsed).
  const rows = [];
  for (let x = minX + 1; x < maxX; x += 1) {
    rows.push(h("span", { class: "gk-edge gk-edge-col", style: { gridColumn: String(x - minX + 2), gridRow: "1" }, "aria-hidden": "true" }, columnOf(x)));
  }
  for (let y = maxY - 1; y > minY; y -= 1) {
    rows.push(h("span", { class: "gk-edge gk-edge-row", style: { gridColumn: "1", gridRow: String(maxY - y + 2) }, "aria-hidden": "true" }, rowOf(y)));
  }
  for (let y = maxY; y >= minY; y -= 1) {
    for (let x = minX; x <= maxX; x += 1) {
      const k = `${x},${y}`;
      const b = buildings.get(k);
      const letter = tokens.get(k);
      const move = marks.moves.get(k);
      const style = { gridColumn: String(x - minX + 2), gridRow: String(maxY - y + 2) };
      if (b) {
        // Same-colour neighbours are drawn joined: the districts of §12.1.
        const joins = [
          colourAt(x, y + 1) === b.colour ? "jn" : "",
          colourAt(x + 1, y) === b.colour ? "je" : "",
          colourAt(x, y - 1) === b.colour ? "js" : "",
          colourAt(x - 1, y) === b.colour ? "jw" : "",
        ];
        rows.push(buildingCell(ctx, view, b, style, joins, marks.target === k, marks.site === k));
      } else if (letter || move) {
        rows.push(tokenCell(ctx, picture, letter, [x, y], style, move, marks));
      }
    }
  }
  return h(
    "div",
    {
      class: "gk-city-grid",
      // A string: custom properties cannot be assigned through element.style's fields.
      style: `--cols: ${maxX - minX + 1}; --rows: ${maxY - minY + 1}`,
      role: "group",
      "aria-label": ctx.t("ginkgopolis.city"),
    },
    rows,
  );
}

function buildingCell(ctx, view, b, style, joins, target, site) {
  const owner = b.owner === null ? null : view.players[b.owner];
  const label = ctx.t("ginkgopolis.building_label", {
    tile: tileText(ctx, b.top),
    height: b.height,
    cell: cellName(b.cell),
    owner: owner ? playerName(ctx, view, b.owner) : ctx.t("ginkgopolis.nobody"),
  });
  const floors = [];
  for (let i = 1; i < Math.min(b.height, 5); i += 1) floors.push(h("span", { class: "gk-floor", "aria-hidden": "true", style: { "--i": String(i) } }));
  return h(
    "div",
    {
      class: ["gk-cell", "gk-building", `c-${b.colour}`, `h-${Math.min(b.height, 5)}`, joins, target ? "target" : "", site ? "site" : "", b.pending ? "pending" : ""],
      style,
      "data-cell": cellKey(b.cell),
      // A new building, or a new top floor, comes from the tile that was played.
      ...flip(`gk-cell-${cellKey(b.cell)}`, `gk-tile-${b.top}`),
      "data-top": b.top,
      "data-height": b.height,
      "data-owner": b.owner === null ? "" : b.owner,
      role: "img",
      "aria-label": label + (b.pending ? ` · ${ctx.t("ginkgopolis.pending")}` : ""),
      title: `${label}\n${ctx.t("ginkgopolis.stack", { tiles: b.tiles.join(" · ") })}${b.pending ? `\n${ctx.t("ginkgopolis.pending")}` : ""}`,
    },
    floors,
    h(
      "div",
      { class: "gk-roof", ...flip(`gk-top-${b.top}`, `gk-tile-${b.top}`) },
      h("span", { class: "gk-glyph", "aria-hidden": "true" }, GLYPH[b.colour]),
      h("span", { class: "gk-num", "aria-hidden": "true" }, String(b.number)),
      b.height > 1 ? h("span", { class: "gk-height", "aria-hidden": "true" }, `${b.height}▴`) : null,
      owner
        ? h("span", { class: ["gk-owner", `pc-${owner.colour}`], "aria-hidden": "true" }, SHAPE[owner.colour], h("small", null, String(b.height)))
        : null,
      b.pending ? h("span", { class: "gk-pawn", "aria-hidden": "true" }, PAWN) : null,
    ),
  );
}

function tokenCell(ctx, picture, letter, cell, style, move, marks) {
  const k = cellKey(cell);
  if (move) {
    const ghost = marks.moveLetter;
    return h(
      "button",
      {
        type: "button",
        class: ["gk-cell", "gk-move", "legal", letter ? "has-token" : ""],
        style,
        "data-cell": k,
        "data-action": "move_token",
        disabled: marks.pending,
        "aria-label": ctx.t("ginkgopolis.move_here", { letter: ghost, cell: cellName(cell) }),
        title: `${ctx.t("ginkgopolis.move_here", { letter: ghost, cell: cellName(cell) })}. ${ctx.t("ginkgopolis.hint.free")}`,
        onclick: () => marks.act(move),
      },
      h("span", { class: "gk-token ghost", "aria-hidden": "true" }, ghost),
    );
  }
  return h(
    "div",
    {
      class: ["gk-cell", "gk-site", marks.target === k ? "target" : ""],
      style,
      "data-cell": k,
      "data-token": letter,
      role: "img",
      "aria-label": ctx.t("ginkgopolis.token_label", { letter, cell: cellName(cell) }),
      title: ctx.t("ginkgopolis.token_label", { letter, cell: cellName(cell) }),
    },
    h("span", { class: "gk-token", "aria-hidden": "true", ...flip(`gk-token-${letter}`) }, letter),
  );
}

// ------------------------------------------------------------------ players

function playerPanel(ctx, picture, view, pl, toAct) {
  const mine = picture.seat !== null && pl.seat === picture.seat;
  const name = playerName(ctx, view, pl.player);
  const total = pl.resources + pl.supply + pl.on_buildings;
  const final = view.final?.find((f) => f.player === pl.player);
  return h(
    "section",
    {
      class: ["gk-player", `pc-${pl.colour}`, mine ? "is-me" : "", pl.hal ? "hal" : "", toAct ? "to-act" : ""],
      "data-player": pl.player,
      "data-flip-frame": `gk-p-${pl.player}`,
      "aria-label": name,
    },
    h(
      "header",
      { class: "gk-player-head" },
      swatch(pl.colour),
      h("span", { class: "gk-name" }, name),
      mine ? h("span", { class: "tag" }, ctx.t("seat.you")) : null,
      pl.hal ? h("span", { class: "tag gk-bot-tag" }, ctx.t("ginkgopolis.automa")) : null,
      !view.solo && view.first_player === pl.player
        ? h("span", { class: "gk-first", title: ctx.t("ginkgopolis.first_player") }, ctx.t("ginkgopolis.first_badge"))
        : null,
      toAct ? h("span", { class: "gk-turn-dot", title: ctx.t("seat.to_act") }, "▶") : null,
      h(
        "span",
        { class: "gk-sp", title: ctx.t("ginkgopolis.sp_long") },
        final ? ctx.t("ginkgopolis.sp_final", { n: final.total }) : pl.sp === null ? ctx.t("ginkgopolis.sp_hidden") : ctx.t("ginkgopolis.sp_n", { n: pl.sp }),
      ),
    ),
    h(
      "div",
      { class: "gk-stats" },
      pl.hal
        ? stat("⚙", pl.supply, ctx.t("ginkgopolis.hal_reserve"), "res")
        : stat("⚙", pl.resources, ctx.t("ginkgopolis.behind_screen"), "res"),
      pl.hal ? null : stat("▦", pl.tile_count, ctx.t("ginkgopolis.tiles_behind"), "tiles"),
      stat("⌂", `${pl.on_buildings}/${total}`, ctx.t("ginkgopolis.in_city"), "city"),
      pl.hal ? null : stat("◌", pl.supply, ctx.t("ginkgopolis.general_supply"), "supply"),
      view.solo || pl.hal ? null : stat("❏", pl.hand_count, ctx.t("ginkgopolis.hand_count"), "hand"),
      view.solo || pl.hal ? null : stat("↻", pl.new_hand_tokens, ctx.t("ginkgopolis.new_hand_tokens"), "tokens"),
    ),
    tableau(ctx, pl),
  );
}

function tableau(ctx, pl) {
  const cards = [...pl.characters, ...pl.tableau];
  return h(
    "div",
    { class: "gk-tableau", role: "group", "aria-label": ctx.t("ginkgopolis.tableau_of", { n: cards.length }) },
    cards.length
      ? cards.map((c) => cardFace(ctx, c, { class: "mini", attrs: flip(`gk-tab-${c}`, `gk-card-${c}`) }))
      : h("span", { class: "gk-empty" }, ctx.t("ginkgopolis.tableau_empty")),
  );
}

// ------------------------------------------------------------------ this round: selections and resolution

function roundStrip(ctx, picture, view) {
  const order = [];
  for (let i = 0; i < view.players.length; i += 1) order.push(view.players[(view.first_player + i) % view.players.length]);
  const spots = order.map((pl) => {
    let body;
    let state;
    if (pl.hal) {
      if (view.decision && view.decision.player === pl.player) {
        // While seat 0 moves Hal's token: his card, and the tile he placed on its site.
        const placed = view.decision.site ? view.city.find((b) => same(b.cell, view.decision.site)) : null;
        body = view.decision.card
          ? h("div", { class: "gk-pair" }, cardFace(ctx, view.decision.card, { attrs: flip(`gk-card-${view.decision.card}`, `gk-back-${pl.player}`) }), placed ? tileFace(ctx, placed.top, { class: "on-card" }) : null)
          : cardBack(ctx, { label: ctx.t("ginkgopolis.hal_card") });
        state = "revealed";
      } else if (view.hal_card_face_down) {
        body = cardBack(ctx, { label: ctx.t("ginkgopolis.hal_card"), attrs: flip(`gk-back-${pl.player}`) });
        state = "hidden";
      } else {
        body = h("div", { class: "gk-card placeholder", "aria-hidden": "true" });
        state = "none";
      }
    } else if (pl.revealed) {
      body = h(
        "div",
        { class: "gk-pair" },
        cardFace(ctx, pl.revealed.card, { attrs: flip(`gk-card-${pl.revealed.card}`, `gk-back-${pl.player}`) }),
        pl.revealed.tile ? tileFace(ctx, pl.revealed.tile, { class: "on-card", attrs: flip(`gk-tile-${pl.revealed.tile}`, `gk-back-${pl.player}`) }) : null,
      );
      state = "revealed";
    } else if (pl.selection) {
      body = h(
        "div",
        { class: "gk-pair mine" },
        cardFace(ctx, pl.selection.card, { attrs: flip(`gk-card-${pl.selection.card}`) }),
        pl.selection.tile ? tileFace(ctx, pl.selection.tile, { class: "on-card", attrs: flip(`gk-tile-${pl.selection.tile}`) }) : null,
      );
      state = "chosen";
    } else if (pl.has_selected) {
      body = cardBack(ctx, { tile: pl.tile_attached, label: ctx.t(pl.tile_attached ? "ginkgopolis.chosen_with_tile" : "ginkgopolis.chosen"), attrs: flip(`gk-back-${pl.player}`) });
      state = "chosen";
    } else {
      body = h("div", { class: "gk-card placeholder", "aria-hidden": "true" });
      state = view.phase === "select" ? "choosing" : "none";
    }
    let note = {
      revealed: ctx.t("ginkgopolis.revealed"),
      hidden: ctx.t("ginkgopolis.face_down"),
      chosen: ctx.t(pl.tile_attached ? "ginkgopolis.chosen_with_tile" : "ginkgopolis.chosen"),
      choosing: ctx.t("ginkgopolis.choosing"),
      none: "",
    }[state];
    // The other simultaneous steps: only whether each seat is done is public (§13).
    if (!pl.hal && view.phase === "draft") {
      state = pl.draft_picked ? "chosen" : "choosing";
      note = ctx.t(pl.draft_picked ? "ginkgopolis.picked" : "ginkgopolis.choosing");
    } else if (!pl.hal && view.phase === "new_hand") {
      const deciding = view.to_act.includes(pl.player);
      state = deciding ? "choosing" : "chosen";
      note = ctx.t(deciding ? "ginkgopolis.deciding" : pl.new_hand_tokens ? "ginkgopolis.decided" : "ginkgopolis.no_token");
    } else if (!pl.hal && view.phase === "contribute") {
      state = pl.contribution_done ? "chosen" : "choosing";
      note = ctx.t(pl.contribution_done ? "ginkgopolis.contribution_done" : "ginkgopolis.contributing");
    }
    return h(
      "li",
      { class: ["gk-spot", `s-${state}`], "data-player": pl.player, "data-state": state, ...flip(`gk-spot-${pl.player}`) },
      body,
      h("span", { class: "gk-spot-name" }, swatch(pl.colour), playerName(ctx, view, pl.player)),
      note ? h("span", { class: "gk-spot-note", "data-waiting": state === "choosing" }, note) : null,
    );
  });
  const title = {
    draft: "ginkgopolis.step.draft",
    new_hand: "ginkgopolis.step.new_hand",
    select: "ginkgopolis.step.select",
    resolve: "ginkgopolis.step.resolve",
    contribute: "ginkgopolis.step.contribute",
    over: "ginkgopolis.step.over",
  }[view.phase];
  return h(
    "section",
    { class: "gk-round", "data-flip-frame": "gk-round", "aria-label": ctx.t(title) },
    h("h3", null, ctx.t(title)),
    h("ol", { class: "gk-spots" }, spots),
    recap(ctx, view),
  );
}

const RECAP_TYPES = new Set([
  "action_revealed",
  "items_gained",
  "building_urbanized",
  "token_moved",
  "built_up",
  "resources_returned",
  "hal_skipped",
  "end_triggered",
  "tile_supply_exhausted",
  "contributions_revealed",
  "deck_rebuilt",
  "round_started",
]);

/** Collect the resolution events the frames bring, for a step-by-step account. */
function collect(picture, ctx) {
  const table = ctx.table?.id ?? null;
  if (recent.table !== table) {
    recent.table = table;
    recent.seen = 0;
    recent.events = [];
  }
  for (const e of picture.events || []) {
    if (typeof e.version === "number" && e.version < recent.seen) continue;
    if (!RECAP_TYPES.has(e.type)) continue;
    if (recent.events.some((x) => x.version === e.version && same(x, e))) continue;
    recent.events.push(e);
  }
  const last = (picture.events || []).reduce((m, e) => Math.max(m, e.version || 0), 0);
  recent.seen = Math.max(recent.seen, last);
  // Keep the current and the previous round only.
  const starts = recent.events.map((e, i) => (e.type === "round_started" ? i : -1)).filter((i) => i >= 0);
  if (starts.length > 2) recent.events = recent.events.slice(starts[starts.length - 2]);
}

function recap(ctx, view) {
  const groups = [];
  for (const e of recent.events) {
    const text = renderMessage(e.message, ctx.seatName) ?? e.text;
    if (!text) continue;
    if (e.type === "round_started" || !groups.length) groups.push({ title: e.type === "round_started" ? text : null, lines: [] });
    if (e.type !== "round_started") groups[groups.length - 1].lines.push(h("li", { class: [`r-${e.type}`, e.hal ? "hal" : ""] }, text));
  }
  // The round being resolved and the one before (the newest line is scrolled into sight).
  const shown = groups.filter((g) => g.lines.length).slice(-2);
  if (!shown.length) return null;
  return keepOpen(h(
    "details",
    { class: "gk-recap" },
    h("summary", null, ctx.t("ginkgopolis.recap")),
    h(
      "div",
      // Scrollable once a round says much: reachable by keyboard, as every scroll area here.
      { class: "gk-recap-body", "aria-live": "polite", tabindex: 0, role: "region", "aria-label": ctx.t("ginkgopolis.recap") },
      shown.map((g) => [g.title ? h("p", { class: "gk-recap-round" }, g.title) : null, h("ol", { class: "gk-recap-list" }, g.lines)]),
    ),
  ), "gk-recap", true);
}

// ------------------------------------------------------------------ my area: hand, screen, decisions

function myArea(ctx, root, picture, view, me) {
  const legal = picture.legal_actions;
  const selects = legal.filter((a) => a.type === "select");
  if (armed.version !== picture.version) {
    // keep the armed card across versions only while it is still playable
    if (!selects.some((a) => a.card === armed.card)) armed = { version: picture.version, card: null };
    else armed.version = picture.version;
  }
  const rerender = () => {
    if (!root.isConnected) return;
    const focused = document.activeElement?.closest?.("[data-card]")?.dataset.card;
    armedOf.set(root, armed);
    render(root, picture, ctx);
    // Step 2 comes next: bring its first button under the keyboard focus.
    const next = armed.card ? root.querySelector(".gk-decision .gk-alone") : null;
    const again = next || (focused ? root.querySelector(`.gk-hand button[data-card="${focused}"]`) : null);
    if (again) again.focus({ preventScroll: true });
  };
  const steps = decisionPanel(ctx, picture, view, me, selects, rerender);
  const contributions = legal.filter((a) => a.type === "contribute");
  const armedTiles = armed.card ? new Map(selects.filter((a) => a.card === armed.card && a.tile).map((a) => [a.tile, a])) : new Map();
  const handCards = (me.hand || []).map((card) => {
    const playable = selects.some((a) => a.card === card);
    return cardFace(ctx, card, {
      tag: "button",
      class: [playable ? "legal" : "", armed.card === card ? "armed" : "", selects.length && !playable ? "illegal" : ""],
      label: `${playable ? `${ctx.t("ginkgopolis.choose_card")}: ` : ""}${cardText(ctx, card)}`,
      title: playable ? `${cardText(ctx, card)} — ${isUrb(card) ? ctx.t("ginkgopolis.urb_hint") : effectText(ctx, card)}\n${ctx.t("ginkgopolis.hint.arm")}` : undefined,
      attrs: {
        ...flip(`gk-card-${card}`),
        disabled: !playable || ctx.pending,
        "aria-pressed": playable ? String(armed.card === card) : null,
        onclick: playable
          ? () => {
              armed = { version: picture.version, card: armed.card === card ? null : card };
              rerender();
            }
          : null,
      },
    });
  });
  const screenTiles = (me.tiles || []).map((tile) => {
    const action = armedTiles.get(tile) || contributions.find((a) => a.tile === tile);
    const offered = armed.card !== null || contributions.length > 0;
    return tileFace(ctx, tile, {
      tag: "button",
      class: [action ? "legal" : "", offered && !action ? "illegal" : ""],
      label: action ? `${ctx.t(action.type === "contribute" ? "ginkgopolis.contribute_tile" : "ginkgopolis.attach_tile")}: ${tileText(ctx, tile)}` : tileText(ctx, tile),
      title: action ? (action.type === "contribute" ? ctx.t("ginkgopolis.hint.contribute", { tile: tileText(ctx, tile) }) : selectHint(ctx, view, action)) : undefined,
      attrs: {
        ...flip(`gk-tile-${tile}`),
        disabled: !action || ctx.pending,
        "data-action": action ? action.type : null,
        onclick: action ? () => ctx.act(action) : null,
      },
    });
  });
  return h(
    "section",
    // The prompt with the hand and the screen it asks about: docked while it is my decision.
    { class: "gk-mine", "data-decision": isFigure(ctx) ? null : "", "data-flip-frame": "gk-mine", "aria-label": ctx.t("ginkgopolis.my_area") },
    steps,
    h(
      "div",
      { class: "gk-holdings" },
      h(
        "div",
        { class: "gk-hand-box" },
        h("h4", null, ctx.t("ginkgopolis.my_hand", { n: (me.hand || []).length })),
        h("div", { class: "gk-hand", role: "group", "aria-label": ctx.t("ginkgopolis.my_hand", { n: (me.hand || []).length }) }, handCards.length ? handCards : h("span", { class: "gk-empty" }, ctx.t("ginkgopolis.hand_empty"))),
      ),
      h(
        "div",
        { class: "gk-screen-box" },
        h("h4", null, ctx.t("ginkgopolis.my_screen", { n: (me.tiles || []).length })),
        h("div", { class: "gk-screen", role: "group", "aria-label": ctx.t("ginkgopolis.my_screen", { n: (me.tiles || []).length }) }, screenTiles.length ? screenTiles : h("span", { class: "gk-empty" }, ctx.t("ginkgopolis.screen_empty"))),
        me.set_aside?.length
          ? h(
              "div",
              { class: "gk-set-aside" },
              h("span", { class: "gk-small" }, ctx.t("ginkgopolis.set_aside")),
              me.set_aside.map((t) => tileFace(ctx, t, { class: "small" })),
            )
          : null,
      ),
    ),
  );
}

function decisionPanel(ctx, picture, view, me, selects, rerender) {
  const legal = picture.legal_actions;
  const btn = (action, label, cls = "", title = undefined) =>
    h(
      "button",
      { type: "button", class: ["btn", "legal", cls], "data-action": action.type, "data-item": action.item, title, disabled: ctx.pending, onclick: () => ctx.act(action) },
      label,
    );
  if (selects.length) {
    const card = armed.card;
    const alone = card ? selects.find((a) => a.card === card && !a.tile) : null;
    const withTile = card ? selects.filter((a) => a.card === card && a.tile) : [];
    let target = null;
    if (card && isUrb(card)) {
      const cell = view.tokens[card.slice(2)];
      target = ctx.t("ginkgopolis.target_site", { letter: card.slice(2), cell: cellName(cell) });
    } else if (card) {
      const b = view.city.find((x) => x.top === card);
      if (b) target = ctx.t("ginkgopolis.target_building", { cell: cellName(b.cell), height: b.height });
    }
    return h(
      "section",
      { class: "gk-decision select", "aria-labelledby": "gk-decision-title" },
      h("h3", { id: "gk-decision-title" }, ctx.t("ginkgopolis.select_title")),
      h(
        "ol",
        { class: "gk-steps" },
        h("li", { class: [card ? "done" : "now"], "aria-current": card ? null : "step" }, ctx.t("ginkgopolis.select_step1")),
        h("li", { class: [card ? "now" : ""], "aria-current": card ? "step" : null }, ctx.t("ginkgopolis.select_step2")),
      ),
      card
        ? h(
            "div",
            { class: "gk-choice" },
            h("p", { class: "gk-chosen-line" }, cardFace(ctx, card, { class: "mini" }), h("span", null, cardText(ctx, card), target ? h("small", null, target) : null)),
            alone
              ? h(
                  "button",
                  { type: "button", class: "btn btn-primary gk-alone legal", "data-action": "select-alone", title: selectHint(ctx, view, alone), disabled: ctx.pending, onclick: () => ctx.act(alone) },
                  ctx.t("ginkgopolis.play_alone"),
                  h("small", null, ctx.t(isUrb(card) ? "ginkgopolis.alone_urb" : "ginkgopolis.alone_building")),
                )
              : null,
            h(
              "p",
              { class: "gk-hint" },
              withTile.length
                ? ctx.t(isUrb(card) ? "ginkgopolis.with_tile_urb" : "ginkgopolis.with_tile_building", { n: withTile.length })
                : ctx.t("ginkgopolis.no_tile_possible"),
            ),
            h("button", { type: "button", class: "btn btn-link gk-cancel", onclick: () => { armed = { version: picture.version, card: null }; rerender(); } }, ctx.t("ginkgopolis.change_card")),
          )
        : h("p", { class: "gk-hint" }, ctx.t("ginkgopolis.select_hint")),
    );
  }
  const takes = legal.filter((a) => a.type === "take");
  if (takes.length) {
    return h(
      "section",
      { class: "gk-decision take" },
      h("h3", null, ctx.t("ginkgopolis.take_title", { card: cardText(ctx, view.decision?.card || "") })),
      h("div", { class: "gk-row" }, takes.map((a) => btn(a, `${ITEM_GLYPH[a.item]} ${ctx.t(`ginkgopolis.take.${a.item}`)}`, "btn-primary", ctx.t(`ginkgopolis.hint.take_${a.item}`)))),
    );
  }
  const moves = legal.filter((a) => a.type === "move_token");
  if (moves.length) {
    const d = view.decision;
    return h(
      "section",
      { class: "gk-decision move" },
      h("h3", null, ctx.t(d && view.players[d.player]?.hal ? "ginkgopolis.move_title_hal" : "ginkgopolis.move_title", { letter: d?.letter || "" })),
      h("p", { class: "gk-hint" }, ctx.t("ginkgopolis.move_hint")),
      h(
        "div",
        { class: "gk-row" },
        moves.map((a) =>
          h(
            "button",
            {
              type: "button",
              class: "btn gk-move-btn legal",
              "data-action": "move_token",
              "data-cell": cellKey(a.cell),
              title: `${ctx.t("ginkgopolis.move_here", { letter: d?.letter || "", cell: cellName(a.cell) })}. ${ctx.t("ginkgopolis.hint.free")}`,
              disabled: ctx.pending,
              onclick: () => ctx.act(a),
            },
            cellName(a.cell),
          ),
        ),
      ),
    );
  }
  const contribute = legal.filter((a) => a.type === "contribute" || a.type === "contribute_done");
  if (contribute.length) {
    const done = contribute.find((a) => a.type === "contribute_done");
    return h(
      "section",
      { class: "gk-decision contribute" },
      h("h3", null, ctx.t("ginkgopolis.contribute_title")),
      h("p", { class: "gk-hint" }, ctx.t("ginkgopolis.contribute_hint", { n: (me.set_aside || []).length })),
      done ? btn(done, ctx.t("ginkgopolis.contribute_done"), "btn-primary", ctx.t("ginkgopolis.hint.contribute_done", { n: (me.set_aside || []).length })) : null,
    );
  }
  const newHand = legal.filter((a) => a.type === "keep_hand" || a.type === "new_hand");
  if (newHand.length) {
    return h(
      "section",
      { class: "gk-decision new-hand" },
      h("h3", null, ctx.t("ginkgopolis.new_hand_title", { n: me.new_hand_tokens })),
      h("p", { class: "gk-hint" }, ctx.t("ginkgopolis.new_hand_hint")),
      h(
        "div",
        { class: "gk-row" },
        newHand.map((a) =>
          btn(a, ctx.t(`ginkgopolis.${a.type}`), a.type === "keep_hand" ? "btn-primary" : "", ctx.t(a.type === "keep_hand" ? "ginkgopolis.hint.keep_hand" : "ginkgopolis.hint.new_hand", { n: me.new_hand_tokens })),
        ),
      ),
    );
  }
  const picks = legal.filter((a) => a.type === "draft_pick");
  if (picks.length) {
    return h(
      "section",
      { class: "gk-decision draft" },
      h("h3", null, ctx.t("ginkgopolis.draft_title")),
      me.draft_kept?.length ? h("p", { class: "gk-hint" }, ctx.t("ginkgopolis.draft_kept"), " ", me.draft_kept.map((c) => cardFace(ctx, c, { class: "mini" }))) : null,
      h(
        "div",
        { class: "gk-row" },
        picks.map((a) =>
          cardFace(ctx, a.character, {
            tag: "button",
            class: "legal",
            title: `${cardText(ctx, a.character)} — ${effectText(ctx, a.character)}\n${ctx.t("ginkgopolis.hint.draft_pick")}`,
            attrs: { ...flip(`gk-card-${a.character}`), "data-action": "draft_pick", disabled: ctx.pending, onclick: () => ctx.act(a) },
          }),
        ),
      ),
    );
  }
  // Nothing to decide: say what we wait for.
  if (view.phase === "over") return null;
  const waiting = view.players.filter((p) => view.to_act.includes(p.player) && !p.hal).map((p) => playerName(ctx, view, p.player));
  let text;
  if (me.has_selected && view.phase === "select") text = ctx.t("ginkgopolis.wait_selected");
  else if (waiting.length) text = ctx.t("ginkgopolis.wait_for", { names: waiting.join(", ") });
  else text = ctx.t("ginkgopolis.wait");
  return h("section", { class: "gk-decision waiting", "data-waiting": true }, h("p", { class: "gk-hint" }, text));
}

// ------------------------------------------------------------------ public piles, districts, final

function piles(ctx, view) {
  return h(
    "div",
    { class: "gk-piles" },
    h(
      "span",
      { class: "gk-pile", title: ctx.t("ginkgopolis.supply_long") },
      h("span", { class: "gk-pile-icon tiles", "aria-hidden": "true" }, "▦"),
      ctx.t("ginkgopolis.supply_n", { n: view.supply_count }),
    ),
    h("span", { class: "gk-pile", title: ctx.t("ginkgopolis.deck_long") }, h("span", { class: "gk-pile-icon", "aria-hidden": "true" }, "❦"), ctx.t("ginkgopolis.deck_n", { n: view.deck_count })),
    h("span", { class: "gk-pile", title: ctx.t("ginkgopolis.discard_long") }, h("span", { class: "gk-pile-icon", "aria-hidden": "true" }, "⤓"), ctx.t("ginkgopolis.discard_n", { n: view.discard_count })),
    view.end_triggered
      ? h(
          "span",
          { class: "gk-end-flag", role: "note" },
          ctx.t("ginkgopolis.end_flag"),
          view.end_reasons.length ? h("small", null, ` · ${view.end_reasons.map((r) => ctx.t(`ginkgopolis.end.${r}`)).join("; ")}`) : null,
        )
      : null,
  );
}

function stacks(ctx, view) {
  return keepOpen(h(
    "details",
    { class: "gk-extra gk-stacks" },
    h("summary", null, ctx.t("ginkgopolis.stacks_title")),
    h("p", { class: "gk-small" }, ctx.t("ginkgopolis.stacks_hint")),
    ["R", "Y", "B"].map((c) =>
      h(
        "div",
        { class: "gk-stack-row" },
        h("span", { class: ["gk-stack-name", `c-${c}`] }, GLYPH[c], " ", colourName(ctx, c)),
        h("span", { class: "gk-stack-nums" }, (view.stacks[c] || []).join(" · ") || "—"),
      ),
    ),
  ), "gk-stacks", false);
}

function districtList(ctx, view, open = false) {
  const rows = view.districts.map((d) =>
    h(
      "li",
      { class: `c-${d.colour}` },
      h("span", { class: ["gk-dist-colour", `c-${d.colour}`] }, GLYPH[d.colour], " ", ctx.t("ginkgopolis.district", { colour: colourName(ctx, d.colour), n: d.cells.length })),
      h(
        "span",
        { class: "gk-dist-scores" },
        Object.keys(d.scores).length
          ? Object.entries(d.scores).map(([p, n]) => h("span", { class: "gk-dist-score" }, swatch(view.players[p]?.colour), `${playerName(ctx, view, Number(p))} +${n}`))
          : ctx.t("ginkgopolis.district_nobody"),
      ),
    ),
  );
  return keepOpen(h(
    "details",
    { class: "gk-extra gk-districts" },
    h("summary", null, ctx.t("ginkgopolis.districts_title", { n: view.districts.length })),
    h("p", { class: "gk-small" }, ctx.t(view.final ? "ginkgopolis.districts_hint_final" : "ginkgopolis.districts_hint")),
    rows.length ? h("ul", null, rows) : h("p", { class: "gk-small" }, ctx.t("ginkgopolis.no_districts")),
  ), "gk-districts", open && view.districts.length > 0);
}

function finalPanel(ctx, view) {
  if (!view.final) return null;
  const best = Math.max(...view.final.map((f) => f.total));
  let headline;
  if (view.solo) headline = ctx.t(view.final[0].total > view.final[1].total ? "ginkgopolis.solo_won" : "ginkgopolis.solo_lost");
  else headline = ctx.t("ginkgopolis.final_title");
  const rows = [...view.final]
    .sort((a, b) => b.total - a.total)
    .map((f) =>
      h(
        "tr",
        { class: [f.total === best ? "best" : ""], "data-player": f.player },
        h("th", { scope: "row" }, swatch(view.players[f.player].colour), " ", playerName(ctx, view, f.player)),
        h("td", null, String(f.sp)),
        h("td", null, String(f.districts)),
        h("td", null, String(f.cards)),
        h("td", null, String(f.tokens)),
        h("td", { class: "total" }, String(f.total)),
      ),
    );
  return h(
    "section",
    { class: "gk-final", "aria-labelledby": "gk-final-title" },
    h("h3", { id: "gk-final-title" }, headline),
    h(
      "div",
      { class: "gk-table-scroll table-scroll", tabindex: 0 },
      h(
        "table",
        null,
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            h("td", { class: "corner" }),
            ["sp", "districts", "cards", "tokens", "total"].map((k) => h("th", { scope: "col" }, ctx.t(`ginkgopolis.score.${k}`))),
          ),
        ),
        h("tbody", null, rows),
      ),
    ),
  );
}

function helpBox(ctx, view) {
  return keepOpen(h(
    "details",
    { class: "gk-extra gk-help" },
    h("summary", null, ctx.t("ginkgopolis.help.title")),
    h(
      "ul",
      null,
      ["goal", "select", "exploit", "urbanize", "build", "colours", "end", view.solo ? "hal" : "pass"].map((k) => h("li", null, ctx.t(`ginkgopolis.help.${k}`))),
    ),
  ), "gk-help", false);
}

/** The one line of another player's folded area on a phone: who, SP, resources, tiles, cards. */
function playerLine(ctx, view, pl, toAct) {
  const final = view.final?.find((f) => f.player === pl.player);
  const sp = final ? final.total : pl.sp;
  return [
    swatch(pl.colour),
    " ",
    h("b", null, playerName(ctx, view, pl.player)),
    toAct ? " ▶" : null,
    " · ",
    sp === null ? ctx.t("ginkgopolis.sp_hidden") : ctx.t("ginkgopolis.sp_n", { n: sp }),
    " · ",
    pl.hal
      ? ctx.t("ginkgopolis.fold_line_hal", { reserve: pl.supply, city: pl.on_buildings, cards: pl.characters.length + pl.tableau.length })
      : ctx.t("ginkgopolis.fold_line", { resources: pl.resources, tiles: pl.tile_count, city: pl.on_buildings, cards: pl.characters.length + pl.tableau.length }),
  ];
}

// ------------------------------------------------------------------ render

export function render(root, picture, ctx) {
  const view = picture.view;
  solo = Boolean(view.solo);
  armed = armedOf.get(root) || { version: -1, card: null };
  try {
    draw(root, picture, ctx, view);
  } finally {
    armedOf.set(root, armed);
  }
}

/** A picture of the rules page (no table behind it): nothing can be clicked there. */
function isFigure(ctx) {
  return Boolean(ctx.table) && (ctx.table.id === null || ctx.table.id === undefined);
}

function draw(root, picture, ctx, view) {
  // A figure cannot be clicked: show step 2 of a build-up choice already opened, so the
  // highlighted tiles and the marked target building are in the picture.
  if (isFigure(ctx) && !armed.card) {
    const buildUp = picture.legal_actions.find((a) => a.type === "select" && a.tile && !isUrb(a.card));
    if (buildUp) armed = { version: picture.version, card: buildUp.card };
  }
  collect(picture, ctx);
  const live = picture.status === "playing" || picture.status === "running";
  const toAct = new Set(live ? view.to_act : []);
  const me = picture.seat === null || picture.seat === undefined ? null : view.players.find((p) => p.seat === picture.seat && !p.hal);
  // City marks: token-move targets from legal_actions; the armed card's target (display only).
  const moves = new Map(picture.legal_actions.filter((a) => a.type === "move_token").map((a) => [cellKey(a.cell), a]));
  let target = null;
  if (armed.card && picture.legal_actions.some((a) => a.type === "select" && a.card === armed.card)) {
    if (isUrb(armed.card)) {
      const cell = view.tokens[armed.card.slice(2)];
      target = cell ? cellKey(cell) : null;
    } else {
      const b = view.city.find((x) => x.top === armed.card);
      target = b ? cellKey(b.cell) : null;
    }
  }
  const marks = {
    moves,
    moveLetter: view.decision?.letter || "",
    target,
    site: view.decision?.site ? cellKey(view.decision.site) : null,
    pending: ctx.pending,
    act: ctx.act,
  };
  const phaseName = ctx.t(`ginkgopolis.phase.${view.phase}`);
  const status = h(
    "div",
    { class: "gk-status" },
    h("span", { class: "gk-round-no" }, view.phase === "over" ? ctx.t("ginkgopolis.game_over") : ctx.t("ginkgopolis.round_n", { n: view.round })),
    view.phase === "over" ? null : h("span", { class: "gk-phase" }, phaseName),
    piles(ctx, view),
  );
  const others = view.players.filter((p) => p !== me);
  fill(
    root,
    h(
      "div",
      { class: ["gk-root", `phase-${view.phase}`, me ? "" : "spectator"], "data-phase": view.phase, "data-round": view.round, "data-version": picture.version },
      status,
      finalPanel(ctx, view),
      h(
        "div",
        { class: "gk-felt" },
        h(
          "div",
          { class: "gk-top" },
          h(
            "section",
            // Every decision is about the city (an armed card's target is outlined there).
            { class: ["gk-city", moves.size ? "choosing-cell" : ""], "data-decision-focus": "", "data-flip-frame": "gk-city", "aria-label": ctx.t("ginkgopolis.city"), "data-zoom": "" },
            h("div", { class: "gk-city-scroll", tabindex: 0, "data-hscroll": "" }, cityGrid(ctx, picture, view, marks)),
            h("p", { class: "gk-legend", "aria-hidden": "true" }, ["R", "Y", "B"].map((c) => h("span", { class: `c-${c}` }, `${GLYPH[c]} ${colourName(ctx, c)} → ${ctx.t(`ginkgopolis.item.${ITEM_OF[c]}`)}`)), h("span", null, `${PAWN} ${ctx.t("ginkgopolis.pending")}`)),
            // The zoomed city view (zoom.js): the whole city, large, in a dialog.
            h("button", { type: "button", class: "btn gk-zoom-city", "data-zoom-button": "", title: ctx.t("ginkgopolis.zoom_city_hint") }, h("span", { class: "gk-zoom-icon", "aria-hidden": "true" }), ctx.t("ginkgopolis.zoom_city")),
          ),
          h(
            "div",
            { class: "gk-side" },
            roundStrip(ctx, picture, view),
            // On a phone, the other players' areas are one-line summaries that open on a tap.
            others.map((p) => {
              const panel = playerPanel(ctx, picture, view, p, toAct.has(p.player));
              return isFigure(ctx) ? panel : fold(`gk-p-${p.player}`, playerLine(ctx, view, p, toAct.has(p.player)), panel, { class: `gk-fold pc-${p.colour}` });
            }),
          ),
        ),
        me
          ? h("div", { class: "gk-bottom" }, playerPanel(ctx, picture, view, me, toAct.has(me.player)), view.phase === "over" ? null : myArea(ctx, root, picture, view, me))
          : null,
      ),
      h("div", { class: "gk-extras" }, districtList(ctx, view, isFigure(ctx)), stacks(ctx, view), helpBox(ctx, view)),
    ),
  );
  // The newest step of the account in sight.
  const body = root.querySelector(".gk-recap-body");
  if (body) body.scrollTop = body.scrollHeight;
}

/** Per-seat SP for the shell's seat list (final totals once the game is over). */
export function scores(view) {
  if (!view?.players) return null;
  const out = {};
  for (const p of view.players) {
    if (p.seat === null || p.seat === undefined) continue;
    const f = view.final?.find((x) => x.player === p.player);
    if (f) out[p.seat] = f.total;
    else if (p.sp !== null) out[p.seat] = p.sp;
  }
  return out;
}

// ------------------------------------------------------------------ log

/** A seat's colour on the board (its player's), for the shell's last-move marks. */
export function seatColour(seat, view) {
  const pl = view?.players?.find((p) => p.seat === seat && !p.hal);
  return pl ? `var(--pc-${pl.colour})` : null;
}

/** What a player's move touched on the board (its data-flip keys), for the shell's last-move
 *  marks: the chosen card's spot, then what its resolution built. Hal has no seat to mark. */
export function lastMove(event) {
  const p = event.player;
  if (typeof p !== "number" || event.hal || (solo && p === 1)) return null;
  switch (event.type) {
    case "choice_committed":
    case "action_revealed":
    case "contribution_made":
      return { seat: p, keys: [`gk-spot-${p}`] };
    case "building_urbanized":
    case "built_up":
      return { seat: p, keys: [`gk-cell-${cellKey(event.cell)}`] };
    case "draft_picked":
      return { seat: p, keys: [`gk-tab-${event.character}`] };
    default:
      return null;
  }
}

function itemsList(ctx, e) {
  const parts = [];
  if (e.resources) parts.push(`${e.resources}${ITEM_GLYPH.resource} ${ctx.t(e.resources === 1 ? "ginkgopolis.item.resource" : "ginkgopolis.items.resource")}`);
  if (e.tiles) parts.push(`${e.tiles}${ITEM_GLYPH.tile} ${ctx.t(e.tiles === 1 ? "ginkgopolis.item.tile" : "ginkgopolis.items.tile")}`);
  if (e.sp) parts.push(`${e.sp}${ITEM_GLYPH.sp} ${ctx.t("ginkgopolis.item.sp")}`);
  return parts.length ? parts.join(", ") : ctx.t("ginkgopolis.nothing");
}
