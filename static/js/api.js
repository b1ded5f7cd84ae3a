// The REST side of the public protocol (API.md): identity kept in localStorage, one error shape.

const IDENTITY_KEY = "partida.player";
const PREFIX = "/api/v1";

/** The stored player {id, name, token}, or null. */
export function identity() {
  try {
    const raw = JSON.parse(localStorage.getItem(IDENTITY_KEY) || "null");
    return raw && raw.token && raw.id ? raw : null;
  } catch {
    return null;
  }
}

export function saveIdentity(player) {
  localStorage.setItem(
    IDENTITY_KEY,
    JSON.stringify({ id: player.id, name: player.name, token: player.token }),
  );
}

export function clearIdentity() {
  localStorage.removeItem(IDENTITY_KEY);
}

/** An error answered by the server, carrying the envelope's code and message. */
export class ApiError extends Error {
  constructor(status, error) {
    super(error?.message || `HTTP ${status}`);
    this.status = status;
    this.code = error?.code || "http_error";
    this.details = error || {};
  }
}

/**
 * The invite code of the page's link (/tables/{id}?invite=…): a private table is readable only
 * by its seated players and by holders of its code, so every call about a table carries it.
 */
export const pageInvite = new URLSearchParams(location.search).get("invite");

function withInvite(path) {
  if (!pageInvite || !path.startsWith("/tables/")) return path;
  return `${path}${path.includes("?") ? "&" : "?"}invite=${encodeURIComponent(pageInvite)}`;
}

/** Call the API; resolves with the JSON body, rejects with ApiError (or a network error). */
export async function api(method, path, body) {
  return (await apiResponse(method, path, body)).data;
}

/** Like api(), also giving the response headers: {data, headers}. */
export async function apiResponse(method, path, body) {
  path = withInvite(path);
  const headers = { Accept: "application/json" };
  const me = identity();
  if (me) headers.Authorization = `Bearer ${me.token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let response;
  try {
    response = await fetch(PREFIX + path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(0, { code: "network_error", message: String(err?.message || err) });
  }
  if (response.status === 204) return { data: null, headers: response.headers };
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data?.error);
  return { data, headers: response.headers };
}

/** Create a player and remember it (name + token) in this browser. */
export async function register(name, accessCode) {
  const body = accessCode ? { name, access_code: accessCode } : { name };
  const player = await api("POST", "/players", body);
  saveIdentity(player);
  return player;
}

/** Check the remembered token; forget it when the server no longer knows it. */
export async function checkIdentity() {
  const me = identity();
  if (!me) return null;
  try {
    const player = await api("GET", "/me");
    if (player.name !== me.name) saveIdentity({ ...me, name: player.name });
    return identity();
  } catch (err) {
    if (err.status === 401) {
      clearIdentity();
      return null;
    }
    return me; // offline or a server hiccup: keep it
  }
}

export const listGames = () => api("GET", "/games");
/** One page of the lobby, newest first: {tables, next} (next: the cursor of the next page). */
export async function listTablesPage(status, cursor = null, limit = null) {
  const params = new URLSearchParams();
  if (status) params.set("status", status);
  if (cursor) params.set("cursor", cursor);
  if (limit) params.set("limit", String(limit));
  const query = params.toString();
  const { data, headers } = await apiResponse("GET", `/tables${query ? `?${query}` : ""}`);
  return { tables: data, next: headers.get("X-Next-Cursor") };
}

/** The lobby's tables of a status, following the cursor for at most `maxPages` pages. */
export async function listTables(status, maxPages = 5) {
  const tables = [];
  let cursor = null;
  for (let page = 0; page < maxPages; page += 1) {
    const { tables: more, next } = await listTablesPage(status, cursor);
    tables.push(...more);
    if (!next) break;
    cursor = next;
  }
  return tables;
}
/** One table; with `lang`, a finished table's result also explains its ties (`tiebreak_text`). */
export const getTable = (id, lang = null) =>
  api("GET", `/tables/${encodeURIComponent(id)}${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`);
export const createTable = (game, seats, options, isPrivate = false, timeControl = undefined, onResign = undefined) =>
  api("POST", "/tables", {
    game,
    seats,
    options,
    private: isPrivate,
    ...(timeControl ? { time_control: timeControl } : {}),
    ...(onResign ? { on_resign: onResign } : {}),
  });
export const joinTable = (id, invite) =>
  api("POST", `/tables/${encodeURIComponent(id)}/join`, invite ? { invite } : undefined);
export const leaveTable = (id) => api("POST", `/tables/${encodeURIComponent(id)}/leave`);
export const addBot = (id, level) =>
  api("POST", `/tables/${encodeURIComponent(id)}/bots`, level ? { level } : {});
export const startTable = (id) => api("POST", `/tables/${encodeURIComponent(id)}/start`);
export const getLog = (id, since = 0, lang = null) =>
  api("GET", `/tables/${encodeURIComponent(id)}/log?since=${since}${lang ? `&lang=${encodeURIComponent(lang)}` : ""}`);
export const postAction = (id, version, action, actionId) =>
  api("POST", `/tables/${encodeURIComponent(id)}/actions`, { version, action, id: actionId });

/** The invite link of a table (the table page; a private table's link carries its code). */
export function tableUrl(id, inviteCode) {
  const base = `${location.origin}/tables/${encodeURIComponent(id)}`;
  return inviteCode ? `${base}?invite=${encodeURIComponent(inviteCode)}` : base;
}

// ---------------------------------------------------------------- player features (issue 10)

export const getChat = (id, since = 0) =>
  api("GET", `/tables/${encodeURIComponent(id)}/chat?since=${since}`);
export const postChat = (id, text) => api("POST", `/tables/${encodeURIComponent(id)}/chat`, { text });
/**
 * A GET the server may ask to come back to (429 with retry_after: replays take turns between
 * clients, and people behind one address share a queue): waits as told, a few times.
 */
async function getPatiently(path, tries = 4) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await api("GET", path);
    } catch (err) {
      if (!(err instanceof ApiError) || err.status !== 429 || attempt >= tries) throw err;
      const seconds = Math.min(Math.max(Number(err.details.retry_after) || 1, 1), 15);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    }
  }
}

export const getReplay = (id) => getPatiently(`/tables/${encodeURIComponent(id)}/replay`);
export const getReplaySteps = (id, perspective, start = 1, count = 500, lang = null) =>
  getPatiently(
    `/tables/${encodeURIComponent(id)}/replay/steps?perspective=${encodeURIComponent(perspective)}&start=${start}&count=${count}${lang ? `&lang=${encodeURIComponent(lang)}` : ""}`,
  );
export const getMe = () => api("GET", "/me");
export const setWebhook = (url) => api("PATCH", "/me", { webhook_url: url });
export const myTables = () => api("GET", "/me/tables");
export const getPlayer = (id) => api("GET", `/players/${encodeURIComponent(id)}`);
export const getLeaderboard = (game) => api("GET", `/games/${encodeURIComponent(game)}/leaderboard`);

// ---------------------------------------------------------------- undo, clocks, absent players

export const postUndo = (id, version, actionId) =>
  api("POST", `/tables/${encodeURIComponent(id)}/undo`, { version, id: actionId });
export const voteTakeover = (id, seat) =>
  api("POST", `/tables/${encodeURIComponent(id)}/seats/${encodeURIComponent(seat)}/takeover`);
export const takeBack = (id) => api("POST", `/tables/${encodeURIComponent(id)}/take-back`);
