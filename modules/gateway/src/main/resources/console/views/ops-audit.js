// The append-only audit log (GET /api/v1/admin/audit, admins only), newest first, filtered by action, actor or
// target, paged by cursor.

import { View, formData, html, nothing } from '../view.js';
import { register, t } from '../i18n.js';
import { loadPage, opsMenu, when } from './ops-common.js';

register('en', {
  'opsa.title': 'Audit log',
  'opsa.action': 'Action (such as user.suspend)',
  'opsa.actor': 'Actor id',
  'opsa.target': 'Target id',
  'opsa.filter': 'Filter',
  'opsa.who': 'Actor',
  'opsa.what': 'Action',
  'opsa.on': 'Target',
  'opsa.details': 'Details',
  'opsa.system': 'system',
});
register('zh-CN', {
  'opsa.title': '审计日志',
  'opsa.action': '操作（如 user.suspend）',
  'opsa.actor': '操作者 ID',
  'opsa.target': '对象 ID',
  'opsa.filter': '筛选',
  'opsa.who': '操作者',
  'opsa.what': '操作',
  'opsa.on': '对象',
  'opsa.details': '详情',
  'opsa.system': '系统',
});

export default class OpsAudit extends View {
  static properties = { items: { state: true }, cursor: { state: true } };

  constructor() {
    super();
    this.items = null;
    this.cursor = null;
    this.filter = {};
  }

  connectedCallback() {
    super.connectedCallback();
    this.load();
  }

  load(more = false) {
    return loadPage(this, '/admin/audit', { ...this.filter, limit: 50 }, more);
  }

  search(e) {
    e.preventDefault();
    this.filter = formData(e.target);
    this.load();
  }

  render() {
    return html`
      <h1>${t('opsa.title')}</h1>
      ${opsMenu('/ops/audit')}
      <form class="card actions" role="search" @submit=${(e) => this.search(e)}>
        <label>${t('opsa.action')}<input name="action" maxlength="64"></label>
        <label>${t('opsa.actor')}<input name="actor" inputmode="numeric" pattern="[0-9]+"></label>
        <label>${t('opsa.target')}<input name="target_id" inputmode="numeric" pattern="[0-9]+"></label>
        <button ?disabled=${this.busy}>${t('opsa.filter')}</button>
      </form>
      ${this.renderProblem()}
      ${this.items === null ? nothing : this.items.length === 0 ? html`<p>${t('ops.none')}</p>` : html`
        <div class="scroll"><table class="grid audit">
          <thead><tr><th scope="col">${t('ops.when')}</th><th scope="col">${t('opsa.who')}</th>
            <th scope="col">${t('opsa.what')}</th><th scope="col">${t('opsa.on')}</th>
            <th scope="col">${t('opsa.details')}</th></tr></thead>
          <tbody>${this.items.map((a) => html`<tr>
            <td>${when(a.at)}</td>
            <td>${a.actor ? html`<a href=${'#/ops/users/' + a.actor}>${a.actor}</a>` : t('opsa.system')}</td>
            <td><code>${a.action}</code></td>
            <td>${a.target ? a.target.type + ' ' + a.target.id : ''}</td>
            <td><code>${JSON.stringify(a.details)}</code></td></tr>`)}</tbody>
        </table></div>`}
      ${this.cursor ? html`<button type="button" class="secondary" @click=${() => this.load(true)}>${t('app.more')}</button>`
    : nothing}`;
  }
}
