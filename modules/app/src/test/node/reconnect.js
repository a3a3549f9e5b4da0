// The reconnect recipe of docs/realtime.md with the official Vert.x client: automatic reconnect on, handlers
// registered in onopen (the client drops them on every reconnect), then catch-up by after_seq over HTTP, dropping
// a seq already held. Bob's connection drops while Alice sends; on the reconnect Bob holds every message exactly once,
// in order, and hears the next one live.
// Input (environment): KITH_URL (http://127.0.0.1:<port>), KITH_USERS (JSON [{id, access}, {id, access}]).
// Prints one JSON line; exits 0 when every check passed, 1 otherwise.
'use strict';
const EventBus = require('@vertx/eventbus-bridge-client.js');
const { fail, check, within, request, connect, since } = require('./bridge-client');

const [alice, bob] = JSON.parse(process.env.KITH_USERS);
const base = process.env.KITH_URL;

let counter = 0;
function send(conn, text) {
  counter += 1;
  return request(conn.eb, 'kith.messaging.send',
    { to: bob.id, text, client_id: 'reconnect-' + process.pid + '-' + counter }, alice).then((r) => r.message);
}

async function main() {
  const a = await connect(alice);
  const first = await send(a, 'before');
  const conversation = first.conversation;

  // Bob, as the guide says: reconnect on, everything registered in onopen, catch-up after a reconnect
  const held = new Map(); // seq -> message
  const arrivals = [];
  const waiters = [];
  const hold = (m) => {
    if (!held.has(m.seq)) {
      held.set(m.seq, m);
    }
    waiters.splice(0).forEach((w) => w());
  };
  const eb = new EventBus(base + '/eventbus', { vertxbus_reconnect_delay_min: 500, vertxbus_reconnect_delay_max: 1000 });
  eb.enableReconnect(true);
  eb.onerror = () => {};
  let opens = 0;
  let reconnects = 0;
  let handlersLeftOnReconnect = null;
  let opened;
  eb.onreconnect = () => { reconnects += 1; };
  eb.onopen = () => {
    opens += 1;
    if (opens > 1) {
      handlersLeftOnReconnect = Object.keys(eb.handlers).length;
    }
    eb.registerHandler('kith.user.' + bob.id, { authorization: 'Bearer ' + bob.access }, (err, msg) => {
      if (!err && msg.body.kind === 'message') {
        arrivals.push(msg.body.message.seq);
        hold(msg.body.message);
      }
    });
    // frames are decided in order: once whoami answers, the registration is in place
    request(eb, 'kith.bridge.whoami', {}, bob).then(() => opened && opened());
  };
  const ready = () => within(new Promise((resolve) => { opened = resolve; }), 'bob\'s connection');
  await ready();
  (await since(bob, conversation, 0)).forEach(hold);
  check(held.has(first.seq), 'bob holds the first message');

  // the connection drops; Alice goes on while the client reconnects by itself
  const reopened = ready();
  eb.sockJSConn.close();
  const missed = [];
  for (let i = 0; i < 4; i++) {
    missed.push(await send(a, 'during ' + i));
  }
  await reopened;
  const fromHttp = await since(bob, conversation, first.seq);
  fromHttp.forEach(hold);

  check(reconnects === 1 && opens === 2, 'one automatic reconnect: opens ' + opens + ', reconnects ' + reconnects);
  check(handlersLeftOnReconnect === 0, 'the client kept ' + handlersLeftOnReconnect + ' handlers over the reconnect');
  const seqs = [...held.keys()].sort((x, y) => x - y);
  const expected = [first, ...missed].map((m) => m.seq);
  check(JSON.stringify(seqs) === JSON.stringify(expected), 'bob holds ' + JSON.stringify(seqs) + ', expected '
    + JSON.stringify(expected));
  missed.forEach((m) => check(held.get(m.seq).id === m.id, 'seq ' + m.seq + ' is the message sent'));

  // live again on the handler registered by onopen after the reconnect
  const after = await send(a, 'after');
  await within(new Promise((resolve) => {
    const poll = () => (held.has(after.seq) ? resolve() : waiters.push(poll));
    poll();
  }), 'the live message after the reconnect');
  check(arrivals.includes(after.seq), 'the message after the reconnect arrived live');

  eb.enableReconnect(false);
  eb.close();
  a.close();
  console.log(JSON.stringify({ ok: true, reconnects, caught_up: fromHttp.length, held: held.size }));
  process.exit(0);
}

main().catch((e) => fail(e.message));
