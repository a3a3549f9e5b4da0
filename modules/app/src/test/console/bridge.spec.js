// @DisplayName: the console's bridge client hears a follower's notification and unread count on the user's address, and hands a refused frame's code to the caller
'use strict';
const { check, live, signUp, spec, unique, until, visit } = require('./harness');

spec('bridge', async ({ user }) => {
  const annaPage = await user();
  const benPage = await user();
  const anna = await signUp(annaPage, unique('cn'));
  await signUp(benPage, unique('co'));
  await live(annaPage);

  // the app's own connection (the same module instance): listen on the user's address like a view would
  await annaPage.evaluate(async () => {
    const { bridge, userAddress } = await import('/console/bridge.js');
    window.heard = [];
    bridge.subscribe(userAddress(), (body) => window.heard.push(body));
    await bridge.request('kith.bridge.whoami', {}); // frames are decided in order: registered once this answers
  });

  await visit(benPage, anna.username);
  await benPage.getByRole('button', { name: 'Follow', exact: true }).click();
  await until('the follower notification pushed to anna', () => annaPage.evaluate(() => window.heard
    .some((b) => b.kind === 'notification' && b.notification.type === 'follower')));
  await until('the unread count pushed to anna', () => annaPage.evaluate(() => window.heard
    .some((b) => b.kind === 'unread' && b.counts.total >= 1)));

  const refused = await annaPage.evaluate(async () => {
    const { bridge } = await import('/console/bridge.js');
    return bridge.request('kith.nothing.here', {}).then(() => 'answered', (e) => e.code + ' ' + e.status);
  });
  check(refused === 'access_denied 403', 'the refusal reaches the caller: ' + refused);
  return { heard: await annaPage.evaluate(() => window.heard.length) };
});
