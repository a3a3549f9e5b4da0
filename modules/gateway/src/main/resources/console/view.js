// The base of every view: a Lit element rendered in the page's DOM (no shadow root, so console.css styles it),
// re-rendered when the language changes, with one way to run an API call and show its problem to the user.

import { LitElement, html, nothing } from 'lit';
import { onLangChange, t } from './i18n.js';
import { mediaUrl } from './api.js';

/** What the shell shares with views: the signed-in user's own profile (GET /api/v1/me) and navigation. */
export const shell = {
  me: null,
  /** Goes to a console path such as '/users/12'. */
  navigate(path) {
    location.hash = '#' + path;
  },
  /** Reloads the own profile (after a view changed it); set by app.js. */
  refreshMe: async () => null,
};

/** A view: a page of the console. Subclasses implement render() and may read this.params (route and query). */
export class View extends LitElement {
  static properties = {
    params: { attribute: false },
    busy: { state: true },
    error: { state: true },
    notice: { state: true },
  };

  constructor() {
    super();
    this.params = {};
    this.busy = false;
    this.error = null;
    this.notice = null;
    this.cleanups = [];
  }

  createRenderRoot() {
    return this;
  }

  connectedCallback() {
    super.connectedCallback();
    this.cleanups.push(onLangChange(() => this.requestUpdate()));
  }

  disconnectedCallback() {
    super.disconnectedCallback();
    this.cleanups.splice(0).forEach((fn) => fn());
  }

  /** Runs fn() to its end (busy meanwhile) and returns its result; a failure is shown by renderProblem(). */
  async run(fn, done) {
    this.busy = true;
    this.error = null;
    this.notice = null;
    try {
      const result = await fn();
      if (done) {
        this.notice = done;
      }
      return result;
    } catch (e) {
      this.error = e;
      return undefined;
    } finally {
      this.busy = false;
    }
  }

  /** Keeps fn to run when the view goes away (an unsubscribe, a timer). */
  onCleanup(fn) {
    this.cleanups.push(fn);
  }

  /** The last failure as an alert (its detail and code), or the last success notice as a status line. */
  renderProblem() {
    if (this.error) {
      return html`<div class="problem" role="alert">
        <span>${this.error.message || t('app.error')}</span>
        ${this.error.code ? html`<code>${this.error.code}</code>` : nothing}
        <button type="button" class="link" @click=${() => { this.error = null; }}>${t('app.dismiss')}</button>
      </div>`;
    }
    return this.notice ? html`<p class="notice" role="status">${this.notice}</p>` : nothing;
  }
}

/** Form fields as an object (empty strings left out). */
export function formData(form) {
  const out = {};
  new FormData(form).forEach((v, k) => {
    if (v !== '') {
      out[k] = v;
    }
  });
  return out;
}

/**
 * A user's photo (an upload read with the token, or a URL), else their initial; alt text is empty because the name is
 * always written next to it.
 */
export class Avatar extends LitElement {
  static properties = { user: { attribute: false }, src: { state: true } };

  createRenderRoot() {
    return this;
  }

  updated(changed) {
    if (changed.has('user')) {
      const u = this.user || {};
      this.src = u.photo_url || null;
      if (u.photo_media) {
        mediaUrl(u.photo_media, 'w160').catch(() => mediaUrl(u.photo_media)).then((src) => { this.src = src; },
          () => {});
      }
    }
  }

  render() {
    const u = this.user || {};
    const name = u.nickname || u.username || '?';
    return this.src ? html`<img class="avatar" src=${this.src} alt="">`
      : html`<span class="avatar" aria-hidden="true">${name.slice(0, 1).toUpperCase()}</span>`;
  }
}
customElements.define('kith-avatar', Avatar);

/** A user's name for lists: nickname and @username. */
export function userName(u) {
  return u.nickname ? html`${u.nickname} <span class="muted">@${u.username}</span>` : html`@${u.username}`;
}

export { html, nothing };
