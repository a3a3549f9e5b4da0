// The user's graph: whom they follow, followers, friends, follow requests (accept, decline, cancel), circles (create,
// rename, delete, members), tags, and the people they block, mute or hide their posts from.

import { View, html, nothing, shell } from '../view.js';
import { register, t } from '../i18n.js';
import { del, get, patch, post } from '../api.js';
import { Paged } from '../parts/paged.js';
import { userList } from '../parts/users.js';

register('en', {
  'relations.title': 'Relations',
  'relations.following': 'Following',
  'relations.followers': 'Followers',
  'relations.friends': 'Friends',
  'relations.incoming': 'Requests to you',
  'relations.outgoing': 'Your requests',
  'relations.circles': 'Circles',
  'relations.tags': 'Tags',
  'relations.blocks': 'Blocked',
  'relations.mutes': 'Muted',
  'relations.hides': 'Hidden from',
  'relations.unfollow': 'Unfollow',
  'relations.removeFollower': 'Remove follower',
  'relations.accept': 'Accept',
  'relations.decline': 'Decline',
  'relations.cancel': 'Cancel request',
  'relations.unblock': 'Unblock',
  'relations.unmute': 'Unmute',
  'relations.unhide': 'Stop hiding',
  'relations.remove': 'Remove',
  'relations.empty': 'Nobody here.',
  'relations.newCircle': 'New circle name',
  'relations.create': 'Create circle',
  'relations.rename': 'Rename',
  'relations.deleteCircle': 'Delete circle',
  'relations.members': 'Members of {name}',
  'relations.tagged': 'Tagged {tag}',
  'relations.size': '{n} people',
  'relations.circleHint': 'Add friends to a circle from their page.',
  'relations.circleGone': 'That circle no longer exists (deleted elsewhere); the list is up to date again.',
});
register('zh-CN', {
  'relations.title': '关系',
  'relations.following': '关注',
  'relations.followers': '粉丝',
  'relations.friends': '好友',
  'relations.incoming': '收到的申请',
  'relations.outgoing': '发出的申请',
  'relations.circles': '分组',
  'relations.tags': '标签',
  'relations.blocks': '黑名单',
  'relations.mutes': '不看 TA',
  'relations.hides': '不让 TA 看',
  'relations.unfollow': '取消关注',
  'relations.removeFollower': '移除粉丝',
  'relations.accept': '接受',
  'relations.decline': '拒绝',
  'relations.cancel': '取消申请',
  'relations.unblock': '取消拉黑',
  'relations.unmute': '恢复查看',
  'relations.unhide': '允许查看',
  'relations.remove': '移除',
  'relations.empty': '这里还没有人。',
  'relations.newCircle': '新分组名称',
  'relations.create': '创建分组',
  'relations.rename': '重命名',
  'relations.deleteCircle': '删除分组',
  'relations.members': '{name} 的成员',
  'relations.tagged': '标签：{tag}',
  'relations.size': '{n} 人',
  'relations.circleHint': '在好友的页面把 TA 加入分组。',
  'relations.circleGone': '该分组已不存在（已在别处删除），列表已更新。',
});

const me = () => shell.me.id;

/** The user lists: where each comes from and what a row's buttons do. */
const LISTS = {
  following: { path: () => '/users/' + me() + '/following',
    actions: [['relations.unfollow', (u) => del('/following/' + u.id)]] },
  followers: { path: () => '/users/' + me() + '/followers',
    actions: [['relations.removeFollower', (u) => del('/me/followers/' + u.id)]] },
  friends: { path: () => '/me/friends', actions: [] },
  incoming: { path: () => '/me/follow-requests/incoming',
    actions: [['relations.accept', (u) => post('/me/follow-requests/' + u.id + '/accept')],
      ['relations.decline', (u) => post('/me/follow-requests/' + u.id + '/reject')]] },
  outgoing: { path: () => '/me/follow-requests/outgoing', actions: [['relations.cancel', (u) => del('/following/' + u.id)]] },
  blocks: { path: () => '/me/blocks', actions: [['relations.unblock', (u) => del('/me/blocks/' + u.id)]] },
  mutes: { path: () => '/me/mutes', actions: [['relations.unmute', (u) => del('/me/mutes/' + u.id)]] },
  hides: { path: () => '/me/hides', actions: [['relations.unhide', (u) => del('/me/hides/' + u.id)]] },
};
const TABS = ['following', 'followers', 'friends', 'incoming', 'outgoing', 'circles', 'tags', 'blocks', 'mutes', 'hides'];

export default class RelationsView extends View {
  static properties = { tab: { state: true }, circles: { state: true }, tags: { state: true }, group: { state: true } };

  connectedCallback() {
    super.connectedCallback();
    this.select(TABS.includes(this.params.tab) ? this.params.tab : 'following');
  }

  /** Shows a tab: a user list, or the circles or tags with one of them opened (this.group). */
  select(tab) {
    this.tab = tab;
    this.group = null;
    this.list = null;
    this.run(async () => {
      if (LISTS[tab]) {
        this.list = new Paged(this, (cursor) => get(LISTS[tab].path(), { cursor, limit: 50 }));
        await this.list.reset();
      } else if (tab === 'circles') {
        this.circles = (await get('/me/circles')).items;
      } else {
        this.tags = (await get('/me/tags')).items;
      }
    });
  }

  /** Opens a circle ({circle}) or a tag ({tag}) and lists its members. */
  openGroup(group) {
    this.group = group;
    const path = group.circle ? '/me/circles/' + group.circle.id + '/members'
      : '/me/tags/' + encodeURIComponent(group.tag) + '/users';
    this.list = new Paged(this, (cursor) => get(path, { cursor, limit: 50 }));
    this.run(() => this.list.reset()).then(() => this.circleGone());
  }

  /**
   * After a circle call: circle_not_found means another tab or device deleted the circle, so the circles are read
   * again and the user told, instead of leaving a list that offers a circle that is gone.
   */
  circleGone() {
    if (this.error && this.error.code === 'circle_not_found') {
      this.select('circles');
      this.notice = t('relations.circleGone');
    }
  }

  async rowAction(fn, u) {
    if (await this.run(() => fn(u).then(() => true))) {
      this.list.remove((i) => i.user.id === u.id);
    }
  }

  async createCircle(e) {
    e.preventDefault();
    const name = e.target.name.value.trim();
    if (await this.run(() => post('/me/circles', { name }))) {
      e.target.reset();
      this.select('circles');
    }
  }

  async renameCircle(c) {
    const name = window.prompt(t('relations.rename'), c.name);
    if (name && name.trim() && await this.run(() => patch('/me/circles/' + c.id, { name: name.trim() }))) {
      this.select('circles');
    }
    this.circleGone();
  }

  async deleteCircle(c) {
    if (await this.run(() => del('/me/circles/' + c.id).then(() => true))) {
      this.select('circles');
    }
    this.circleGone();
  }

  groupActions() {
    const g = this.group;
    if (g.circle) {
      return [['relations.remove', (u) => post('/me/circles/' + g.circle.id + '/members/remove', { ids: [u.id] })]];
    }
    return [['relations.remove', (u) => del('/me/tags/' + encodeURIComponent(g.tag) + '/users/' + u.id)]];
  }

  renderUsers(actions, label) {
    const users = this.list ? this.list.items.map((i) => i.user) : [];
    if (!users.length) {
      return this.busy ? nothing : html`<p class="muted">${t('relations.empty')}</p>`;
    }
    return html`${userList(users, label, (u) => html`<span class="actions">${actions.map(([key, fn]) =>
      html`<button type="button" class="secondary" @click=${() => this.rowAction(fn, u)}>${t(key)}</button>`)}</span>`)}
      ${this.list.renderMore()}`;
  }

  renderCircles() {
    return html`<form class="card actions" @submit=${(e) => this.createCircle(e)}>
        <label>${t('relations.newCircle')}<input name="name" maxlength="40" required></label>
        <button ?disabled=${this.busy}>${t('relations.create')}</button>
      </form>
      <p class="muted">${t('relations.circleHint')}</p>
      <ul class="list" aria-label=${t('relations.circles')}>${(this.circles || []).map((c) => html`<li>
        <button type="button" class="link grow" @click=${() => this.openGroup({ circle: c })}>${c.name}</button>
        <span class="muted">${t('relations.size', { n: c.size })}</span>
        <button type="button" class="secondary" @click=${() => this.renameCircle(c)}>${t('relations.rename')}</button>
        <button type="button" class="secondary" @click=${() => this.deleteCircle(c)}>${t('relations.deleteCircle')}</button>
      </li>`)}</ul>`;
  }

  renderTags() {
    return html`<ul class="list" aria-label=${t('relations.tags')}>${(this.tags || []).map((x) => html`<li>
      <button type="button" class="link grow" @click=${() => this.openGroup({ tag: x.tag })}>${x.tag}</button>
      <span class="muted">${t('relations.size', { n: x.count })}</span></li>`)}</ul>
      ${this.tags && !this.tags.length ? html`<p class="muted">${t('relations.empty')}</p>` : nothing}`;
  }

  renderTab() {
    if (LISTS[this.tab]) {
      return this.renderUsers(LISTS[this.tab].actions, t('relations.' + this.tab));
    }
    if (this.group) {
      const title = this.group.circle ? t('relations.members', { name: this.group.circle.name })
        : t('relations.tagged', { tag: this.group.tag });
      return html`<h2>${title}</h2>${this.renderUsers(this.groupActions(), title)}`;
    }
    return this.tab === 'circles' ? this.renderCircles() : this.renderTags();
  }

  render() {
    return html`
      <h1>${t('relations.title')}</h1>
      <div class="tabs" role="tablist">${TABS.map((tab) => html`<button type="button" role="tab"
        aria-selected=${this.tab === tab ? 'true' : 'false'} @click=${() => this.select(tab)}>
        ${t('relations.' + tab)}</button>`)}</div>
      ${this.renderProblem()}
      ${this.renderTab()}`;
  }
}
