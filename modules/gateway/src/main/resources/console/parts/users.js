// A list of users (search results, followers, requests...), each linking to their page, with optional actions.

import { html, nothing } from 'lit';
import { userName } from '../view.js';
import { t } from '../i18n.js';

/**
 * Renders users as a list; item(u) may return extra content for a row (a distance, buttons). label names the list for
 * screen readers.
 */
export function userList(users, label, item = () => nothing) {
  return html`<ul class="list" aria-label=${label}>
    ${users.map((u) => html`<li>
      <kith-avatar .user=${u}></kith-avatar>
      <a class="grow" href=${'#/users/' + u.id}>${userName(u)}</a>
      ${item(u)}
    </li>`)}
  </ul>`;
}

/** A profile's follow counts (following, followers, friends). */
export function counts(u) {
  return html`<p class="counts">
    <span>${t('profile.following')} <b>${u.following_count ?? 0}</b></span>
    <span>${t('profile.followers')} <b>${u.follower_count ?? 0}</b></span>
    <span>${t('profile.friends')} <b>${u.friend_count ?? 0}</b></span>
  </p>`;
}
