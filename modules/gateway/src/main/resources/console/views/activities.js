// Activities: my lists (organised or joined, upcoming or past, paged by cursor), upcoming public activities near a
// position with their distance, and creating one with a place and coordinates (POST /api/v1/activities). One
// activity is views/activity.js.

import { View, formData, html, nothing, shell } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { get, post } from '../api.js';
import { liveStyles } from './live.js';

register('en', {
  'act.title': 'Activities',
  'act.mine': 'My activities',
  'act.organised': 'Organised',
  'act.joined': 'Joined',
  'act.upcoming': 'Upcoming',
  'act.past': 'Past',
  'act.none': 'None here.',
  'act.nearby': 'Near a place',
  'act.lat': 'Latitude',
  'act.lon': 'Longitude',
  'act.radius': 'Within (km)',
  'act.search': 'Search',
  'act.here': 'Use my position',
  'act.km': '{km} km away',
  'act.new': 'New activity',
  'act.name': 'Title',
  'act.intro': 'Introduction',
  'act.start': 'Starts',
  'act.end': 'Ends',
  'act.place': 'Place',
  'act.capacity': 'Places (empty: no limit)',
  'act.waitlist': 'Keep a waitlist when full',
  'act.visibility': 'Who can see it',
  'act.vis.public': 'Everyone',
  'act.vis.friends': 'Friends',
  'act.vis.invitation': 'Invited people',
  'act.create': 'Create activity',
  'act.people': '{joined} going · {waiting} waiting',
});
register('zh-CN', {
  'act.title': '活动',
  'act.mine': '我的活动',
  'act.organised': '我组织的',
  'act.joined': '我参加的',
  'act.upcoming': '即将开始',
  'act.past': '已结束',
  'act.none': '暂无。',
  'act.nearby': '附近的活动',
  'act.lat': '纬度',
  'act.lon': '经度',
  'act.radius': '范围（公里）',
  'act.search': '搜索',
  'act.here': '使用我的位置',
  'act.km': '距离 {km} 公里',
  'act.new': '新建活动',
  'act.name': '标题',
  'act.intro': '介绍',
  'act.start': '开始时间',
  'act.end': '结束时间',
  'act.place': '地点',
  'act.capacity': '名额（留空：不限）',
  'act.waitlist': '满员时排队候补',
  'act.visibility': '谁可以看到',
  'act.vis.public': '所有人',
  'act.vis.friends': '好友',
  'act.vis.invitation': '受邀的人',
  'act.create': '创建活动',
  'act.people': '{joined} 人参加 · {waiting} 人候补',
});

const VISIBILITY = ['public', 'friends', 'invitation'];

/** An activity in a list: its title, start, place, counts, and its distance when searched by position. */
export function activityItem(a) {
  return html`<li><a class="grow" href=${'#/activities/' + a.id}><b>${a.title}</b></a>
    <span class="muted">${formatTime(a.start)} · ${a.place.name}
      ${a.distance_km !== undefined ? html` · ${t('act.km', { km: a.distance_km.toFixed(1) })}` : nothing}
      · ${t('act.people', { joined: a.participant_count, waiting: a.waitlist_count })}</span></li>`;
}

/** A datetime-local value an hour (plus hours) from now. */
function later(hours) {
  const d = new Date(Date.now() + hours * 3600000);
  d.setMinutes(0, 0, 0);
  return new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
}

export default class ActivitiesView extends View {
  static properties = {
    ...View.properties,
    list: { state: true }, // organised | joined
    when: { state: true }, // upcoming | past
    items: { state: true },
    next: { state: true },
    found: { state: true },
  };

  constructor() {
    super();
    this.list = 'organised';
    this.when = 'upcoming';
    this.items = null;
    this.found = null;
    this.defaults = { start: later(2), end: later(4) }; // once: a re-render must not undo the user's choice
  }

  connectedCallback() {
    super.connectedCallback();
    liveStyles();
    this.load();
  }

  async load(cursor) {
    const page = await this.run(() => get('/me/activities/' + this.list, { when: this.when, limit: 20, cursor }));
    if (page) {
      this.items = cursor ? [...this.items, ...page.items] : page.items;
      this.next = page.next_cursor;
    }
  }

  pick(list, when) {
    this.list = list;
    this.when = when;
    this.load();
  }

  async nearby(e) {
    e.preventDefault();
    const f = formData(e.target);
    const page = await this.run(() => get('/activities/nearby', { lat: f.lat, lon: f.lon, radius_km: f.radius,
      order: 'distance', limit: 50 }));
    if (page) {
      this.found = page.items;
    }
  }

  here(form) {
    navigator.geolocation.getCurrentPosition((p) => {
      form.lat.value = p.coords.latitude.toFixed(5);
      form.lon.value = p.coords.longitude.toFixed(5);
    }, (err) => { this.error = err; });
  }

  async create(e) {
    e.preventDefault();
    const f = formData(e.target);
    const place = { name: f.place || '' };
    if (f.lat !== undefined || f.lon !== undefined) {
      Object.assign(place, { lat: Number(f.lat), lon: Number(f.lon) });
    }
    const body = { title: f.title || '', start: new Date(f.start).getTime(), end: new Date(f.end).getTime(),
      place, waitlist: !!f.waitlist, visibility: f.visibility };
    if (f.introduction) {
      body.introduction = f.introduction;
    }
    if (f.capacity) {
      body.capacity = Number(f.capacity);
    }
    const created = await this.run(() => post('/activities', body));
    if (created) {
      shell.navigate('/activities/' + created.id);
    }
  }

  renderMine() {
    const tab = (list, when) => html`<button type="button" role="tab"
      aria-selected=${this.list === list && this.when === when ? 'true' : 'false'}
      @click=${() => this.pick(list, when)}>${t('act.' + list)} · ${t('act.' + when)}</button>`;
    return html`<section class="card" aria-labelledby="mine-h">
      <h2 id="mine-h">${t('act.mine')}</h2>
      <div class="tabs" role="tablist">${tab('organised', 'upcoming')}${tab('joined', 'upcoming')}
        ${tab('organised', 'past')}${tab('joined', 'past')}</div>
      ${this.items && !this.items.length ? html`<p class="muted">${t('act.none')}</p>` : nothing}
      <ul class="list mine">${(this.items || []).map(activityItem)}</ul>
      ${this.next ? html`<button type="button" class="secondary" @click=${() => this.load(this.next)}>
        ${t('app.more')}</button>` : nothing}
    </section>`;
  }

  renderNearby() {
    return html`<form class="card" @submit=${(e) => this.nearby(e)} aria-labelledby="near-h">
      <h2 id="near-h">${t('act.nearby')}</h2>
      <label>${t('act.lat')}<input name="lat" type="number" step="any" min="-85" max="85" required></label>
      <label>${t('act.lon')}<input name="lon" type="number" step="any" min="-180" max="180" required></label>
      <label>${t('act.radius')}<input name="radius" type="number" step="any" min="0.1" max="100" value="10"
        required></label>
      <div class="actions"><button ?disabled=${this.busy}>${t('act.search')}</button>
        <button type="button" class="secondary" @click=${(e) => this.here(e.target.form)}>${t('act.here')}</button>
      </div>
      ${this.found ? html`${this.found.length ? nothing : html`<p class="muted">${t('act.none')}</p>`}
        <ul class="list nearby">${this.found.map(activityItem)}</ul>` : nothing}
    </form>`;
  }

  renderCreate() {
    return html`<form class="card" @submit=${(e) => this.create(e)} aria-labelledby="newact-h">
      <h2 id="newact-h">${t('act.new')}</h2>
      <label>${t('act.name')}<input name="title" required maxlength="100"></label>
      <label>${t('act.intro')}<textarea name="introduction" maxlength="5000" rows="3"></textarea></label>
      <label>${t('act.start')}<input name="start" type="datetime-local" required .value=${this.defaults.start}></label>
      <label>${t('act.end')}<input name="end" type="datetime-local" required .value=${this.defaults.end}></label>
      <label>${t('act.place')}<input name="place" required maxlength="200"></label>
      <label>${t('act.lat')}<input name="lat" type="number" step="any" min="-90" max="90"></label>
      <label>${t('act.lon')}<input name="lon" type="number" step="any" min="-180" max="180"></label>
      <label>${t('act.capacity')}<input name="capacity" type="number" min="1" max="5000"></label>
      <label class="checkbox"><input name="waitlist" type="checkbox" value="on"> ${t('act.waitlist')}</label>
      <label>${t('act.visibility')}<select name="visibility">${VISIBILITY.map((v) => html`<option value=${v}>
        ${t('act.vis.' + v)}</option>`)}</select></label>
      <button ?disabled=${this.busy}>${t('act.create')}</button>
    </form>`;
  }

  render() {
    return html`
      <h1>${t('act.title')}</h1>
      ${this.renderProblem()}
      ${this.renderMine()}
      <div class="columns">${this.renderNearby()}${this.renderCreate()}</div>`;
  }
}
