// @DisplayName: one user creates an activity with a place and coordinates, another finds it nearby and joins, a third lands on the waitlist; the organiser's unread badge goes up live with the join notification and back to zero after mark-read; the two talk live in the activity's discussion; an end before the start is refused with its code
'use strict';
const { check, form, open, shot, signUp, spec, unique } = require('./harness');
const { api, until } = require('./live-harness');

const LAT = '31.2304';
const LON = '121.4737';

/** Fills the local date-time field of the form at hours from now. */
async function at(field, hours) {
  const d = new Date(Date.now() + hours * 3600000);
  const local = new Date(d.getTime() - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  await field.fill(local);
}

/** Finds the activity near the coordinates and opens it. */
async function findAndOpen(page, title) {
  await open(page, '/activities', 'Activities');
  const near = form(page, 'Near a place');
  await near.getByLabel('Latitude').fill(LAT);
  await near.getByLabel('Longitude').fill(LON);
  await near.getByLabel('Within (km)').fill('5');
  await near.getByRole('button', { name: 'Search' }).click();
  await near.getByRole('link', { name: title }).click();
  await page.getByRole('heading', { name: title, level: 1 }).waitFor();
}

spec('activities', async ({ user }) => {
  const a = await user();
  const alice = await signUp(a, unique('aa'));
  await open(a, '/activities', 'Activities');
  const title = 'Picnic ' + unique('p');
  const create = form(a, 'New activity');
  await create.getByLabel('Title').fill(title);
  await at(create.getByLabel('Starts', { exact: true }), 5);
  await at(create.getByLabel('Ends', { exact: true }), 3);
  await create.getByLabel('Place', { exact: true }).fill('People\'s Park');
  await create.getByLabel('Latitude').fill(LAT);
  await create.getByLabel('Longitude').fill(LON);
  await create.getByLabel('Places (empty: no limit)').fill('1');
  await create.getByLabel('Keep a waitlist when full').check();
  await create.getByRole('button', { name: 'Create activity' }).click();
  const alert = a.getByRole('alert');
  await alert.waitFor();
  check((await alert.textContent()).includes('validation_failed'), 'an end before the start is refused: '
    + await alert.textContent());
  await at(create.getByLabel('Ends', { exact: true }), 7);
  await create.getByRole('button', { name: 'Create activity' }).click();
  await a.getByRole('heading', { name: title, level: 1 }).waitFor();
  await a.getByText('organise it').waitFor();
  await shot(a, 'activity');
  await open(a, '/notifications', 'Notifications');
  const badge = a.getByRole('link', { name: /^Notifications/ }).locator('.badge');
  check(await badge.count() === 0, 'no unread badge before anything happened');

  const b = await user();
  const bob = await signUp(b, unique('ab'));
  await findAndOpen(b, title);
  await b.getByRole('button', { name: 'Join' }).click();
  await b.getByText('You are going.').waitFor();

  // the organiser's badge and list move without a reload
  await a.getByRole('link', { name: 'Notifications (1 unread)' }).waitFor();
  await a.locator('.notifications li.unread', { hasText: bob.username + ' joined your activity ' + title })
    .waitFor();
  await shot(a, 'notifications');

  const c = await user({ phone: true });
  await signUp(c, unique('ac'));
  await findAndOpen(c, title);
  await c.getByRole('button', { name: 'Join' }).click();
  await c.getByText('The activity is full: you are number 1 on the waitlist.').waitFor();

  await a.getByRole('button', { name: 'Mark all read' }).click();
  await a.getByRole('heading', { name: 'Unread: 0' }).waitFor();
  await badge.waitFor({ state: 'detached' });
  await a.reload();
  await a.getByRole('heading', { name: 'Unread: 0' }).waitFor();
  check(await badge.count() === 0, 'the badge stays at zero after a reload');

  await open(a, '/activities', 'Activities');
  await a.getByRole('link', { name: title }).click(); // in "Organised · Upcoming"
  await a.getByRole('heading', { name: title, level: 1 }).waitFor();

  // the discussion is a group chat the activities module makes and fills from its events: wait until Bob is in it
  const id = Number(a.url().split('/').pop());
  const discussion = await until(async () => {
    const view = await api(b, 'GET', '/activities/' + id);
    return view.discussion && await api(b, 'GET', '/conversations/' + view.discussion) && view.discussion;
  }, 'the discussion with Bob in it');
  await open(a, '/chat/' + discussion);
  await a.getByRole('heading', { name: /^Group: / }).waitFor();
  await open(b, '/activities/' + id, title);
  await b.getByRole('link', { name: 'Open the discussion' }).click();
  await b.getByLabel('Message', { exact: true }).fill('See you there');
  await b.getByRole('button', { name: 'Send' }).click();
  await a.locator('.msg', { hasText: 'See you there' }).waitFor();
  return { users: [alice.username, bob.username] };
});
