// Whiteboards: the boards the user owns or is a member of (GET /api/v1/boards), and making one with friends
// (POST /api/v1/boards; members must be the owner's friends). The list is read again when a board is added or
// removed for the user (board_added, board_removed on the user's address).

import { View, formData, html, nothing, shell } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { get, post } from '../api.js';
import { byUsername, liveStyles, onPush } from './live.js';

register('en', {
  'boards.title': 'Whiteboards',
  'boards.none': 'No boards yet.',
  'boards.new': 'New board',
  'boards.name': 'Title',
  'boards.members': 'Friends to draw with (usernames, separated by commas)',
  'boards.create': 'Create board',
  'boards.yours': 'Your boards',
  'boards.kind.adhoc': 'with friends',
  'boards.kind.group': 'group board',
});
register('zh-CN', {
  'boards.title': '白板',
  'boards.none': '还没有白板。',
  'boards.new': '新建白板',
  'boards.name': '标题',
  'boards.members': '一起画的好友（用户名，用逗号分隔）',
  'boards.create': '创建白板',
  'boards.yours': '我的白板',
  'boards.kind.adhoc': '好友白板',
  'boards.kind.group': '群白板',
});

export default class WhiteboardsView extends View {
  static properties = { ...View.properties, items: { state: true } };

  constructor() {
    super();
    this.items = null;
  }

  connectedCallback() {
    super.connectedCallback();
    liveStyles();
    onPush(this, ['board_added', 'board_removed'], () => this.load(), () => this.load());
    this.load();
  }

  async load() {
    const page = await this.run(() => get('/boards', { limit: 50 }));
    if (page) {
      this.items = page.items;
    }
  }

  async create(e) {
    e.preventDefault();
    const f = formData(e.target);
    const names = (f.members || '').split(',').map((s) => s.trim()).filter(Boolean);
    const board = await this.run(async () => {
      const users = await Promise.all(names.map(byUsername));
      return post('/boards', { title: f.title || '', members: users.map((u) => u.id) });
    });
    if (board) {
      shell.navigate('/boards/' + board.id);
    }
  }

  render() {
    return html`
      <h1>${t('boards.title')}</h1>
      ${this.renderProblem()}
      <div class="columns">
        <section class="card" aria-labelledby="boards-h">
          <h2 id="boards-h">${t('boards.yours')}</h2>
          ${this.items && !this.items.length ? html`<p class="muted">${t('boards.none')}</p>` : nothing}
          <ul class="list">${(this.items || []).map((b) => html`<li><a class="grow" href=${'#/boards/' + b.id}>
            <b>${b.title}</b></a><span class="muted">${t('boards.kind.' + b.kind)} · ${formatTime(b.created)}</span>
          </li>`)}</ul>
        </section>
        <form class="card" @submit=${(e) => this.create(e)} aria-labelledby="newboard-h">
          <h2 id="newboard-h">${t('boards.new')}</h2>
          <label>${t('boards.name')}<input name="title" required maxlength="100"></label>
          <label>${t('boards.members')}<input name="members" autocomplete="off"></label>
          <button ?disabled=${this.busy}>${t('boards.create')}</button>
        </form>
      </div>`;
  }
}
