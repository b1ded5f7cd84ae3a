// The host's admin page: a thin client of /api/v1/admin (bearer PARTIDA_ADMIN_TOKEN).
// The token stays in this tab only (sessionStorage).

import { applyI18n, initI18n, mountLangSwitch, onLangChange, t, usePageStrings } from "./i18n.js";
import { h, toast } from "./dom.js";
import { ApiError } from "./api.js";
import { errorText } from "./common.js";

const TOKEN_KEY = "partida.admin_token";
const $ = (id) => document.getElementById(id);

async function admin(method, path, body) {
  const response = await fetch(`/api/v1/admin${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${sessionStorage.getItem(TOKEN_KEY) || ""}`,
      ...(body ? { "Content-Type": "application/json" } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status === 204) return null;
  const data = await response.json().catch(() => ({}));
  if (!response.ok) {
    throw new ApiError(response.status, data?.error);
  }
  return data;
}

function fail(err) {
  if (err.code === "unauthorized" || err.code === "forbidden") {
    sessionStorage.removeItem(TOKEN_KEY);
    $("admin-tables").hidden = $("admin-players").hidden = true;
    $("admin-login").hidden = false;
  }
  const box = $("admin-error");
  box.textContent = errorText(err);
  box.hidden = false;
}

function when(iso) {
  return iso ? new Date(iso).toLocaleString() : "";
}

function tableRow(table) {
  const players = table.seats
    .map((s) => (s.player ? s.player.name : s.bot ? t("admin.bot") : "—"))
    .join(", ");
  const actions = h("td", { class: "admin-actions" });
  if (table.status === "playing") {
    actions.append(
      h("button", { class: "btn btn-small", type: "button", onclick: () => endGame(table) }, t("admin.end")),
    );
  }
  actions.append(
    h("button", { class: "btn btn-small btn-danger", type: "button", onclick: () => deleteTable(table) }, t("admin.delete")),
  );
  return h(
    "tr",
    { "data-table": table.id },
    h("td", {}, h("a", { href: `/tables/${table.id}` }, table.id), table.private ? ` 🔒` : ""),
    h("td", {}, table.game),
    h("td", {}, t(`status.${table.status}`)),
    h("td", {}, players),
    h("td", {}, when(table.created_at)),
    actions,
  );
}

function playerRow(player) {
  const rename = async () => {
    const name = prompt(t("admin.rename_prompt"), player.name);
    if (!name) return;
    await admin("PATCH", `/players/${player.id}`, { name }).then(load, fail);
  };
  const block = async () => {
    await admin("PATCH", `/players/${player.id}`, { blocked: !player.blocked }).then(load, fail);
  };
  return h(
    "tr",
    { "data-player": player.id },
    h("td", {}, h("a", { href: `/players/${player.id}` }, player.name)),
    h("td", {}, player.blocked ? t("admin.blocked") : t("admin.active")),
    h(
      "td",
      { class: "admin-actions" },
      h("button", { class: "btn btn-small", type: "button", onclick: rename }, t("admin.rename")),
      h("button", { class: "btn btn-small btn-danger", type: "button", onclick: block },
        player.blocked ? t("admin.unblock") : t("admin.block")),
    ),
  );
}

async function endGame(table) {
  if (!confirm(t("admin.end_confirm", { id: table.id }))) return;
  await admin("POST", `/tables/${table.id}/end`).then(load, fail);
}

async function deleteTable(table) {
  if (!confirm(t("admin.delete_confirm", { id: table.id }))) return;
  await admin("DELETE", `/tables/${table.id}`).then(load, fail);
}

async function load() {
  try {
    const [tables, players] = await Promise.all([admin("GET", "/tables"), admin("GET", "/players")]);
    $("admin-error").hidden = true;
    $("admin-login").hidden = true;
    $("admin-tables").hidden = $("admin-players").hidden = false;
    $("tables-body").replaceChildren(...tables.map(tableRow));
    $("players-body").replaceChildren(...players.map(playerRow));
  } catch (err) {
    fail(err);
  }
}

async function main() {
  usePageStrings("admin");
  await initI18n();
  mountLangSwitch($("lang-switch"));
  onLangChange(() => {
    applyI18n(document);
    if (sessionStorage.getItem(TOKEN_KEY)) load();
  });
  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
    load();
  });
  $("refresh").addEventListener("click", load);
  $("prune-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const before = new Date(`${$("prune-date").value}T00:00:00`).toISOString();
    try {
      const { deleted } = await admin("POST", "/prune", { finished_before: before });
      toast(t("admin.pruned", { n: deleted }), "info");
      load();
    } catch (err) {
      fail(err);
    }
  });
  if (sessionStorage.getItem(TOKEN_KEY)) load();
}

main();
