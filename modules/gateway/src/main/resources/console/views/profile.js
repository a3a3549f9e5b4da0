// The own profile: what others see of it, its counts, and editing it with a photo (POST /api/v1/media, then
// PATCH /api/v1/me with photo_media).

import { View, formData, html, nothing, shell } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { patch, upload } from '../api.js';
import { counts } from '../parts/users.js';

register('en', {
  'profile.title': 'Your profile',
  'profile.id': 'User id',
  'profile.created': 'Joined',
  'profile.edit': 'Edit profile',
  'profile.nickname': 'Display name',
  'profile.signature': 'Bio (one line)',
  'profile.gender': 'Gender',
  'profile.gender.unspecified': 'Not saying',
  'profile.gender.female': 'Female',
  'profile.gender.male': 'Male',
  'profile.gender.other': 'Other',
  'profile.birthday': 'Birthday',
  'profile.location': 'Location',
  'profile.photo': 'Photo (an image file)',
  'profile.saved': 'Profile saved.',
  'profile.privacy': 'Privacy',
  'profile.followApproval': 'Approve who may follow me (follow requests)',
  'profile.nearbyVisible': 'Let people nearby find me',
  'profile.presence': 'Who sees when I am online',
  'profile.presence.online': 'Everyone who may see me',
  'profile.presence.friends': 'Friends only',
  'profile.presence.invisible': 'Nobody',
});
register('zh-CN', {
  'profile.title': '我的资料',
  'profile.id': '用户 ID',
  'profile.created': '加入于',
  'profile.edit': '编辑资料',
  'profile.nickname': '昵称',
  'profile.signature': '签名（一行）',
  'profile.gender': '性别',
  'profile.gender.unspecified': '不透露',
  'profile.gender.female': '女',
  'profile.gender.male': '男',
  'profile.gender.other': '其他',
  'profile.birthday': '生日',
  'profile.location': '所在地',
  'profile.photo': '头像（图片文件）',
  'profile.saved': '资料已保存。',
  'profile.privacy': '隐私',
  'profile.followApproval': '关注我需要我同意（关注申请）',
  'profile.nearbyVisible': '允许附近的人找到我',
  'profile.presence': '谁能看到我在线',
  'profile.presence.online': '所有能看到我的人',
  'profile.presence.friends': '仅好友',
  'profile.presence.invisible': '谁都不能',
});

const GENDERS = ['unspecified', 'female', 'male', 'other'];
const PRESENCE = ['online', 'friends', 'invisible'];

export default class ProfileView extends View {
  async save(e) {
    e.preventDefault();
    const form = e.target;
    const f = formData(form);
    const me = shell.me;
    const changes = {};
    if (f.nickname && f.nickname !== me.nickname) {
      changes.nickname = f.nickname;
    }
    for (const key of ['signature', 'location', 'birthday', 'gender']) {
      const value = f[key] ?? null;
      const before = key === 'gender' ? me.gender || 'unspecified' : me[key] ?? null;
      if (value !== before) {
        changes[key] = value;
      }
    }
    const settings = {};
    const was = me.settings || {};
    if (form.follow_approval.checked !== !!was.follow_approval) {
      settings.follow_approval = form.follow_approval.checked;
    }
    if (form.nearby_visible.checked !== !!was.nearby_visible) {
      settings.nearby_visible = form.nearby_visible.checked;
    }
    if (f.presence && f.presence !== (was.presence || 'online')) {
      settings.presence = f.presence;
    }
    if (Object.keys(settings).length) {
      changes.settings = settings;
    }
    const file = form.photo.files[0];
    await this.run(async () => {
      if (file) {
        changes.photo_media = (await upload(file)).id;
      }
      if (Object.keys(changes).length) {
        await patch('/me', changes);
      }
      await shell.refreshMe();
      form.photo.value = '';
    }, t('profile.saved'));
  }

  render() {
    const me = shell.me;
    if (!me) {
      return nothing;
    }
    const settings = me.settings || {};
    return html`
      <h1>${t('profile.title')}</h1>
      <section class="card profile" aria-label=${me.username}>
        <kith-avatar class="large" .user=${me}></kith-avatar>
        <div>
          <p class="name">${me.nickname || me.username}</p>
          <p class="muted">@${me.username} · ${t('profile.id')} <span class="user-id">${me.id}</span></p>
          ${me.signature ? html`<p>${me.signature}</p>` : nothing}
          ${counts(me)}
          ${me.created ? html`<p class="muted">${t('profile.created')} ${formatTime(me.created)}</p>` : nothing}
        </div>
      </section>
      ${this.renderProblem()}
      <form class="card" @submit=${(e) => this.save(e)} aria-labelledby="edit-h">
        <h2 id="edit-h">${t('profile.edit')}</h2>
        <label>${t('profile.nickname')}<input name="nickname" maxlength="40" .value=${me.nickname || ''}></label>
        <label>${t('profile.signature')}<input name="signature" maxlength="200" .value=${me.signature || ''}></label>
        <label>${t('profile.gender')}<select name="gender">
          ${GENDERS.map((g) => html`<option value=${g} ?selected=${(me.gender || 'unspecified') === g}>
            ${t('profile.gender.' + g)}</option>`)}</select></label>
        <label>${t('profile.birthday')}<input name="birthday" type="date" .value=${me.birthday || ''}></label>
        <label>${t('profile.location')}<input name="location" maxlength="100" .value=${me.location || ''}></label>
        <label>${t('profile.photo')}<input name="photo" type="file" accept="image/*"></label>
        <fieldset><legend>${t('profile.privacy')}</legend>
          <label class="inline"><input type="checkbox" name="follow_approval"
            .checked=${!!settings.follow_approval}> ${t('profile.followApproval')}</label>
          <label class="inline"><input type="checkbox" name="nearby_visible"
            .checked=${!!settings.nearby_visible}> ${t('profile.nearbyVisible')}</label>
          <label>${t('profile.presence')}<select name="presence">${PRESENCE.map((p) => html`<option value=${p}
            ?selected=${(settings.presence || 'online') === p}>${t('profile.presence.' + p)}</option>`)}</select></label>
        </fieldset>
        <button ?disabled=${this.busy}>${t('app.save')}</button>
      </form>`;
  }
}
