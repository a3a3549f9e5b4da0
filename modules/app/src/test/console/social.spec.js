// @DisplayName: two users in two browsers sign up, find and follow each other, one posts a photo to followers, the other sees it in home, likes, comments on and reposts it, and the author sees the like and the comment
'use strict';
const {
  check, live, open, png, shot, signUp, spec, unique, until, untilShown, visit,
} = require('./harness');

/** The card of the original post with this text on the current page (not a repost of it). */
function card(page, text) {
  return page.getByRole('article').filter({ hasText: text }).filter({ hasNotText: 'Repost of' });
}

spec('social', async ({ user }) => {
  const alicePage = await user();
  const bobPage = await user({ phone: true });
  const alice = await signUp(alicePage, unique('ca'));
  const bob = await signUp(bobPage, unique('cb'));

  // each follows the other from their page: they become friends
  await visit(alicePage, bob.username);
  await alicePage.getByRole('button', { name: 'Follow', exact: true }).click();
  await alicePage.getByRole('button', { name: 'Unfollow' }).waitFor();
  await visit(bobPage, alice.username);
  await bobPage.getByText('Follows you').waitFor();
  await bobPage.getByRole('button', { name: 'Follow', exact: true }).click();
  await bobPage.getByRole('button', { name: 'Unfollow' }).waitFor();
  await bobPage.getByText('Friend', { exact: true }).waitFor();
  await shot(bobPage, 'user');

  // a user that does not exist is refused with the problem's code, not a blank page
  await open(bobPage, '/users/9007199254740991');
  const refusal = bobPage.getByRole('alert');
  await refusal.waitFor();
  check(/not_found/.test(await refusal.textContent()), 'the refusal names its code: ' + await refusal.textContent());

  // alice posts a photo to her followers
  const text = 'Hello from ' + alice.username;
  await open(alicePage, '/compose', 'Write a post');
  await alicePage.getByLabel('What is new?').fill(text);
  await alicePage.getByLabel('Photos (up to 9) or one video').setInputFiles(png('sunrise.png', 320, 200));
  await alicePage.getByLabel('Who can see it').selectOption('followers');
  await shot(alicePage, 'compose');
  await alicePage.getByRole('button', { name: 'Publish' }).click();
  await alicePage.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await card(alicePage, text).waitFor();

  // bob sees it in his home (fan-out is asynchronous: ask for newer posts until it is there), with the photo
  await live(bobPage);
  await open(bobPage, '/home', 'Home');
  await untilShown(bobPage, card(bobPage, text), 'the post in bob\'s home');
  const post = card(bobPage, text);
  await until('the photo shown', () => post.locator('img').evaluateAll((imgs) => imgs.some((i) => i.naturalWidth > 0)));
  await post.getByRole('button', { name: /^Like/ }).click();
  await post.getByRole('button', { name: /^Liked · 1/ }).waitFor();
  await post.getByRole('button', { name: /^Comments/ }).click();
  await post.getByPlaceholder('Write a comment').fill('What a photo!');
  await post.getByRole('button', { name: 'Comment', exact: true }).click();
  await post.getByText('What a photo!').waitFor();
  await shot(bobPage, 'home');

  // bob reposts it: his home shows his repost with alice's original inside
  await post.getByRole('button', { name: /^Repost · 0/ }).click();
  await post.getByRole('button', { name: /^Reposted · 1/ }).waitFor();
  const repost = bobPage.getByRole('article').filter({ hasText: 'Repost of' });
  await untilShown(bobPage, repost, 'the repost in bob\'s home');
  await repost.getByText(text).waitFor();
  await repost.getByRole('link', { name: '@' + alice.username }).waitFor();

  // alice sees the like and the comment on her post
  await alicePage.reload();
  const own = card(alicePage, text);
  await own.waitFor();
  await until('the like and comment counted', async () => {
    const likes = await own.getByRole('button', { name: /^Like · 1/ }).count();
    const comments = await own.getByRole('button', { name: 'Comments (1)' }).count();
    if (likes && comments) {
      return true;
    }
    await alicePage.reload();
    await own.waitFor();
    return false;
  });
  await own.getByRole('button', { name: 'Comments (1)' }).click();
  await own.getByText('What a photo!').waitFor();
  await shot(alicePage, 'home-desktop');

  // the post's time links to its own page, comments open; a post that does not exist is refused with its code
  const id = await own.getAttribute('data-post-id');
  await own.getByRole('link', { name: /2\d{3}/ }).click();
  await alicePage.getByRole('heading', { name: 'Post', level: 1 }).waitFor();
  check(alicePage.url().endsWith('#/posts/' + id), 'the post\'s page: ' + alicePage.url());
  await alicePage.getByText('What a photo!').waitFor();
  await open(alicePage, '/posts/9007199254740991', 'Post');
  const missing = alicePage.getByRole('alert');
  await missing.waitFor();
  check(/not_found/.test(await missing.textContent()), 'the refusal names its code: ' + await missing.textContent());
  return { alice: alice.username, bob: bob.username };
});
