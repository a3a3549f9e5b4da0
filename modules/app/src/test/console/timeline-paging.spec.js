// @DisplayName: a timeline pages by cursor: twenty posts first, the rest after Load more, then no more button; a newer post appears on Show newer posts
'use strict';
const { check, open, publish, signUp, spec, unique, until } = require('./harness');

spec('timeline-paging', async ({ user }) => {
  const page = await user();
  const me = await signUp(page, unique('cp'));
  for (let i = 1; i <= 25; i++) {
    check(await publish(page, me.username + ' post ' + i) === 201, 'post ' + i + ' published');
  }
  const posts = page.getByRole('article');
  await open(page, '/moments', 'Moments');
  await open(page, '/home', 'Home');
  // the author's own posts reach their home by fan-out: ask again until all are there
  await until('twenty posts on the first page', async () => {
    if (await posts.count() === 20) {
      return true;
    }
    await open(page, '/moments', 'Moments');
    await open(page, '/home', 'Home');
    return false;
  });
  await posts.filter({ hasText: me.username + ' post 25' }).waitFor();
  check(await posts.filter({ hasText: me.username + ' post 5' }).count() === 0, 'post 5 is on the second page');
  await page.getByRole('button', { name: 'Load more' }).click();
  await until('twenty-five posts', async () => await posts.count() === 25);
  await page.getByRole('button', { name: 'Load more' }).waitFor({ state: 'detached' });
  check(await posts.first().textContent().then((x) => x.includes('post 25')), 'newest first');

  check(await publish(page, me.username + ' post 26') === 201, 'post 26 published');
  await until('the newer post on top', async () => {
    await page.getByRole('button', { name: 'Show newer posts' }).click();
    return (await posts.first().textContent()).includes('post 26');
  });
  check(await posts.count() === 26, 'the newer post is added, not the page reloaded: ' + await posts.count());
  return { posts: 26 };
});
