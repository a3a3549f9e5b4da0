// One whiteboard that several browsers draw on together (messaging README, whiteboards). The picture is the board's
// kept entries read over HTTP (after_seq, starting over on reset) plus what its room (kith.room.b<id>) pushes: a
// stroke or a clear, in seq order. A stroke drawn here is shown at once, sent over the bridge
// (kith.messaging.board.stroke) when the pointer lifts, and kept as pending until its own push comes back with its
// client_id. Coordinates are board units (WIDTH x HEIGHT), whatever the canvas' size on screen.

import { View, html, nothing } from '../view.js';
import { register, t } from '../i18n.js';
import { get } from '../api.js';
import { bridge } from '../bridge.js';
import { clientId, known, liveStyles, myId, onRoom, summaries } from './live.js';

register('en', {
  'board.canvas': 'Drawing area of {title}',
  'board.color': 'Colour',
  'board.width': 'Width',
  'board.pen': 'Pen',
  'board.eraser': 'Eraser',
  'board.clear': 'Clear the board',
  'board.count': 'Strokes on the board: {count}',
  'board.last': 'last by {name}',
  'board.deleted': 'This board was deleted.',
  'board.back': 'All boards',
  'board.keys': 'With the keyboard: arrows move the cursor (Shift: further), Enter starts and ends a line, Escape '
    + 'drops it.',
});
register('zh-CN', {
  'board.canvas': '{title} 的画布',
  'board.color': '颜色',
  'board.width': '粗细',
  'board.pen': '画笔',
  'board.eraser': '橡皮',
  'board.clear': '清空白板',
  'board.count': '白板上的笔画：{count}',
  'board.last': '最后一笔来自 {name}',
  'board.deleted': '此白板已被删除。',
  'board.back': '全部白板',
  'board.keys': '键盘操作：方向键移动光标（按住 Shift 移动更远），Enter 开始或结束一笔，Escape 放弃这一笔。',
});

const WIDTH = 1000;
const HEIGHT = 700;
const MAX_POINTS = 1000; // the contract's bound on one stroke: a longer line goes as several strokes
const PALETTE = ['#0b57d0', '#b3261e', '#146c2e', '#7b1fa2', '#e65100', '#00695c'];

export default class WhiteboardView extends View {
  static properties = {
    ...View.properties,
    board: { state: true },
    tool: { state: true },
    last: { state: true },
    count: { state: true },
  };

  constructor() {
    super();
    this.board = null;
    this.tool = 'pen';
    this.entries = new Map(); // seq -> entry, the board's picture
    this.pending = new Map(); // client_id -> stroke drawn here and not yet pushed back
    this.drawing = null;
    this.count = 0;
    this.cursor = [WIDTH / 2, HEIGHT / 2];
  }

  connectedCallback() {
    super.connectedCallback();
    liveStyles();
    const id = Number(this.params.id);
    this.onCleanup(onRoom('b' + id, (body) => this.pushed(body)));
    this.onCleanup(bridge.onStatus((open) => open && this.catchUp()));
    this.load(id);
  }

  async load(id) {
    this.board = await this.run(() => get('/boards/' + id));
    if (this.board) {
      await this.catchUp();
    }
  }

  /** Pages the kept entries after the last seq held (all of them the first time, or when told reset). */
  async catchUp() {
    let after = this.lastSeq();
    for (let pages = 0; pages < 20; pages++) {
      const page = await this.run(() => get('/boards/' + this.board.id + '/strokes',
        after ? { after_seq: after, limit: 200 } : { limit: 200 }));
      if (!page || !page.items.length) {
        break;
      }
      if (page.reset) {
        this.entries.clear();
      }
      page.items.forEach((e) => this.entries.set(e.seq, e));
      after = page.items[page.items.length - 1].seq;
    }
    this.repaint();
  }

  lastSeq() {
    return this.entries.size ? Math.max(...this.entries.keys()) : 0;
  }

  pushed(body) {
    if (body.kind === 'stroke' || body.kind === 'clear') {
      if (body.stroke && body.stroke.client_id) {
        this.pending.delete(body.stroke.client_id);
      }
      this.entries.set(body.seq, { seq: body.seq, kind: body.kind, by: body.by, at: body.at, stroke: body.stroke });
      this.repaint();
    } else if (body.kind === 'deleted') {
      this.board = null;
      this.notice = t('board.deleted');
    }
  }

  /** Draws the entries since the last clear, then the pending strokes; updates the stroke count. */
  repaint() {
    const canvas = this.querySelector('canvas');
    if (!canvas) {
      return;
    }
    const ctx = canvas.getContext('2d');
    ctx.clearRect(0, 0, WIDTH, HEIGHT);
    const ordered = [...this.entries.values()].sort((a, b) => a.seq - b.seq);
    const lastClear = ordered.map((e) => e.kind).lastIndexOf('clear');
    const shown = ordered.slice(lastClear + 1).filter((e) => e.stroke);
    shown.forEach((e) => paint(ctx, e.stroke));
    this.pending.forEach((s) => paint(ctx, s));
    if (canvas.matches(':focus-visible')) { // the keyboard's cursor (not after a click)
      paint(ctx, { tool: 'pen', color: '#ffb300', width: 3, points: [[this.cursor[0] - 8, this.cursor[1]],
        [this.cursor[0] + 8, this.cursor[1]], this.cursor, [this.cursor[0], this.cursor[1] - 8],
        [this.cursor[0], this.cursor[1] + 8]] });
    }
    this.count = shown.length;
    const newest = ordered[ordered.length - 1];
    this.last = newest ? newest.by : null;
    if (this.last && !known(this.last)) {
      summaries([this.last]).then(() => this.requestUpdate(), () => {});
    }
  }

  point(e) {
    const r = e.target.getBoundingClientRect();
    const round = (v) => Math.round(v * 10) / 10;
    return [round((e.clientX - r.left) * WIDTH / r.width), round((e.clientY - r.top) * HEIGHT / r.height)];
  }

  down(e) {
    e.target.setPointerCapture(e.pointerId);
    this.begin(this.point(e));
  }

  /** Starts a stroke at a point with the tools chosen. */
  begin(at) {
    const form = this.querySelector('.board-tools');
    this.drawing = { tool: this.tool, width: Number(form.width.value), points: [at], client_id: clientId() };
    if (this.tool === 'pen') {
      this.drawing.color = form.color.value;
    }
    this.pending.set(this.drawing.client_id, this.drawing);
  }

  move(e) {
    this.extend(this.point(e));
  }

  /** Adds a point to the stroke being drawn (a line past MAX_POINTS goes on as a new stroke). */
  extend(at) {
    if (!this.drawing) {
      return;
    }
    this.drawing.points.push(at);
    if (this.drawing.points.length >= MAX_POINTS) {
      const last = this.drawing.points[this.drawing.points.length - 1];
      this.up();
      this.drawing = { ...this.drawing, points: [last], client_id: clientId() };
      this.pending.set(this.drawing.client_id, this.drawing);
    }
    this.repaint();
  }

  up() {
    const stroke = this.drawing;
    this.drawing = null;
    if (!stroke) {
      return;
    }
    bridge.request('kith.messaging.board.stroke', { board: this.board.id, stroke }).catch((err) => {
      this.pending.delete(stroke.client_id); // refused (rate_limited, not a member...): take it off the picture
      this.error = err;
      this.repaint();
    });
  }

  /**
   * Drawing with the keyboard: arrows move a cursor (Shift: further), Enter or Space starts and ends a line, Escape
   * drops the line being drawn.
   */
  key(e) {
    const step = e.shiftKey ? 50 : 10;
    const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
    if (moves[e.key]) {
      const [dx, dy] = moves[e.key];
      this.cursor = [Math.min(WIDTH, Math.max(0, this.cursor[0] + dx)),
        Math.min(HEIGHT, Math.max(0, this.cursor[1] + dy))];
      this.extend([...this.cursor]);
      this.repaint();
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (this.drawing) {
        this.up();
      } else {
        this.begin([...this.cursor]);
      }
      this.repaint();
    } else if (e.key === 'Escape' && this.drawing) {
      this.pending.delete(this.drawing.client_id);
      this.drawing = null;
      this.repaint();
    } else {
      return;
    }
    e.preventDefault();
  }

  clear() {
    return this.run(() => bridge.request('kith.messaging.board.clear', { board: this.board.id }));
  }

  renderTools() {
    return html`<form class="board-tools" @submit=${(e) => e.preventDefault()}>
      <label>${t('board.color')} <input type="color" name="color"
        value=${PALETTE[myId() % PALETTE.length]}></label>
      <label>${t('board.width')} <select name="width">${[2, 4, 8, 16, 32].map((w) => html`<option value=${w}
        ?selected=${w === 4}>${w}</option>`)}</select></label>
      ${['pen', 'eraser'].map((tool) => html`<button type="button" class="secondary"
        aria-pressed=${this.tool === tool ? 'true' : 'false'} @click=${() => { this.tool = tool; }}>
        ${t('board.' + tool)}</button>`)}
      <button type="button" class="danger" ?disabled=${this.busy} @click=${() => this.clear()}>
        ${t('board.clear')}</button>
    </form>`;
  }

  render() {
    const b = this.board;
    const lastName = this.last ? (Number(this.last) === myId() ? t('live.you')
      : '@' + ((known(this.last) || {}).username || this.last)) : null;
    return html`
      <p><a href="#/boards">${t('board.back')}</a></p>
      <h1>${b ? b.title : t('nav.boards')}</h1>
      ${this.renderProblem()}
      ${b ? html`<section class="card">
        ${this.renderTools()}
        <p class="muted" role="status"><span class="stroke-count">${t('board.count', { count: this.count })}</span>
          ${lastName ? html` · ${t('board.last', { name: lastName })}` : nothing}</p>
        <canvas class="board" width=${WIDTH} height=${HEIGHT} role="img" tabindex="0"
          aria-label=${t('board.canvas', { title: b.title })} aria-describedby="board-keys"
          @pointerdown=${(e) => this.down(e)} @pointermove=${(e) => this.move(e)}
          @pointerup=${() => this.up()} @pointercancel=${() => this.up()} @keydown=${(e) => this.key(e)}
          @focus=${() => this.repaint()} @blur=${() => this.repaint()}></canvas>
        <p id="board-keys" class="muted">${t('board.keys')}</p>
      </section>` : nothing}`;
  }

  firstUpdated() {
    this.repaint();
  }

  updated(changed) {
    if (changed.has('board') && this.board) {
      this.repaint();
    }
  }
}

/** Paints one stroke: a pen line in its colour, or an eraser that clears what it crosses. */
function paint(ctx, s) {
  ctx.save();
  ctx.globalCompositeOperation = s.tool === 'eraser' ? 'destination-out' : 'source-over';
  ctx.strokeStyle = s.color || '#000000';
  ctx.lineWidth = s.width;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  s.points.forEach(([x, y], i) => (i ? ctx.lineTo(x, y) : ctx.moveTo(x, y)));
  if (s.points.length === 1) {
    ctx.lineTo(s.points[0][0] + 0.1, s.points[0][1]);
  }
  ctx.stroke();
  ctx.restore();
}
