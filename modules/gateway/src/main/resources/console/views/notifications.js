// Notifications: the list newest first (older pages by cursor), new ones prepended as they are pushed (a push that
// replaces an older one in its slot drops it), mark one or all read; the unread counts come with every answer and
// push and feed the menu's badge (unread.js). After a reconnect the notifications newer than the newest held are
// read with since_id (pushes are at most once).

import { View, html, nothing } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { get, post } from '../api.js';
import { liveStyles, onPush } from './live.js';
import { onUnread, setUnread, unreadCounts } from './unread.js';

const TEXT_EN = {
  follower: '{actor} followed you',
  follow_request: '{actor} asked to follow you',
  request_accepted: '{actor} accepted your follow request',
  friend: 'You and {actor} are now friends',
  comment: '{actor} commented on your post',
  reply: '{actor} replied to your comment',
  like: '{actor} liked your post',
  repost: '{actor} reposted your post',
  mention: '{actor} mentioned you in a post',
  message: '{actor} sent you {count} message(s): {preview}',
  chat_mention: '{actor} mentioned you in {title}: {preview}',
  group_invitation: '{actor} invited you to the group {title}',
  member_kicked: '{actor} removed you from the group {title}',
  activity_updated: '{actor} changed {title}',
  activity_cancelled: '{title} was cancelled',
  activity_joined: '{actor} joined your activity {title}',
  activity_removed: '{actor} removed you from {title}',
  activity_invitation: '{actor} invited you to {title}',
  activity_starting_soon: '{title} starts soon',
  export_ready: 'Your data export is ready',
  moderation_warning: 'A moderator warned you: {reason}',
  account_suspended: 'Your account was suspended: {reason}',
  appeal_decided: 'Your appeal was decided: {decision}',
};
const TEXT_ZH = {
  follower: '{actor} 关注了你',
  follow_request: '{actor} 请求关注你',
  request_accepted: '{actor} 接受了你的关注请求',
  friend: '你和 {actor} 成为了好友',
  comment: '{actor} 评论了你的动态',
  reply: '{actor} 回复了你的评论',
  like: '{actor} 赞了你的动态',
  repost: '{actor} 转发了你的动态',
  mention: '{actor} 在动态中提到了你',
  message: '{actor} 给你发了 {count} 条消息：{preview}',
  chat_mention: '{actor} 在 {title} 中提到了你：{preview}',
  group_invitation: '{actor} 邀请你加入群聊 {title}',
  member_kicked: '{actor} 将你移出了群聊 {title}',
  activity_updated: '{actor} 修改了 {title}',
  activity_cancelled: '{title} 已取消',
  activity_joined: '{actor} 参加了你的活动 {title}',
  activity_removed: '{actor} 将你移出了 {title}',
  activity_invitation: '{actor} 邀请你参加 {title}',
  activity_starting_soon: '{title} 即将开始',
  export_ready: '你的数据导出已就绪',
  moderation_warning: '版主警告了你：{reason}',
  account_suspended: '你的账号已被暂停：{reason}',
  appeal_decided: '你的申诉已有结果：{decision}',
};
const prefix = (table) => Object.fromEntries(Object.entries(table).map(([k, v]) => ['ntf.' + k, v]));

register('en', {
  ...prefix(TEXT_EN),
  'ntf.title': 'Notifications',
  'ntf.other': 'A {type} notification',
  'ntf.none': 'Nothing yet.',
  'ntf.unread': 'Unread: {count}',
  'ntf.markAll': 'Mark all read',
  'ntf.markOne': 'Mark read',
  'ntf.new': 'New',
  'ntf.someone': 'Someone',
  'ntf.open': 'Open',
});
register('zh-CN', {
  ...prefix(TEXT_ZH),
  'ntf.title': '通知',
  'ntf.other': '一条 {type} 通知',
  'ntf.none': '暂无通知。',
  'ntf.unread': '未读：{count}',
  'ntf.markAll': '全部标为已读',
  'ntf.markOne': '标为已读',
  'ntf.new': '新',
  'ntf.someone': '有人',
  'ntf.open': '打开',
});

/** The sentence for a notification, from its type and fields. */
function sentence(n) {
  const actor = n.actor ? (n.actor.nickname || '@' + n.actor.username) : t('ntf.someone');
  const params = { ...n, ...(n.data || {}), actor };
  return TEXT_EN[n.type] ? t('ntf.' + n.type, params) : t('ntf.other', { type: n.type });
}

/** Where a notification leads in the console, or null. */
function link(n) {
  if (n.activity) {
    return '#/activities/' + n.activity;
  }
  if (n.conversation || n.group) {
    return '#/chat/' + (n.conversation || n.group);
  }
  return null;
}

export default class NotificationsView extends View {
  static properties = {
    ...View.properties,
    items: { state: true },
    next: { state: true },
  };

  constructor() {
    super();
    this.items = null;
    this.next = null;
  }

  connectedCallback() {
    super.connectedCallback();
    liveStyles();
    this.onCleanup(onUnread(() => this.requestUpdate()));
    onPush(this, ['notification'], (body) => this.arrived([body.notification], body.replaces),
      () => this.catchUp());
    this.load();
  }

  async load(cursor) {
    const page = await this.run(() => get('/notifications', { limit: 20, cursor }));
    if (page) {
      this.items = cursor ? [...this.items, ...page.items] : page.items;
      this.next = page.next_cursor;
    }
  }

  async catchUp() {
    const newest = this.items && this.items[0];
    if (newest) {
      const page = await get('/notifications', { since_id: newest.id, limit: 100 }).catch(() => null);
      if (page) {
        this.arrived(page.items, []);
      }
    }
  }

  arrived(fresh, replaces) {
    const drop = new Set([...(replaces || []), ...fresh.map((n) => n.id)]);
    this.items = [...fresh, ...(this.items || []).filter((n) => !drop.has(n.id))].sort((a, b) => b.id - a.id);
  }

  async markRead(selection) {
    const change = await this.run(() => post('/notifications/read', selection));
    if (change) {
      setUnread(change.counts);
      const ids = selection.ids ? new Set(selection.ids) : null;
      this.items = this.items.map((n) => (!ids || ids.has(n.id) ? { ...n, unread: false } : n));
    }
  }

  renderItem(n) {
    const href = link(n);
    return html`<li class=${n.unread ? 'unread' : ''} data-type=${n.type}>
      ${n.actor ? html`<kith-avatar .user=${n.actor}></kith-avatar>` : html`<span class="avatar" aria-hidden="true">!</span>`}
      <span class="grow">${n.unread ? html`<b class="new">${t('ntf.new')}</b> ` : nothing}${sentence(n)}
        <br><span class="muted">${formatTime(n.created)}</span>
        ${href ? html` · <a href=${href}>${t('ntf.open')}</a>` : nothing}</span>
      ${n.unread ? html`<button type="button" class="secondary" @click=${() => this.markRead({ ids: [n.id] })}>
        ${t('ntf.markOne')}</button>` : nothing}
    </li>`;
  }

  render() {
    const total = unreadCounts().total;
    return html`
      <h1>${t('ntf.title')}</h1>
      ${this.renderProblem()}
      <section class="card" aria-labelledby="ntf-h">
        <div class="head">
          <h2 id="ntf-h">${t('ntf.unread', { count: total })}</h2>
          <button type="button" ?disabled=${this.busy || !total} @click=${() => this.markRead({ all: true })}>
            ${t('ntf.markAll')}</button>
        </div>
        ${this.items && !this.items.length ? html`<p class="muted">${t('ntf.none')}</p>` : nothing}
        <ul class="list notifications" aria-live="polite">${(this.items || []).map((n) => this.renderItem(n))}</ul>
        ${this.next ? html`<button type="button" class="secondary" ?disabled=${this.busy}
          @click=${() => this.load(this.next)}>${t('app.more')}</button>` : nothing}
      </section>`;
  }
}
