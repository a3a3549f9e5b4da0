// The running Kith at a glance (GET /api/v1/admin/system, /api/v1/admin/summary): the cluster's nodes and what each
// runs, their readiness checks, and charts of the meters read every few seconds while the page is open. The meters
// are totals since a node started: two readings make a request rate and a mean latency.

import { View, html, nothing } from '../view.js';
import { register, t } from '../i18n.js';
import { get } from '../api.js';
import { format, opsMenu, sparkline, when } from './ops-common.js';

register('en', {
  'opsov.title': 'Overview',
  'opsov.nodes': 'Nodes ({answered} of {members} members answered)',
  'opsov.node': 'Node',
  'opsov.modules': 'Modules',
  'opsov.checks': 'Readiness',
  'opsov.started': 'Started',
  'opsov.metrics': 'At a glance',
  'opsov.rate': 'Requests per second',
  'opsov.latency': 'Mean latency (ms)',
  'opsov.clients': 'Connected clients',
  'opsov.lag': 'Event-log lag',
  'opsov.backlog': 'Fan-out backlog',
  'opsov.desk': 'Moderation desk',
  'opsov.openReports': 'Open reports',
  'opsov.openAppeals': 'Open appeals',
});
register('zh-CN', {
  'opsov.title': '概览',
  'opsov.nodes': '节点（{members} 个成员中 {answered} 个已应答）',
  'opsov.node': '节点',
  'opsov.modules': '模块',
  'opsov.checks': '就绪状态',
  'opsov.started': '启动于',
  'opsov.metrics': '关键指标',
  'opsov.rate': '每秒请求数',
  'opsov.latency': '平均延迟（毫秒）',
  'opsov.clients': '在线连接',
  'opsov.lag': '事件日志延迟',
  'opsov.backlog': '扇出积压',
  'opsov.desk': '审核台',
  'opsov.openReports': '待处理举报',
  'opsov.openAppeals': '待处理申诉',
});

const EVERY_MS = 5000;
const KEEP = 60;

/** Sums a meter over the nodes. */
function total(nodes, key) {
  return nodes.reduce((sum, n) => sum + (n.metrics[key] || 0), 0);
}

export default class OpsOverview extends View {
  static properties = { system: { state: true }, summary: { state: true } };

  constructor() {
    super();
    this.system = null;
    this.summary = null;
    this.series = { rate: [], latency: [], clients: [], lag: [], backlog: [] };
    this.previous = null;
  }

  connectedCallback() {
    super.connectedCallback();
    this.load();
    const timer = setInterval(() => this.load(), EVERY_MS);
    this.onCleanup(() => clearInterval(timer));
  }

  async load() {
    const [system, summary] = await Promise.all([get('/admin/system'), get('/admin/summary')])
      .catch((e) => { this.error = e; return []; });
    if (!system) {
      return;
    }
    this.sample(system);
    this.summary = summary;
    this.system = system;
  }

  /** Adds one reading of the meters to the charts' series. */
  sample(system) {
    const nodes = system.nodes;
    const now = { time: system.time, requests: total(nodes, 'http_requests'), ms: total(nodes, 'http_time_ms') };
    const s = this.series;
    if (this.previous && now.time > this.previous.time && now.requests >= this.previous.requests) {
      const served = now.requests - this.previous.requests;
      s.rate.push(served / ((now.time - this.previous.time) / 1000));
      s.latency.push(served ? (now.ms - this.previous.ms) / served : 0);
    }
    this.previous = now;
    s.clients.push(total(nodes, 'bridge_connections'));
    // every node reads the same streams: the largest reading, not the sum
    s.lag.push(Math.max(0, ...nodes.map((n) => n.metrics.eventlog_lag + n.metrics.eventlog_pending)));
    s.backlog.push(Math.max(0, ...nodes.map((n) => n.metrics.fanout_backlog)));
    Object.values(s).forEach((list) => list.splice(0, Math.max(0, list.length - KEEP)));
  }

  renderNode(n) {
    return html`<tr>
      <th scope="row">${n.node}<br><span class="muted">pid ${n.pid}</span></th>
      <td>${n.modules.join(', ')}</td>
      <td><ul class="list">${n.checks.map((c) => html`<li><span class=${c.ok ? 'ok' : 'ko'}>${c.ok ? '✓' : '✗'}</span>
        ${c.name}${c.reason ? html` <span class="muted">${c.reason}</span>` : nothing}</li>`)}</ul></td>
      <td>${when(n.started)}</td>
    </tr>`;
  }

  render() {
    const s = this.series;
    const sys = this.system;
    return html`
      <h1>${t('opsov.title')}</h1>
      ${opsMenu('/ops')}
      ${this.renderProblem()}
      <section class="card" aria-labelledby="glance-h">
        <h2 id="glance-h">${t('opsov.metrics')}</h2>
        <div class="tiles">
          ${sparkline(t('opsov.rate'), s.rate)}
          ${sparkline(t('opsov.latency'), s.latency)}
          ${sparkline(t('opsov.clients'), s.clients)}
          ${sparkline(t('opsov.lag'), s.lag)}
          ${sparkline(t('opsov.backlog'), s.backlog)}
        </div>
      </section>
      ${this.summary ? html`<section class="card" aria-labelledby="desk-h">
        <h2 id="desk-h">${t('opsov.desk')}</h2>
        <p class="counts"><a href="#/ops/queue">${t('opsov.openReports')} <b class="open-reports">
          ${format(this.summary.open_reports)}</b></a>
          <span>${t('opsov.openAppeals')} <b>${format(this.summary.open_appeals)}</b></span></p>
      </section>` : nothing}
      ${sys ? html`<section class="card" aria-labelledby="nodes-h">
        <h2 id="nodes-h">${t('opsov.nodes', { answered: sys.nodes.length, members: sys.members })}</h2>
        <div class="scroll"><table class="grid nodes">
          <thead><tr><th scope="col">${t('opsov.node')}</th><th scope="col">${t('opsov.modules')}</th>
            <th scope="col">${t('opsov.checks')}</th><th scope="col">${t('opsov.started')}</th></tr></thead>
          <tbody>${sys.nodes.map((n) => this.renderNode(n))}</tbody>
        </table></div>
      </section>` : html`<p>${t('app.loading')}</p>`}`;
  }
}
