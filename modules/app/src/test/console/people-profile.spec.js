// @DisplayName: a user edits their profile with a photo and is found by name and nearby with their distance; an address-book entry of nobody finds nobody
'use strict';
const { check, open, png, shot, signUp, spec, unique, until } = require('./harness');

/** Shares a position on the nearby tab and lists people around it. */
async function nearby(page, lat, lon) {
  await open(page, '/people', 'Find people');
  await page.getByRole('tab', { name: 'Nearby' }).click();
  await page.getByLabel('Latitude').fill(String(lat));
  await page.getByLabel('Longitude').fill(String(lon));
  await page.getByRole('button', { name: 'Show people nearby' }).click();
}

spec('people-profile', async ({ user }) => {
  const gracePage = await user();
  const henryPage = await user({ phone: true });
  const grace = await signUp(gracePage, unique('cg'));
  await signUp(henryPage, unique('ch'));
  const nickname = unique('Grace');

  await open(gracePage, '/profile', 'Your profile');
  await gracePage.getByLabel('Display name').fill(nickname);
  await gracePage.getByLabel('Bio (one line)').fill('Climbs on weekends');
  await gracePage.getByLabel('Photo (an image file)').setInputFiles(png('me.png', 200, 200, [220, 80, 40]));
  await gracePage.getByRole('button', { name: 'Save' }).click();
  await gracePage.getByRole('status').filter({ hasText: 'Profile saved.' }).waitFor();
  const card = gracePage.locator('section.profile');
  await card.getByText('Climbs on weekends').waitFor();
  await until('the profile photo shown', () => card.locator('img.avatar')
    .evaluateAll((imgs) => imgs.some((i) => i.naturalWidth > 0)));
  await shot(gracePage, 'profile-edit');

  // a bad edit is refused with the problem's detail: a birthday in the future
  await gracePage.getByLabel('Birthday').fill('2999-01-01');
  await gracePage.getByRole('button', { name: 'Save' }).click();
  const refusal = gracePage.getByRole('alert');
  await refusal.waitFor();
  check(/birthday|validation|invalid/i.test(await refusal.textContent()), 'refused: ' + await refusal.textContent());

  // henry finds grace by the start of her name
  await open(henryPage, '/people', 'Find people');
  await henryPage.getByLabel('Name starts with').fill(nickname.slice(0, nickname.length - 1));
  await henryPage.getByRole('button', { name: 'Search', exact: true }).click();
  await henryPage.getByRole('list', { name: 'Results' }).getByRole('link', { name: new RegExp(nickname) }).waitFor();

  // both share a position about 1.1 km apart: henry sees grace with her distance
  await nearby(gracePage, 31.2304, 121.4737);
  await gracePage.getByRole('list', { name: 'Results' }).or(gracePage.getByText('Nobody found.')).first().waitFor();
  await nearby(henryPage, 31.2404, 121.4737);
  const row = henryPage.getByRole('list', { name: 'Results' }).getByRole('listitem')
    .filter({ hasText: '@' + grace.username });
  await row.waitFor();
  const distance = await row.locator('.muted').last().textContent();
  check(/^1\.[0-2] km$/.test(distance.trim()), 'grace is about 1.1 km away: ' + distance);
  await shot(henryPage, 'nearby');

  // an address-book entry that belongs to nobody finds nobody
  await open(henryPage, '/people', 'Find people');
  await henryPage.getByRole('tab', { name: 'Address book' }).click();
  await henryPage.getByLabel(/Emails and phone numbers/).fill(unique('nobody') + '@example.com');
  await henryPage.getByRole('button', { name: 'Look them up' }).click();
  await henryPage.getByText('Nobody found.').waitFor();
  return { grace: grace.username };
});
