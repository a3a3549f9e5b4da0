// Another user's page: their profile, what they are to the reader (POST /api/v1/relationships), the reader's
// actions on them (follow, block, mute, hide, tags, circles) and their posts.

import { View, html, nothing, shell, userName } from '../view.js';
import { register, t } from '../i18n.js';
import { call, del, get, post, put } from '../api.js';
import { Paged } from '../parts/paged.js';
import { postList } from '../parts/post.js';
import { counts } from '../parts/users.js';

register('en', {
  'user.follow': 'Follow',
  'user.unfollow': 'Unfollow',
  'user.requested': 'Requested (cancel)',
  'user.followsYou': 'Follows you',
  'user.friend': 'Friend',
  'user.block': 'Block',
  'user.unblock': 'Unblock',
  'user.mute': 'Mute their posts',
  'user.unmute': 'Unmute',
  'user.hide': 'Hide my posts from them',
  'user.unhide': 'Stop hiding my posts',
  'user.tags': 'Your tags on this person',
  'user.addTag': 'Add a tag',
  'user.tagName': 'Tag name',
  'user.removeTag': 'Remove tag {tag}',
  'user.circles': 'Your circles',
  'user.circlesHint': 'Circles hold friends only.',
  'user.posts': 'Posts',
  'user.noPosts': 'No posts you can see.',
  'user.you': 'This is you.',
  'user.relations': 'You and them',
});
register('zh-CN', {
  'user.follow': '关注',
  'user.unfollow': '取消关注',
  'user.requested': '已申请（取消）',
  'user.followsYou': '关注了你',
  'user.friend': '好友',
  'user.block': '拉黑',
  'user.unblock': '取消拉黑',
  'user.mute': '不看 TA 的动态',
  'user.unmute': '恢复查看',
  'user.hide': '不让 TA 看我的动态',
  'user.unhide': '允许 TA 看我的动态',
  'user.tags': '你给 TA 的标签',
  'user.addTag': '添加标签',
  'user.tagName': '标签名',
  'user.removeTag': '移除标签 {tag}',
  'user.circles': '你的分组',
  'user.circlesHint': '分组只能包含好友。',
  'user.posts': '动态',
  'user.noPosts': '没有你能看到的动态。',
  'user.you': '这是你自己。',
  'user.relations': '你和 TA',
});

export default class UserView extends View {
  static properties = { user: { state: true }, rel: { state: true }, hiding: { state: true },
    circles: { state: true } };

  connectedCallback() {
    super.connectedCallback();
    this.posts = new Paged(this, (cursor) => get('/users/' + this.params.id + '/posts', { cursor, limit: 20 }));
    this.load();
  }

  async load() {
    await this.run(async () => {
      this.user = await get('/users/' + this.params.id);
      if (!this.isMe()) {
        await this.loadRelation();
      }
      await this.posts.reset();
    });
  }

  isMe() {
    return shell.me && this.user && this.user.id === shell.me.id;
  }

  async loadRelation() {
    const id = this.user.id;
    const [rels, circles, hides] = await Promise.all([post('/relationships', { ids: [id] }), get('/me/circles'),
      get('/me/hides', { limit: 100 })]);
    this.rel = rels[id];
    this.circles = circles.items;
    this.hiding = hides.items.some((h) => h.user.id === id);
  }

  /** Runs a relation change, then reads the relationship and the counts again (the server's word, not a guess). */
  async act(fn) {
    await this.run(async () => {
      await fn();
      await this.loadRelation();
      // a blocked user's profile is no longer readable (404): the page keeps what it showed
      this.user = await get('/users/' + this.user.id).catch(() => this.user);
    });
  }

  async addTag(e) {
    e.preventDefault();
    const name = e.target.tag.value.trim();
    if (name) {
      await this.act(() => put('/me/tags/' + encodeURIComponent(name) + '/users/' + this.user.id));
      e.target.reset();
    }
  }

  toggleCircle(circle, on) {
    return this.act(() => post('/me/circles/' + circle.id + '/members' + (on ? '' : '/remove'),
      { ids: [this.user.id] }));
  }

  renderActions(u, r) {
    const id = u.id;
    const follow = r.following ? html`<button type="button" @click=${() => this.act(() => del('/following/' + id))}>
        ${t('user.unfollow')}</button>`
      : r.requested ? html`<button type="button" class="secondary"
        @click=${() => this.act(() => del('/following/' + id))}>${t('user.requested')}</button>`
        : html`<button type="button" @click=${() => this.act(() => put('/following/' + id))}>${t('user.follow')}</button>`;
    const toggle = (on, path, yes, no) => html`<button type="button" class="secondary" aria-pressed=${on ? 'true' : 'false'}
      @click=${() => this.act(() => call(on ? 'DELETE' : 'PUT', path))}>${on ? no : yes}</button>`;
    return html`<section class="card" aria-labelledby="rel-h">
      <h2 id="rel-h">${t('user.relations')}</h2>
      <p class="chips">${r.friend ? html`<span class="chip">${t('user.friend')}</span>` : nothing}
        ${r.followed_by ? html`<span class="chip">${t('user.followsYou')}</span>` : nothing}</p>
      <div class="actions">${follow}
        ${toggle(r.blocking, '/me/blocks/' + id, t('user.block'), t('user.unblock'))}
        ${toggle(r.muting, '/me/mutes/' + id, t('user.mute'), t('user.unmute'))}
        ${toggle(this.hiding, '/me/hides/' + id, t('user.hide'), t('user.unhide'))}
      </div>
      <h3>${t('user.tags')}</h3>
      <p class="chips">${r.tags.map((tag) => html`<span class="chip">${tag}
        <button type="button" class="link" aria-label=${t('user.removeTag', { tag })}
          @click=${() => this.act(() => del('/me/tags/' + encodeURIComponent(tag) + '/users/' + id))}>×</button></span>`)}
      </p>
      <form class="actions" @submit=${(e) => this.addTag(e)}>
        <label>${t('user.tagName')}<input name="tag" maxlength="30" required></label>
        <button>${t('user.addTag')}</button>
      </form>
      <fieldset><legend>${t('user.circles')}</legend>
        <small>${t('user.circlesHint')}</small>
        ${(this.circles || []).map((c) => html`<label class="inline"><input type="checkbox"
          .checked=${r.circles.includes(c.id)} ?disabled=${!r.friend && !r.circles.includes(c.id)}
          @change=${(e) => this.toggleCircle(c, e.target.checked)}> ${c.name}</label>`)}
      </fieldset>
    </section>`;
  }

  render() {
    const u = this.user;
    if (!u) {
      return html`${this.renderProblem()}`;
    }
    return html`
      <section class="card profile">
        <kith-avatar class="large" .user=${u}></kith-avatar>
        <div>
          <h1 class="name">${userName(u)}</h1>
          ${u.signature ? html`<p>${u.signature}</p>` : nothing}
          ${counts(u)}
          ${this.isMe() ? html`<p><a href="#/profile">${t('user.you')}</a></p>` : nothing}
        </div>
      </section>
      ${this.renderProblem()}
      ${this.rel ? this.renderActions(u, this.rel) : nothing}
      <h2>${t('user.posts')}</h2>
      ${this.posts.items.length ? postList(this.posts.items) : html`<p class="muted">${t('user.noPosts')}</p>`}
      ${this.posts.renderMore()}`;
  }
}
