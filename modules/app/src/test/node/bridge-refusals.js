// Drives Kith's SockJS bridge with the official Vert.x client and checks that refusals reach the callbacks waiting
// for them: a refused send calls its callback with the error (anonymous, a header the bridge cannot forward, an
// address outside the allow list), a refused registration calls its handler, and the connection stays usable.
// Input (environment): KITH_URL (http://127.0.0.1:<port>), KITH_USERS (JSON [{id, access}, {id, access}]).
// Prints one JSON line; exits 0 when every check passed, 1 otherwise.
'use strict';
const EventBus = require('@vertx/eventbus-bridge-client.js');
const { fail, check, within, request } = require('./bridge-client');

const [alice, bob] = JSON.parse(process.env.KITH_USERS);

/** Sends a frame expecting a reply; resolves with the error the callback got, failing on a reply. */
function refused(eb, address, headers) {
  return within(new Promise((resolve) => {
    eb.send(address, {}, headers, (err, reply) => resolve(err || { unexpected: reply }));
  }), 'the callback of a send to ' + address);
}

function expect(err, failureCode, failureType, what) {
  check(err.failureCode === failureCode && err.failureType === failureType && err.message === failureType,
    what + ' answered ' + JSON.stringify(err));
}

async function main() {
  const eb = new EventBus(process.env.KITH_URL + '/eventbus');
  eb.enableReconnect(false);
  const unmatched = [];
  eb.onerror = (err) => unmatched.push(err);
  await within(new Promise((resolve) => { eb.onopen = resolve; }), 'the connection');
  const token = { authorization: 'Bearer ' + alice.access };

  expect(await refused(eb, 'kith.bridge.whoami', {}), 403, 'access_denied', 'an anonymous send');
  expect(await refused(eb, 'kith.bridge.whoami', Object.assign({ 'bad name': 'x' }, token)), 400, 'invalid_frame',
    'a send with a space in a header name');
  expect(await refused(eb, 'kith.admin.anything', token), 403, 'access_denied', 'a send outside the allow list');
  const handlerErr = await within(new Promise((resolve) => {
    eb.registerHandler('kith.user.' + bob.id, token, (err) => { if (err) resolve(err); });
  }), 'the handler of a refused registration');
  expect(handlerErr, 403, 'access_denied', 'a registration on another user\'s address');

  const me = await request(eb, 'kith.bridge.whoami', {}, alice);
  check(me.user_id === alice.id, 'whoami after the refusals answered ' + JSON.stringify(me));
  check(unmatched.length === 0, 'errors no callback heard: ' + JSON.stringify(unmatched));
  eb.close();
  console.log(JSON.stringify({ ok: true, refusals: 4 }));
  process.exit(0);
}

main().catch((e) => fail(e.message));
