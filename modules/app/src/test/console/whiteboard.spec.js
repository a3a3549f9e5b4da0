// @DisplayName: two friends draw on a shared whiteboard in two browsers: a stroke drawn by one (with the mouse or the keyboard) appears for the other, a clear empties both, and a board with an unknown member and a non-member's look at the board are refused with their codes
'use strict';
const { check, form, open, shot, signUp, spec, unique } = require('./harness');
const { befriend, drawLine, paintedPixels } = require('./live-harness');

spec('whiteboard', async ({ user }) => {
  const a = await user();
  const alice = await signUp(a, unique('wa'));
  const b = await user();
  const bob = await signUp(b, unique('wb'));
  await befriend(a, b); // only friends share an ad-hoc board
  await open(b, '/boards', 'Whiteboards');
  await open(a, '/boards', 'Whiteboards');

  const create = form(a, 'New board');
  await create.getByLabel('Title').fill('Plans');
  await create.getByLabel(/Friends to draw with/).fill(unique('nobody'));
  await create.getByRole('button', { name: 'Create board' }).click();
  const alert = a.getByRole('alert');
  await alert.waitFor();
  check((await alert.textContent()).includes('user_not_found'), 'an unknown member is refused: '
    + await alert.textContent());

  await create.getByLabel(/Friends to draw with/).fill(bob.username);
  await create.getByRole('button', { name: 'Create board' }).click();
  await a.getByRole('heading', { name: 'Plans', level: 1 }).waitFor();

  // the board appears in Bob's list live (board_added); he opens it
  await b.getByRole('link', { name: 'Plans' }).click();
  await b.getByRole('heading', { name: 'Plans', level: 1 }).waitFor();
  await b.getByText('Strokes on the board: 0').waitFor();
  check(await paintedPixels(b) === 0, 'a new board is blank');

  await drawLine(a, [0.1, 0.2], [0.8, 0.6]);
  await b.getByText('Strokes on the board: 1').waitFor();
  check(await paintedPixels(b) > 0, 'Alice\'s stroke is painted on Bob\'s canvas');
  await b.getByText('last by @' + alice.username).waitFor();

  await b.getByRole('button', { name: 'Eraser' }).click();
  await b.getByRole('button', { name: 'Pen' }).click();
  await drawLine(b, [0.2, 0.8], [0.7, 0.3]);
  await a.getByText('Strokes on the board: 2').waitFor();
  await a.getByText('last by @' + bob.username).waitFor();
  await shot(a, 'whiteboard');

  // a user who is not a member is refused the board
  const board = a.url().split('/').pop();
  const c = await user({ phone: true });
  await signUp(c, unique('wc'));
  await open(c, '/boards/' + board);
  const refused = c.getByRole('alert');
  await refused.waitFor();
  check((await refused.textContent()).includes('board_not_found'), 'a non-member is refused: '
    + await refused.textContent());
  check(await c.locator('canvas').count() === 0, 'no drawing area is shown to a non-member');

  // a line drawn with the keyboard alone reaches the other side too
  const canvas = b.getByRole('img', { name: 'Drawing area of Plans' });
  await canvas.focus();
  await canvas.press('Enter');
  for (let i = 0; i < 4; i++) {
    await canvas.press('Shift+ArrowRight');
  }
  await canvas.press('ArrowDown');
  await canvas.press('Enter');
  await a.getByText('Strokes on the board: 3').waitFor();

  await b.getByRole('button', { name: 'Clear the board' }).click();
  await a.getByText('Strokes on the board: 0').waitFor();
  check(await paintedPixels(a) === 0, 'a clear empties Alice\'s canvas');
  return { users: [alice.username, bob.username] };
});
