// One activity: what, when, where (with a map link when it has coordinates), the viewer's status, join or leave (a
// full activity with a waitlist puts the joiner in line), the participants and, for the organiser, the waitlist and
// cancelling; the discussion is a managed chat group (views/chat.js) that appears once the activities module made it.

import { View, html, nothing, userName } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { call, get, post } from '../api.js';
import { liveStyles } from './live.js';
import './activities.js'; // the strings shared with the list

register('en', {
  'act.back': 'All activities',
  'act.when': 'When',
  'act.where': 'Where',
  'act.map': 'map',
  'act.organiser': 'Organiser',
  'act.places': 'Places',
  'act.unlimited': 'no limit',
  'act.status': 'You',
  'act.status.organiser': 'organise it',
  'act.status.joined': 'are going',
  'act.status.waitlisted': 'are number {position} on the waitlist',
  'act.status.invited': 'are invited',
  'act.status.removed': 'were removed by the organiser',
  'act.status.none': 'are not going',
  'act.cancelled': 'This activity was cancelled.',
  'act.join': 'Join',
  'act.leave': 'Leave',
  'act.cancel': 'Cancel the activity',
  'act.cancelSure': 'Cancel this activity for everyone? This cannot be undone.',
  'act.discussion': 'Open the discussion',
  'act.participants': 'Going',
  'act.waiting': 'Waitlist',
  'act.joinedDone': 'You are going.',
  'act.waitDone': 'The activity is full: you are number {position} on the waitlist.',
});
register('zh-CN', {
  'act.back': '全部活动',
  'act.when': '时间',
  'act.where': '地点',
  'act.map': '地图',
  'act.organiser': '组织者',
  'act.places': '名额',
  'act.unlimited': '不限',
  'act.status': '你',
  'act.status.organiser': '是组织者',
  'act.status.joined': '已参加',
  'act.status.waitlisted': '在候补名单第 {position} 位',
  'act.status.invited': '已受邀',
  'act.status.removed': '已被组织者移出',
  'act.status.none': '未参加',
  'act.cancelled': '此活动已取消。',
  'act.join': '参加',
  'act.leave': '退出',
  'act.cancel': '取消活动',
  'act.cancelSure': '为所有人取消此活动？此操作无法撤销。',
  'act.discussion': '打开讨论群',
  'act.participants': '参加者',
  'act.waiting': '候补名单',
  'act.joinedDone': '你已参加。',
  'act.waitDone': '活动已满：你在候补名单第 {position} 位。',
});

export default class ActivityView extends View {
  static properties = {
    ...View.properties,
    activity: { state: true },
    going: { state: true },
    waiting: { state: true },
  };

  constructor() {
    super();
    this.activity = null;
    this.going = [];
    this.waiting = [];
  }

  connectedCallback() {
    super.connectedCallback();
    liveStyles();
    this.load();
  }

  async load() {
    const id = this.params.id;
    const a = await this.run(() => get('/activities/' + id));
    if (!a) {
      return;
    }
    this.activity = a;
    const going = await this.run(() => get('/activities/' + id + '/participants', { limit: 100 }));
    this.going = going ? going.items : [];
    if (a.viewer.status === 'organiser' && a.waitlist) {
      const waiting = await this.run(() => get('/activities/' + id + '/participants',
        { status: 'waitlisted', limit: 100 }));
      this.waiting = waiting ? waiting.items : [];
    }
  }

  async join() {
    const m = await this.run(() => call('PUT', '/activities/' + this.activity.id + '/participation'));
    if (m) {
      await this.load();
      this.notice = m.status === 'waitlisted' ? t('act.waitDone', { position: m.position }) : t('act.joinedDone');
    }
  }

  async leave() {
    if (await this.run(() => call('DELETE', '/activities/' + this.activity.id + '/participation')) !== undefined) {
      await this.load();
    }
  }

  async cancel() {
    if (!window.confirm(t('act.cancelSure'))) {
      return; // cancelling cannot be undone and tells every participant
    }
    if (await this.run(() => post('/activities/' + this.activity.id + '/cancel'))) {
      await this.load();
    }
  }

  renderFacts(a) {
    const p = a.place;
    const map = p.lat !== undefined && p.lat !== null
      ? html` (<a href=${'https://www.openstreetmap.org/?mlat=' + p.lat + '&mlon=' + p.lon + '#map=16/' + p.lat + '/'
        + p.lon} rel="noopener noreferrer" target="_blank">${t('act.map')} ${p.lat}, ${p.lon}</a>)` : nothing;
    const status = a.viewer.status;
    return html`<dl class="facts">
      <dt>${t('act.when')}</dt><dd>${formatTime(a.start)} – ${formatTime(a.end)}</dd>
      <dt>${t('act.where')}</dt><dd>${p.name}${map}</dd>
      <dt>${t('act.organiser')}</dt><dd>${a.organiser.username ? userName(a.organiser) : '#' + a.organiser.id}</dd>
      <dt>${t('act.places')}</dt><dd>${a.participant_count} / ${a.capacity ?? t('act.unlimited')}
        ${a.waitlist ? html` · ${t('act.waiting')}: ${a.waitlist_count}` : nothing}</dd>
      <dt>${t('act.status')}</dt><dd class="viewer-status">${t('act.status.' + status,
        { position: a.viewer.position })}</dd>
    </dl>`;
  }

  renderActions(a) {
    const status = a.viewer.status;
    const open = a.status === 'open';
    return html`<div class="actions">
      ${open && ['none', 'invited'].includes(status) ? html`<button type="button" ?disabled=${this.busy}
        @click=${() => this.join()}>${t('act.join')}</button>` : nothing}
      ${open && ['joined', 'waitlisted'].includes(status) ? html`<button type="button" class="secondary"
        ?disabled=${this.busy} @click=${() => this.leave()}>${t('act.leave')}</button>` : nothing}
      ${open && status === 'organiser' ? html`<button type="button" class="danger" ?disabled=${this.busy}
        @click=${() => this.cancel()}>${t('act.cancel')}</button>` : nothing}
      ${a.discussion && ['organiser', 'joined'].includes(status) ? html`<a href=${'#/chat/' + a.discussion}>
        ${t('act.discussion')}</a>` : nothing}
    </div>`;
  }

  renderPeople(title, items) {
    return html`<section class="card"><h2>${title}</h2>
      ${items.length ? nothing : html`<p class="muted">${t('act.none')}</p>`}
      <ul class="list">${items.map((p) => html`<li><kith-avatar .user=${p.user}></kith-avatar>
        <span class="grow">${userName(p.user)}</span></li>`)}</ul></section>`;
  }

  render() {
    const a = this.activity;
    return html`
      <p><a href="#/activities">${t('act.back')}</a></p>
      <h1>${a ? a.title : t('nav.activities')}</h1>
      ${this.renderProblem()}
      ${a ? html`<section class="card">
        ${a.status === 'cancelled' ? html`<p role="alert">${t('act.cancelled')}</p>` : nothing}
        ${a.introduction ? html`<p class="intro">${a.introduction}</p>` : nothing}
        ${this.renderFacts(a)}
        ${this.renderActions(a)}
      </section>
      ${this.renderPeople(t('act.participants'), this.going)}
      ${a.viewer.status === 'organiser' && a.waitlist ? this.renderPeople(t('act.waiting'), this.waiting) : nothing}`
    : nothing}`;
  }
}
