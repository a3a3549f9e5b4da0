// What the live views (chat, whiteboard, activities, notifications) share: their stylesheet, deliveries on the
// user's address and on rooms for as long as a view is shown, user summaries by id, and a few strings.

import { bridge, userAddress } from '../bridge.js';
import { currentSession, get } from '../api.js';
import { register } from '../i18n.js';

// the menu's labels of the live views are needed before any of them loads (routes.js imports this file)
register('en', {
  'nav.chat': 'Chat',
  'nav.boards': 'Whiteboards',
  'nav.activities': 'Activities',
  'nav.notifications': 'Notifications',
  'live.you': 'You',
  'live.user': 'Username',
});
register('zh-CN', {
  'nav.chat': '聊天',
  'nav.boards': '白板',
  'nav.activities': '活动',
  'nav.notifications': '通知',
  'live.you': '我',
  'live.user': '用户名',
});

/** Adds the live views' stylesheet (live.css) to the page once: console.css belongs to the shell. */
export function liveStyles() {
  if (!document.querySelector('link[data-live]')) {
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = '/console/live.css';
    link.dataset.live = '';
    document.head.appendChild(link);
  }
}

/** The signed-in user's id. */
export function myId() {
  const s = currentSession();
  return s ? Number(s.user_id) : 0;
}

/**
 * Calls fn(body) for every push of these kinds on the user's address while view is shown (kinds empty: all), and
 * again(open) after each reconnect, so the view can read over HTTP what it missed (pushes are at most once).
 */
export function onPush(view, kinds, fn, again) {
  const address = userAddress();
  if (address) {
    view.onCleanup(bridge.subscribe(address, (body) => {
      if (body && (!kinds.length || kinds.includes(body.kind))) {
        fn(body);
      }
    }));
  }
  if (again) {
    view.onCleanup(bridge.onStatus((open) => open && again()));
  }
}

/** Calls fn(body) for every message of a room (kith.room.<room>); returns the function that stops it. */
export function onRoom(room, fn) {
  return bridge.subscribe('kith.room.' + room, (body) => body && fn(body));
}

const people = new Map();

/** Summaries of users by id (cached for the page's life; a user the caller may not see is {id}). */
export async function summaries(ids) {
  const wanted = [...new Set(ids.map(Number))].filter((id) => id && !people.has(id));
  for (let i = 0; i < wanted.length; i += 100) {
    const part = wanted.slice(i, i + 100);
    const found = await get('/users', { ids: part.join(',') });
    found.items.forEach((u) => people.set(u.id, u));
    part.filter((id) => !people.has(id)).forEach((id) => people.set(id, { id, username: '#' + id }));
  }
  return new Map(ids.map((id) => [Number(id), people.get(Number(id))]));
}

/** A user summary already known (from summaries() or remembered here), else null. */
export function known(id) {
  return people.get(Number(id)) || null;
}

/** Remembers summaries that came with an answer (a message's sender_summary, a conversation's peer). */
export function remember(...users) {
  users.filter((u) => u && u.id && u.username).forEach((u) => people.set(Number(u.id), u));
}

/** The user with this username (GET /users/by-username/{username}); a missing one is an ApiError user_not_found. */
export async function byUsername(name) {
  const user = await get('/users/by-username/' + encodeURIComponent(name.trim().replace(/^@/, '')));
  remember(user);
  return user;
}

/** An id for a send whose retry must not make a second message. */
export function clientId() {
  return crypto.randomUUID();
}
