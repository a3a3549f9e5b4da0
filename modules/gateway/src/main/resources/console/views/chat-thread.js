// One conversation, direct or group, kept live (messaging README, Real time): history paged back by seq, sends over
// HTTP with a client_id, typing over the bridge, the read marker moved to the newest message shown, the peer's read
// receipt, recall. Pushes arrive on the user's address (direct) or the group's room (g<id>); after a reconnect the
// messages after the last seq held are read over HTTP, since pushes are at most once.

import { View, formData, html, nothing } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { get, post, put } from '../api.js';
import { bridge } from '../bridge.js';
import { byUsername, clientId, known, myId, onPush, onRoom, remember, summaries } from './live.js';

register('en', {
  'chat.older': 'Load older messages',
  'chat.empty': 'No messages yet. Say hello!',
  'chat.message': 'Message',
  'chat.send': 'Send',
  'chat.recall': 'Recall',
  'chat.recalled': 'Message recalled',
  'chat.removed': 'Removed by a moderator',
  'chat.read': 'Read',
  'chat.sent': 'Sent',
  'chat.typing': '{name} is typing…',
  'chat.messages': 'Messages',
  'chat.with': 'Chat with {name}',
  'chat.group': 'Group: {name}',
  'chat.members': 'Members: {count}',
  'chat.invite': 'Invite a friend',
  'chat.invited': 'Invited {name}.',
});
register('zh-CN', {
  'chat.older': '加载更早的消息',
  'chat.empty': '还没有消息，打个招呼吧！',
  'chat.message': '消息',
  'chat.send': '发送',
  'chat.recall': '撤回',
  'chat.recalled': '消息已撤回',
  'chat.removed': '已被版主删除',
  'chat.read': '已读',
  'chat.sent': '已发送',
  'chat.typing': '{name} 正在输入…',
  'chat.messages': '消息',
  'chat.with': '与 {name} 聊天',
  'chat.group': '群聊：{name}',
  'chat.members': '成员：{count}',
  'chat.invite': '邀请好友',
  'chat.invited': '已邀请 {name}。',
});

const PAGE = 30;
const TYPING_SHOWN_MS = 4000;
const TYPING_EVERY_MS = 1500;
const KINDS = ['message', 'read', 'recalled', 'message_removed', 'typing'];

/** A name for a user id: the summary's nickname or @username, "You" for the signed-in user. */
function nameOf(id) {
  if (Number(id) === myId()) {
    return t('live.you');
  }
  const u = known(id);
  return u ? (u.nickname || '@' + u.username) : '#' + id;
}

export class ChatThread extends View {
  static properties = {
    ...View.properties,
    conversation: { attribute: false }, // a conversation id, or null for a direct chat not started yet
    peerId: { attribute: false }, // direct: the other user
    info: { state: true }, // the conversation view (GET /conversations/{id})
    messages: { state: true },
    hasOlder: { state: true },
    peerRead: { state: true },
    typingUser: { state: true },
  };

  constructor() {
    super();
    this.messages = [];
    this.info = null;
    this.peerRead = 0;
    this.typingUser = null;
    this.lastTyping = 0;
  }

  connectedCallback() {
    super.connectedCallback();
    onPush(this, KINDS, (body) => this.pushed(body), () => this.catchUp());
    this.onCleanup(() => clearTimeout(this.typingTimer));
    this.load();
  }

  async load() {
    const info = await this.run(async () => {
      if (!this.conversation) {
        const found = await get('/direct/' + this.peerId + '/conversation').catch((e) => {
          if (e.status === 404) {
            return null; // no message yet: the first send makes the conversation
          }
          throw e;
        });
        if (!found) {
          await summaries([this.peerId]);
          return { kind: 'direct', peer: known(this.peerId), last_seq: 0, read_seq: 0 };
        }
        this.conversation = found.id;
        return found;
      }
      return get('/conversations/' + this.conversation);
    });
    if (!info) {
      return;
    }
    remember(info.peer);
    this.info = info;
    this.peerId = info.peer ? info.peer.id : this.peerId;
    this.peerRead = info.peer_read_seq || 0;
    if (info.kind === 'group') {
      this.onCleanup(onRoom('g' + info.id, (body) => this.pushed(body)));
    }
    if (this.conversation) {
      await this.page({ limit: PAGE });
    }
    this.dispatchEvent(new CustomEvent('chat-opened', { bubbles: true, detail: this.conversation }));
  }

  /** Reads a page of history ({limit, before_seq | after_seq}) and merges it. */
  async page(query) {
    const page = await this.run(() => get('/conversations/' + this.conversation + '/messages', query));
    if (page) {
      if (query.after_seq === undefined) {
        this.hasOlder = page.items.length > 0 && page.items[0].seq > 1;
      }
      await this.merge(page.items);
    }
  }

  async catchUp() {
    if (this.conversation && this.messages.length) {
      await this.page({ after_seq: this.messages[this.messages.length - 1].seq, limit: 100 });
    }
  }

  /** Adds or replaces messages by seq, keeps them in seq order, learns their senders, and moves the read marker. */
  async merge(items) {
    items.forEach((m) => remember(m.sender_summary));
    const unknown = items.map((m) => m.sender).filter((id) => !known(id));
    if (unknown.length) {
      await summaries(unknown).catch(() => null);
    }
    const bySeq = new Map(this.messages.map((m) => [m.seq, m]));
    items.forEach((m) => bySeq.set(m.seq, { ...bySeq.get(m.seq), ...m }));
    this.messages = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
    this.markRead();
  }

  markRead() {
    const last = this.messages[this.messages.length - 1];
    if (last && this.info && last.seq > (this.info.read_seq || 0)) {
      this.info = { ...this.info, read_seq: last.seq };
      put('/conversations/' + this.conversation + '/read', { seq: last.seq }).catch(() => {
        // a marker that did not move is moved by the next message shown
      });
    }
  }

  pushed(body) {
    const mine = (c) => c && this.conversation && Number(c) === Number(this.conversation);
    if (body.kind === 'message') {
      const m = body.message;
      const direct = !this.conversation && this.info && this.info.kind === 'direct'
        && [m.sender, m.to].map(Number).includes(Number(this.peerId)) && !m.group;
      if (direct) {
        this.conversation = m.conversation; // the first message made the conversation
      }
      if (mine(m.conversation)) {
        this.typingUser = Number(m.sender) === Number(this.typingUser) ? null : this.typingUser;
        this.merge([m]);
      }
    } else if (body.kind === 'read' && mine(body.conversation) && Number(body.user) !== myId()) {
      this.peerRead = Math.max(this.peerRead, body.seq);
    } else if ((body.kind === 'recalled' || body.kind === 'message_removed') && mine(body.conversation)) {
      const flag = body.kind === 'recalled' ? { recalled: true } : { removed: true };
      this.messages = this.messages.map((m) => (m.seq === body.seq ? { ...m, ...flag, text: undefined } : m));
    } else if (body.kind === 'typing' && mine(body.conversation) && Number(body.user) !== myId()) {
      this.showTyping(body.user);
    } else if (body.kind === 'group_changed') {
      // someone joined, left or was kicked, or the group was renamed: its summary (name, member count) is read anew
      get('/conversations/' + this.conversation).then((info) => { this.info = info; }, () => {});
    }
  }

  async showTyping(user) {
    if (!known(user)) {
      await summaries([user]).catch(() => null);
    }
    this.typingUser = user;
    clearTimeout(this.typingTimer);
    this.typingTimer = setTimeout(() => { this.typingUser = null; }, TYPING_SHOWN_MS);
  }

  typed() {
    const now = Date.now();
    if (this.conversation && now - this.lastTyping > TYPING_EVERY_MS) {
      this.lastTyping = now;
      // ephemeral and rate-limited by Kith: a lost indicator is not worth a message to the user
      bridge.request('kith.messaging.typing', { conversation: this.conversation }).catch(() => {});
    }
  }

  async send(e) {
    e.preventDefault();
    const input = e.target.text;
    const text = input.value.trim();
    if (!text) {
      return;
    }
    const body = { client_id: clientId(), text };
    const path = this.info.kind === 'group' ? '/groups/' + this.info.id + '/messages'
      : '/direct/' + this.peerId + '/messages';
    const sent = await this.run(() => post(path, body));
    if (sent) {
      input.value = '';
      this.conversation = sent.message.conversation;
      this.info = { ...this.info, id: sent.message.conversation };
      await this.merge([sent.message]);
      this.dispatchEvent(new CustomEvent('chat-sent', { bubbles: true, detail: this.conversation }));
    }
  }

  async recall(m) {
    const done = await this.run(() => post('/messages/' + m.id + '/recall'));
    if (done) {
      await this.merge([{ ...done, recalled: true, text: undefined }]);
    }
  }

  async invite(e) {
    e.preventDefault();
    const form = e.target;
    const name = formData(form).username || '';
    const done = await this.run(async () => {
      const friend = await byUsername(name);
      return post('/groups/' + this.info.id + '/invitations', { users: [friend.id] });
    }, t('chat.invited', { name }));
    if (done) {
      form.reset();
    }
  }

  older() {
    return this.page({ before_seq: this.messages[0].seq, limit: PAGE });
  }

  title() {
    if (!this.info) {
      return t('app.loading');
    }
    return this.info.kind === 'group' ? t('chat.group', { name: this.info.group ? this.info.group.name : '' })
      : t('chat.with', { name: nameOf(this.peerId) });
  }

  renderMessage(m) {
    const own = Number(m.sender) === myId();
    const direct = this.info && this.info.kind === 'direct';
    let content = m.text;
    if (m.recalled) {
      content = html`<em class="muted">${t('chat.recalled')}</em>`;
    } else if (m.removed) {
      content = html`<em class="muted">${t('chat.removed')}</em>`;
    }
    return html`<li class=${'msg' + (own ? ' own' : '')} data-seq=${m.seq}>
      <span class="who">${nameOf(m.sender)}</span>
      <span class="text">${content}</span>
      <span class="meta muted">${formatTime(m.created)}
        ${own && direct ? html` · <span class="receipt">${m.seq <= this.peerRead ? t('chat.read') : t('chat.sent')}</span>`
    : nothing}
        ${own && !m.recalled && !m.removed ? html`<button type="button" class="link"
          @click=${() => this.recall(m)}>${t('chat.recall')}</button>` : nothing}</span>
    </li>`;
  }

  render() {
    const group = this.info && this.info.group;
    return html`<section class="card thread" aria-labelledby="thread-h">
      <h2 id="thread-h">${this.title()}</h2>
      ${group ? html`<p class="muted">${t('chat.members', { count: group.member_count })}</p>` : nothing}
      ${this.renderProblem()}
      ${this.hasOlder ? html`<button type="button" class="secondary" ?disabled=${this.busy}
        @click=${() => this.older()}>${t('chat.older')}</button>` : nothing}
      <ol class="messages" aria-label=${t('chat.messages')} aria-live="polite">
        ${this.messages.map((m) => this.renderMessage(m))}
      </ol>
      ${this.info && !this.messages.length ? html`<p class="muted">${t('chat.empty')}</p>` : nothing}
      <p class="typing muted" role="status">${this.typingUser ? t('chat.typing', { name: nameOf(this.typingUser) })
    : nothing}</p>
      <form class="composer" @submit=${(e) => this.send(e)}>
        <label><span class="sr-only">${t('chat.message')}</span>
          <input name="text" maxlength="4000" autocomplete="off" placeholder=${t('chat.message')}
            @input=${() => this.typed()} ?disabled=${!this.info}></label>
        <button ?disabled=${this.busy || !this.info}>${t('chat.send')}</button>
      </form>
      ${group ? html`<form class="composer" @submit=${(e) => this.invite(e)}>
        <label><span class="sr-only">${t('chat.invite')}</span>
          <input name="username" required autocomplete="off" placeholder=${t('live.user')}></label>
        <button class="secondary" ?disabled=${this.busy}>${t('chat.invite')}</button>
      </form>` : nothing}
    </section>`;
  }

  updated() {
    const list = this.querySelector('.messages');
    if (list && this.messages.length !== this.shown) {
      this.shown = this.messages.length;
      list.scrollTop = list.scrollHeight;
    }
  }
}
customElements.define('kith-chat-thread', ChatThread);
