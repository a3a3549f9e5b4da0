// Find people: by name (prefix search), by exact username, from an address book (emails and phones of people who
// allow being found so), and nearby (after sharing a position, with distances).

import { View, html, nothing, shell } from '../view.js';
import { register, t } from '../i18n.js';
import { get, patch, post, put } from '../api.js';
import { Paged } from '../parts/paged.js';
import { userList } from '../parts/users.js';

register('en', {
  'people.title': 'Find people',
  'people.search': 'By name',
  'people.name': 'Name starts with',
  'people.username': 'Exact username',
  'people.find': 'Search',
  'people.lookup': 'Address book',
  'people.contacts': 'Emails and phone numbers, one per line or separated by commas',
  'people.lookupButton': 'Look them up',
  'people.nearby': 'Nearby',
  'people.lat': 'Latitude',
  'people.lon': 'Longitude',
  'people.radius': 'Radius (km)',
  'people.share': 'Let people nearby find me at this position',
  'people.nearbyButton': 'Show people nearby',
  'people.distance': '{km} km',
  'people.none': 'Nobody found.',
  'people.results': 'Results',
});
register('zh-CN', {
  'people.title': '找人',
  'people.search': '按名字',
  'people.name': '名字开头',
  'people.username': '准确的用户名',
  'people.find': '搜索',
  'people.lookup': '通讯录',
  'people.contacts': '邮箱和手机号，每行一个或用逗号分隔',
  'people.lookupButton': '查找',
  'people.nearby': '附近的人',
  'people.lat': '纬度',
  'people.lon': '经度',
  'people.radius': '半径（公里）',
  'people.share': '让附近的人在此位置找到我',
  'people.nearbyButton': '查看附近的人',
  'people.distance': '{km} 公里',
  'people.none': '没有找到。',
  'people.results': '结果',
});

const TABS = ['search', 'lookup', 'nearby'];

export default class PeopleView extends View {
  static properties = { tab: { state: true }, found: { state: true } };

  constructor() {
    super();
    this.tab = 'search';
    this.found = null; // {users, extra: user id -> text} once a search ran
  }

  show(users, extra = {}) {
    this.found = { users, extra };
  }

  async search(e) {
    e.preventDefault();
    const f = e.target;
    const name = f.prefix.value.trim();
    const username = f.username.value.trim().replace(/^@/, '');
    await this.run(async () => {
      if (username) {
        this.show([await get('/users/by-username/' + encodeURIComponent(username))]);
        return;
      }
      this.pager = new Paged(this, (cursor) => get('/people/search', { prefix: name, cursor, limit: 20 }));
      await this.pager.reset();
      this.show(null);
    });
  }

  async lookup(e) {
    e.preventDefault();
    const entries = e.target.contacts.value.split(/[\n,;]+/).map((s) => s.trim()).filter(Boolean);
    const body = { emails: entries.filter((x) => x.includes('@')), phones: entries.filter((x) => !x.includes('@')) };
    await this.run(async () => {
      const found = await post('/people/lookup', body);
      const extra = {};
      found.items.forEach((i) => { extra[i.user.id] = i.email || i.phone; });
      this.show(found.items.map((i) => i.user), extra);
    });
  }

  async nearby(e) {
    e.preventDefault();
    const f = e.target;
    const lat = Number(f.lat.value);
    const lon = Number(f.lon.value);
    await this.run(async () => {
      if (f.share.checked) {
        if (!(shell.me.settings && shell.me.settings.nearby_visible)) {
          await patch('/me', { settings: { nearby_visible: true } });
          await shell.refreshMe();
        }
        await put('/me/position', { lat, lon });
      }
      const page = await get('/people/nearby', { lat, lon, radius_km: f.radius.value, limit: 50 });
      const extra = {};
      page.items.forEach((i) => {
        extra[i.user.id] = t('people.distance', { km: (i.distance_m / 1000).toFixed(1) });
      });
      this.show(page.items.map((i) => i.user), extra);
    });
  }

  renderForm() {
    if (this.tab === 'lookup') {
      return html`<form class="card" @submit=${(e) => this.lookup(e)}>
        <label>${t('people.contacts')}<textarea name="contacts" rows="4" required></textarea></label>
        <button ?disabled=${this.busy}>${t('people.lookupButton')}</button></form>`;
    }
    if (this.tab === 'nearby') {
      return html`<form class="card" @submit=${(e) => this.nearby(e)}>
        <div class="columns">
          <label>${t('people.lat')}<input name="lat" type="number" step="any" min="-85" max="85" value="31.2304"
            required></label>
          <label>${t('people.lon')}<input name="lon" type="number" step="any" min="-180" max="180" value="121.4737"
            required></label>
        </div>
        <label>${t('people.radius')}<input name="radius" type="number" min="1" max="50" value="10" required></label>
        <label class="inline"><input name="share" type="checkbox" checked> ${t('people.share')}</label>
        <button ?disabled=${this.busy}>${t('people.nearbyButton')}</button></form>`;
    }
    return html`<form class="card" @submit=${(e) => this.search(e)}>
      <label>${t('people.name')}<input name="prefix" maxlength="40"></label>
      <label>${t('people.username')}<input name="username" maxlength="30"></label>
      <button ?disabled=${this.busy}>${t('people.find')}</button></form>`;
  }

  renderFound() {
    if (!this.found) {
      return nothing;
    }
    const users = this.found.users || this.pager.items;
    if (!users.length) {
      return html`<p class="muted" role="status">${t('people.none')}</p>`;
    }
    return html`${userList(users, t('people.results'), (u) => (this.found.extra[u.id]
      ? html`<span class="muted">${this.found.extra[u.id]}</span>` : nothing))}
      ${this.found.users ? nothing : this.pager.renderMore()}`;
  }

  render() {
    return html`
      <h1>${t('people.title')}</h1>
      <div class="tabs" role="tablist">${TABS.map((tab) => html`<button type="button" role="tab"
        aria-selected=${this.tab === tab ? 'true' : 'false'}
        @click=${() => { this.tab = tab; this.found = null; this.error = null; }}>${t('people.' + tab)}</button>`)}
      </div>
      ${this.renderForm()}
      ${this.renderProblem()}
      ${this.renderFound()}`;
  }
}
