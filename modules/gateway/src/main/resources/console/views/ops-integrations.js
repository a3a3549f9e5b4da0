// Webhooks and their deliveries, and server API keys (/api/v1/admin/webhooks..., /api/v1/admin/api-keys...). These
// operations are for admins only (keys and webhook secrets are credentials): a moderator sees the API's 403
// role_required here, as the API answers it.

import { View, formData, html, nothing } from '../view.js';
import { register, t } from '../i18n.js';
import { call } from '../api.js';
import { opsMenu, when } from './ops-common.js';

register('en', {
  'opsi.title': 'Webhooks and API keys',
  'opsi.webhooks': 'Webhooks',
  'opsi.url': 'Endpoint URL (https)',
  'opsi.events': 'Events (comma-separated, * for all)',
  'opsi.register': 'Register webhook',
  'opsi.secret': 'Signing secret (shown once): {secret}',
  'opsi.deliveries': 'Deliveries',
  'opsi.replay': 'Replay',
  'opsi.remove': 'Remove',
  'opsi.keys': 'API keys',
  'opsi.name': 'Name',
  'opsi.scopes': 'Scopes',
  'opsi.create': 'Make key',
  'opsi.key': 'New key (shown once): {key}',
  'opsi.revoke': 'Revoke',
  'opsi.revoked': 'revoked',
  'opsi.lastUsed': 'last used',
});
register('zh-CN', {
  'opsi.title': 'Webhook 与 API 密钥',
  'opsi.webhooks': 'Webhook',
  'opsi.url': '端点 URL（https）',
  'opsi.events': '事件（逗号分隔，* 表示全部）',
  'opsi.register': '注册 Webhook',
  'opsi.secret': '签名密钥（仅显示一次）：{secret}',
  'opsi.deliveries': '投递记录',
  'opsi.replay': '重新投递',
  'opsi.remove': '删除',
  'opsi.keys': 'API 密钥',
  'opsi.name': '名称',
  'opsi.scopes': '权限范围',
  'opsi.create': '创建密钥',
  'opsi.key': '新密钥（仅显示一次）：{key}',
  'opsi.revoke': '吊销',
  'opsi.revoked': '已吊销',
  'opsi.lastUsed': '最近使用',
});

const SCOPES = ['notifications:write', 'announcements:write', 'users:read', 'webhooks:admin'];

export default class OpsIntegrations extends View {
  static properties = { hooks: { state: true }, keys: { state: true }, deliveries: { state: true },
    shown: { state: true } };

  constructor() {
    super();
    this.hooks = null;
    this.keys = null;
    this.deliveries = {};
    this.shown = null; // a secret or key answered once
  }

  connectedCallback() {
    super.connectedCallback();
    this.load();
  }

  /** A call of the admin API with the signed-in admin's own session. */
  op(method, path, body, query) {
    return call(method, path, { body, query });
  }

  async load() {
    const [hooks, keys] = await this.run(() => Promise.all([this.op('GET', '/admin/webhooks'),
      this.op('GET', '/admin/api-keys')])) || [];
    if (hooks) {
      this.hooks = hooks.items;
      this.keys = keys.items;
    }
  }

  async addHook(e) {
    e.preventDefault();
    const f = formData(e.target);
    const events = (f.events || '*').split(',').map((x) => x.trim()).filter(Boolean);
    const made = await this.run(() => this.op('POST', '/admin/webhooks', { url: f.url || '', events }));
    if (made) {
      this.shown = t('opsi.secret', { secret: made.secret });
      e.target.reset();
      this.load();
    }
  }

  async showDeliveries(hook) {
    const page = await this.run(() => this.op('GET', '/admin/webhooks/' + hook.id + '/deliveries', undefined,
      { limit: 20 }));
    if (page) {
      this.deliveries = { ...this.deliveries, [hook.id]: page.items };
    }
  }

  async act(method, path, after) {
    if (await this.run(() => this.op(method, path), t('ops.done')) !== undefined) {
      after();
    }
  }

  async addKey(e) {
    e.preventDefault();
    const f = new FormData(e.target);
    const made = await this.run(() => this.op('POST', '/admin/api-keys',
      { name: f.get('name') || '', scopes: f.getAll('scopes') }));
    if (made) {
      this.shown = t('opsi.key', { key: made.key });
      e.target.reset();
      this.load();
    }
  }

  renderHook(h) {
    const list = this.deliveries[h.id];
    return html`<li><div class="grow"><b>${h.url}</b> <span class="muted">${h.source} · ${when(h.created)}</span>
      <div class="chips">${h.events.map((ev) => html`<span class="chip">${ev}</span>`)}</div>
      ${list ? html`<ul class="list deliveries">${list.length ? list.map((d) => html`<li>
        <span class="grow">${d.type} · ${d.resource} · <b>${d.state}</b> (${d.attempts})
          ${d.last && d.last.status ? ' · HTTP ' + d.last.status : ''} · ${when(d.created)}</span>
        <button type="button" class="link" @click=${() => this.act('POST', '/admin/webhooks/' + h.id + '/deliveries/'
          + d.id + '/replay', () => this.showDeliveries(h))}>${t('opsi.replay')}</button></li>`)
    : html`<li>${t('ops.none')}</li>`}</ul>` : nothing}</div>
      <div class="actions">
        <button type="button" class="secondary" @click=${() => this.showDeliveries(h)}>${t('opsi.deliveries')}</button>
        ${h.source === 'admin' ? html`<button type="button" class="danger" @click=${() => this.act('DELETE',
          '/admin/webhooks/' + h.id, () => this.load())}>${t('opsi.remove')}</button>` : nothing}
      </div></li>`;
  }

  renderLists() {
    return html`
      <section class="card" aria-labelledby="hooks-h">
        <h2 id="hooks-h">${t('opsi.webhooks')}</h2>
        ${this.hooks.length ? html`<ul class="list hooks">${this.hooks.map((h) => this.renderHook(h))}</ul>`
    : html`<p>${t('ops.none')}</p>`}
        <form @submit=${(e) => this.addHook(e)}>
          <label>${t('opsi.url')}<input name="url" type="url" required maxlength="2000"></label>
          <label>${t('opsi.events')}<input name="events" value="*"></label>
          <button ?disabled=${this.busy}>${t('opsi.register')}</button>
        </form>
      </section>
      <section class="card" aria-labelledby="keys-h">
        <h2 id="keys-h">${t('opsi.keys')}</h2>
        ${this.keys.length ? html`<ul class="list keys">${this.keys.map((k) => html`<li>
          <span class="grow"><b>${k.name}</b> ${k.scopes.join(', ')} <span class="muted">· ${when(k.created)}
            ${k.last_used ? ' · ' + t('opsi.lastUsed') + ' ' + when(k.last_used) : ''}</span>
            ${k.revoked ? html` · <span class="ko">${t('opsi.revoked')}</span>` : nothing}</span>
          ${k.revoked ? nothing : html`<button type="button" class="danger" @click=${() => this.act('POST',
            '/admin/api-keys/' + k.id + '/revoke', () => this.load())}>${t('opsi.revoke')}</button>`}</li>`)}</ul>`
    : html`<p>${t('ops.none')}</p>`}
        <form @submit=${(e) => this.addKey(e)}>
          <label>${t('opsi.name')}<input name="name" required maxlength="100"></label>
          <fieldset><legend>${t('opsi.scopes')}</legend>${SCOPES.map((s) => html`<label><input type="checkbox"
            name="scopes" value=${s}> ${s}</label>`)}</fieldset>
          <button ?disabled=${this.busy}>${t('opsi.create')}</button>
        </form>
      </section>`;
  }

  render() {
    return html`
      <h1>${t('opsi.title')}</h1>
      ${opsMenu('/ops/integrations')}
      ${this.renderProblem()}
      ${this.shown ? html`<p class="notice" role="status"><code>${this.shown}</code></p>` : nothing}
      ${this.hooks && this.keys ? this.renderLists() : nothing}`;
  }
}
