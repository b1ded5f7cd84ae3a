// The Glück Auf (Coal Baron) board. It draws the view the server sent and offers exactly its
// legal_actions: the shift clock and the coal supply, the worker spaces (factory, mining,
// delivery, money and bank, new orders) with the workers on them, every player's pit (the
// surface with its storage, levels 1-4 with their light and dark sides, the tiles and carts
// with their cubes, the cage in its shaft), outstanding and delivered orders, money and VP,
// the scoring categories, and the decision being taken now (mining: the steps left and a stop
// button). It knows no rules: what is clickable comes only from picture.legal_actions.

import { h, fill } from "../dom.js";
import { fold, keepOpen } from "../fold.js";

// ------------------------------------------------------------------ component data (cosmetic)

const COLOURS = ["Y", "B", "G", "K"];
const TRANSPORTS = ["W", "C", "T", "L"];
/** Each seat colour also has a shape, so no information rides on the colour alone. */
const SEAT_SYMBOL = ["▲", "●", "■", "◆"];
const LIGHT = "☼";
const DARK = "☾";

/** The tile catalogue (rules §3.2): physical id -> colour, carts, side. */
function tileOf(id) {
  const side = id < 24 ? "dark" : "light";
  const k = id % 24;
  return { id, colour: COLOURS[Math.floor(k / 6)], carts: k % 6 < 3 ? 1 : 2, side };
}

/** The order cards (rules §3.4): canonical id -> code, spots, VP. */
const ORDER_ROWS = [
  ["W01", "Y", 2], ["W02", "B", 3], ["W03", "YY", 3], ["W04", "G", 4], ["W05", "K", 5], ["W06", "BB", 5],
  ["W07", "BBB", 7], ["W08", "GG", 7], ["W09", "KK", 9], ["W10", "GGG", 9], ["W11", "YBGK", 10],
  ["T01", "Y", 2], ["T02", "YY", 3], ["T03", "B", 3], ["T04", "YYY", 4], ["T05", "G", 4], ["T06", "BB", 5],
  ["T07", "K", 5], ["T08", "GG", 7], ["T09", "KK", 9], ["T10", "YBGK", 10], ["T11", "KKK", 12],
  ["C01", "Y", 2], ["C02", "YY", 3], ["C03", "B", 3], ["C04", "YYY", 4], ["C05", "G", 4], ["C06", "K", 5],
  ["C07", "BB", 5], ["C08", "GG", 7], ["C09", "KK", 9], ["C10", "YBGK", 10], ["C11", "KKK", 12],
  ["L01", "Y", 2], ["L02", "B", 3], ["L03", "YY", 3], ["L04", "G", 4], ["L05", "BB", 5], ["L06", "K", 5],
  ["L07", "BBB", 7], ["L08", "GG", 7], ["L09", "GGG", 9], ["L10", "KK", 9], ["L11", "YBGK", 10],
];
function orderOf(id) {
  const [code, spots, vp] = ORDER_ROWS[id] || ["?", "", 0];
  return { id, code, transport: code[0], spots: spots.split(""), vp };
}

/** The shift scoring table as printed on the board (rules §3.6). */
const CATEGORIES = [
  [1, "colour", "Y", 2, 1, 1], [2, "colour", "B", 3, 1, 1], [3, "colour", "G", 4, 2, 1], [4, "colour", "K", 5, 2, 1],
  [5, "transport", "W", 6, 3, 2], [6, "transport", "C", 7, 3, 2], [7, "transport", "T", 8, 4, 2], [8, "transport", "L", 9, 4, 2],
  [9, "empty", "Y", 10, 5, 3], [10, "empty", "B", 11, 5, 3], [11, "empty", "G", 12, 6, 3], [12, "empty", "K", 13, 6, 3],
].map(([number, kind, key, first, second, from]) => ({ number, kind, key, first, second, from }));

const ICON = {
  W: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M2 8h14l-3 6.5H5.5z" fill="currentColor"/><circle cx="9" cy="18" r="2.4" fill="none" stroke="currentColor" stroke-width="2"/><path d="M15.5 8.5 22 5M6 14.5 4 20M13 14.5l1.5 5.5" stroke="currentColor" stroke-width="2" fill="none" stroke-linecap="round"/></svg>',
  C: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 6h11v8H3z" fill="currentColor"/><path d="M2 6h13" stroke="currentColor" stroke-width="2"/><circle cx="6" cy="17.5" r="3" fill="none" stroke="currentColor" stroke-width="2"/><circle cx="13" cy="17.5" r="2" fill="none" stroke="currentColor" stroke-width="2"/><path d="M14 11h8" stroke="currentColor" stroke-width="2" stroke-linecap="round"/></svg>',
  T: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M2 6h12v9H2z" fill="currentColor"/><path d="M14 9h4.5l3.5 3.5V15h-8z" fill="currentColor"/><circle cx="6" cy="17.5" r="2.2" fill="#fff" stroke="currentColor" stroke-width="2"/><circle cx="17.5" cy="17.5" r="2.2" fill="#fff" stroke="currentColor" stroke-width="2"/></svg>',
  L: '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M2 15V8h5V4h4v4h3V5h3v3h2l3 7z" fill="currentColor"/><circle cx="6" cy="17.5" r="2.2" fill="#fff" stroke="currentColor" stroke-width="2"/><circle cx="12" cy="17.5" r="2.2" fill="#fff" stroke="currentColor" stroke-width="2"/><circle cx="18" cy="17.5" r="2.2" fill="#fff" stroke="currentColor" stroke-width="2"/></svg>',
};

// ------------------------------------------------------------------ names

const colourName = (ctx, c) => ctx.t(`gluckauf.colour.${c}`);
const letter = (ctx, c) => ctx.t(`gluckauf.letter.${c}`);
const transportName = (ctx, tr) => ctx.t(`gluckauf.transport.${tr}`);

function levelName(ctx, level) {
  return level === 0 ? ctx.t("gluckauf.surface") : ctx.t("gluckauf.level_n", { n: level });
}

function tileName(ctx, id) {
  const tile = tileOf(id);
  return ctx.t(tile.carts === 1 ? "gluckauf.tile_name_1" : "gluckauf.tile_name_2", {
    colour: colourName(ctx, tile.colour),
    side: ctx.t(`gluckauf.side.${tile.side}`),
  });
}

function orderName(ctx, id) {
  const o = orderOf(id);
  return ctx.t("gluckauf.order_name", {
    code: o.code,
    transport: transportName(ctx, o.transport),
    vp: o.vp,
    coal: o.spots.map((c) => letter(ctx, c)).join(""),
  });
}

function itemName(ctx, kind, id) {
  return kind === "tile" ? tileName(ctx, id) : orderName(ctx, id);
}

function spaceName(ctx, id) {
  if (id === "FACT-DRAW") return ctx.t("gluckauf.space.fact_draw");
  if (id === "ORDER-DRAW") return ctx.t("gluckauf.space.order_draw");
  if (id === "BANK") return ctx.t("gluckauf.space.bank");
  const [group, value] = id.split("-");
  if (group === "FACT") return ctx.t("gluckauf.space.fact", { n: value });
  if (group === "MINE") return ctx.t("gluckauf.space.mine", { n: value });
  if (group === "MONEY") return ctx.t("gluckauf.space.money", { n: value });
  if (group === "ORDER") return ctx.t("gluckauf.space.order", { n: value });
  if (group === "DELIV") return ctx.t("gluckauf.space.deliv", { transport: transportName(ctx, value) });
  return id;
}

function roman(n) {
  return ["", "I", "II", "III"][n] || String(n);
}

// ------------------------------------------------------------------ legal actions

/** The legal actions of this picture, indexed for the places of the board that offer them. */
function indexActions(picture) {
  const by = new Map();
  const put = (key, action) => by.set(key, action);
  for (const a of picture.legal_actions || []) {
    switch (a.type) {
      case "place_worker": put(`place:${a.space}`, a); break;
      case "draft_order": put(`draft:${a.card}`, a); break;
      case "choose_coal": put(`coal:${a.colour}`, a); break;
      case "keep_item": put(`keep:${a.item === null ? "none" : a.item}`, a); break;
      case "choose_end": put(`end:${a.end}`, a); break;
      case "return_item": put(`return:${a.item}`, a); break;
      case "move_cage": put(`move:${a.level}`, a); break;
      case "load_cube": put(`load:${a.colour}`, a); break;
      case "unload_cube": put(`unload:${a.order}:${a.colour}`, a); break;
      case "store_cube": put(`store:${a.colour}`, a); break;
      case "place_stored_cube": put(`stored:${a.order}:${a.colour}`, a); break;
      case "start_two_for_one": put(`tfo:${a.order}:${a.colour}`, a); break;
      case "add_cube": put(`add:${a.source}:${a.colour}`, a); break;
      case "stop_mining": put("stop", a); break;
      default: put(`other:${JSON.stringify(a)}`, a);
    }
  }
  return by;
}

// The legal actions drawn somewhere on the board during the current render, and its view.
let offered = new Set();
let shown = null;

/** The space of the view a placement names (workers needed, tile, order, value). */
function spaceOf(id) {
  return (shown?.spaces || []).find((s) => s.id === id) || null;
}

/** The item of a pending draw-5 an action names, as the view describes it. */
function drawnItem(id) {
  return (shown?.draw?.drawn || []).find((x) => x.id === id) || null;
}

/** What a placement does and costs, read from the space as the view shows it. */
function placeHint(ctx, action) {
  const space = spaceOf(action.space);
  if (!space) return spaceName(ctx, action.space);
  const n = space.workers_needed;
  let what;
  if (space.id === "FACT-DRAW") what = ctx.t("gluckauf.hint.fact_draw", { n });
  else if (space.id === "ORDER-DRAW") what = ctx.t("gluckauf.hint.order_draw", { n });
  else if (space.group === "factory" && space.tile) {
    what = ctx.t("gluckauf.hint.fact", { n, tile: tileName(ctx, space.tile.id), cost: space.tile.cost });
  } else if (space.group === "mining") what = ctx.t("gluckauf.hint.mine", { n, steps: space.value });
  else if (space.group === "delivery") {
    what = ctx.t("gluckauf.hint.deliv", { n, transport: transportName(ctx, space.id.split("-")[1]) });
  } else if (space.group === "bank") what = ctx.t("gluckauf.hint.bank", { m: space.value });
  else if (space.group === "money") what = ctx.t("gluckauf.hint.money", { n, m: space.value });
  else if (space.group === "order" && space.order) what = ctx.t("gluckauf.hint.order", { n, order: orderName(ctx, space.order.id) });
  else what = ctx.t("gluckauf.place_on", { space: spaceName(ctx, space.id), n });
  if (space.group !== "bank" && space.occupant !== null && space.workers > 0) {
    what += ` ${ctx.t("gluckauf.hint.ousts", { n: space.workers, name: ctx.seatName(space.occupant) })}`;
  }
  return what;
}

/** The tooltip of a legal action: what it does and what it costs, from the view and the action. */
function actionHint(ctx, action) {
  const left = shown?.mining?.steps_left ?? 0;
  const colour = action.colour ? colourName(ctx, action.colour) : "";
  switch (action.type) {
    case "place_worker":
      return placeHint(ctx, action);
    case "draft_order":
      return ctx.t("gluckauf.hint.draft_order", { order: orderName(ctx, action.card) });
    case "choose_coal":
      return ctx.t("gluckauf.hint.choose_coal", { colour });
    case "keep_item": {
      if (action.item === null) return ctx.t("gluckauf.hint.keep_none");
      const item = drawnItem(action.item);
      if (shown?.draw?.kind === "tile") {
        return ctx.t("gluckauf.hint.keep_tile", { item: tileName(ctx, action.item), cost: item ? item.cost : "?" });
      }
      return ctx.t("gluckauf.hint.keep_order", { item: orderName(ctx, action.item) });
    }
    case "choose_end":
      return ctx.t(action.end === "top" ? "gluckauf.hint.end_top" : "gluckauf.hint.end_bottom", { what: ctx.t(`gluckauf.kind.${shown?.draw?.kind || "tile"}`) });
    case "return_item":
      return ctx.t("gluckauf.hint.return_item", { item: itemName(ctx, shown?.draw?.kind || "tile", action.item) });
    case "move_cage":
      return ctx.t("gluckauf.hint.move_cage", { level: levelName(ctx, action.level), left });
    case "load_cube":
      return ctx.t("gluckauf.hint.load_cube", { colour, left });
    case "unload_cube":
      return ctx.t("gluckauf.hint.unload_cube", { colour, order: orderOf(action.order).code, left });
    case "store_cube":
      return ctx.t("gluckauf.hint.store_cube", { colour, left });
    case "place_stored_cube":
      return ctx.t("gluckauf.hint.place_stored_cube", { colour, order: orderOf(action.order).code, left });
    case "start_two_for_one":
      return ctx.t("gluckauf.hint.start_two_for_one", { colour, order: orderOf(action.order).code, left });
    case "add_cube":
      return ctx.t(action.source === "cage" ? "gluckauf.hint.add_cube_cage" : "gluckauf.hint.add_cube_storage", { colour, left });
    case "stop_mining":
      return ctx.t("gluckauf.hint.stop_mining", { n: left });
    default:
      return "";
  }
}

/** A button that sends one legal action verbatim; its title says what it does and costs. */
function actButton(ctx, action, attrs, ...children) {
  offered.add(action);
  const cls = attrs.class;
  return h(
    "button",
    {
      ...attrs,
      title: attrs.title || actionHint(ctx, action) || null,
      type: "button",
      class: ["legal", cls],
      "data-ga-action": action.type,
      disabled: ctx.pending,
      onclick: () => ctx.act(action),
    },
    ...children,
  );
}

// ------------------------------------------------------------------ small pieces

/** Motion keys (static/js/motion.js) from a piece's `extra`: its identity, what it may take the
 *  place of when new, and where it comes from otherwise. */
function flipAttrs(extra) {
  return { "data-flip": extra.flip, "data-flip-kind": extra.kind, "data-flip-from": extra.from };
}

function cube(ctx, colour, extra = {}) {
  return h(
    "span",
    { class: ["cube", `c-${colour}`, extra.class], role: "img", "aria-label": colourName(ctx, colour), title: colourName(ctx, colour), "data-colour": colour, ...flipAttrs(extra) },
    letter(ctx, colour),
  );
}

function worker(ctx, seat, count = 1, extra = {}) {
  const label = ctx.t("gluckauf.workers_of", { n: count, name: ctx.seatName(seat) });
  return h(
    "span",
    { class: ["worker", `s-${seat}`, extra.class], role: "img", "aria-label": label, title: label, "data-seat": seat, "data-count": count, ...flipAttrs(extra) },
    h("span", { class: "worker-sym", "aria-hidden": "true" }, SEAT_SYMBOL[seat] || "?"),
    count > 1 ? h("span", { class: "worker-count", "aria-hidden": "true" }, `×${count}`) : null,
  );
}

/** The cubes of one place of a seat's (cage, storage), keyed by colour and count there: a cube
 *  that leaves one place for another flies between them (same kind). */
function seatCubes(ctx, seat, place, colours) {
  const seen = {};
  return colours.map((c) => {
    seen[c] = (seen[c] || 0) + 1;
    return cube(ctx, c, { flip: `ga-${place}-${seat}-${c}-${seen[c]}`, kind: `ga-cube-${seat}-${c}` });
  });
}

function icon(transport) {
  const span = h("span", { class: ["t-icon", `t-${transport}`], "aria-hidden": "true" });
  span.innerHTML = ICON[transport] || "";
  return span;
}

function money(ctx, n) {
  return ctx.t("gluckauf.marks", { n });
}

/** A tunnel tile: its carts (a cube or empty), the side's lantern, the colour's letter. */
function tileFace(ctx, info, carts, extra = {}) {
  const cartsShown = carts || Array.from({ length: info.carts }, () => info.colour);
  const label = ctx.t(info.carts === 1 ? "gluckauf.tile_name_1" : "gluckauf.tile_name_2", {
    colour: colourName(ctx, info.colour),
    side: ctx.t(`gluckauf.side.${info.side}`),
  });
  return h(
    "div",
    {
      class: ["tile", `c-${info.colour}`, `side-${info.side}`, extra.class],
      "data-tile": info.id,
      "data-flip": `ga-tile-${info.id}`,
      "data-zoom": "",
      role: "img",
      "aria-label": extra.label || label,
      title: extra.label || label,
    },
    h("span", { class: "tile-lamp", "aria-hidden": "true" }, info.side === "light" ? LIGHT : DARK),
    h(
      "span",
      { class: "carts", "aria-hidden": "true" },
      cartsShown.map((c, i) => cart(ctx, c, info.colour, extra.seat === undefined ? null : { seat: extra.seat, key: `ga-cart-${extra.seat}-${info.id}-${i}` })),
    ),
    extra.cost !== undefined ? h("span", { class: "tile-cost", "aria-hidden": "true" }, money(ctx, extra.cost)) : null,
  );
}

/** A cart and its cube, or (empty) the letter of the coal it takes, so colour is never the
 *  only sign. In a pit (`owner` = {seat, key}) the cube is keyed: loaded, it flies to the cage;
 *  refilled, it comes from the supply. */
function cart(ctx, content, colour, owner = null) {
  const keys = owner && content ? { flip: owner.key, kind: `ga-cube-${owner.seat}-${content}`, from: `ga-supply-cube-${content}` } : {};
  return h(
    "span",
    { class: ["cart", content ? "full" : "empty"] },
    content ? cube(ctx, content, { class: "in-cart", ...keys }) : h("span", { class: "cart-letter" }, letter(ctx, colour)),
  );
}

/** An order card: transport, VP, and its coal spots (filled with cubes or waiting). */
function orderCard(ctx, info, filled, extra = {}) {
  const spots = info.spots.map((colour, i) => {
    const cubes = filled ? filled[i] || [] : [];
    const keyed = (c, j) => (extra.seat === undefined ? {} : { flip: `ga-spot-${info.id}-${i}-${j}`, kind: `ga-cube-${extra.seat}-${c}` });
    return h(
      "span",
      { class: ["spot", `c-${colour}`, cubes.length ? "filled" : "open"], "data-colour": colour },
      cubes.length
        ? cubes.map((c, j) => cube(ctx, c, { class: "on-order", ...keyed(c, j) }))
        : h("span", { class: "spot-letter", "aria-hidden": "true" }, letter(ctx, colour)),
    );
  });
  const complete = !extra.delivered && filled && filled.every((s) => s.length);
  return h(
    extra.tag || "div",
    {
      role: extra.tag ? undefined : "group",
      ...(extra.attrs || {}),
      class: ["order", `t-${info.transport}`, complete ? "complete" : "", extra.class, extra.attrs?.class],
      "data-order": info.id,
      "data-flip": `ga-order-${info.id}`,
      "data-zoom": "", // a long press enlarges it (zoom.js)
      "aria-label": extra.label || orderName(ctx, info.id),
      title: extra.title || orderName(ctx, info.id),
    },
    h(
      "span",
      { class: "order-head" },
      icon(info.transport),
      h("span", { class: "order-code" }, info.code),
      h("span", { class: "order-vp" }, ctx.t("gluckauf.vp_short", { n: info.vp })),
    ),
    h("span", { class: "order-spots" }, spots),
    complete ? h("span", { class: "order-ready" }, ctx.t("gluckauf.ready")) : null,
    extra.after || null,
  );
}

// ------------------------------------------------------------------ status bar

function statusBar(ctx, view) {
  const over = view.phase === "over";
  return h(
    "div",
    { class: "ga-status", "data-flip-frame": "ga-status" },
    h(
      "div",
      { class: "shift-clock", role: "img", "aria-label": ctx.t("gluckauf.shift_of", { n: view.shift }) },
      [1, 2, 3].map((s) =>
        h(
          "span",
          { class: ["shift", s === view.shift && !over ? "now" : "", s < view.shift || over ? "done" : ""], "aria-hidden": "true" },
          h("b", null, roman(s)),
          h("small", null, ctx.t("gluckauf.categories_n", { n: 4 * s })),
        ),
      ),
    ),
    h(
      "span",
      { class: "ga-phase" },
      over ? ctx.t("gluckauf.phase.over") : ctx.t("gluckauf.shift_of", { n: view.shift }),
      !over ? h("span", { class: "phase-name" }, ctx.t(`gluckauf.phase.${view.phase}`)) : null,
    ),
    h(
      "span",
      { class: "ga-start", title: ctx.t("gluckauf.starting_player") },
      h("span", { class: "start-marker", "aria-hidden": "true" }, "⚑"),
      ctx.t("gluckauf.starts", { name: ctx.seatName(view.starting_player) }),
    ),
    h(
      "span",
      { class: "ga-supply", role: "group", "aria-label": ctx.t("gluckauf.coal_supply") },
      h("span", { class: "muted-label" }, ctx.t("gluckauf.coal_supply")),
      COLOURS.map((c) => h("span", { class: "supply-item", "data-colour": c }, cube(ctx, c, { flip: `ga-supply-cube-${c}` }), h("b", null, view.coal_supply[c]))),
    ),
  );
}

// ------------------------------------------------------------------ worker spaces

/** Workers on a space come out of their player's supply (an ousted one goes to the canteen). */
function placedWorker(space, seat) {
  return { flip: `ga-w-${space.id}-${seat}`, kind: `ga-worker-${seat}`, from: `ga-supply-${seat}` };
}

function occupants(ctx, space, view) {
  if (space.id === "BANK") {
    const placed = view.bank.map((n, seat) => (n ? worker(ctx, seat, n, placedWorker(space, seat)) : null)).filter(Boolean);
    return h("span", { class: "occupants" }, placed);
  }
  return h("span", { class: "occupants" }, space.occupant !== null && space.workers ? worker(ctx, space.occupant, space.workers, placedWorker(space, space.occupant)) : null);
}

function spaceBox(ctx, view, space, actions, content) {
  const action = actions.get(`place:${space.id}`);
  const needs = space.workers_needed > 1 && view.phase !== "over" ? h("span", { class: "needs", title: ctx.t("gluckauf.needs", { n: space.workers_needed }) }, ctx.t("gluckauf.needs_short", { n: space.workers_needed })) : null;
  const inner = [h("span", { class: "space-name" }, spaceName(ctx, space.id)), content, h("span", { class: "space-foot" }, occupants(ctx, space, view), needs)];
  const attrs = {
    class: ["space", `g-${space.group}`, space.occupant !== null && space.workers ? "occupied" : ""],
    "data-space": space.id,
    "aria-label": action
      ? ctx.t("gluckauf.place_on", { space: spaceName(ctx, space.id), n: space.workers_needed })
      : spaceName(ctx, space.id),
  };
  if (action) return actButton(ctx, action, attrs, inner);
  // A named box that is not a button: a group, so that its name is announced.
  return h("div", { ...attrs, role: "group" }, inner);
}

function lockedBox(ctx, id) {
  return h(
    "div",
    { class: "space locked", role: "group", "data-space": id, title: ctx.t("gluckauf.locked"), "aria-label": `${spaceName(ctx, id)}: ${ctx.t("gluckauf.locked")}` },
    h("span", { class: "space-name" }, spaceName(ctx, id)),
    h("span", { class: "lock", "aria-hidden": "true" }, "✕"),
  );
}

function spaceGroup(ctx, view, actions, group, title, contentFor) {
  const ids = view.spaces.filter((s) => group.includes(s.group));
  const locked = view.locked_spaces.filter((id) => group.some((g) => id.startsWith(g === "factory" ? "FACT" : g === "mining" ? "MINE" : g === "money" ? "MONEY" : g === "order" ? "ORDER" : "~")));
  const boxes = ids.map((s) => ({ id: s.id, el: spaceBox(ctx, view, s, actions, contentFor(s)) }));
  const lockedEls = locked.map((id) => ({ id, el: lockedBox(ctx, id) }));
  const order = (id) => (id === "BANK" ? 1e3 : id.endsWith("DRAW") ? 1e2 : Number(id.split("-")[1]) || 0);
  const all = [...boxes, ...lockedEls].sort((a, b) => order(a.id) - order(b.id));
  return h(
    "section",
    { class: ["ga-group", `grp-${group[0]}`], "data-flip-frame": `ga-grp-${group[0]}`, "aria-label": title },
    h("h3", null, title),
    h("div", { class: "spaces" }, all.map((x) => x.el)),
  );
}

function boardArea(ctx, view, actions) {
  const factory = spaceGroup(ctx, view, actions, ["factory"], ctx.t("gluckauf.group.factory"), (s) =>
    s.id === "FACT-DRAW"
      ? h("span", { class: "pile tiles-pile" }, h("b", null, String(view.stack_size)), h("small", null, ctx.t("gluckauf.pile_tiles")))
      : s.tile
        ? tileFace(ctx, s.tile, null, { cost: s.tile.cost })
        : h("span", { class: "empty-slot" }, ctx.t("gluckauf.empty")),
  );
  const mining = spaceGroup(ctx, view, actions, ["mining"], ctx.t("gluckauf.group.mining"), (s) =>
    h("span", { class: "steps-big" }, h("b", null, String(s.value)), h("small", null, ctx.t("gluckauf.steps"))),
  );
  const delivery = spaceGroup(ctx, view, actions, ["delivery"], ctx.t("gluckauf.group.delivery"), (s) => {
    const tr = s.id.split("-")[1];
    return h("span", { class: ["deliv", `t-${tr}`] }, icon(tr));
  });
  const moneyG = spaceGroup(ctx, view, actions, ["money", "bank"], ctx.t("gluckauf.group.money"), (s) =>
    h("span", { class: "coin" }, money(ctx, s.value)),
  );
  const orders = spaceGroup(ctx, view, actions, ["order"], ctx.t("gluckauf.group.orders"), (s) =>
    s.id === "ORDER-DRAW"
      ? h("span", { class: "pile orders-pile" }, h("b", null, String(view.deck_size)), h("small", null, ctx.t("gluckauf.pile_orders")))
      : s.order
        ? orderCard(ctx, s.order, null, { class: "on-space" })
        : h("span", { class: "empty-slot" }, ctx.t("gluckauf.empty")),
  );
  const canteen = view.players.filter((p) => p.canteen > 0);
  return h(
    "div",
    { class: "ga-board", role: "group", "aria-label": ctx.t("gluckauf.board") },
    factory,
    h("div", { class: "ga-board-row" }, mining, delivery),
    h("div", { class: "ga-board-row" }, moneyG, orders),
    h(
      "div",
      { class: "canteen", role: "group", "data-flip-frame": "ga-canteen", "aria-label": ctx.t("gluckauf.canteen") },
      h("span", { class: "canteen-title" }, ctx.t("gluckauf.canteen")),
      canteen.length ? canteen.map((p) => worker(ctx, p.seat, p.canteen, { flip: `ga-canteen-${p.seat}`, kind: `ga-worker-${p.seat}` })) : h("span", { class: "muted-label" }, ctx.t("gluckauf.canteen_empty")),
    ),
  );
}

// ------------------------------------------------------------------ the pit

function pit(ctx, view, player, actions, mine) {
  const byLevel = { 1: { light: [], dark: [] }, 2: { light: [], dark: [] }, 3: { light: [], dark: [] }, 4: { light: [], dark: [] } };
  const printedSide = { 1: "dark", 2: "light", 3: "light", 4: "dark" };
  player.printed_carts.forEach((content, i) => {
    const level = i + 1;
    byLevel[level][printedSide[level]].push(
      h(
        "div",
        { class: ["tile", "printed", `c-${COLOURS[i]}`, `side-${printedSide[level]}`], role: "img", "aria-label": ctx.t("gluckauf.printed_cart", { colour: colourName(ctx, COLOURS[i]) }), title: ctx.t("gluckauf.printed_cart", { colour: colourName(ctx, COLOURS[i]) }) },
        h("span", { class: "tile-lamp", "aria-hidden": "true" }, "✱"),
        h("span", { class: "carts", "aria-hidden": "true" }, cart(ctx, content, COLOURS[i], { seat: player.seat, key: `ga-cart-${player.seat}-p${level}` })),
      ),
    );
  });
  for (const owned of player.tiles) {
    byLevel[owned.tile.level][owned.tile.side].push(tileFace(ctx, owned.tile, owned.carts, { seat: player.seat }));
  }
  const cageHere = (level) => player.cage_level === level;
  const cageEl = () =>
    h(
      "div",
      { class: "cage", "data-flip": `ga-cage-${player.seat}`, role: "group", "aria-label": ctx.t("gluckauf.cage_at", { level: levelName(ctx, player.cage_level), n: player.cage.length }) },
      seatCubes(ctx, player.seat, "cage", player.cage.filter(Boolean)),
      Array.from({ length: Math.max(0, 5 - player.cage.filter(Boolean).length) }, () => h("span", { class: "cage-slot", "aria-hidden": "true" })),
    );
  const shaft = (level) => {
    const move = mine ? actions.get(`move:${level}`) : null;
    const loads = mine && cageHere(level) ? COLOURS.map((c) => actions.get(`load:${c}`)).filter(Boolean) : [];
    return h(
      "div",
      { class: ["shaft", cageHere(level) ? "has-cage" : ""], "data-level": level },
      cageHere(level) ? cageEl() : null,
      move
        ? actButton(ctx, move, { class: "move-here", "data-level": level, "aria-label": ctx.t("gluckauf.act.move_cage", { level: levelName(ctx, level) }) }, "⇅ ", level === 0 ? ctx.t("gluckauf.surface_short") : String(level))
        : null,
      loads.length
        ? h(
            "div",
            { class: "loads" },
            loads.map((a) =>
              actButton(ctx, a, { class: "load-btn", "data-colour": a.colour, "aria-label": ctx.t("gluckauf.act.load_cube", { colour: colourName(ctx, a.colour) }) }, "↑", cube(ctx, a.colour)),
            ),
          )
        : null,
    );
  };
  const stores = mine ? COLOURS.map((c) => actions.get(`store:${c}`)).filter(Boolean) : [];
  const surface = h(
    "div",
    { class: "pit-row surface", "data-level": 0 },
    h(
      "div",
      { class: "side storage", "data-flip": `ga-storage-${player.seat}`, role: "group", "aria-label": ctx.t("gluckauf.storage") },
      h("span", { class: "row-label" }, ctx.t("gluckauf.storage")),
      h("span", { class: "storage-cubes" }, player.storage.length ? seatCubes(ctx, player.seat, "store", player.storage) : h("span", { class: "muted-label" }, "—")),
      stores.length
        ? h(
            "span",
            { class: "stores" },
            stores.map((a) => actButton(ctx, a, { class: "store-btn", "data-colour": a.colour, "aria-label": ctx.t("gluckauf.act.store_cube", { colour: colourName(ctx, a.colour) }) }, "↓", cube(ctx, a.colour))),
          )
        : null,
    ),
    shaft(0),
    h("div", { class: "side surface-label" }, h("span", { class: "row-label" }, ctx.t("gluckauf.surface_short"))),
  );
  const levels = [1, 2, 3, 4].map((level) =>
    h(
      "div",
      { class: ["pit-row", `lvl-${level}`, `c-${COLOURS[level - 1]}`], "data-level": level },
      h("div", { class: "side light", role: "group", "aria-label": ctx.t("gluckauf.side_of_level", { side: ctx.t("gluckauf.side.light"), n: level }) }, h("span", { class: "row-label" }, `${level} ${LIGHT}`), byLevel[level].light),
      shaft(level),
      h("div", { class: "side dark", role: "group", "aria-label": ctx.t("gluckauf.side_of_level", { side: ctx.t("gluckauf.side.dark"), n: level }) }, byLevel[level].dark, h("span", { class: "row-label" }, `${DARK} ${level}`)),
    ),
  );
  return h(
    "div",
    { class: "pit", role: "group", "aria-label": ctx.t("gluckauf.pit_of", { name: ctx.seatName(player.seat) }) },
    h("div", { class: "pit-head", "aria-hidden": "true" }, h("span", null, `${LIGHT} ${ctx.t("gluckauf.side.light")}`), h("span", null, ctx.t("gluckauf.shaft")), h("span", null, `${ctx.t("gluckauf.side.dark")} ${DARK}`)),
    surface,
    levels,
    h(
      "div",
      { class: ["balance", player.light_tiles !== player.dark_tiles ? "uneven" : ""] },
      ctx.t("gluckauf.balance", { light: player.light_tiles, dark: player.dark_tiles }),
    ),
  );
}

function outstandingOrders(ctx, player, actions, mine) {
  const orders = [...player.orders].sort((a, b) => a.order.id - b.order.id);
  return h(
    "div",
    { class: "orders-area" },
    h("h4", null, ctx.t("gluckauf.outstanding", { n: orders.length })),
    orders.length
      ? h(
          "div",
          { class: "order-row" },
          orders.map((o) => {
            const chips = [];
            if (mine) {
              for (const c of COLOURS) {
                const unload = actions.get(`unload:${o.order.id}:${c}`);
                const stored = actions.get(`stored:${o.order.id}:${c}`);
                const tfo = actions.get(`tfo:${o.order.id}:${c}`);
                if (unload) chips.push(actButton(ctx, unload, { class: "chip", "data-colour": c, "data-order": o.order.id, "aria-label": ctx.t("gluckauf.act.unload_cube", { colour: colourName(ctx, c), order: o.order.code }) }, cube(ctx, c), ctx.t("gluckauf.chip.from_cage")));
                if (stored) chips.push(actButton(ctx, stored, { class: "chip", "data-colour": c, "data-order": o.order.id, "aria-label": ctx.t("gluckauf.act.place_stored_cube", { colour: colourName(ctx, c), order: o.order.code }) }, cube(ctx, c), ctx.t("gluckauf.chip.from_storage")));
                if (tfo) chips.push(actButton(ctx, tfo, { class: "chip tfo", "data-colour": c, "data-order": o.order.id, "aria-label": ctx.t("gluckauf.act.start_two_for_one", { colour: colourName(ctx, c), order: o.order.code }) }, cube(ctx, c), ctx.t("gluckauf.chip.two_for_one")));
              }
            }
            return orderCard(ctx, o.order, o.spots, {
              seat: player.seat,
              class: mine ? "mine" : "",
              after: chips.length ? h("span", { class: "chips" }, chips) : null,
            });
          }),
        )
      : h("p", { class: "muted-label" }, ctx.t("gluckauf.no_orders")),
  );
}

function deliveredOrders(ctx, player, viewer) {
  const mine = player.seat === viewer;
  return h(
    "div",
    { class: "delivered-area", "data-count": player.delivered_count, "data-flip": `ga-delivered-${player.seat}` },
    h("h4", null, ctx.t("gluckauf.delivered", { n: player.delivered_count })),
    player.delivered === null || player.delivered === undefined
      ? h("p", { class: "muted-label hidden-pile" }, ctx.t("gluckauf.delivered_hidden", { n: player.delivered_count }))
      : player.delivered.length
        ? h(
            "div",
            { class: "order-row delivered" },
            player.delivered.map((o) => orderCard(ctx, o, o.spots.map((c) => [c]), { class: "small", delivered: true })),
            mine ? h("span", { class: "private-note" }, ctx.t("gluckauf.delivered_private")) : null,
          )
        : h("p", { class: "muted-label" }, ctx.t("gluckauf.none_yet")),
  );
}

function playerPanel(ctx, view, player, actions, { mine, toAct }) {
  const name = ctx.seatName(player.seat);
  return h(
    "section",
    {
      class: ["ga-player", `s-${player.seat}`, mine ? "is-me" : "", toAct ? "to-act" : ""],
      "data-seat": player.seat,
      "data-flip-frame": `ga-p-${player.seat}`,
      "aria-label": name,
    },
    h(
      "header",
      { class: "ga-player-head" },
      worker(ctx, player.seat, 1, { class: "badge" }),
      h("span", { class: "ga-name" }, name),
      mine ? h("span", { class: "tag" }, ctx.t("gluckauf.you")) : null,
      view.starting_player === player.seat ? h("span", { class: "start-marker", title: ctx.t("gluckauf.starting_player") }, "⚑") : null,
      toAct ? h("span", { class: "turn-dot", title: ctx.t("gluckauf.to_act") }, "▶") : null,
      h("span", { class: "ga-vp", title: ctx.t("gluckauf.vp_long") }, ctx.t("gluckauf.vp_short", { n: player.vp })),
    ),
    h(
      "dl",
      { class: "ga-stats" },
      h("div", { class: "stat money", "data-flip": `ga-money-${player.seat}` }, h("dt", null, ctx.t("gluckauf.money")), h("dd", null, money(ctx, player.money))),
      h("div", { class: "stat workers", "data-flip": `ga-supply-${player.seat}` }, h("dt", null, ctx.t("gluckauf.in_supply")), h("dd", null, String(player.supply))),
      h("div", { class: "stat canteen" }, h("dt", null, ctx.t("gluckauf.in_canteen")), h("dd", null, String(player.canteen))),
      h("div", { class: "stat bank" }, h("dt", null, ctx.t("gluckauf.at_bank")), h("dd", null, String(view.bank[player.seat] || 0))),
    ),
    h(
      "div",
      { class: "ga-player-body" },
      pit(ctx, view, player, actions, mine),
      h("div", { class: "ga-orders" }, outstandingOrders(ctx, player, actions, mine), deliveredOrders(ctx, player, view.viewer)),
    ),
  );
}

// ------------------------------------------------------------------ the decision being taken

function stepPips(total, left) {
  return h(
    "span",
    { class: "pips", "aria-hidden": "true" },
    Array.from({ length: total }, (_, i) => h("span", { class: ["pip", i < left ? "left" : "used"] })),
  );
}

function decisionPanel(ctx, picture, actions, figure = false) {
  const view = picture.view;
  const legal = picture.legal_actions || [];
  const myTurn = legal.length > 0;
  const active = view.active;
  if (view.phase === "over") return null;
  const parts = [];
  let title;
  let hint = null;
  const steps = [];
  const phase = view.phase;
  if (phase === "draft") {
    title = ctx.t(myTurn ? "gluckauf.q.draft" : "gluckauf.w.draft", { name: ctx.seatName(active) });
    hint = ctx.t("gluckauf.h.draft");
  } else if (phase === "place") {
    title = ctx.t(myTurn ? "gluckauf.q.place" : "gluckauf.w.place", { name: ctx.seatName(active) });
    if (myTurn) hint = ctx.t("gluckauf.h.place", { n: legal.length });
  } else if (phase === "mining" || phase === "two_for_one") {
    const m = view.mining;
    const total = Number(String(m.space).split("-")[1]) || m.steps_left;
    title = ctx.t(myTurn ? "gluckauf.q.mining" : "gluckauf.w.mining", { name: ctx.seatName(active) });
    parts.push(
      h(
        "div",
        { class: "mining-steps", "data-steps-left": m.steps_left },
        stepPips(total, m.steps_left),
        h("span", { class: "steps-left" }, ctx.t("gluckauf.steps_left", { n: m.steps_left, total })),
      ),
    );
    if (phase === "two_for_one") {
      parts.push(
        h(
          "div",
          { class: "tfo-state" },
          ctx.t("gluckauf.tfo_state", {
            colour: colourName(ctx, m.two_for_one_colour),
            order: orderOf(m.two_for_one_order).code,
            n: m.two_for_one_cubes.length,
          }),
          m.two_for_one_cubes.map((c) => cube(ctx, c)),
        ),
      );
      if (myTurn) {
        parts.push(
          h(
            "div",
            { class: "choices" },
            legal
              .filter((a) => a.type === "add_cube")
              .map((a) =>
                actButton(ctx, a, { class: "btn choice", "data-source": a.source, "data-colour": a.colour }, cube(ctx, a.colour), ctx.t(`gluckauf.act.add_cube_${a.source}`, { colour: colourName(ctx, a.colour) })),
              ),
          ),
        );
      }
    }
    if (myTurn) {
      hint = ctx.t(phase === "two_for_one" ? "gluckauf.h.two_for_one" : "gluckauf.h.mining");
      const stop = actions.get("stop");
      if (stop) parts.push(actButton(ctx, stop, { class: "btn btn-primary stop-mining" }, ctx.t("gluckauf.stop_mining", { n: m.steps_left })));
    }
  } else if (phase === "choose_coal") {
    title = ctx.t(myTurn ? "gluckauf.q.choose_coal" : "gluckauf.w.choose_coal", { name: ctx.seatName(active) });
    if (view.shortage) hint = ctx.t("gluckauf.h.choose_coal", { tile: tileName(ctx, view.shortage.tile.id), n: view.shortage.carts_waiting });
    if (myTurn) {
      parts.push(
        h(
          "div",
          { class: "choices" },
          legal.filter((a) => a.type === "choose_coal").map((a) => actButton(ctx, a, { class: "btn choice", "data-colour": a.colour }, cube(ctx, a.colour), colourName(ctx, a.colour))),
        ),
      );
    }
  } else if (["keep", "choose_end", "return"].includes(phase)) {
    const d = view.draw;
    const kind = d.kind;
    steps.push(["keep", phase === "keep" ? "now" : "done"], ["end", phase === "choose_end" ? "now" : phase === "return" ? "done" : "next"], ["return", phase === "return" ? "now" : "next"]);
    title = ctx.t(myTurn ? `gluckauf.q.${phase}` : `gluckauf.w.${phase}`, { name: ctx.seatName(active), n: d.count, what: ctx.t(`gluckauf.kind.${kind}`) });
    if (d.kept_chosen) {
      parts.push(h("p", { class: "kept" }, d.kept ? ctx.t("gluckauf.kept", { item: itemName(ctx, kind, d.kept.id) }) : ctx.t("gluckauf.kept_none")));
    }
    if (d.end) parts.push(h("p", { class: "kept" }, ctx.t(`gluckauf.end_is.${d.end}`)));
    if (d.drawn) {
      // The acting seat: the drawn items, each a button when that choice is legal now.
      const returned = d.returned || [];
      parts.push(
        h(
          "div",
          { class: ["drawn", `kind-${kind}`] },
          d.drawn.map((item) => {
            const keep = actions.get(`keep:${item.id}`);
            const ret = actions.get(`return:${item.id}`);
            const action = keep || ret;
            const face = kind === "tile" ? tileFace(ctx, item, null, { cost: item.cost }) : orderCard(ctx, item, null);
            const pos = returned.indexOf(item.id);
            const badge = d.kept && d.kept.id === item.id ? h("span", { class: "drawn-badge kept-badge" }, ctx.t("gluckauf.kept_badge")) : pos >= 0 ? h("span", { class: "drawn-badge" }, ctx.t("gluckauf.returned_pos", { n: pos + 1 })) : null;
            const label = keep
              ? ctx.t("gluckauf.act.keep_item", { item: itemName(ctx, kind, item.id) })
              : ret
                ? ctx.t("gluckauf.act.return_item", { item: itemName(ctx, kind, item.id) })
                : itemName(ctx, kind, item.id);
            if (action) return actButton(ctx, action, { class: "drawn-item", "data-item": item.id, "aria-label": label }, face, badge);
            return h("div", { class: "drawn-item", role: "group", "data-item": item.id, "aria-label": label }, face, badge);
          }),
        ),
      );
    } else {
      parts.push(h("p", { class: "muted-label" }, ctx.t("gluckauf.draw_secret", { n: d.count, what: ctx.t(`gluckauf.kind.${kind}`), returned: d.returned_count })));
    }
    if (myTurn) {
      const none = actions.get("keep:none");
      const top = actions.get("end:top");
      const bottom = actions.get("end:bottom");
      const row = [];
      if (none) row.push(actButton(ctx, none, { class: "btn keep-none" }, ctx.t("gluckauf.act.keep_none")));
      if (top) row.push(actButton(ctx, top, { class: "btn end-btn", "data-end": "top" }, "⤒ ", ctx.t("gluckauf.act.end_top")));
      if (bottom) row.push(actButton(ctx, bottom, { class: "btn end-btn", "data-end": "bottom" }, "⤓ ", ctx.t("gluckauf.act.end_bottom")));
      if (row.length) parts.push(h("div", { class: "choices" }, row));
      hint = ctx.t(`gluckauf.h.${phase}`);
    }
  } else {
    title = ctx.t("gluckauf.w.place", { name: ctx.seatName(active) });
  }
  return h(
    "section",
    { class: ["ga-decision", myTurn ? "mine" : "others", `phase-${phase}`], "data-phase": phase, "data-decision": figure ? null : "", "aria-live": figure ? null : "polite" },
    h("h3", null, title),
    steps.length
      ? h(
          "ol",
          { class: "steps" },
          steps.map(([k, st]) => h("li", { class: st }, ctx.t(`gluckauf.step.${k}`))),
        )
      : null,
    hint ? h("p", { class: "hint" }, hint) : null,
    parts,
  );
}

function draftArea(ctx, view, actions) {
  if (!view.draft_display.length) return null;
  return h(
    "section",
    { class: "ga-draft", "data-flip-frame": "ga-draft", "aria-label": ctx.t("gluckauf.draft_display") },
    h("h3", null, ctx.t("gluckauf.draft_display")),
    h(
      "div",
      { class: "order-row" },
      view.draft_display.map((o) => {
        const a = actions.get(`draft:${o.id}`);
        if (a) offered.add(a);
        return a
          ? orderCard(ctx, o, null, { tag: "button", attrs: { type: "button", "data-ga-action": "draft_order", disabled: ctx.pending, onclick: () => ctx.act(a), class: "legal" }, label: ctx.t("gluckauf.act.draft_order", { order: orderName(ctx, o.id) }), title: actionHint(ctx, a) })
          : orderCard(ctx, o, null);
      }),
    ),
  );
}

// ------------------------------------------------------------------ scoring categories, final

function categoryCount(cat, player) {
  if (cat.kind === "empty") return player.empty_carts[cat.key];
  if (!player.delivered) return null;
  let n = 0;
  for (const o of player.delivered) {
    if (cat.kind === "colour") n += o.spots.filter((c) => c === cat.key).length;
    else if (o.transport === cat.key) n += o.spots.length;
  }
  return n;
}

function categoriesTable(ctx, view) {
  const scored = new Set(view.scored_categories);
  const seats = view.players;
  const details = h(
    "details",
    // A shift scored: its categories come into view (table.js, data-scored).
    { class: "ga-categories", "data-scored": scored.size ? `scored-${scored.size}` : null },
    h("summary", null, ctx.t("gluckauf.categories_title", { shift: roman(view.shift) })),
    h(
      "div",
      { class: "table-scroll", tabindex: 0 },
      h(
        "table",
        null,
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            h("th", { scope: "col" }, "#"),
            h("th", { scope: "col" }, ctx.t("gluckauf.category")),
            h("th", { scope: "col" }, ctx.t("gluckauf.first")),
            h("th", { scope: "col" }, ctx.t("gluckauf.second")),
            h("th", { scope: "col" }, ctx.t("gluckauf.from_shift")),
            seats.map((p) => h("th", { scope: "col", class: `s-${p.seat}` }, worker(ctx, p.seat), " ", ctx.seatName(p.seat))),
          ),
        ),
        h(
          "tbody",
          null,
          CATEGORIES.map((cat) =>
            h(
              "tr",
              { class: [scored.has(cat.number) ? "scored" : "later"], "data-category": cat.number },
              h("th", { scope: "row" }, String(cat.number)),
              h(
                "td",
                { class: "cat-what" },
                cat.kind === "transport" ? icon(cat.key) : cube(ctx, cat.key, { class: cat.kind === "empty" ? "hollow" : "" }),
                ctx.t(`gluckauf.cat.${cat.kind}`, { colour: colourName(ctx, cat.key), transport: transportName(ctx, cat.key) }),
              ),
              h("td", null, String(cat.first)),
              h("td", null, view.n_players === 2 ? "—" : String(cat.second)),
              h("td", null, roman(cat.from)),
              seats.map((p) => {
                const n = categoryCount(cat, p);
                return h("td", { class: "count" }, n === null ? "?" : String(n));
              }),
            ),
          ),
        ),
      ),
    ),
    h("p", { class: "muted-label small" }, view.n_players === 2 ? ctx.t("gluckauf.two_player_note") : ctx.t("gluckauf.ties_note")),
  );
  // A reference panel: open on a wide screen, a one-line summary on a phone (fold.js).
  return keepOpen(details, "ga-categories", (phone) => !phone);
}

function finalTable(ctx, view) {
  if (!view.final) return null;
  const rows = ["money_vp", "coal_vp", "order_penalty", "imbalance_penalty", "money_left", "total"];
  return h(
    "section",
    { class: "ga-final", "data-testid": "gluckauf-final" },
    h("h3", null, ctx.t("gluckauf.final_title")),
    h(
      "div",
      { class: "table-scroll", tabindex: 0 },
      h(
        "table",
        null,
        h("thead", null, h("tr", null, h("td", { class: "corner" }), view.players.map((p) => h("th", { scope: "col" }, worker(ctx, p.seat), " ", ctx.seatName(p.seat))))),
        h(
          "tbody",
          null,
          rows.map((r) =>
            h(
              "tr",
              { class: `row-${r}` },
              h("th", { scope: "row" }, ctx.t(`gluckauf.final.${r}`)),
              view.final.map((f) => {
                const v = f[r];
                const text = r === "money_left" || r === "total" || v <= 0 ? String(v) : `+${v}`;
                return h("td", { class: v < 0 ? "minus" : "" }, text);
              }),
            ),
          ),
        ),
      ),
    ),
  );
}

function helpBox(ctx) {
  const details = h(
    "details",
    { class: "ga-help" },
    h("summary", null, ctx.t("gluckauf.help.title")),
    h(
      "ul",
      null,
      ["goal", "place", "factory", "mining", "orders", "scoring", "end"].map((k) => h("li", null, ctx.t(`gluckauf.help.${k}`))),
    ),
  );
  return keepOpen(details, "ga-help", false);
}

/** The one line of another player's folded area on a phone: who, VP, money, workers, orders. */
function playerLine(ctx, view, player, toAct) {
  return [
    worker(ctx, player.seat, 1, { class: "badge" }),
    " ",
    h("b", { class: "ga-name" }, ctx.seatName(player.seat)),
    view.starting_player === player.seat ? h("span", { class: "start-marker", title: ctx.t("gluckauf.starting_player") }, " ⚑") : null,
    toAct ? h("span", { class: "turn-dot", title: ctx.t("gluckauf.to_act") }, " ▶") : null,
    " · ",
    ctx.t("gluckauf.fold_line", {
      vp: player.vp,
      money: player.money,
      workers: player.supply,
      orders: player.orders.length,
    }),
    player.delivered_count ? ` · ${ctx.t("gluckauf.fold_delivered", { n: player.delivered_count })}` : null,
  ];
}

// ------------------------------------------------------------------ render

export function render(root, picture, ctx) {
  const view = picture.view;
  const actions = indexActions(picture);
  const viewer = view.viewer;
  const n = view.n_players;
  const toAct = new Set(picture.status === "playing" ? picture.to_act : []);
  const order = Array.from({ length: n }, (_, i) => ((viewer ?? 0) + i) % n);
  const players = new Map(view.players.map((p) => [p.seat, p]));
  // A figure of the rules page (it carries a name and caption): the same board, without the
  // table's turn anchor, live region and help box.
  const figure = picture.name !== undefined || picture.caption !== undefined;
  offered = new Set();
  shown = view;
  // On a phone, the other players' areas are one-line summaries that open on a tap (fold.js).
  const panels = order.map((seat) => {
    const panel = playerPanel(ctx, view, players.get(seat), actions, { mine: seat === viewer, toAct: toAct.has(seat) });
    if (seat === viewer || figure) return panel;
    return fold(`ga-p-${seat}`, playerLine(ctx, view, players.get(seat), toAct.has(seat)), panel, { class: `ga-fold s-${seat}` });
  });
  const board = boardArea(ctx, view, actions);
  const draft = draftArea(ctx, view, actions);
  const decision = decisionPanel(ctx, picture, actions, figure);
  // Anything legal that no part of the board offers (never expected): a plain button each.
  const rest = (picture.legal_actions || []).filter((a) => !offered.has(a));
  if (decision && rest.length) {
    decision.append(
      h(
        "div",
        { class: "choices fallback" },
        rest.map((a) => actButton(ctx, a, { class: "btn" }, Object.values(a).map(String).join(" "))),
      ),
    );
  }
  fill(
    root,
    h(
      "div",
      {
        class: ["gluckauf", `phase-${view.phase}`, viewer === null ? "spectator" : "", `n-${n}`, picture.legal_actions?.length ? "my-turn" : "", figure ? "ga-figure" : ""],
        "data-phase": view.phase,
        "data-shift": view.shift,
        "data-version": picture.version,
      },
      statusBar(ctx, view),
      decision,
      finalTable(ctx, view),
      draft,
      board,
      h("div", { class: "ga-players" }, panels),
      h("div", { class: "ga-extras" }, categoriesTable(ctx, view), figure ? null : helpBox(ctx)),
    ),
  );
}

/** Per-seat VP for the shell's seat list. */
export function scores(view) {
  if (!view?.players) return null;
  if (view.final) return view.final.map((f) => f.total);
  return view.players.map((p) => p.vp);
}

// ------------------------------------------------------------------ log

/** A seat's colour on the board (its workers'), for the shell's last-move marks. */
export function seatColour(seat) {
  return `var(--s${seat})`;
}

/** What a move touched on the board (its data-flip keys), for the shell's last-move marks. */
export function lastMove(event) {
  const seat = event.seat;
  if (typeof seat !== "number") return null;
  const keys = {
    worker_placed: [`ga-w-${event.space}-${seat}`],
    tile_bought: [`ga-tile-${event.tile}`],
    order_taken: [`ga-order-${event.card}`],
    order_drafted: [`ga-order-${event.card}`],
    money_gained: [`ga-money-${seat}`],
    cage_moved: [`ga-cage-${seat}`],
    cube_loaded: [`ga-cage-${seat}`],
    cube_unloaded: [`ga-order-${event.order}`],
    cube_stored: [`ga-storage-${seat}`],
    stored_cube_placed: [`ga-order-${event.order}`],
    two_for_one_started: [`ga-order-${event.order}`],
    cube_added: [event.source === "cage" ? `ga-cage-${seat}` : `ga-storage-${seat}`],
    orders_delivered: [`ga-delivered-${seat}`],
  }[event.type];
  return keys ? { seat, keys } : null;
}
