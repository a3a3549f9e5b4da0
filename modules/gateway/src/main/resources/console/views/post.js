// One post on its own page (#/posts/:id), with its comments open: where a notification or a link about a post leads.

import { View, html, nothing } from '../view.js';
import { register, t } from '../i18n.js';
import { get } from '../api.js';
import '../parts/post.js';

register('en', { 'post.title': 'Post' });
register('zh-CN', { 'post.title': '动态' });

export default class PostView extends View {
  static properties = { post: { state: true } };

  connectedCallback() {
    super.connectedCallback();
    this.run(async () => {
      this.post = await get('/posts/' + this.params.id);
    });
    this.addEventListener('post-removed', () => {
      this.post = null;
      this.notice = t('post.deleted');
    });
  }

  updated(changed) {
    if (changed.has('post') && this.post && !changed.get('post')) {
      const card = this.querySelector('kith-post');
      card.updateComplete.then(() => card.toggleComments());
    }
  }

  render() {
    return html`
      <h1>${t('post.title')}</h1>
      ${this.renderProblem()}
      ${this.post ? html`<kith-post .post=${this.post}></kith-post>` : nothing}`;
  }
}
