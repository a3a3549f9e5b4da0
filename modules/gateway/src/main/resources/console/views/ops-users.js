// Users as moderators see them: found by username (GET /api/v1/admin/users?username=) or opened by id
// (GET /api/v1/admin/users/{id}): role, profile (none while hidden, as a suspended account is), sanctions and reports;
// and the sanctions (warn, limit, unlimit, suspend, unsuspend) and, for admins, the role.

import { View, formData, html, nothing, shell, userName } from '../view.js';
import { register, t } from '../i18n.js';
import { get, post, put } from '../api.js';
import { facts, opsMenu, reasonField, when } from './ops-common.js';

register('en', {
  'opsu.title': 'Users',
  'opsu.find': 'Find a user',
  'opsu.username': 'Username',
  'opsu.search': 'Search',
  'opsu.record': 'User {id}',
  'opsu.role': 'Role',
  'opsu.hidden': 'Hidden (suspended or gone)',
  'opsu.profile': 'Profile',
  'opsu.against': 'Reports against (open)',
  'opsu.filed': 'Reports filed',
  'opsu.sanctions': 'Sanctions',
  'opsu.act': 'Act on this user',
  'opsu.warn': 'Warn',
  'opsu.state': 'State',
  'opsu.state.active': 'Active',
  'opsu.state.limited': 'Limited',
  'opsu.state.suspended': 'Suspended',
  'opsu.state.pending_deletion': 'Deletion requested',
  'opsu.state.gone': 'Gone',
  'opsu.limit': 'Limit',
  'opsu.unlimit': 'Unlimit',
  'opsu.suspend': 'Suspend',
  'opsu.unsuspend': 'Unsuspend',
  'opsu.setRole': 'Set role',
});
register('zh-CN', {
  'opsu.title': '用户',
  'opsu.find': '查找用户',
  'opsu.username': '用户名',
  'opsu.search': '搜索',
  'opsu.record': '用户 {id}',
  'opsu.role': '角色',
  'opsu.hidden': '已隐藏（被封禁或已删除）',
  'opsu.profile': '资料',
  'opsu.against': '被举报（待处理）',
  'opsu.filed': '提交的举报',
  'opsu.sanctions': '处罚记录',
  'opsu.act': '处理此用户',
  'opsu.warn': '警告',
  'opsu.state': '状态',
  'opsu.state.active': '正常',
  'opsu.state.limited': '受限',
  'opsu.state.suspended': '已封禁',
  'opsu.state.pending_deletion': '待注销',
  'opsu.state.gone': '已不存在',
  'opsu.limit': '限制',
  'opsu.unlimit': '解除限制',
  'opsu.suspend': '封禁',
  'opsu.unsuspend': '解除封禁',
  'opsu.setRole': '设置角色',
});

const ROLES = ['user', 'moderator', 'admin'];

export default class OpsUsers extends View {
  static properties = { record: { state: true } };

  constructor() {
    super();
    this.record = null;
  }

  connectedCallback() {
    super.connectedCallback();
    if (this.params.id) {
      this.open(() => get('/admin/users/' + encodeURIComponent(this.params.id)));
    }
  }

  async open(fetch) {
    const record = await this.run(fetch);
    if (record) {
      this.record = record;
    }
  }

  find(e) {
    e.preventDefault();
    const username = formData(e.target).username || '';
    this.open(() => get('/admin/users', { username }));
  }

  async sanction(e) {
    e.preventDefault();
    const kind = e.submitter.value;
    const f = formData(e.target);
    const body = { reason: f.reason || '' };
    if ((kind === 'suspend' || kind === 'limit') && f.until) {
      body.until = new Date(f.until).getTime();
    }
    const id = this.record.user_id;
    if (await this.run(() => post('/admin/users/' + id + '/' + kind, body), t('ops.done'))) {
      const notice = this.notice;
      await this.open(() => get('/admin/users/' + id));
      this.notice = notice;
    }
  }

  async setRole(e) {
    e.preventDefault();
    const id = this.record.user_id;
    const role = formData(e.target).role;
    if (await this.run(() => put('/admin/users/' + id + '/role', { role }), t('ops.done'))) {
      this.record = { ...this.record, role };
    }
  }

  renderRecord(r) {
    const p = r.profile;
    return html`<section class="card" aria-labelledby="record-h">
      <h2 id="record-h">${t('opsu.record', { id: r.user_id })}</h2>
      ${facts([
    [t('opsu.profile'), p ? html`<kith-avatar .user=${p}></kith-avatar> ${userName(p)}` : t('opsu.hidden')],
    [t('opsu.state'), t('opsu.state.' + r.state) + (r.state_until ? ' → ' + when(r.state_until) : '')],
    [t('opsu.role'), r.role],
    [t('opsu.against'), r.reports_against + ' (' + r.open_reports_against + ')'],
    [t('opsu.filed'), r.reports_filed],
  ])}
      <h3>${t('opsu.sanctions')}</h3>
      ${r.sanctions.length ? html`<ul class="list sanctions">${r.sanctions.map((s) => html`<li>
        <b>${s.kind}</b> <span class="grow">${s.reason}</span>
        <span class="muted">${when(s.at)}${s.until ? ' → ' + when(s.until) : ''}</span></li>`)}</ul>`
    : html`<p>${t('ops.none')}</p>`}
    </section>
    <form class="card" @submit=${(e) => this.sanction(e)} aria-labelledby="act-h">
      <h2 id="act-h">${t('opsu.act')}</h2>
      ${reasonField('user-reason')}
      <label for="user-until">${t('ops.until')}</label><input id="user-until" name="until" type="datetime-local">
      <div class="actions">
        <button name="kind" value="warn" ?disabled=${this.busy}>${t('opsu.warn')}</button>
        <button name="kind" value="limit" ?disabled=${this.busy}>${t('opsu.limit')}</button>
        <button name="kind" value="unlimit" class="secondary" ?disabled=${this.busy}>${t('opsu.unlimit')}</button>
        <button name="kind" value="suspend" class="danger" ?disabled=${this.busy}>${t('opsu.suspend')}</button>
        <button name="kind" value="unsuspend" class="secondary" ?disabled=${this.busy}>${t('opsu.unsuspend')}</button>
      </div>
    </form>
    ${shell.me && shell.me.role === 'admin' ? html`<form class="card" @submit=${(e) => this.setRole(e)}>
      <label>${t('opsu.role')}<select name="role">${ROLES.map((x) => html`<option value=${x}
        ?selected=${x === r.role}>${x}</option>`)}</select></label>
      <button ?disabled=${this.busy}>${t('opsu.setRole')}</button>
    </form>` : nothing}`;
  }

  render() {
    return html`
      <h1>${t('opsu.title')}</h1>
      ${opsMenu('/ops/users')}
      <form class="card" role="search" @submit=${(e) => this.find(e)} aria-labelledby="find-h">
        <h2 id="find-h">${t('opsu.find')}</h2>
        <label>${t('opsu.username')}<input name="username" required maxlength="30" autocomplete="off"></label>
        <button ?disabled=${this.busy}>${t('opsu.search')}</button>
      </form>
      ${this.renderProblem()}
      ${this.record ? this.renderRecord(this.record) : nothing}`;
  }
}
