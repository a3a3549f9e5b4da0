// One post as a card (<kith-post .post=${p}>): author, time, audience, text, photos or video, the original of a
// repost, and the reader's actions: like, comment (with the comments), repost, delete (own posts).

import { View, html, nothing, shell, userName } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { repeat } from 'lit/directives/repeat.js';
import { call, del, get, mediaUrl, post } from '../api.js';
import { Paged } from './paged.js';

register('en', {
  'post.like': 'Like',
  'post.liked': 'Liked',
  'post.likes': '{n} likes',
  'post.comments': 'Comments ({n})',
  'post.repost': 'Repost',
  'post.reposted': 'Reposted',
  'post.delete': 'Delete',
  'post.deleted': 'Post deleted.',
  'post.comment': 'Write a comment',
  'post.send': 'Comment',
  'post.removeComment': 'Delete comment',
  'post.originalGone': 'The original post is not available.',
  'post.repostOf': 'Repost of',
  'post.video': 'Video',
});
register('zh-CN', {
  'post.like': '赞',
  'post.liked': '已赞',
  'post.likes': '{n} 个赞',
  'post.comments': '评论（{n}）',
  'post.repost': '转发',
  'post.reposted': '已转发',
  'post.delete': '删除',
  'post.deleted': '动态已删除。',
  'post.comment': '写评论',
  'post.send': '评论',
  'post.removeComment': '删除评论',
  'post.originalGone': '原动态不可见。',
  'post.repostOf': '转发自',
  'post.video': '视频',
});

/** An image or video of a post, fetched with the token (media may be visible to the post's audience only). */
class PostMedia extends View {
  static properties = { media: { attribute: false }, src: { state: true } };

  updated(changed) {
    if (changed.has('media') && this.media) {
      const m = this.media;
      mediaUrl(m.id, m.kind === 'image' ? 'w480' : undefined).catch(() => mediaUrl(m.id))
        .then((src) => { this.src = src; }, () => {});
    }
  }

  render() {
    if (!this.src) {
      return html`<span class="muted">…</span>`;
    }
    return this.media.kind === 'video'
      ? html`<video controls preload="metadata" src=${this.src} aria-label=${t('post.video')}></video>`
      : html`<img src=${this.src} alt="" loading="lazy">`;
  }
}
customElements.define('kith-post-media', PostMedia);

export class PostCard extends View {
  static properties = { post: { attribute: false }, open: { state: true } };

  constructor() {
    super();
    this.open = false;
    this.comments = new Paged(this, (cursor) => get('/posts/' + this.post.id + '/comments', { cursor, limit: 20 }));
  }

  async like() {
    const p = this.post;
    const state = await this.run(() => call(p.viewer.liked ? 'DELETE' : 'PUT', '/posts/' + p.id + '/like'));
    if (state) {
      this.post = { ...p, viewer: { ...p.viewer, liked: state.liked }, counts: { ...p.counts, likes: state.like_count } };
    }
  }

  async repost() {
    const p = this.post;
    const done = await this.run(() => post('/posts/' + p.id + '/reposts', { visibility: 'public' }));
    if (done) {
      this.post = { ...p, viewer: { ...p.viewer, reposted: true },
        counts: { ...p.counts, reposts: p.counts.reposts + 1 } };
    }
  }

  async remove() {
    if (await this.run(() => del('/posts/' + this.post.id).then(() => true))) {
      this.dispatchEvent(new CustomEvent('post-removed', { bubbles: true, detail: this.post.id }));
      this.notice = t('post.deleted');
    }
  }

  async toggleComments() {
    this.open = !this.open;
    if (this.open) {
      await this.run(() => this.comments.reset());
    }
  }

  async comment(e) {
    e.preventDefault();
    const input = e.target.text;
    const text = input.value.trim();
    if (!text) {
      return;
    }
    const created = await this.run(() => post('/posts/' + this.post.id + '/comments', { text }));
    if (created) {
      input.value = '';
      this.comments.add([created], true);
      this.post = { ...this.post, counts: { ...this.post.counts, comments: this.post.counts.comments + 1 } };
    }
  }

  async removeComment(c) {
    if (await this.run(() => del('/comments/' + c.id).then(() => true))) {
      this.comments.remove((x) => x.id === c.id);
      this.post = { ...this.post, counts: { ...this.post.counts, comments: Math.max(0, this.post.counts.comments - 1) } };
    }
  }

  renderBody(p) {
    return html`
      ${p.text ? html`<p class="body">${p.text}</p>` : nothing}
      ${p.media && p.media.length ? html`<div class="media">${p.media.map((m) =>
    html`<kith-post-media .media=${m}></kith-post-media>`)}</div>` : nothing}`;
  }

  renderOriginal(p) {
    if (!p.repost_of) {
      return nothing;
    }
    const o = p.repost_of;
    return html`<blockquote class="card original">
      ${o.state === 'visible' && o.post ? html`<p class="muted">${t('post.repostOf')}
        <a href=${'#/users/' + o.post.author.id}>${userName(o.post.author)}</a></p>${this.renderBody(o.post)}`
    : html`<p class="muted">${t('post.originalGone')}</p>`}
    </blockquote>`;
  }

  renderComments(p) {
    const mine = shell.me && p.author.id === shell.me.id;
    return html`<section class="comments" aria-label=${t('post.comments', { n: p.counts.comments })}>
      <form @submit=${(e) => this.comment(e)} class="actions">
        <label class="grow"><span class="sr-only">${t('post.comment')}</span>
          <input name="text" maxlength="2000" placeholder=${t('post.comment')}></label>
        <button ?disabled=${this.busy}>${t('post.send')}</button>
      </form>
      <ul class="list">${this.comments.items.map((c) => html`<li>
        <kith-avatar .user=${c.author}></kith-avatar>
        <div class="grow"><a href=${'#/users/' + c.author.id}>${userName(c.author)}</a>
          <span class="muted">${formatTime(c.created)}</span><p class="comment-text">${c.text}</p></div>
        ${mine || (shell.me && c.author.id === shell.me.id) ? html`<button type="button" class="link"
          @click=${() => this.removeComment(c)}>${t('post.removeComment')}</button>` : nothing}
      </li>`)}</ul>
      ${this.comments.renderMore()}
    </section>`;
  }

  render() {
    const p = this.post;
    if (!p) {
      return nothing;
    }
    const mine = shell.me && p.author.id === shell.me.id;
    return html`<article class="card post" data-post-id=${p.id} aria-label=${(p.author.nickname || p.author.username)
      + ', ' + formatTime(p.created)}>
      <kith-avatar .user=${p.author}></kith-avatar>
      <header><a href=${'#/users/' + p.author.id}>${userName(p.author)}</a>
        <a class="muted" href=${'#/posts/' + p.id}>${formatTime(p.created)}</a>
        <span class="muted">· ${t('visibility.' + p.visibility)}</span></header>
      ${this.renderBody(p)}
      ${this.renderOriginal(p)}
      <div class="actions">
        <button type="button" class="secondary" aria-pressed=${p.viewer.liked ? 'true' : 'false'}
          @click=${() => this.like()}>${p.viewer.liked ? t('post.liked') : t('post.like')}
          · ${p.counts.likes}</button>
        <button type="button" class="secondary" aria-expanded=${this.open ? 'true' : 'false'}
          @click=${() => this.toggleComments()}>${t('post.comments', { n: p.counts.comments })}</button>
        ${mine ? nothing : html`<button type="button" class="secondary" ?disabled=${p.viewer.reposted}
          @click=${() => this.repost()}>${p.viewer.reposted ? t('post.reposted') : t('post.repost')}
          · ${p.counts.reposts}</button>`}
        ${mine ? html`<button type="button" class="link" @click=${() => this.remove()}>${t('post.delete')}</button>`
    : nothing}
      </div>
      ${this.renderProblem()}
      ${this.open ? this.renderComments(p) : nothing}
    </article>`;
  }
}
customElements.define('kith-post', PostCard);

/** Renders posts as cards. */
export function postList(posts) {
  return html`<div class="posts">${repeat(posts, (p) => p.id, (p) => html`<kith-post .post=${p}></kith-post>`)}</div>`;
}
