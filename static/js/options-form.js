// The new-table form's game options, built from a game's options_schema (GET /games) and
// worded for players from the i18n files: options.<game>.<name> (label), .help, and
// .<value> for each choice (.null for "nobody chosen": drawn at random). Schema titles and
// descriptions are written for developers (rule sections, "null", "auto/true/false") and never
// reach the page.

import { h } from "./dom.js";
import { t, hasKey } from "./i18n.js";

function resolve(schema, root) {
  if (schema && schema.$ref && schema.$ref.startsWith("#/$defs/")) {
    return root.$defs?.[schema.$ref.slice(8)] || {};
  }
  return schema || {};
}

/** An integer with no upper bound beside a keyword or null: in our games, a seat number. */
function isSeat(schema) {
  return schema.type === "integer" && schema.maximum === undefined && schema.exclusiveMaximum === undefined;
}

/**
 * Read a property schema as {kind, values, seat, none, min, max, integer, default}:
 * kind "boolean" (a checkbox), "choice" (a select of values, and of seats when `seat`), or
 * "number" / "text" (an input). `none` is the keyword (or null) that stands for "nobody
 * chosen" next to a seat.
 */
export function describeOption(raw, root) {
  let prop = resolve(raw, root);
  const fallback = raw.default !== undefined ? raw.default : prop.default;
  const variants = prop.anyOf || prop.oneOf;
  if (variants) {
    const parts = variants.map((v) => resolve(v, root));
    const nullable = parts.some((p) => p.type === "null");
    const rest = parts.filter((p) => p.type !== "null");
    const values = nullable ? [null] : [];
    let seat = false;
    for (const part of rest) {
      if (part.const !== undefined) values.push(part.const);
      else if (part.enum) values.push(...part.enum);
      else if (part.type === "boolean") values.push(true, false);
      else if (isSeat(part)) seat = true;
      else {
        prop = { ...part, ...prop, anyOf: undefined, oneOf: undefined };
        return { ...plain(prop, fallback), nullable };
      }
    }
    return { kind: "choice", values, seat, none: values.length ? values[0] : undefined, default: fallback };
  }
  if (prop.enum || prop.const !== undefined) {
    return { kind: "choice", values: prop.enum || [prop.const], seat: false, default: fallback };
  }
  if (Array.isArray(prop.type)) {
    // {"type": ["integer", "null"]}: the same as an anyOf with null.
    const type = prop.type.find((x) => x !== "null");
    return { ...plain({ ...prop, type }, fallback), nullable: prop.type.includes("null") };
  }
  return plain(prop, fallback);
}

function plain(prop, fallback) {
  if (prop.type === "boolean") return { kind: "boolean", default: fallback };
  if (prop.type === "integer" || prop.type === "number") {
    return {
      kind: "number",
      integer: prop.type === "integer",
      min: prop.minimum ?? (prop.exclusiveMinimum !== undefined ? prop.exclusiveMinimum + 1 : undefined),
      max: prop.maximum ?? (prop.exclusiveMaximum !== undefined ? prop.exclusiveMaximum - 1 : undefined),
      default: fallback,
    };
  }
  return { kind: "text", default: fallback };
}

function text(key, fallback) {
  if (hasKey(key)) return t(key);
  console.warn("an option without words for players", key);
  return fallback;
}

export function optionLabel(gameId, name) {
  return text(`options.${gameId}.${name}`, name.replaceAll("_", " "));
}

function optionHelp(gameId, name) {
  const key = `options.${gameId}.${name}.help`;
  return hasKey(key) ? t(key) : "";
}

/** The words for one choice of an option: true/false/null/"auto" are keys too. */
export function choiceLabel(gameId, name, value) {
  return text(`options.${gameId}.${name}.${value === null ? "null" : String(value)}`, String(value));
}

function seatLabel(seat) {
  return seat === 0 ? t("options.seat_you") : t("options.seat", { n: seat + 1 });
}

/**
 * The inputs of a game's options: {fields: Node[], read(): object, setSeats(n)}.
 * setSeats(n) offers seats 1..n in the seat choices (the table's seat count as chosen).
 */
export function optionsFields(game, seats) {
  const root = game.options_schema || {};
  const props = root.properties || {};
  const readers = [];
  const fields = [];
  const seatSelects = [];
  for (const [name, raw] of Object.entries(props)) {
    const info = describeOption(raw, root);
    const id = `opt-${game.id}-${name}`;
    const label = optionLabel(game.id, name);
    const help = optionHelp(game.id, name);
    const helpNode = help ? h("small", { class: "hint", id: `${id}-help` }, help) : null;
    const described = helpNode ? `${id}-help` : null;
    if (info.kind === "boolean") {
      const box = h("input", { type: "checkbox", id, name, checked: info.default === true, "aria-describedby": described });
      readers.push(() => [name, box.checked]);
      fields.push(h("div", { class: "field field-check", "data-option": name }, h("label", { for: id }, box, " ", label), helpNode));
      continue;
    }
    let input;
    if (info.kind === "choice") {
      // Each option's value is kept as JSON, so that "true", 2 and null come back as they were.
      const option = (value, words) => h("option", { value: JSON.stringify(value) }, words);
      input = h("select", { id, name, "aria-describedby": described });
      const fill = (count) => {
        const current = input.value;
        input.replaceChildren(
          ...info.values.map((v) => option(v, choiceLabel(game.id, name, v))),
          ...(info.seat ? Array.from({ length: count }, (_, seat) => option(seat, seatLabel(seat))) : []),
        );
        const wanted = current !== "" ? current : JSON.stringify(info.default ?? info.none ?? null);
        input.value = [...input.options].some((o) => o.value === wanted) ? wanted : input.options[0]?.value ?? "";
      };
      fill(seats);
      if (info.seat) seatSelects.push(fill);
      readers.push(() => [name, JSON.parse(input.value)]);
    } else if (info.kind === "number") {
      input = h("input", {
        type: "number",
        id,
        name,
        min: info.min,
        max: info.max,
        step: info.integer ? 1 : "any",
        value: info.default ?? "",
        "aria-describedby": described,
      });
      readers.push(() => {
        if (input.value === "") return [name, info.nullable ? null : info.default];
        return [name, info.integer ? parseInt(input.value, 10) : Number(input.value)];
      });
    } else {
      input = h("input", { type: "text", id, name, value: info.default ?? "", "aria-describedby": described });
      readers.push(() => [name, input.value === "" && info.nullable ? null : input.value]);
    }
    fields.push(h("div", { class: "field", "data-option": name }, h("label", { for: id }, label), input, helpNode));
  }
  return {
    fields,
    read: () => Object.fromEntries(readers.map((r) => r()).filter(([, v]) => v !== undefined)),
    setSeats: (count) => seatSelects.forEach((fill) => fill(count)),
  };
}

// ------------------------------------------------------------------ whole choices

/** The width a select leaves its chosen text (its box less padding and the arrow). */
const ARROW_PX = 20;
let measure = null;

function textWidth(text, font) {
  measure ??= document.createElement("canvas").getContext("2d");
  measure.font = font;
  return measure.measureText(text).width;
}

function fits(select) {
  const option = select.selectedOptions[0];
  if (!option || !select.clientWidth) return true;
  const style = getComputedStyle(select);
  const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - ARROW_PX;
  return textWidth(option.text, style.font) <= room;
}

/**
 * A closed select shows its chosen option on one line and cuts what does not fit ("los
 * demás pueden votar para pas…"): under every select of `form` whose chosen text is cut,
 * the whole text on a line of its own (issue 35.8). The select keeps its name for screen
 * readers; the line is for the eyes only. Follows every change, a new select, a resize.
 */
export function wholeChoices(form) {
  let queued = false;
  const update = () => {
    queued = false;
    for (const select of form.querySelectorAll("select")) {
      let line = select.nextElementSibling?.classList.contains("choice-whole") ? select.nextElementSibling : null;
      const cut = select.getClientRects().length > 0 && !fits(select);
      if (!cut) {
        line?.remove();
        continue;
      }
      if (!line) {
        line = h("span", { class: "choice-whole", "aria-hidden": "true", "data-testid": "choice-whole" });
        select.after(line);
      }
      const text = select.selectedOptions[0]?.text || "";
      if (line.textContent !== text) line.textContent = text;
    }
  };
  const later = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(update);
  };
  form.addEventListener("change", later);
  form.addEventListener("toggle", later, true); // a <details> opened: its selects now have a width
  new ResizeObserver(later).observe(form);
  new MutationObserver((records) => {
    if (records.some((r) => [...r.addedNodes, ...r.removedNodes].some((n) => !n.classList?.contains("choice-whole")))) later();
  }).observe(form, { childList: true, subtree: true });
  later();
}
