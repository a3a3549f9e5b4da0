// @DisplayName: a user who approves followers accepts one request and declines another, puts a friend in a circle and under a tag, posts to that circle only, is told circle_name_taken for a second circle of that name and sees a circle deleted elsewhere leave the list, undoes a block, a mute and a hide from the relations lists, and removes a follower; a request is withdrawn
'use strict';
const {
  api, check, open, shot, signUp, spec, unique, until, untilShown, visit,
} = require('./harness');

/** Opens a tab of the relations page. */
async function tab(page, name) {
  await open(page, '/relations', 'Relations');
  await page.getByRole('tab', { name, exact: true }).click();
}

spec('relations', async ({ user }) => {
  const carolPage = await user();
  const davePage = await user();
  const erinPage = await user({ phone: true });
  const carol = await signUp(carolPage, unique('cc'));
  const dave = await signUp(davePage, unique('cd'));
  const erin = await signUp(erinPage, unique('ce'));

  await open(carolPage, '/profile', 'Your profile');
  await carolPage.getByLabel(/Approve who may follow me/).check();
  await carolPage.getByRole('button', { name: 'Save' }).click();
  await carolPage.getByRole('status').filter({ hasText: 'Profile saved.' }).waitFor();

  for (const page of [davePage, erinPage]) {
    await visit(page, carol.username);
    await page.getByRole('button', { name: 'Follow', exact: true }).click();
    await page.getByRole('button', { name: 'Requested (cancel)' }).waitFor();
  }

  // carol accepts dave and declines erin
  await tab(carolPage, 'Requests to you');
  const requests = carolPage.getByRole('list', { name: 'Requests to you' });
  await requests.getByRole('listitem').filter({ hasText: '@' + erin.username }).waitFor();
  await shot(carolPage, 'requests');
  await requests.getByRole('listitem').filter({ hasText: '@' + dave.username })
    .getByRole('button', { name: 'Accept' }).click();
  await requests.getByRole('listitem').filter({ hasText: '@' + erin.username })
    .getByRole('button', { name: 'Decline' }).click();
  await carolPage.getByText('Nobody here.').waitFor();
  await visit(davePage, carol.username);
  await davePage.getByRole('button', { name: 'Unfollow' }).waitFor();
  await visit(erinPage, carol.username);
  await erinPage.getByRole('button', { name: 'Follow', exact: true }).waitFor();

  // carol follows dave back, makes a circle, puts him in it and tags him
  const circle = unique('Close');
  await tab(carolPage, 'Circles');
  await carolPage.getByLabel('New circle name').fill(circle);
  await carolPage.getByRole('button', { name: 'Create circle' }).click();
  await carolPage.getByRole('button', { name: circle }).waitFor();
  await visit(carolPage, dave.username);
  await carolPage.getByRole('button', { name: 'Follow', exact: true }).click();
  await carolPage.getByText('Friend', { exact: true }).waitFor();
  await carolPage.getByLabel(circle).check();
  await until('dave in the circle', () => carolPage.getByLabel(circle).isChecked());
  await carolPage.getByLabel('Tag name').fill('climbing');
  await carolPage.getByRole('button', { name: 'Add a tag' }).click();
  await carolPage.getByRole('button', { name: 'Remove tag climbing' }).waitFor();
  await tab(carolPage, 'Circles');
  await carolPage.getByRole('button', { name: circle }).click();
  await carolPage.getByRole('list', { name: 'Members of ' + circle }).getByText('@' + dave.username).waitFor();
  await tab(carolPage, 'Tags');
  await carolPage.getByRole('button', { name: 'climbing' }).click();
  await carolPage.getByRole('list', { name: 'Tagged climbing' }).getByText('@' + dave.username).waitFor();

  // a post for the circle only: dave sees it, erin (a visitor of carol's page) does not
  const text = 'Circle only ' + carol.username;
  await open(carolPage, '/compose', 'Write a post');
  await carolPage.getByLabel('What is new?').fill(text);
  await carolPage.getByLabel('Who can see it').selectOption('only');
  await carolPage.getByLabel(circle).check();
  await carolPage.getByRole('button', { name: 'Publish' }).click();
  await carolPage.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await open(davePage, '/moments', 'Moments');
  await untilShown(davePage, davePage.getByRole('article').filter({ hasText: text }), 'the circle post in moments');
  await visit(erinPage, carol.username);
  await erinPage.getByText('No posts you can see.').waitFor();
  check(await erinPage.getByText(text).count() === 0, 'erin must not see the circle post');

  // a second circle of that name (in any case) is refused with the circles' own code; a circle deleted from another
  // device answers circle_not_found to the stale list, which reads the circles again and says so
  await tab(carolPage, 'Circles');
  await carolPage.getByLabel('New circle name').fill(circle.toLowerCase());
  await carolPage.getByRole('button', { name: 'Create circle' }).click();
  await carolPage.getByRole('alert').filter({ hasText: 'circle_name_taken' }).waitFor();
  const token = await carolPage.evaluate(() => JSON.parse(localStorage.getItem('kith.session')).access_token);
  const id = (await api('GET', '/me/circles', token)).json.items.find((c) => c.name === circle).id;
  check((await api('DELETE', '/me/circles/' + id, token)).status === 204, 'the circle is deleted elsewhere');
  await carolPage.getByRole('listitem').filter({ hasText: circle }).getByRole('button', { name: 'Delete circle' })
    .click();
  await carolPage.getByRole('status').filter({ hasText: 'That circle no longer exists' }).waitFor();
  await until('the gone circle leaves the list', async () => await carolPage.getByRole('button', { name: circle })
    .count() === 0);

  // block and mute, then undo them from the lists
  await visit(carolPage, erin.username);
  await carolPage.getByRole('button', { name: 'Block', exact: true }).click();
  await carolPage.getByRole('button', { name: 'Unblock' }).waitFor();
  await visit(carolPage, dave.username);
  await carolPage.getByRole('button', { name: 'Mute their posts' }).click();
  await carolPage.getByRole('button', { name: 'Unmute' }).waitFor();
  await tab(carolPage, 'Blocked');
  await carolPage.getByRole('list', { name: 'Blocked' }).getByRole('button', { name: 'Unblock' }).click();
  await carolPage.getByText('Nobody here.').waitFor();
  await tab(carolPage, 'Muted');
  await carolPage.getByRole('list', { name: 'Muted' }).getByRole('button', { name: 'Unmute' }).click();
  await carolPage.getByText('Nobody here.').waitFor();

  // hide her posts from dave, then stop from the list
  await visit(carolPage, dave.username);
  await carolPage.getByRole('button', { name: 'Hide my posts from them' }).click();
  await carolPage.getByRole('button', { name: 'Stop hiding my posts' }).waitFor();
  await tab(carolPage, 'Hidden from');
  await carolPage.getByRole('list', { name: 'Hidden from' }).getByRole('button', { name: 'Stop hiding' }).click();
  await carolPage.getByText('Nobody here.').waitFor();

  // erin asks again and withdraws her request; carol removes dave as a follower
  await visit(erinPage, carol.username);
  await erinPage.getByRole('button', { name: 'Follow', exact: true }).click();
  await erinPage.getByRole('button', { name: 'Requested (cancel)' }).waitFor();
  await tab(erinPage, 'Your requests');
  await erinPage.getByRole('list', { name: 'Your requests' }).getByRole('button', { name: 'Cancel request' }).click();
  await erinPage.getByText('Nobody here.').waitFor();
  await tab(carolPage, 'Requests to you');
  await carolPage.getByText('Nobody here.').waitFor();
  await tab(carolPage, 'Followers');
  await carolPage.getByRole('list', { name: 'Followers' }).getByRole('listitem').filter({ hasText: '@' + dave.username })
    .getByRole('button', { name: 'Remove follower' }).click();
  await carolPage.getByText('Nobody here.').waitFor();
  await visit(davePage, carol.username);
  await davePage.getByRole('button', { name: 'Follow', exact: true }).waitFor();
  return { carol: carol.username };
});
