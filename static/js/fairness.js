// The fairness panel of a table and of its replay: the seed's commitment, published before
// the first move, and once the game is over the secret with the command that checks it.

import { h, fill, toast, copyText } from "./dom.js";
import { t } from "./i18n.js";

/** Fill `panel` with the commitment `hex` of table `tableId`; with `secret` (a finished game)
 *  the way to verify it, else `pending` (a line saying when it comes) when asked for. */
export function fillFairPanel(panel, tableId, hex, secret, { pending = false } = {}) {
  const command = `python -m app.verify ${location.origin}/api/v1/tables/${tableId} --commitment ${hex}`;
  let after = null;
  if (secret) {
    after = h(
      "details",
      { class: "fair-verify", "data-testid": "fair-verify" },
      h("summary", null, t("fair.verify")),
      h("p", { class: "small" }, t("fair.secret"), " ", h("code", { class: "fair-secret" }, secret)),
      h("p", { class: "small" }, t("fair.verify_hint")),
      h("pre", { class: "fair-command" }, h("code", null, command)),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-link",
          onclick: async () => {
            const ok = await copyText(command);
            toast(ok ? t("fair.copied") : command, ok ? "info" : "error");
          },
        },
        t("fair.copy"),
      ),
    );
  } else if (pending) {
    after = h("p", { class: "hint" }, t("fair.hint"));
  }
  fill(
    panel,
    h(
      "p",
      { class: "fair-line" },
      h("span", { class: "fair-icon", "aria-hidden": "true" }, "⚖"),
      h("strong", null, t("fair.title")),
      " ",
      t("fair.commitment"),
      " ",
      h("code", { class: "fair-hash", title: hex, "data-testid": "seed-commitment" }, `${hex.slice(0, 12)}…`),
    ),
    after,
  );
}
