// A list of users (search results, followers, requests...), each linking to their page, with optional actions.

import { html, nothing } from 'lit';
import { userName } from '../view.js';

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
