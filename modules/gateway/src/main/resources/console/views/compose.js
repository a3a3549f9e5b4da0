// Write a post: text, up to nine photos or one video (uploaded to the media API first), and its audience: public,
// followers, friends, only me, or only / all friends except chosen users, circles and tags.

import { View, html, nothing, shell } from '../view.js';
import { register, t } from '../i18n.js';
import { get, post, upload } from '../api.js';

register('en', {
  'compose.title': 'Write a post',
  'compose.text': 'What is new?',
  'compose.files': 'Photos (up to 9) or one video',
  'compose.visibility': 'Who can see it',
  'compose.audience': 'Audience',
  'compose.audience.only': 'Only these people see the post',
  'compose.audience.except': 'Your friends see the post, except these people',
  'compose.users': 'Usernames, separated by commas',
  'compose.circles': 'Circles',
  'compose.tags': 'Tags',
  'compose.none': 'None yet',
  'compose.publish': 'Publish',
  'compose.published': 'Published.',
  'compose.uploading': 'Uploading {name}…',
  'compose.unknownUser': 'There is no user called {name}.',
});
register('zh-CN', {
  'compose.title': '发动态',
  'compose.text': '有什么新鲜事？',
  'compose.files': '照片（最多 9 张）或一个视频',
  'compose.visibility': '谁可以看',
  'compose.audience': '可见范围',
  'compose.audience.only': '仅以下的人可见',
  'compose.audience.except': '好友可见，但不给以下的人看',
  'compose.users': '用户名，用逗号分隔',
  'compose.circles': '分组',
  'compose.tags': '标签',
  'compose.none': '暂无',
  'compose.publish': '发布',
  'compose.published': '已发布。',
  'compose.uploading': '正在上传 {name}…',
  'compose.unknownUser': '没有名为 {name} 的用户。',
});

const VISIBILITIES = ['public', 'followers', 'friends', 'private', 'only', 'except'];

export default class ComposeView extends View {
  static properties = { visibility: { state: true }, circles: { state: true }, tags: { state: true },
    progress: { state: true } };

  constructor() {
    super();
    this.visibility = 'public';
    this.circles = [];
    this.tags = [];
    this.progress = null;
  }

  connectedCallback() {
    super.connectedCallback();
    this.run(async () => {
      const [circles, tags] = await Promise.all([get('/me/circles'), get('/me/tags')]);
      this.circles = circles.items;
      this.tags = tags.items;
    });
  }

  async audience(form) {
    const users = [];
    for (const name of (form.users.value || '').split(',').map((s) => s.trim().replace(/^@/, '')).filter(Boolean)) {
      try {
        users.push((await get('/users/by-username/' + encodeURIComponent(name))).id);
      } catch (e) {
        throw Object.assign(new Error(t('compose.unknownUser', { name })), { code: e.code });
      }
    }
    const checked = (n) => [...form.querySelectorAll('input[name="' + n + '"]:checked')].map((i) => i.value);
    return { users, circles: checked('circle').map(Number), tags: checked('tag') };
  }

  async publish(e) {
    e.preventDefault();
    const form = e.target;
    const ok = await this.run(async () => {
      const body = { visibility: this.visibility };
      if (form.text.value.trim()) {
        body.text = form.text.value;
      }
      if (this.visibility === 'only' || this.visibility === 'except') {
        body.audience = await this.audience(form);
      }
      const media = [];
      for (const file of form.files.files) {
        this.progress = t('compose.uploading', { name: file.name });
        media.push((await upload(file)).id);
      }
      this.progress = null;
      if (media.length) {
        body.media = media;
      }
      return post('/posts', body);
    }, t('compose.published'));
    this.progress = null;
    if (ok) {
      form.reset();
      this.visibility = 'public';
      shell.navigate('/home');
    }
  }

  renderAudience() {
    if (this.visibility !== 'only' && this.visibility !== 'except') {
      return nothing;
    }
    return html`<fieldset>
      <legend>${t('compose.audience.' + this.visibility)}</legend>
      <label>${t('compose.users')}<input name="users" autocomplete="off"></label>
      <fieldset><legend>${t('compose.circles')}</legend>
        ${this.circles.length ? this.circles.map((c) => html`<label class="inline"><input type="checkbox" name="circle"
          value=${c.id}> ${c.name}</label>`) : html`<span class="muted">${t('compose.none')}</span>`}
      </fieldset>
      <fieldset><legend>${t('compose.tags')}</legend>
        ${this.tags.length ? this.tags.map((x) => html`<label class="inline"><input type="checkbox" name="tag"
          value=${x.tag}> ${x.tag}</label>`) : html`<span class="muted">${t('compose.none')}</span>`}
      </fieldset>
    </fieldset>`;
  }

  render() {
    return html`
      <h1>${t('compose.title')}</h1>
      ${this.renderProblem()}
      <form class="card" @submit=${(e) => this.publish(e)}>
        <label>${t('compose.text')}<textarea name="text" rows="4" maxlength="5000"></textarea></label>
        <label>${t('compose.files')}<input name="files" type="file" multiple accept="image/*,video/*"></label>
        <label>${t('compose.visibility')}<select name="visibility"
          @change=${(e) => { this.visibility = e.target.value; }}>
          ${VISIBILITIES.map((v) => html`<option value=${v} ?selected=${v === this.visibility}>
            ${t('visibility.' + v)}</option>`)}</select></label>
        ${this.renderAudience()}
        ${this.progress ? html`<p role="status">${this.progress}</p>` : nothing}
        <button ?disabled=${this.busy}>${t('compose.publish')}</button>
      </form>`;
  }
}
