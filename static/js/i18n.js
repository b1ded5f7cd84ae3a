// Every UI string comes from static/i18n/<lang>.json. Spanish when the browser prefers it,
// English otherwise; the switch on each page is remembered in localStorage.

export const LANGS = ["es", "en"];
const LANG_KEY = "partida.lang";

let lang = "en";
let dict = {};
// The table page adds its game's strings (static/i18n/games/<game>.<lang>.json); a page
// with strings of its own adds static/i18n/pages/<page>.<lang>.json.
let gameId = null;
let pageId = null;
const listeners = new Set();

/** The language to use: the remembered choice, else the browser's first es/en preference. */
export function detectLang() {
  const stored = localStorage.getItem(LANG_KEY);
  if (LANGS.includes(stored)) return stored;
  const prefs = navigator.languages?.length ? navigator.languages : [navigator.language || "en"];
  for (const pref of prefs) {
    const base = String(pref).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export function currentLang() {
  return lang;
}

async function fetchStrings(path, required) {
  const response = await fetch(path, { cache: "no-cache" });
  if (!response.ok) {
    if (required) throw new Error(`cannot load ${path}`);
    return {};
  }
  return response.json();
}

async function load(code) {
  const [base, game, page] = await Promise.all([
    fetchStrings(`/static/i18n/${code}.json`, true),
    gameId ? fetchStrings(`/static/i18n/games/${encodeURIComponent(gameId)}.${code}.json`, false) : {},
    pageId ? fetchStrings(`/static/i18n/pages/${encodeURIComponent(pageId)}.${code}.json`, false) : {},
  ]);
  return { ...base, ...game, ...page };
}

/** Add one page's own strings (static/i18n/pages/<page>.<lang>.json) before initI18n. */
export function usePageStrings(page) {
  pageId = page;
}

/** Add one game's strings to the dictionary (now and after every language switch). */
export async function useGameStrings(game) {
  gameId = game;
  dict = await load(lang);
}

export async function initI18n() {
  lang = detectLang();
  dict = await load(lang);
  document.documentElement.lang = lang;
  applyI18n(document);
}

/** Translate a key; `{name}` placeholders are filled from params, and ICU-like plurals
 *  `{n, plural, one {# card} other {# cards}}` pick their form by Intl.PluralRules of the
 *  page's language (`=0 {…}` matches a number exactly; `#` is the number). Unknown keys show
 *  as is. */
export function t(key, params) {
  const text = Object.prototype.hasOwnProperty.call(dict, key) ? dict[key] : key;
  return params ? formatMessage(text, params, lang) : text;
}

const pluralRules = new Map();

function pluralCategory(code, n) {
  if (!pluralRules.has(code)) pluralRules.set(code, new Intl.PluralRules(code));
  return pluralRules.get(code).select(n);
}

/** The index just past the brace that closes the one at `open` (nested braces counted). */
function closingBrace(text, open) {
  let depth = 0;
  for (let i = open; i < text.length; i += 1) {
    if (text[i] === "{") depth += 1;
    else if (text[i] === "}") {
      depth -= 1;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** A plural's or a select's branches, `one {…} other {…}` → {one: "…", other: "…"}
 *  (null when it does not parse). */
function branchesOf(body) {
  const branches = {};
  let i = 0;
  while (i < body.length) {
    const head = /^\s*([^\s{}]+)\s*\{/.exec(body.slice(i));
    if (!head) return body.slice(i).trim() ? null : branches;
    const open = i + head[0].length - 1;
    const end = closingBrace(body, open);
    if (end < 0) return null;
    branches[head[1]] = body.slice(open + 1, end - 1);
    i = end;
  }
  return branches;
}

/** `#` outside nested braces is the plural's number (a nested plural keeps its own). */
function hashToNumber(branch, n) {
  let depth = 0;
  let out = "";
  for (const ch of branch) {
    if (ch === "{") depth += 1;
    else if (ch === "}") depth -= 1;
    out += ch === "#" && depth === 0 ? String(n) : ch;
  }
  return out;
}

/** Fill a message's placeholders (see t and app/games/messages.py, whose syntax this shares:
 *  `{x}`, `{x, plural, …}`, `{x, select, …}`, `{x, signed}`, `{x, seat, style}`). A parameter
 *  may be a message tree (`{key, params}`), a seat (`{seat: n}`: its player's name when
 *  `seatName` is given, else "seat n") or a list (`{list, sep}`). Exported for the tests. */
export function formatMessage(text, params, code = lang, seatName = null) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) break;
    const end = closingBrace(text, open);
    if (end < 0) break;
    out += text.slice(i, open);
    const whole = text.slice(open, end);
    const head = /^\s*(\w+)\s*(?:,\s*(\w+)\s*(?:,([\s\S]*))?)?$/.exec(text.slice(open + 1, end - 1));
    const value = head ? params[head[1]] : undefined;
    if (!head || value === undefined || value === null || Number.isNaN(value)) {
      out += whole;
    } else if (!head[2] || head[2] === "seat") {
      out += paramText(value, code, seatName, (head[3] || "").trim() || "plain");
    } else if (head[2] === "signed") {
      const n = Number(value);
      out += n < 0 ? String(n) : `+${n}`;
    } else if (head[2] === "plural") {
      const n = Number(value);
      const branches = branchesOf(head[3] || "");
      const branch =
        branches && Number.isFinite(n) ? (branches[`=${n}`] ?? branches[pluralCategory(code, n)] ?? branches.other) : undefined;
      out += branch === undefined ? whole : formatMessage(hashToNumber(branch, n), params, code, seatName);
    } else if (head[2] === "select") {
      const branches = branchesOf(head[3] || "");
      const branch = branches ? (branches[String(value)] ?? branches.other) : undefined;
      out += branch === undefined ? whole : formatMessage(branch, params, code, seatName);
    } else {
      out += whole;
    }
    i = end;
  }
  return out + text.slice(i);
}

/** The text of one parameter: a number or string as is, a nested message, a seat, a list. */
function paramText(value, code, seatName, style) {
  if (value === null || value === undefined || Number.isNaN(value)) return "";
  if (Array.isArray(value?.list)) {
    const items = value.list.map((v) => paramText(v, code, seatName, style)).filter((text) => text !== "");
    return items.join(value.sep ?? ", ");
  }
  if (typeof value?.seat === "number") {
    // A player's name where the page knows one; else the game's label ("Red"), else "seat n".
    const name = seatName ? seatName(value.seat) : null;
    if (name != null) return formatMessage(t(`seat.named.${style}`), { name }, code);
    if (value.label) return renderMessage(value.label, null, code) ?? value.label.key;
    return formatMessage(t(`seat.${style}`), { n: value.seat + 1 }, code);
  }
  if (typeof value?.key === "string") return renderMessage(value, seatName, code) ?? value.key;
  // Never "[object Object]" on the screen (issue 35.5): an object no message names reads as nothing.
  if (typeof value === "object") return "";
  return String(value);
}

/** The text of a message tree (`{key, params}`, as the server sends it), seats named by
 *  `seatName(seat)` when given; null when this page's catalogue does not hold the key. */
export function renderMessage(message, seatName = null, code = lang) {
  if (!message || !hasKey(message.key)) return null;
  return formatMessage(dict[message.key], message.params || {}, code, seatName);
}

export function hasKey(key) {
  return Object.prototype.hasOwnProperty.call(dict, key);
}

/** Fill [data-i18n] text and [data-i18n-attr="attr:key;attr:key"] attributes under root. */
export function applyI18n(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) {
    el.textContent = t(el.dataset.i18n);
  }
  for (const el of root.querySelectorAll("[data-i18n-attr]")) {
    for (const pair of el.dataset.i18nAttr.split(";")) {
      const [attr, key] = pair.split(":").map((s) => s.trim());
      if (attr && key) el.setAttribute(attr, t(key));
    }
  }
  if (root === document && document.body?.dataset.titleKey) {
    document.title = t(document.body.dataset.titleKey);
  }
}

export async function setLang(code) {
  if (!LANGS.includes(code) || code === lang) return;
  localStorage.setItem(LANG_KEY, code);
  dict = await load(code);
  lang = code;
  document.documentElement.lang = lang;
  applyI18n(document);
  for (const fn of listeners) fn(lang);
}

export function onLangChange(fn) {
  listeners.add(fn);
}

/** Turn a <select> into the language switch. */
export function mountLangSwitch(select) {
  select.replaceChildren(
    ...LANGS.map((code) => {
      const option = document.createElement("option");
      option.value = code;
      option.textContent = code === "es" ? "Español" : "English";
      option.lang = code;
      return option;
    }),
  );
  select.value = lang;
  select.addEventListener("change", () => setLang(select.value));
  onLangChange((code) => {
    select.value = code;
  });
}
