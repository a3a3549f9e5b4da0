// Drives Kith's SockJS bridge with the official Vert.x client: two users connect, exchange direct messages over the
// bridge, one disconnects, misses messages, reconnects and fetches exactly what it missed by sequence over HTTP.
// Input (environment): KITH_URL (http://127.0.0.1:<port>), KITH_USERS (JSON [{id, access}, {id, access}]).
// Prints one JSON line; exits 0 when every check passed, 1 otherwise.
'use strict';
const EventBus = require('@vertx/eventbus-bridge-client.js');

const base = process.env.KITH_URL;
const [alice, bob] = JSON.parse(process.env.KITH_USERS);
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

/** Opens a bridge connection for a user and registers on the user's address; resolves once the bridge has done it. */
async function connect(user) {
  const eb = new EventBus(base + '/eventbus');
  eb.enableReconnect(false);
  eb.onerror = () => {};
  const inbox = [];
  const waiters = [];
  await within(new Promise((resolve) => { eb.onopen = resolve; }), 'the connection of ' + user.id);
  eb.registerHandler('kith.user.' + user.id, auth(user), (err, msg) => {
    if (!err && msg.body && msg.body.kind === 'message') {
      inbox.push(msg.body.message);
      waiters.splice(0).forEach((w) => w());
    }
  });
  // frames of a connection are decided in order: once whoami answers, the registration is in place
  const me = await request(eb, 'kith.bridge.whoami', {}, user);
  check(me.user_id === user.id, 'whoami answered ' + JSON.stringify(me) + ' for ' + user.id);
  return {
    eb,
    inbox,
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

function request(eb, address, body, user) {
  return within(new Promise((resolve, reject) => {
    eb.send(address, body, auth(user), (err, reply) => (err ? reject(new Error(JSON.stringify(err))) : resolve(reply.body)));
  }), 'the reply from ' + address);
}

let counter = 0;
function send(conn, from, to, text) {
  counter += 1;
  return request(conn.eb, 'kith.messaging.send',
    { to: to.id, text, client_id: 'node-' + process.pid + '-' + counter }, from).then((r) => r.message);
}

async function since(user, conversation, afterSeq) {
  const out = [];
  let after = afterSeq;
  for (let pages = 0; pages < 100; pages++) {
    const res = await fetch(base + '/api/v1/conversations/' + conversation + '/messages?limit=2&after_seq=' + after,
      { headers: { authorization: 'Bearer ' + user.access } });
    check(res.status === 200, 'history answered ' + res.status);
    const page = await res.json();
    if (page.items.length === 0) {
      return out;
    }
    out.push(...page.items);
    after = page.items[page.items.length - 1].seq;
  }
  fail('history paging never ended');
}

async function main() {
  const a = await connect(alice);
  let b = await connect(bob);

  // live, both ways
  const sent = [];
  for (let i = 0; i < 3; i++) {
    sent.push(await send(a, alice, bob, 'live ' + i));
  }
  const live = await b.messages(3);
  check(JSON.stringify(live.map((m) => m.id)) === JSON.stringify(sent.map((m) => m.id)),
    'bob received ' + JSON.stringify(live) + ', alice sent ' + JSON.stringify(sent));
  check(live.every((m) => m.sender === alice.id), 'sender stamped as alice');
  const answer = await send(b, bob, alice, 'hi alice');
  const atAlice = (await a.messages(4)).filter((m) => m.sender === bob.id);
  check(atAlice.length === 1 && atAlice[0].id === answer.id, 'alice received bob\'s answer');
  const conversation = answer.conversation;
  const held = answer.seq;

  // bob goes away; alice goes on
  b.close();
  const missed = [];
  for (let i = 0; i < 5; i++) {
    missed.push(await send(a, alice, bob, 'missed ' + i));
  }

  // bob is back: exactly the missed messages, in order, no gap, no duplicate
  b = await connect(bob);
  const fetched = await since(bob, conversation, held);
  check(JSON.stringify(fetched.map((m) => m.id)) === JSON.stringify(missed.map((m) => m.id)),
    'fetched ' + JSON.stringify(fetched.map((m) => [m.seq, m.text])) + ', missed ' + JSON.stringify(missed.map((m) => [m.seq, m.text])));
  fetched.forEach((m, i) => check(m.seq === held + 1 + i, 'gap or duplicate at ' + i + ': ' + m.seq));
  check(fetched.map((m) => m.text).join('|') === 'missed 0|missed 1|missed 2|missed 3|missed 4', 'texts in order');

  // and live again
  const back = await send(a, alice, bob, 'welcome back');
  const again = await b.messages(1);
  check(again[0].id === back.id && again[0].seq === held + 6, 'live again after the reconnect');

  a.close();
  b.close();
  console.log(JSON.stringify({ ok: true, live: live.length, missed: fetched.length }));
  process.exit(0);
}

main().catch((e) => fail(e.message));
