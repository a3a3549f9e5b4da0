// What the operator views share: their strings in both languages, the operator menu, a sparkline chart in plain SVG,
// and the reason form every decision carries (moderation records who decided what and why).

import { html, nothing } from '../view.js';
import { formatTime, register, t } from '../i18n.js';
import { get } from '../api.js';

register('en', {
  'ops.menu': 'Operator pages',
  'ops.overview': 'Overview',
  'ops.queue': 'Moderation queue',
  'ops.users': 'Users',
  'ops.audit': 'Audit log',
  'ops.integrations': 'Webhooks and API keys',
  'ops.reason': 'Reason',
  'ops.until': 'Suspend or limit until (empty: permanently)',
  'ops.refresh': 'Refresh',
  'ops.none': 'Nothing here.',
  'ops.when': 'When',
  'ops.user': 'User {id}',
  'ops.done': 'Done.',
});
register('zh-CN', {
  'ops.menu': '运维页面',
  'ops.overview': '概览',
  'ops.queue': '审核队列',
  'ops.users': '用户',
  'ops.audit': '审计日志',
  'ops.integrations': 'Webhook 与 API 密钥',
  'ops.reason': '理由',
  'ops.until': '封禁或限制至（留空：永久）',
  'ops.refresh': '刷新',
  'ops.none': '暂无内容。',
  'ops.when': '时间',
  'ops.user': '用户 {id}',
  'ops.done': '已完成。',
});

const PAGES = [
  ['/ops', 'ops.overview'],
  ['/ops/queue', 'ops.queue'],
  ['/ops/users', 'ops.users'],
  ['/ops/audit', 'ops.audit'],
  ['/ops/integrations', 'ops.integrations'],
];

/** The operator pages' own menu (the shell's menu names only the first), with the current one marked. */
export function opsMenu(current) {
  return html`<nav class="tabs" aria-label=${t('ops.menu')}>${PAGES.map(([path, key]) => html`<a class="chip"
    href=${'#' + path} aria-current=${path === current ? 'page' : 'false'}>${t(key)}</a>`)}</nav>`;
}

/**
 * A small line chart of values (numbers, oldest first) as SVG, labelled for screen readers with its title and last
 * value; nothing to draw before two points.
 */
export function sparkline(title, values, unit = '') {
  const last = values.length ? values[values.length - 1] : null;
  const label = title + ': ' + (last === null ? '–' : format(last) + unit);
  if (values.length < 2) {
    return html`<figure class="spark"><figcaption>${label}</figcaption></figure>`;
  }
  const w = 200;
  const h = 40;
  const max = Math.max(...values, 1);
  const step = w / (values.length - 1);
  const points = values.map((v, i) => (i * step).toFixed(1) + ',' + (h - (v / max) * (h - 2) - 1).toFixed(1));
  return html`<figure class="spark"><figcaption>${label}</figcaption>
    <svg viewBox="0 0 ${w} ${h}" width="100%" height=${h} role="img" aria-label=${label} preserveAspectRatio="none">
      <polyline fill="none" stroke="currentColor" stroke-width="1.5" points=${points.join(' ')}></polyline>
    </svg></figure>`;
}

/** A number for people: integers as they are, fractions to one decimal. */
export function format(n) {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
}

/** An epoch-ms time, or a dash. */
export function when(ms) {
  return ms ? formatTime(ms) : '–';
}

/** The reason field every decision form holds. */
export function reasonField(id) {
  return html`<label for=${id}>${t('ops.reason')}</label>
    <input id=${id} name="reason" required maxlength="1000">`;
}

/** A definition list of [label, value] pairs, skipping empty values. */
export function facts(pairs) {
  return html`<dl class="facts">${pairs.filter(([, v]) => v !== undefined && v !== null && v !== '')
    .map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}</dl>`;
}

/**
 * Loads a page of a cursor-paged list into view.items and view.cursor: the first page, or (more) the next one
 * appended; a failure shows on the view.
 */
export async function loadPage(view, path, query, more = false) {
  const page = await view.run(() => get(path, { ...query, cursor: more ? view.cursor : undefined }));
  if (page) {
    view.items = more ? [...view.items, ...page.items] : page.items;
    view.cursor = page.next_cursor;
  }
}

export { nothing };
