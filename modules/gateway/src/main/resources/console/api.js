// The one way the console talks HTTP to Kith: JSON under /api/v1 with the bearer token, a refresh on 401
// token_expired (one refresh at a time, then the request once more), and problem+json turned into an ApiError that
// views show by its detail and code.

const BASE = '/api/v1';
const STORE = 'kith.session';
const listeners = new Set();
let session = load();
let refreshing = null;

function load() {
  try {
    return JSON.parse(localStorage.getItem(STORE)) || null;
  } catch (e) {
    return null;
  }
}

/** An RFC 9457 problem answered by Kith (or made up for a network failure: code network_error). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || problem.code || ('HTTP ' + status));
    this.status = status;
    this.code = problem.code || 'http_' + status;
    this.field = problem.field;
    this.problem = problem;
  }
}

let ended = null;

/** The refusal that ended the last session (an ApiError such as session_revoked), or null; read once. */
export function takeSessionEnd() {
  const e = ended;
  ended = null;
  return e;
}

/** The signed-in session ({access_token, refresh_token, user_id, session_id}) or null. */
export function currentSession() {
  return session;
}

/** Stores a token pair from register, login or refresh (null signs out) and tells the listeners. */
export function setSession(tokens) {
  session = tokens ? {
    access_token: tokens.access_token,
    refresh_token: tokens.refresh_token,
    user_id: tokens.user_id,
    session_id: tokens.session_id,
  } : null;
  if (session) {
    localStorage.setItem(STORE, JSON.stringify(session));
  } else {
    localStorage.removeItem(STORE);
  }
  listeners.forEach((fn) => fn(session));
}

/** Calls fn(session) whenever the session changes (login, refresh, logout); returns a function that stops it. */
export function onSessionChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** A fresh access token: refreshes the session once even when many requests ask at the same time. */
export function refresh() {
  if (!refreshing) {
    const token = session && session.refresh_token;
    refreshing = (token ? send('POST', '/auth/refresh', { body: { refresh_token: token }, auth: false })
      : Promise.reject(new ApiError(401, { code: 'unauthenticated' })))
      .then((pair) => {
        setSession(pair);
        return pair.access_token;
      }, (e) => {
        if (e.status === 401 || e.status === 400) {
          setSession(null); // the session is over: back to the login page
        }
        throw e;
      })
      .finally(() => { refreshing = null; });
  }
  return refreshing;
}

function url(path, query) {
  const u = new URL(BASE + path, location.origin);
  Object.entries(query || {}).forEach(([k, v]) => {
    if (v !== undefined && v !== null && v !== '') {
      (Array.isArray(v) ? v : [v]).forEach((x) => u.searchParams.append(k, x));
    }
  });
  return u.pathname + u.search;
}

async function send(method, path, { query, body, raw, type, auth = true, token } = {}) {
  const headers = { Accept: 'application/json, application/problem+json' };
  if (token || (auth && session)) { // token: another credential than the session's
    headers.Authorization = 'Bearer ' + (token || session.access_token);
  }
  let payload;
  if (raw !== undefined) {
    headers['Content-Type'] = type || 'application/octet-stream';
    payload = raw;
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(url(path, query), { method, headers, body: payload });
  } catch (e) {
    throw new ApiError(0, { code: 'network_error', detail: 'Kith cannot be reached: ' + e.message });
  }
  if (res.status === 204) {
    return null;
  }
  const text = await res.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    json = { detail: text.slice(0, 200) };
  }
  if (!res.ok) {
    throw new ApiError(res.status, json || {});
  }
  return json;
}

/**
 * An API call: method, path under /api/v1, and options {query, body (JSON), raw (a Blob sent as is), type, token
 * (a bearer credential instead of the session's)}. Resolves
 * with the JSON answer (null for 204); rejects with an ApiError.
 */
export async function call(method, path, options = {}) {
  try {
    return await send(method, path, options);
  } catch (e) {
    if (e.status === 401 && options.auth !== false && !options.token && session) {
      if (e.code === 'token_expired') {
        await refresh();
        return send(method, path, options);
      }
      ended = e; // revoked (a logout elsewhere, a suspension): the session is over, and the shell says why
      setSession(null);
    }
    throw e;
  }
}

export const get = (path, query) => call('GET', path, { query });
export const post = (path, body, query) => call('POST', path, { body, query });
export const put = (path, body) => call('PUT', path, { body });
export const patch = (path, body) => call('PATCH', path, { body });
export const del = (path, body) => call('DELETE', path, { body });

/** Uploads a file to the media API; resolves with the media view ({id, kind, ...}). */
export function upload(file) {
  return call('POST', '/media', { raw: file, type: file.type || 'application/octet-stream' });
}

const mediaUrls = new Map();

/**
 * An object URL for a media id (optionally a variant such as w480): media may need the bearer token, which an <img>
 * cannot send, so the bytes are fetched here once and kept for the page's lifetime.
 */
export function mediaUrl(id, variant) {
  const key = id + (variant ? ':' + variant : '');
  if (!mediaUrls.has(key)) {
    const load = async (token) => fetch(url('/media/' + id, variant ? { variant } : {}),
      { headers: token ? { Authorization: 'Bearer ' + token } : {} });
    mediaUrls.set(key, (async () => {
      let res = await load(session && session.access_token);
      if (res.status === 401 && session) {
        res = await load(await refresh());
      }
      if (!res.ok) {
        throw new ApiError(res.status, { code: 'media_unavailable' });
      }
      return URL.createObjectURL(await res.blob());
    })().catch((e) => {
      mediaUrls.delete(key); // asked again next time rather than failing forever
      throw e;
    }));
  }
  return mediaUrls.get(key);
}
