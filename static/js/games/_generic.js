// The fallback renderer: the view as a readable tree and every legal action as a button.
// Any game is playable in the browser with it before its own renderer exists.

import { h, fill } from "../dom.js";

function label(key) {
  return String(key).replace(/_/g, " ");
}

function tree(value, depth = 0) {
  if (value === null || value === undefined) return h("span", { class: "tree-null" }, "—");
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "tree-null" }, "[ ]");
    if (value.every((v) => v === null || typeof v !== "object")) {
      return h("span", { class: "tree-scalar" }, value.map((v) => (v === null ? "—" : String(v))).join(", "));
    }
    return h(
      "ol",
      { class: "tree-list", start: 0 },
      value.map((v) => h("li", null, tree(v, depth + 1))),
    );
  }
  if (typeof value === "object") {
    const entries = Object.entries(value);
    return h(
      "dl",
      { class: "tree-map" },
      entries.map(([k, v]) => {
        const nested = v !== null && typeof v === "object" && (Array.isArray(v) ? v.some((x) => x && typeof x === "object") : true);
        if (nested && depth >= 1) {
          return [h("dt", null, label(k)), h("dd", null, h("details", null, h("summary", null, "…"), tree(v, depth + 1)))];
        }
        return [h("dt", null, label(k)), h("dd", null, tree(v, depth + 1))];
      }),
    );
  }
  return h("span", { class: `tree-${typeof value}` }, String(value));
}

export function actionText(action) {
  const rest = Object.entries(action)
    .filter(([k]) => k !== "type")
    .map(([k, v]) => `${label(k)}: ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${label(action.type || "action")}${rest.length ? ` (${rest.join(", ")})` : ""}`;
}

export function render(root, picture, ctx) {
  const actions = picture.legal_actions || [];
  fill(root, 
    h(
      "div",
      { class: "generic-board" },
      actions.length
        ? h(
            "section",
            { class: "generic-actions", "data-decision": "", "aria-label": ctx.t("generic.actions") },
            h("h2", null, ctx.t("generic.actions")),
            h(
              "div",
              { class: "action-buttons" },
              actions.map((action, index) =>
                h(
                  "button",
                  {
                    type: "button",
                    class: "btn legal",
                    "data-action-index": index,
                    disabled: ctx.pending,
                    onclick: () => ctx.act(action),
                  },
                  actionText(action),
                ),
              ),
            ),
          )
        : null,
      h("section", { class: "generic-view" }, h("h2", null, ctx.t("generic.view")), tree(picture.view)),
    ),
  );
}

export function describeEvent(event, ctx) {
  const who = typeof event.seat === "number" ? `${ctx.seatName(event.seat)}: ` : "";
  const rest = Object.entries(event)
    .filter(([k]) => !["type", "version", "actor", "seat"].includes(k))
    .map(([k, v]) => `${label(k)} ${typeof v === "object" ? JSON.stringify(v) : v}`);
  return `${who}${label(event.type)}${rest.length ? ` — ${rest.join(", ")}` : ""}`;
}
