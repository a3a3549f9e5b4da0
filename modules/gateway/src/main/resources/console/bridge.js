// The console's event-bus client: the Vert.x bridge frames (gateway README, "Bridge protocol") over SockJS at
// /eventbus, from the sockjs-client WebJar. No Vert.x artifact on Maven Central ships the JavaScript client, so this
// is the small part of it the console needs: register with a handler, send with a reply, publish, ping, reconnect
// (registering again), and the token on every frame so that a refreshed token keeps deliveries going.

import { currentSession, onSessionChange, refresh } from './api.js';

const PING_MS = 10000;
const REPLY_MS = 30000;

class Bridge {
  constructor() {
    this.socket = null;
    this.handlers = new Map(); // address -> Set of functions(body, message)
    this.pending = new Map(); // reply address -> {resolve, reject, timer}
    this.statusListeners = new Set();
    this.open = false; // the socket is open
    this.live = false; // and the bridge answered as the signed-in user
    this.wanted = false;
    this.retry = 1000;
    this.pinger = null;
  }

  headers() {
    const s = currentSession();
    return s ? { authorization: 'Bearer ' + s.access_token } : {};
  }

  /** Opens the connection (and keeps it open) while a user is signed in. */
  start() {
    this.wanted = true;
    if (!this.socket) {
      this.connect();
    }
  }

  /** Closes the connection and forgets every handler (logout). */
  stop() {
    this.wanted = false;
    this.handlers.clear();
    if (this.socket) {
      this.socket.close();
    }
  }

  connect() {
    const socket = new window.SockJS('/eventbus');
    this.socket = socket;
    socket.onopen = () => {
      this.open = true;
      this.retry = 1000;
      this.frame({ type: 'ping' });
      this.pinger = setInterval(() => this.frame({ type: 'ping' }), PING_MS);
      this.handlers.forEach((fns, address) => this.frame({ type: 'register', address, headers: this.headers() }));
      // frames are decided in order: once whoami answers, the connection is bound to the user and registered
      this.request('kith.bridge.whoami', {}).then(() => {
        this.live = true;
        this.status(true);
      }, () => {});
    };
    socket.onmessage = (e) => this.receive(JSON.parse(e.data));
    socket.onclose = () => {
      clearInterval(this.pinger);
      this.socket = null;
      this.open = false;
      if (this.live) {
        this.live = false;
        this.status(false);
      }
      this.pending.forEach((p) => p.reject(new Error('disconnected')));
      this.pending.clear();
      if (this.wanted) {
        setTimeout(() => this.wanted && !this.socket && this.connect(), this.retry);
        this.retry = Math.min(this.retry * 2, 30000);
      }
    };
  }

  frame(f) {
    if (this.socket && this.open) {
      this.socket.send(JSON.stringify(f));
    }
  }

  receive(msg) {
    if (msg.type === 'err' && (msg.body === 'token_expired' || msg.failureType === 'token_expired')) {
      // deliveries are withheld until a fresh token is presented on this connection
      refresh().then(() => this.request('kith.bridge.whoami', {})).catch(() => {});
    }
    const waiting = msg.address && this.pending.get(msg.address);
    if (waiting) {
      this.pending.delete(msg.address);
      clearTimeout(waiting.timer);
      if (msg.type === 'err' || msg.failureCode) {
        waiting.reject(Object.assign(new Error(msg.message || msg.body || 'refused'),
          { code: msg.failureType, status: msg.failureCode }));
      } else {
        waiting.resolve(msg.body);
      }
      return;
    }
    if (msg.type === 'rec' && this.handlers.has(msg.address)) {
      this.handlers.get(msg.address).forEach((fn) => fn(msg.body, msg));
    }
  }

  /** Calls fn(body) for every message on address (kith.user.<id>, kith.room.<room>); returns an unsubscribe function. */
  subscribe(address, fn) {
    let fns = this.handlers.get(address);
    if (!fns) {
      fns = new Set();
      this.handlers.set(address, fns);
      this.frame({ type: 'register', address, headers: this.headers() });
    }
    fns.add(fn);
    return () => {
      fns.delete(fn);
      if (fns.size === 0 && this.handlers.get(address) === fns) {
        this.handlers.delete(address);
        this.frame({ type: 'unregister', address, headers: this.headers() });
      }
    };
  }

  /** Sends body to address and resolves with the reply's body (rejects with the bridge's refusal). */
  request(address, body) {
    if (!this.open) {
      return Promise.reject(new Error('not connected'));
    }
    const replyAddress = crypto.randomUUID();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(replyAddress);
        reject(new Error('no reply from ' + address));
      }, REPLY_MS);
      this.pending.set(replyAddress, { resolve, reject, timer });
      this.frame({ type: 'send', address, body, replyAddress, headers: this.headers() });
    });
  }

  /** Publishes body to address (no reply). */
  publish(address, body) {
    this.frame({ type: 'publish', address, body, headers: this.headers() });
  }

  /** Calls fn(live) when the connection is up as the user or drops; returns a function that stops it. */
  onStatus(fn) {
    this.statusListeners.add(fn);
    return () => this.statusListeners.delete(fn);
  }

  status(open) {
    this.statusListeners.forEach((fn) => fn(open));
  }
}

/** The console's one bridge connection. */
export const bridge = new Bridge();

/** The user's own address, where Kith pushes notifications, messages and events for them. */
export function userAddress() {
  const s = currentSession();
  return s ? 'kith.user.' + s.user_id : null;
}

// a refreshed token is presented on the open connection at once, so deliveries never lapse at the old one's expiry
onSessionChange((s) => {
  if (s && bridge.open) {
    bridge.request('kith.bridge.whoami', {}).catch(() => {});
  }
});
