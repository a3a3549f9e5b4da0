// The shell: a hash router over routes.js, the menu, the language switch, the signed-in state and the bridge
// connection. Views are loaded on first visit and defined as custom elements named after their path.

import { LitElement, html, nothing } from 'lit';
import { routes } from './routes.js';
import { LANGUAGES, lang, onLangChange, setLang, t } from './i18n.js';
import { currentSession, get, onSessionChange, post, setSession, takeSessionEnd } from './api.js';
import { bridge } from './bridge.js';
import { shell, userName } from './view.js';

const MODERATORS = ['moderator', 'admin'];

/** The route matching path and its params, or null. */
function match(path) {
  for (const route of routes) {
    const names = [];
    const pattern = new RegExp('^' + route.path.replace(/:(\w+)/g, (m, n) => {
      names.push(n);
      return '([^/]+)';
    }) + '$');
    const m = pattern.exec(path);
    if (m) {
      const params = {};
      names.forEach((n, i) => { params[n] = decodeURIComponent(m[i + 1]); });
      return { route, params };
    }
  }
  return null;
}

const badges = new Map(); // a route's badge element, made once so that it keeps its state across renders

function badgeOf(route) {
  if (!badges.has(route.badge)) {
    badges.set(route.badge, document.createElement(route.badge));
  }
  return badges.get(route.badge);
}

function tagOf(route) {
  return 'kith-view' + route.path.replace(/:/g, '').replace(/[^a-z0-9]+/gi, '-').toLowerCase().replace(/-$/, '');
}

class KithConsole extends LitElement {
  static properties = {
    view: { state: true },
    menuOpen: { state: true },
    live: { state: true },
    message: { state: true },
  };

  constructor() {
    super();
    this.view = null;
    this.menuOpen = false;
    this.live = true;
    this.message = null;
  }

  createRenderRoot() {
    return this;
  }

  connectedCallback() {
    super.connectedCallback();
    shell.refreshMe = () => this.loadMe();
    window.addEventListener('hashchange', () => this.route());
    onLangChange(() => this.requestUpdate());
    bridge.onStatus((live) => {
      this.live = live;
      this.toggleAttribute('data-live', live); // for tests and styles: the bridge answers as the user
      if (!live && shell.me) {
        get('/whoami').catch(() => null); // a closed bridge may be a revoked session (a suspension): ask once
      }
    });
    onSessionChange((s) => {
      if (!s && shell.me) { // signed out, here or because the session ended
        const why = takeSessionEnd();
        this.message = why ? t('app.sessionEnded', { code: why.code }) : null;
        shell.me = null;
        bridge.stop();
        this.route();
      }
    });
    this.start();
  }

  async start() {
    if (currentSession()) {
      await this.loadMe().catch(() => null);
    }
    this.route();
  }

  async loadMe() {
    // the operator role is moderation's (GET /me/role), not the profile's
    const [me, role] = await Promise.all([get('/me'), get('/me/role').catch(() => ({ role: 'user' }))]);
    shell.me = { ...me, role: role.role };
    this.message = null;
    bridge.start();
    this.requestUpdate();
    return shell.me;
  }

  /** Called by the login view with a token pair. */
  async signedIn(tokens) {
    setSession(tokens);
    await this.loadMe();
    const next = new URLSearchParams(location.hash.split('?')[1] || '').get('next');
    shell.navigate(next && match(next) ? next : routes.find((r) => r.start).path);
  }

  async logout() {
    try {
      await post('/auth/logout');
    } catch (e) {
      // the session may be over already: signed out either way
    }
    setSession(null);
  }

  async route() {
    const hash = location.hash;
    if (hash && !hash.startsWith('#/')) {
      return; // an in-page anchor (the skip link), not a page
    }
    const [path, query] = (hash.slice(1) || '/').split('?');
    const signedIn = !!(currentSession() && shell.me);
    if (path === '/') {
      shell.navigate(signedIn ? routes.find((r) => r.start).path : '/login');
      return;
    }
    const found = match(path);
    this.menuOpen = false;
    if (!found) {
      this.show(html`<p role="alert">${t('app.notFound')}</p>`);
      return;
    }
    const { route, params } = found;
    if (route.role !== 'guest' && !signedIn) {
      shell.navigate('/login?next=' + encodeURIComponent(path));
      return;
    }
    if (route.role === 'guest' && signedIn) {
      shell.navigate(routes.find((r) => r.start).path);
      return;
    }
    if (route.role === 'moderator' && !MODERATORS.includes(shell.me.role)) {
      this.show(html`<p role="alert">${t('app.forbidden')}</p>`);
      return;
    }
    const tag = tagOf(route);
    if (!customElements.get(tag)) {
      this.show(html`<p>${t('app.loading')}</p>`);
      const module = await route.load();
      if (!customElements.get(tag)) {
        customElements.define(tag, class extends module.default {});
      }
    }
    const el = document.createElement(tag);
    el.params = { ...Object.fromEntries(new URLSearchParams(query || '')), ...params };
    el.console = this;
    el.route = route;
    this.show(el);
  }

  show(content) {
    this.view = content;
    this.updateComplete.then(() => {
      // focus moves to the new page's heading, so keyboard and screen-reader users start there
      const heading = this.querySelector('main h1') || this.querySelector('main');
      if (heading) {
        heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
    });
  }

  renderNav() {
    const signedIn = !!shell.me;
    const role = signedIn ? shell.me.role : null;
    const current = (location.hash.slice(1) || '/').split('?')[0];
    const items = routes.filter((r) => r.nav && (r.role === 'guest' ? !signedIn
      : signedIn && (r.role === 'user' || MODERATORS.includes(role))));
    return html`<nav id="menu" class=${this.menuOpen ? 'open' : ''} aria-label=${t('app.menu')}>
      <ul>${items.map((r) => html`<li><a href=${'#' + r.path}
        aria-current=${current === r.path ? 'page' : 'false'}>${t('nav.' + r.nav)}${r.badge ? badgeOf(r)
        : nothing}</a></li>`)}</ul>
    </nav>`;
  }

  render() {
    const me = shell.me;
    return html`
      <header class="bar">
        <a class="brand" href="#/">${t('app.title')}</a>
        <button type="button" class="menu-toggle" aria-controls="menu" aria-expanded=${this.menuOpen ? 'true' : 'false'}
          @click=${() => { this.menuOpen = !this.menuOpen; }}>${t('app.menu')}</button>
        ${this.renderNav()}
        <div class="tools">
          <label class="lang"><span class="sr-only">${t('app.language')}</span>
            <select @change=${(e) => setLang(e.target.value)}>
              ${LANGUAGES.map((l) => html`<option value=${l.code} ?selected=${l.code === lang()}>${l.name}</option>`)}
            </select>
          </label>
          ${me ? html`<span class="who" title=${t('app.signedInAs', { name: me.username })}>${userName(me)}</span>
            <button type="button" class="secondary" @click=${() => this.logout()}>${t('app.logout')}</button>`
    : nothing}
        </div>
      </header>
      ${me && !this.live ? html`<p class="offline" role="status">${t('app.offline')}</p>` : nothing}
      ${this.message ? html`<p class="problem session-ended" role="alert">${this.message}</p>` : nothing}
      <main id="view" tabindex="-1">${this.view}</main>`;
  }
}

customElements.define('kith-console', KithConsole);
