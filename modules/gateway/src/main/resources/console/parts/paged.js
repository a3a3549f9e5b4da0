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
  }

  /** Forgets the items and fetches the first page. */
  async reset() {
    this.items = [];
    this.cursor = undefined;
    this.done = false;
    return this.more();
  }

  /** Fetches the next page and appends its items. */
  async more() {
    const page = await this.fetch(this.cursor);
    this.items = [...this.items, ...page.items];
    this.cursor = page.next_cursor || undefined;
    this.done = !page.next_cursor;
    this.extra = page;
    this.host.requestUpdate();
    return page;
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
