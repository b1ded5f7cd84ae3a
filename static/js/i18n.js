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

/** Translate a key; `{name}` placeholders are filled from params. Unknown keys show as is. */
export function t(key, params) {
  let text = Object.prototype.hasOwnProperty.call(dict, key) ? dict[key] : key;
  if (params) {
    text = text.replace(/\{(\w+)\}/g, (whole, name) =>
      params[name] === undefined || params[name] === null ? whole : String(params[name]),
    );
  }
  return text;
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
