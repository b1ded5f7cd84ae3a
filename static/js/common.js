// Pieces shared by the lobby and the table page: header, name form, error text, seat names.

import { identity, register, clearIdentity } from "./api.js";
import { h, toast } from "./dom.js";
import { t, hasKey, mountLangSwitch, onLangChange, currentLang } from "./i18n.js";

/** A refusal in the page's language: error.<code>.<reason>, else error.<code>, filled with
 * the envelope's params (API-EXTENSIONS.md). The server's English message only goes to the
 * console: a code this page does not know reads as error.generic. `err` is an ApiError (the
 * envelope in .details) or the envelope's error object itself (a WebSocket error frame). */
export function errorText(err) {
  const body = err?.details && typeof err.details === "object" ? err.details : err || {};
  const code = err?.code || body.code || "generic";
  const params = { ...(body.params || {}) };
  if (typeof params.field === "string") params.field = fieldName(params.field);
  const keys = [body.reason ? `error.${code}.${body.reason}` : null, `error.${code}`];
  const key = keys.find((k) => k && hasKey(k));
  if (!key) console.warn("an error this page cannot word", code, body.reason, err?.message);
  const text = t(key || "error.generic", params);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a validation error names (params.field: "name", "options.first_player"…), for people. */
function fieldName(path) {
  const key = `error.field.${path || "value"}`;
  return hasKey(key) ? t(key) : path;
}

export function showError(err) {
  toast(errorText(err), "error");
}

/** The display name of a seat of a table picture (`table` as in GET /tables/{id}). */
export function seatName(table, seat) {
  const info = table?.seats?.[seat];
  if (!info) return t("seat.number", { n: seat + 1 });
  if (info.player) return info.player.name;
  if (info.bot) return t("seat.bot", { n: seat + 1, level: levelName(info.bot_level) });
  return t("seat.empty", { n: seat + 1 });
}

/** The name of the player (or bot) at a seat of the table, null for a seat the table does
 *  not have (a game's own participant, like MINE!'s dummy director): what log lines name. */
export function playerName(table, seat) {
  return table?.seats?.[seat] ? seatName(table, seat) : null;
}

export function levelName(level) {
  if (!level) return "";
  const key = `bot.level.${level}`;
  return hasKey(key) ? t(key) : level;
}

/** What a player can expect of a bot level, in one line ("" for a level we cannot word). */
export function levelHint(level) {
  const key = `bot.hint.${level}`;
  return level && hasKey(key) ? t(key) : "";
}

/** The level a bot gets when nobody chooses: the game's `default_bot_level` when the
 *  catalog names one, else "normal" when the game lists it, else its first level. */
export function defaultLevel(levels, named = null) {
  if (named && levels.includes(named)) return named;
  return levels.includes("normal") ? "normal" : levels[0] ?? null;
}

/**
 * A select of a game's bot levels, in the server's order, with `value` chosen (else the
 * default: `preferred` when the game names one), and the chosen level's one-line hint for
 * under it; `onChange(level)` hears every change. `hintId` ties the hint to the select for
 * screen readers. Returns {select, hint}.
 */
export function levelPicker(levels, { value = null, preferred = null, id = undefined, hintId, onChange = null } = {}) {
  const hint = h("small", { class: "hint bot-level-hint", id: hintId, "data-testid": "bot-level-hint" });
  const select = h(
    "select",
    { id, class: "bot-level", "aria-label": t("table.bot_level"), "aria-describedby": hintId },
    levels.map((l) => h("option", { value: l, title: levelHint(l) || null }, levelName(l))),
  );
  select.value = levels.includes(value) ? value : defaultLevel(levels, preferred) ?? "";
  const sync = () => {
    hint.textContent = levelHint(select.value);
    select.title = hint.textContent;
  };
  select.addEventListener("change", () => {
    sync();
    onChange?.(select.value);
  });
  sync();
  return { select, hint };
}

export function gameTitle(game) {
  const key = `game.${game.id}.title`;
  return hasKey(key) ? t(key) : game.title || game.id;
}

/** Header: the language switch and who is playing (with a way to change the name). */
export function mountHeader({ onIdentityChange } = {}) {
  mountLangSwitch(document.getElementById("lang-switch"));
  const who = document.getElementById("whoami");
  const draw = () => {
    const me = identity();
    if (!me) {
      who.replaceChildren();
      return;
    }
    // On a phone the bar keeps one line: the bare name and a pencil (readable.css).
    who.replaceChildren(
      h(
        "span",
        { class: "whoami-name", "data-testid": "whoami", title: t("header.playing_as", { name: me.name }) },
        h("span", { class: "whoami-long" }, t("header.playing_as", { name: me.name })),
        h("span", { class: "whoami-short", "aria-hidden": "true" }, me.name),
      ),
      h(
        "button",
        {
          type: "button",
          class: "btn btn-link",
          title: t("header.change_name"),
          onclick: () => {
            if (!confirm(t("header.change_name_confirm"))) return;
            clearIdentity();
            draw();
            onIdentityChange?.(null);
          },
        },
        h("span", { class: "btn-icon", "aria-hidden": "true" }, "✎"),
        h("span", { class: "btn-text" }, t("header.change_name")),
      ),
    );
  };
  draw();
  onLangChange(draw);
  return { redraw: draw };
}

/** A "choose your name" form; calls onDone(player) after the server created the player.
 *  On a private server (403 on creation) it asks for the server's access code as well. */
export function nameForm(onDone) {
  const input = h("input", {
    id: "player-name",
    name: "name",
    required: true,
    maxlength: 40,
    autocomplete: "nickname",
    placeholder: t("name.placeholder"),
  });
  const code = h("input", {
    id: "access-code",
    name: "access_code",
    type: "password",
    maxlength: 200,
    autocomplete: "off",
  });
  const codeField = h(
    "div",
    { class: "field access-code", hidden: true },
    h("label", { for: "access-code" }, t("name.access_code")),
    code,
    h("small", { class: "hint" }, t("name.access_code_hint")),
  );
  const button = h("button", { type: "submit", class: "btn btn-primary" }, t("name.submit"));
  const form = h(
    "form",
    {
      class: "name-form",
      "data-testid": "name-form",
      onsubmit: async (event) => {
        event.preventDefault();
        const name = input.value.trim();
        if (!name) return;
        button.disabled = true;
        try {
          const player = await register(name, code.value.trim() || undefined);
          onDone(player);
        } catch (err) {
          if (err.code === "forbidden" && codeField.hidden) {
            codeField.hidden = false;
            code.focus();
          }
          showError(err);
        } finally {
          button.disabled = false;
        }
      },
    },
    h("label", { for: "player-name" }, t("name.label")),
    h("div", { class: "row" }, input, button),
    codeField,
    h("p", { class: "hint" }, t("name.hint")),
  );
  return form;
}

/** One name form kept across re-renders (typing survives them); rebuilt when the language
 *  changes, keeping what was typed. */
export function stickyNameForm(onDone) {
  let form = null;
  let lang = null;
  return () => {
    if (form && lang === currentLang()) return form;
    const typed = form?.querySelector("#player-name")?.value || "";
    form = nameForm(onDone);
    form.querySelector("#player-name").value = typed;
    lang = currentLang();
    return form;
  };
}
