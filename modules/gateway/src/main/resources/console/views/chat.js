// Chat: the conversation list (direct and group, newest activity first, unread counts), starting a direct chat by
// username, making a topic group (friends are invited from its thread), pending group invitations, and the open conversation (chat-thread.js). Routes: /chat,
// /chat?user=<id> (a direct chat, even before its first message) and /chat/:id (a conversation). The list is read
// again when a message or a group arrives on the user's address.

import { View, formData, html, nothing, shell } from '../view.js';
import { register, t } from '../i18n.js';
import { get, post } from '../api.js';
import { byUsername, liveStyles, myId, onPush, remember } from './live.js';
import './chat-thread.js';

register('en', {
  'chat.title': 'Chat',
  'chat.list': 'Conversations',
  'chat.none': 'No conversations yet.',
  'chat.start': 'Start a chat',
  'chat.startUser': 'Username',
  'chat.open': 'Open chat',
  'chat.newGroup': 'New group',
  'chat.groupName': 'Group name',
  'chat.groupTopic': 'Topic',
  'chat.create': 'Create group',
  'chat.invitations': 'Group invitations',
  'chat.invitedBy': 'invited by {name}',
  'chat.join': 'Join',
  'chat.unread': '{count} unread',
  'chat.pick': 'Pick a conversation, or start one.',
});
register('zh-CN', {
  'chat.title': '聊天',
  'chat.list': '会话',
  'chat.none': '还没有会话。',
  'chat.start': '发起聊天',
  'chat.startUser': '用户名',
  'chat.open': '打开聊天',
  'chat.newGroup': '新建群聊',
  'chat.groupName': '群名称',
  'chat.groupTopic': '话题',
  'chat.create': '创建群聊',
  'chat.invitations': '群聊邀请',
  'chat.invitedBy': '由 {name} 邀请',
  'chat.join': '加入',
  'chat.unread': '{count} 条未读',
  'chat.pick': '选择一个会话，或发起新的会话。',
});

const PUSHES = ['message', 'group_added', 'group_invited', 'group_removed'];

function preview(c) {
  const m = c.last_message;
  if (!m) {
    return '';
  }
  if (m.recalled) {
    return t('chat.recalled');
  }
  return (Number(m.sender) === myId() ? t('live.you') + ': ' : '') + (m.text || (m.media ? '📎' : ''));
}

export default class ChatView extends View {
  static properties = {
    ...View.properties,
    items: { state: true },
    invitations: { state: true },
  };

  constructor() {
    super();
    this.items = null;
    this.invitations = [];
  }

  connectedCallback() {
    super.connectedCallback();
    liveStyles();
    onPush(this, PUSHES, () => this.loadList(), () => this.loadList());
    this.loadList();
  }

  async loadList() {
    const [page, invitations] = await Promise.all([get('/conversations', { limit: 50 }),
      get('/me/group-invitations', { limit: 20 })]).catch((e) => {
      this.error = e;
      return [null, null];
    });
    if (page) {
      page.items.forEach((c) => remember(c.peer, c.last_message && c.last_message.sender_summary));
      this.items = page.items;
      this.invitations = invitations.items;
    }
  }

  async startDirect(e) {
    e.preventDefault();
    const f = formData(e.target);
    const user = await this.run(() => byUsername(f.username || ''));
    if (user) {
      shell.navigate('/chat?user=' + user.id);
    }
  }

  async createGroup(e) {
    e.preventDefault();
    const f = formData(e.target);
    const group = await this.run(() => post('/groups', { kind: 'topic', name: f.name || '', topic: f.topic || '' }));
    if (group) {
      shell.navigate('/chat/' + group.id);
    }
  }

  async join(group) {
    if (await this.run(() => post('/groups/' + group.id + '/join'))) {
      shell.navigate('/chat/' + group.id);
    }
  }

  renderItem(c) {
    const current = Number(this.params.id) === c.id || (c.peer && Number(this.params.user) === c.peer.id);
    const name = c.kind === 'group' ? c.group.name : (c.peer.nickname || '@' + (c.peer.username || c.peer.id));
    return html`<li>
      ${c.kind === 'direct' ? html`<kith-avatar .user=${c.peer}></kith-avatar>` : html`<span class="avatar"
        aria-hidden="true">#</span>`}
      <a class="grow" href=${'#/chat/' + c.id} aria-current=${current ? 'page' : 'false'}>
        <b>${name}</b><br><span class="muted">${preview(c)}</span></a>
      ${c.unread ? html`<span class="count" title=${t('chat.unread', { count: c.unread })}>
        <span aria-hidden="true">${c.unread >= 100 ? '99+' : c.unread}</span>
        <span class="sr-only">${t('chat.unread', { count: c.unread })}</span></span>` : nothing}
    </li>`;
  }

  renderForms() {
    return html`
      <form class="card" @submit=${(e) => this.startDirect(e)} aria-labelledby="start-h">
        <h2 id="start-h">${t('chat.start')}</h2>
        <label>${t('chat.startUser')}<input name="username" required autocomplete="off"></label>
        <button ?disabled=${this.busy}>${t('chat.open')}</button>
      </form>
      <form class="card" @submit=${(e) => this.createGroup(e)} aria-labelledby="group-h">
        <h2 id="group-h">${t('chat.newGroup')}</h2>
        <label>${t('chat.groupName')}<input name="name" required maxlength="100"></label>
        <label>${t('chat.groupTopic')}<input name="topic" required maxlength="100"></label>
        <button ?disabled=${this.busy}>${t('chat.create')}</button>
      </form>`;
  }

  renderInvitations() {
    if (!this.invitations.length) {
      return nothing;
    }
    return html`<section class="card" aria-labelledby="inv-h"><h2 id="inv-h">${t('chat.invitations')}</h2>
      <ul class="list">${this.invitations.map((i) => html`<li><span class="grow"><b>${i.group.name}</b>
        <span class="muted">${t('chat.invitedBy', { name: i.by && (i.by.username || i.by.id || i.by) })}</span></span>
        <button type="button" @click=${() => this.join(i.group)}>${t('chat.join')}</button></li>`)}</ul>
    </section>`;
  }

  render() {
    const open = this.params.id || this.params.user;
    return html`
      <h1>${t('chat.title')}</h1>
      ${this.renderProblem()}
      <div class="chat-layout">
        <div class="chat-side">
          <section class="card" aria-labelledby="list-h">
            <h2 id="list-h">${t('chat.list')}</h2>
            ${this.items && !this.items.length ? html`<p class="muted">${t('chat.none')}</p>` : nothing}
            <ul class="list conversations">${(this.items || []).map((c) => this.renderItem(c))}</ul>
          </section>
          ${this.renderInvitations()}
          ${this.renderForms()}
        </div>
        <div class="chat-main">
          ${open ? html`<kith-chat-thread .conversation=${this.params.id ? Number(this.params.id) : null}
            .peerId=${this.params.user ? Number(this.params.user) : null}
            @chat-opened=${() => this.loadList()} @chat-sent=${() => this.loadList()}></kith-chat-thread>`
    : html`<p class="card muted">${t('chat.pick')}</p>`}
        </div>
      </div>`;
  }
}
