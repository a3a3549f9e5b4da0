// A cursor-paged list (every Kith list pages the same way: items, next_cursor; gateway README, "Paging"), held by
// a view: more() fetches the next page, renderMore() is the "Load more" button while there is one.

import { html, nothing } from 'lit';
import { t } from '../i18n.js';

export class Paged {
  /** fetch(cursor) resolves with a page; host is the view that renders the items. */
  constructor(host, fetch) {
    this.host = host;
    this.fetch = fetch;
    this.items = [];
    this.cursor = undefined;
    this.done = false;
    this.extra = {};
    this.loading = null;
    this.generation = 0;
  }

  /** Forgets the items and fetches the first page (a page still arriving for the old list is dropped). */
  async reset() {
    this.generation += 1;
    this.items = [];
    this.cursor = undefined;
    this.done = false;
    this.loading = null;
    return this.more();
  }

  /** Fetches the next page and appends its items; while one is on its way, asking again waits for that one. */
  more() {
    if (!this.loading) {
      const generation = this.generation;
      this.loading = this.fetch(this.cursor).then((page) => {
        if (generation === this.generation) {
          this.add(page.items, false);
          this.cursor = page.next_cursor || undefined;
          this.done = !page.next_cursor;
          this.extra = page;
        }
        return page;
      }).finally(() => {
        if (generation === this.generation) {
          this.loading = null;
        }
      });
    }
    return this.loading;
  }

  /** Adds items at the end, or at the start (newer ones), leaving out any already shown. */
  add(items, first) {
    const seen = new Set(this.items.map(key));
    const fresh = items.filter((i) => !seen.has(key(i)));
    this.items = first ? [...fresh, ...this.items] : [...this.items, ...fresh];
    this.host.requestUpdate();
  }

  /** Takes an item out (after the user removed it). */
  remove(predicate) {
    this.items = this.items.filter((i) => !predicate(i));
    this.host.requestUpdate();
  }

  renderMore() {
    return this.done ? nothing : html`<button type="button" class="secondary more"
      @click=${() => this.host.run(() => this.more())}>${t('app.more')}</button>`;
  }
}

/** An item's identity: its id, or its user's for lists of {user, since}. */
function key(item) {
  return item.id ?? (item.user && item.user.id);
}
