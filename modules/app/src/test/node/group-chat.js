// Drives Kith's SockJS bridge with the official Vert.x client in a group: alice creates a topic group and bob joins
// it (HTTP); both register on the group's room and exchange messages over the bridge; bob disconnects, misses
// messages sent over the bridge and over HTTP, reconnects and fetches exactly what he missed by sequence; then the
// room is live again. Input (environment): KITH_URL, KITH_USERS (JSON [{id, access}, {id, access}]).
// Prints one JSON line; exits 0 when every check passed, 1 otherwise.
'use strict';
const { fail, check, request, connect, api, since, ids } = require('./bridge-client');

const [alice, bob] = JSON.parse(process.env.KITH_USERS);

let counter = 0;
function send(conn, from, group, text, mentions) {
  counter += 1;
  const body = { group, text, client_id: 'node-group-' + process.pid + '-' + counter };
  if (mentions) {
    body.mentions = mentions;
  }
  return request(conn.eb, 'kith.messaging.send', body, from).then((r) => r.message);
}

async function main() {
  const created = await api(alice, 'POST', '/groups', { kind: 'topic', name: 'Node walkers', topic: 'node' + process.pid });
  check(created.status === 201, 'create answered ' + created.status + ' ' + JSON.stringify(created.body));
  const group = created.body.id;
  const joined = await api(bob, 'POST', '/groups/' + group + '/join');
  check(joined.status === 200 && joined.body.role === 'member', 'join answered ' + JSON.stringify(joined));
  const room = 'g' + group;

  const a = await connect(alice, [room]);
  let b = await connect(bob, [room]);

  // live, both ways, through the room (the sender's own connections hear it too)
  const sent = [];
  for (let i = 0; i < 3; i++) {
    sent.push(await send(a, alice, group, 'live ' + i, [bob.id]));
  }
  const live = await b.messages(3);
  check(ids(live) === ids(sent), 'bob received ' + JSON.stringify(live) + ', alice sent ' + JSON.stringify(sent));
  check(live.every((m) => m.sender === alice.id && m.group === group), 'sender stamped as alice, in the group');
  check(live.every((m) => JSON.stringify(m.mentions) === JSON.stringify([bob.id])), 'bob is mentioned');
  const answer = await send(b, bob, group, 'hi alice');
  const atAlice = (await a.messages(4)).filter((m) => m.sender === bob.id);
  check(atAlice.length === 1 && atAlice[0].id === answer.id, 'alice received bob\'s answer on the room');
  const held = answer.seq;
  check(held === 4, 'sequences 1..4 so far, got ' + held);
  // bob reads up to what he holds; nothing is unread
  const read = await request(b.eb, 'kith.messaging.read', { conversation: group, seq: held }, bob);
  check(read.read_seq === held && read.unread === 0, 'read marker ' + JSON.stringify(read));

  // bob goes away; alice goes on over the bridge and over HTTP
  b.close();
  const missed = [];
  for (let i = 0; i < 5; i++) {
    if (i % 2 === 0) {
      missed.push(await send(a, alice, group, 'missed ' + i));
    } else {
      const res = await api(alice, 'POST', '/groups/' + group + '/messages',
        { text: 'missed ' + i, client_id: 'node-http-' + process.pid + '-' + i });
      check(res.status === 201, 'HTTP send answered ' + res.status);
      missed.push(res.body.message);
    }
  }
  const conv = await api(bob, 'GET', '/conversations/' + group);
  check(conv.status === 200 && conv.body.kind === 'group' && conv.body.unread === 5, 'bob has 5 unread: ' + JSON.stringify(conv.body));

  // bob is back: exactly the missed messages, in order, no gap, no duplicate
  b = await connect(bob, [room]);
  const fetched = await since(bob, group, held);
  check(ids(fetched) === ids(missed),
    'fetched ' + JSON.stringify(fetched.map((m) => [m.seq, m.text])) + ', missed ' + JSON.stringify(missed.map((m) => [m.seq, m.text])));
  fetched.forEach((m, i) => check(m.seq === held + 1 + i, 'gap or duplicate at ' + i + ': ' + m.seq));
  check(fetched.map((m) => m.text).join('|') === 'missed 0|missed 1|missed 2|missed 3|missed 4', 'texts in order');

  // and the room is live again
  const back = await send(a, alice, group, 'welcome back');
  const again = await b.messages(1);
  check(again[0].id === back.id && again[0].seq === held + 6, 'live again after the reconnect: ' + JSON.stringify(again));

  a.close();
  b.close();
  console.log(JSON.stringify({ ok: true, group, live: live.length, missed: fetched.length }));
  process.exit(0);
}

main().catch((e) => fail(e.message));
