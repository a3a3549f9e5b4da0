// @DisplayName: a user makes a chat group and invites a friend, whose console shows the invitation live; once joined, each sees the other's group messages without a reload, in English and Chinese, and a group without a topic is refused with its code
'use strict';
const { check, form, open, signUp, spec, unique } = require('./harness');
const { befriend } = require('./live-harness');

spec('group-chat', async ({ user }) => {
  const a = await user();
  const alice = await signUp(a, unique('ga'));
  const b = await user({ phone: true });
  const bob = await signUp(b, unique('gb'));
  await befriend(a, b); // invitations go to friends
  await open(b, '/chat', 'Chat');
  await open(a, '/chat', 'Chat');

  const group = form(a, 'New group');
  await group.getByLabel('Group name').fill('Book club');
  await group.getByLabel('Topic').evaluate((input) => { input.required = false; }); // let Kith refuse it
  await group.getByRole('button', { name: 'Create group' }).click();
  const alert = a.getByRole('alert');
  await alert.waitFor();
  check((await alert.textContent()).includes('validation_failed'), 'a topic group needs a topic: '
    + await alert.textContent());

  await group.getByLabel('Topic').fill('novels');
  await group.getByRole('button', { name: 'Create group' }).click();
  await a.getByRole('heading', { name: 'Group: Book club' }).waitFor();
  await a.getByLabel('Invite a friend').fill(bob.username);
  await a.getByRole('button', { name: 'Invite a friend' }).click();
  await a.getByText('Invited ' + bob.username + '.').waitFor();

  // Bob's invitation arrives live; he joins and lands in the group
  const invitations = b.locator('section', { has: b.getByRole('heading', { name: 'Group invitations' }) });
  await invitations.getByText('Book club').waitFor();
  await invitations.getByRole('button', { name: 'Join' }).click();
  await b.getByRole('heading', { name: 'Group: Book club' }).waitFor();
  await b.getByText('Members: 2').waitFor();
  await a.getByText('Members: 2').waitFor(); // the room told Alice's open thread that Bob joined

  await b.getByLabel('Message', { exact: true }).fill('Count me in');
  await b.getByRole('button', { name: 'Send' }).click();
  await a.locator('.msg', { hasText: 'Count me in' }).waitFor();
  await a.getByLabel('Message', { exact: true }).fill('Welcome, Bob');
  await a.getByRole('button', { name: 'Send' }).click();
  await b.locator('.msg', { hasText: 'Welcome, Bob' }).waitFor();
  check(await b.locator('.msg', { hasText: 'Count me in' }).count() === 1, 'Bob\'s own message shows once');

  // the live views speak Chinese too
  await b.getByLabel('Language').selectOption('zh-CN');
  await b.getByRole('heading', { name: '群聊：Book club' }).waitFor();
  await b.getByText('成员：2').waitFor();
  await b.getByRole('button', { name: '发送' }).waitFor();
  return { users: [alice.username, bob.username] };
});
