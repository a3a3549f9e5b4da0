// The moderation queue (GET /api/v1/admin/reports) and its decisions (POST /api/v1/admin/reports/{id}/decision):
// dismiss, remove the content, warn, limit or suspend its owner, each with a reason. Newest first, filtered by state and
// category, paged by cursor.

import { View, formData, html, nothing } from '../view.js';
import { register, t } from '../i18n.js';
import { post } from '../api.js';
import { facts, loadPage, opsMenu, reasonField, when } from './ops-common.js';

register('en', {
  'opsq.title': 'Moderation queue',
  'opsq.state': 'State',
  'opsq.state.open': 'Open',
  'opsq.state.dismissed': 'Dismissed',
  'opsq.state.actioned': 'Actioned',
  'opsq.category': 'Category',
  'opsq.any': 'Any',
  'opsq.report': 'Report {id}',
  'opsq.target': 'Reported',
  'opsq.owner': 'Owner',
  'opsq.comment': 'Comment',
  'opsq.filed': 'Filed',
  'opsq.decision': 'Decision',
  'opsq.dismiss': 'Dismiss',
  'opsq.remove': 'Remove content',
  'opsq.warn': 'Warn owner',
  'opsq.limit': 'Limit owner',
  'opsq.suspend': 'Suspend owner',
  'opsq.decided': 'Report {id}: {decision}.',
});
register('zh-CN', {
  'opsq.title': '审核队列',
  'opsq.state': '状态',
  'opsq.state.open': '待处理',
  'opsq.state.dismissed': '已驳回',
  'opsq.state.actioned': '已处理',
  'opsq.category': '类别',
  'opsq.any': '全部',
  'opsq.report': '举报 {id}',
  'opsq.target': '被举报对象',
  'opsq.owner': '所有者',
  'opsq.comment': '说明',
  'opsq.filed': '提交于',
  'opsq.decision': '处理结果',
  'opsq.dismiss': '驳回',
  'opsq.remove': '删除内容',
  'opsq.warn': '警告所有者',
  'opsq.limit': '限制所有者',
  'opsq.suspend': '封禁所有者',
  'opsq.decided': '举报 {id}：{decision}。',
});

const STATES = ['open', 'dismissed', 'actioned'];
const CATEGORIES = ['spam', 'harassment', 'hate', 'nudity', 'violence', 'self_harm', 'illegal', 'other'];
const REMOVABLE = ['post', 'comment', 'message', 'group', 'activity'];

export default class OpsQueue extends View {
  static properties = { items: { state: true }, cursor: { state: true }, filter: { state: true } };

  constructor() {
    super();
    this.items = null;
    this.cursor = null;
    this.filter = { state: 'open', category: '' };
  }

  connectedCallback() {
    super.connectedCallback();
    this.load();
  }

  load(more = false) {
    return loadPage(this, '/admin/reports', { ...this.filter, limit: 20 }, more);
  }

  setFilter(e) {
    this.filter = { ...this.filter, [e.target.name]: e.target.value };
    this.load();
  }

  async decide(e, report) {
    e.preventDefault();
    const decision = e.submitter.value;
    const f = formData(e.target);
    const body = { decision, reason: f.reason || '' };
    if ((decision === 'suspend' || decision === 'limit') && f.until) {
      body.until = new Date(f.until).getTime();
    }
    const done = await this.run(() => post('/admin/reports/' + report.id + '/decision', body),
      t('opsq.decided', { id: report.id, decision }));
    if (done) {
      this.items = this.items.map((r) => (r.id === report.id ? done : r));
    }
  }

  renderReport(r) {
    return html`<li class="card report" aria-labelledby=${'report-' + r.id}>
      <div class="grow">
        <h2 id=${'report-' + r.id}>${t('opsq.report', { id: r.id })} · ${r.category}</h2>
        ${facts([
    [t('opsq.target'), r.target.type + ' ' + r.target.id],
    [t('opsq.owner'), html`<a href=${'#/ops/users/' + r.target_owner}>${t('ops.user', { id: r.target_owner })}</a>`],
    [t('opsq.comment'), r.comment],
    [t('opsq.filed'), when(r.created)],
    [t('opsq.state'), t('opsq.state.' + r.state)],
    [t('opsq.decision'), r.decision ? r.decision.decision + ': ' + r.decision.reason : null],
  ])}
        ${r.state === 'open' ? html`<form @submit=${(e) => this.decide(e, r)}>
          ${reasonField('reason-' + r.id)}
          <label for=${'until-' + r.id}>${t('ops.until')}</label>
          <input id=${'until-' + r.id} name="until" type="datetime-local">
          <div class="actions">
            <button name="decision" value="dismiss" class="secondary" ?disabled=${this.busy}>${t('opsq.dismiss')}</button>
            ${REMOVABLE.includes(r.target.type) ? html`<button name="decision" value="remove_content" class="danger"
              ?disabled=${this.busy}>${t('opsq.remove')}</button>` : nothing}
            <button name="decision" value="warn" ?disabled=${this.busy}>${t('opsq.warn')}</button>
            <button name="decision" value="limit" ?disabled=${this.busy}>${t('opsq.limit')}</button>
            <button name="decision" value="suspend" class="danger" ?disabled=${this.busy}>${t('opsq.suspend')}</button>
          </div>
        </form>` : nothing}
      </div>
    </li>`;
  }

  render() {
    return html`
      <h1>${t('opsq.title')}</h1>
      ${opsMenu('/ops/queue')}
      <div class="actions">
        <label>${t('opsq.state')} <select name="state" @change=${(e) => this.setFilter(e)}>
          ${STATES.map((s) => html`<option value=${s} ?selected=${this.filter.state === s}>${t('opsq.state.' + s)}</option>`)}
        </select></label>
        <label>${t('opsq.category')} <select name="category" @change=${(e) => this.setFilter(e)}>
          <option value="">${t('opsq.any')}</option>
          ${CATEGORIES.map((c) => html`<option value=${c} ?selected=${this.filter.category === c}>${c}</option>`)}
        </select></label>
        <button type="button" class="secondary" @click=${() => this.load()}>${t('ops.refresh')}</button>
      </div>
      ${this.renderProblem()}
      ${this.items === null ? html`<p>${t('app.loading')}</p>` : this.items.length === 0 ? html`<p>${t('ops.none')}</p>`
    : html`<ul class="list reports">${this.items.map((r) => this.renderReport(r))}</ul>`}
      ${this.cursor ? html`<button type="button" class="secondary" @click=${() => this.load(true)}>${t('app.more')}</button>`
    : nothing}`;
  }
}
