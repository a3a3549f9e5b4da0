// Drives Kith's SockJS bridge with the official Vert.x client: two users connect, exchange direct messages over the
// bridge, one disconnects, misses messages, reconnects and fetches exactly what it missed by sequence over HTTP.
// Input (environment): KITH_URL (http://127.0.0.1:<port>), KITH_USERS (JSON [{id, access}, {id, access}]).
// Prints one JSON line; exits 0 when every check passed, 1 otherwise.
'use strict';
const { fail, check, request, connect, since, ids } = require('./bridge-client');

const [alice, bob] = JSON.parse(process.env.KITH_USERS);

let counter = 0;
function send(conn, from, to, text) {
  counter += 1;
  return request(conn.eb, 'kith.messaging.send',
    { to: to.id, text, client_id: 'node-' + process.pid + '-' + counter }, from).then((r) => r.message);
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
  check(ids(live) === ids(sent), 'bob received ' + JSON.stringify(live) + ', alice sent ' + JSON.stringify(sent));
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
  check(ids(fetched) === ids(missed),
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
