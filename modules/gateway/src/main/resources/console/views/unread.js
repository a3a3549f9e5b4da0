// The unread notification count and the menu's badge that shows it (routes.js names it with `badge`). It is read
// over HTTP when a user signs in and after every reconnect, and kept by the `unread` pushes on the user's address
// (notifications README, Real time), so it moves live without polling.

import { LitElement, html, nothing } from 'lit';
import { currentSession, get, onSessionChange } from '../api.js';
import { bridge } from '../bridge.js';
import { register, t } from '../i18n.js';
import { liveStyles } from './live.js';

register('en', { 'unread.count': '{count} unread' });
register('zh-CN', { 'unread.count': '{count} 条未读' });

const listeners = new Set();
let counts = { total: 0, by_type: {} };
let watching = null; // {user, stop}

/** The unread counts last known ({total, by_type}). */
export function unreadCounts() {
  return counts;
}

/** Sets the counts from an answer or a push that carries them (a mark-read's answer, an `unread` push). */
export function setUnread(next) {
  counts = next || { total: 0, by_type: {} };
  listeners.forEach((fn) => fn(counts));
}

/** Calls fn(counts) on every change; returns a function that stops it. */
export function onUnread(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

function reload() {
  if (currentSession()) {
    get('/notifications/unread-counts').then(setUnread, () => {});
  }
}

// one subscription per signed-in user; a token refresh (same user) changes nothing
function watch(session) {
  const user = session ? session.user_id : null;
  if (watching && watching.user === user) {
    return;
  }
  if (watching) {
    watching.stop();
  }
  watching = null;
  setUnread(null);
  if (user) {
    const stop = bridge.subscribe('kith.user.' + user, (body) => {
      if (body && body.kind === 'unread') {
        setUnread(body.counts);
      }
    });
    watching = { user, stop };
    reload();
  }
}

liveStyles(); // the badge's style
onSessionChange(watch);
bridge.onStatus((open) => open && reload());
watch(currentSession());

/** <kith-unread-badge>: the unread total, read out as "3 unread", hidden at zero. */
class UnreadBadge extends LitElement {
  createRenderRoot() {
    return this;
  }

  connectedCallback() {
    super.connectedCallback();
    this.stop = onUnread(() => this.requestUpdate());
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.stop();
  }

  render() {
    const n = counts.total;
    return n ? html` <span class="badge" aria-hidden="true">${n > 99 ? '99+' : n}</span><span
      class="sr-only"> (${t('unread.count', { count: n })})</span>` : nothing;
  }
}
customElements.define('kith-unread-badge', UnreadBadge);
