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

/** `one {…} other {…}` → {one: "…", other: "…"} (null when it does not parse). */
function pluralBranches(body) {
  const branches = {};
  let i = 0;
  while (i < body.length) {
    const head = /^\s*(=\d+|zero|one|two|few|many|other)\s*\{/.exec(body.slice(i));
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

/** Fill a message's placeholders and plurals (see t); exported for the tests. */
export function formatMessage(text, params, code = lang) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) break;
    const end = closingBrace(text, open);
    if (end < 0) break;
    out += text.slice(i, open);
    const inner = text.slice(open + 1, end - 1);
    const simple = /^(\w+)$/.exec(inner);
    const plural = /^\s*(\w+)\s*,\s*plural\s*,([\s\S]*)$/.exec(inner);
    const whole = text.slice(open, end);
    if (simple) {
      const value = params[simple[1]];
      out += value === undefined || value === null ? whole : String(value);
    } else if (plural) {
      const n = Number(params[plural[1]]);
      const branches = pluralBranches(plural[2]);
      const branch =
        branches && Number.isFinite(n) ? (branches[`=${n}`] ?? branches[pluralCategory(code, n)] ?? branches.other) : undefined;
      out += branch === undefined ? whole : formatMessage(hashToNumber(branch, n), params, code);
    } else {
      out += whole;
    }
    i = end;
  }
  return out + text.slice(i);
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
