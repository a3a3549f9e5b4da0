// Helpers shared by the bridge scripts: a Kith connection through the official Vert.x client, request/reply over the
// bridge, the HTTP API, history paging by after_seq, and the one-JSON-line result protocol the Java test reads.
'use strict';
const EventBus = require('@vertx/eventbus-bridge-client.js');

const base = process.env.KITH_URL;
const TIMEOUT = 20000;

function fail(message) {
  console.log(JSON.stringify({ ok: false, error: message }));
  process.exit(1);
}

function check(condition, message) {
  if (!condition) {
    fail(message);
  }
}

function within(promise, what) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out: ' + what)), TIMEOUT);
  })]).finally(() => clearTimeout(timer));
}

function auth(user) {
  return { authorization: 'Bearer ' + user.access };
}

function request(eb, address, body, user) {
  return within(new Promise((resolve, reject) => {
    eb.send(address, body, auth(user), (err, reply) => (err ? reject(new Error(JSON.stringify(err))) : resolve(reply.body)));
  }), 'the reply from ' + address);
}

/**
 * Opens a bridge connection for a user and registers on the user's address and on each of `rooms` (room ids such as
 * "g123"); resolves once the bridge has done it. Messages pushed as {kind: "message"} on any of them are collected in
 * arrival order.
 */
async function connect(user, rooms = []) {
  const eb = new EventBus(base + '/eventbus');
  eb.enableReconnect(false);
  eb.onerror = () => {};
  const inbox = [];
  const waiters = [];
  const collect = (err, msg) => {
    if (!err && msg.body && msg.body.kind === 'message') {
      inbox.push(msg.body.message);
      waiters.splice(0).forEach((w) => w());
    }
  };
  await within(new Promise((resolve) => { eb.onopen = resolve; }), 'the connection of ' + user.id);
  eb.registerHandler('kith.user.' + user.id, auth(user), collect);
  rooms.forEach((room) => eb.registerHandler('kith.room.' + room, {}, collect));
  // frames of a connection are decided in order: once whoami answers, the registrations are in place
  const me = await request(eb, 'kith.bridge.whoami', {}, user);
  check(me.user_id === user.id, 'whoami answered ' + JSON.stringify(me) + ' for ' + user.id);
  return {
    eb,
    inbox,
    /** Resolves with the next n messages (removed from the inbox), waiting for them. */
    async messages(n) {
      await within(new Promise((resolve) => {
        const poll = () => (inbox.length >= n ? resolve() : waiters.push(poll));
        poll();
      }), n + ' messages for ' + user.id);
      return inbox.splice(0, n);
    },
    close() {
      eb.close();
    },
  };
}

/** An HTTP call to the API as the user; resolves with {status, body}. */
async function api(user, method, path, body) {
  const res = await fetch(base + '/api/v1' + path, {
    method,
    headers: Object.assign({ authorization: 'Bearer ' + user.access },
      body === undefined ? {} : { 'content-type': 'application/json' }),
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

/** Every message of a conversation after afterSeq, paging by after_seq (pages of 2) until a page is empty. */
async function since(user, conversation, afterSeq) {
  const out = [];
  let after = afterSeq;
  for (let pages = 0; pages < 100; pages++) {
    const res = await api(user, 'GET', '/conversations/' + conversation + '/messages?limit=2&after_seq=' + after);
    check(res.status === 200, 'history answered ' + res.status);
    if (res.body.items.length === 0) {
      return out;
    }
    out.push(...res.body.items);
    after = res.body.items[res.body.items.length - 1].seq;
  }
  return fail('history paging never ended');
}

function ids(messages) {
  return JSON.stringify(messages.map((m) => m.id));
}

module.exports = { fail, check, within, request, connect, api, since, ids };
