// @DisplayName: two users chat live in two browsers: a message arrives without a reload, typing and the read receipt show, a recall reaches the other, older history pages in by seq, and an unknown username and a third user's look into the conversation are refused with their codes
'use strict';
const { check, form, open, shot, signUp, spec, unique } = require('./harness');
const { api, sessionUser } = require('./live-harness');

spec('chat', async ({ user }) => {
  const a = await user();
  const alice = await signUp(a, unique('ca'));
  const b = await user();
  const bob = await signUp(b, unique('cb'));
  await open(b, '/chat', 'Chat');
  await open(a, '/chat', 'Chat');

  // a username nobody has is refused with the API's code
  const start = form(a, 'Start a chat');
  await start.getByLabel('Username').fill(unique('nobody'));
  await start.getByRole('button', { name: 'Open chat' }).click();
  const alert = a.getByRole('alert');
  await alert.waitFor();
  check((await alert.textContent()).includes('user_not_found'), 'the refusal names user_not_found: '
    + await alert.textContent());

  // Alice writes first; Bob's list shows the conversation without a reload
  await start.getByLabel('Username').fill(bob.username);
  await start.getByRole('button', { name: 'Open chat' }).click();
  await a.getByRole('heading', { name: 'Chat with ' + bob.username }).waitFor();
  await a.getByLabel('Message', { exact: true }).fill('Hello Bob');
  await a.getByRole('button', { name: 'Send' }).click();
  await a.locator('.msg.own', { hasText: 'Hello Bob' }).locator('.receipt', { hasText: 'Sent' }).waitFor();
  await b.locator('.conversations a', { hasText: alice.username }).click();

  // Bob opening it reads it: Alice sees the receipt
  await b.locator('.msg', { hasText: 'Hello Bob' }).waitFor();
  await a.locator('.msg.own', { hasText: 'Hello Bob' }).locator('.receipt', { hasText: 'Read' }).waitFor();

  // Bob typing shows on Alice's screen; his message arrives live
  await b.getByLabel('Message', { exact: true }).pressSequentially('Hi Alice', { delay: 30 });
  await a.getByText(bob.username + ' is typing…').waitFor();
  await b.getByRole('button', { name: 'Send' }).click();
  await a.locator('.msg', { hasText: 'Hi Alice' }).waitFor();
  await shot(a, 'chat');

  // Alice recalls her message: Bob sees it recalled
  await a.locator('.msg.own', { hasText: 'Hello Bob' }).getByRole('button', { name: 'Recall' }).click();
  await b.locator('.msg').first().getByText('Message recalled').waitFor();
  check(await b.locator('.thread').getByText('Hello Bob').count() === 0, 'the recalled text is gone from Bob\'s screen');

  // a third user cannot read the two's conversation: the console shows Kith's refusal, and nothing of it
  const conversation = b.url().split('/').pop();
  const c = await user({ phone: true });
  await signUp(c, unique('cc'));
  await open(c, '/chat/' + conversation, 'Chat');
  const refused = c.getByRole('alert');
  await refused.waitFor();
  check((await refused.textContent()).includes('conversation_not_found'), 'another user\'s conversation is refused: '
    + await refused.textContent());
  check(await c.locator('.msg').count() === 0, 'no message of it is shown');

  // a long conversation opens at its newest page; older messages page in before the oldest seq shown
  const bobId = await sessionUser(b);
  for (let i = 1; i <= 31; i++) {
    await api(a, 'POST', '/direct/' + bobId + '/messages', { client_id: unique('c'), text: 'Note ' + i });
  }
  await b.reload();
  await b.locator('.msg', { hasText: 'Note 31' }).waitFor();
  check(await b.locator('.msg').count() === 30, 'the first page holds the newest 30 messages');
  check(await b.locator('.thread').getByText('Hi Alice').count() === 0, 'older messages wait for paging');
  await b.getByRole('button', { name: 'Load older messages' }).click();
  await b.locator('.msg', { hasText: 'Hi Alice' }).waitFor();
  await b.locator('.msg').first().getByText('Message recalled').waitFor();
  return { users: [alice.username, bob.username] };
});
