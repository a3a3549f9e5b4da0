// The three timelines: home (people the user follows, and their own), moments (friends) and latest (everyone's
// public posts), newest first, paged by cursor; "Show newer" asks for posts after the newest shown (since_id).

import { View, html, nothing } from '../view.js';
import { register, t } from '../i18n.js';
import { get } from '../api.js';
import { Paged } from '../parts/paged.js';
import { postList } from '../parts/post.js';

register('en', {
  'timeline.home': 'Home',
  'timeline.moments': 'Moments',
  'timeline.latest': 'Latest',
  'timeline.home.intro': 'Posts of the people you follow, and yours.',
  'timeline.moments.intro': 'Posts of your friends (people you follow who follow you), and yours.',
  'timeline.latest.intro': 'Everyone\'s public posts.',
  'timeline.empty': 'No posts yet.',
  'timeline.newer': 'Show newer posts',
  'timeline.compose': 'Write a post',
});
register('zh-CN', {
  'timeline.home': '首页',
  'timeline.moments': '朋友圈',
  'timeline.latest': '最新',
  'timeline.home.intro': '你关注的人和你自己的动态。',
  'timeline.moments.intro': '好友（互相关注的人）和你自己的动态。',
  'timeline.latest.intro': '所有人的公开动态。',
  'timeline.empty': '还没有动态。',
  'timeline.newer': '显示更新的动态',
  'timeline.compose': '发动态',
});

export default class TimelineView extends View {
  connectedCallback() {
    super.connectedCallback();
    this.kind = this.route.path.slice(1);
    this.page = new Paged(this, (cursor) => get('/timelines/' + this.kind, { cursor, limit: 20 }));
    this.run(() => this.page.reset());
    this.addEventListener('post-removed', (e) => this.page.remove((p) => p.id === e.detail));
  }

  async newer() {
    const newest = this.page.items.length ? this.page.items[0].id : undefined;
    if (!newest) {
      await this.run(() => this.page.reset());
      return;
    }
    const fresh = await this.run(() => get('/timelines/' + this.kind, { since_id: newest, limit: 50 }));
    if (fresh) {
      this.page.add(fresh.items, true);
    }
  }

  render() {
    const items = this.page.items;
    return html`
      <h1>${t('timeline.' + this.kind)}</h1>
      <p class="muted">${t('timeline.' + this.kind + '.intro')}</p>
      <div class="actions">
        <button type="button" class="secondary" ?disabled=${this.busy} @click=${() => this.newer()}>${t('timeline.newer')}</button>
        ${this.kind === 'latest' ? nothing : html`<a href="#/compose">${t('timeline.compose')}</a>`}
      </div>
      ${this.renderProblem()}
      ${items.length ? postList(items) : (this.busy ? nothing : html`<p class="muted">${t('timeline.empty')}</p>`)}
      ${this.page.renderMore()}`;
  }
}
