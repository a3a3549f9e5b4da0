// @DisplayName: an access token refused as expired is refreshed once with the refresh token and the request sent again; a refused refresh signs the user out to the login page
'use strict';
const { check, open, signUp, spec, unique } = require('./harness');

/** Answers the next request to path with 401 token_expired, as Kith does once the access token has expired. */
async function expireOnce(page, path) {
  let done = false;
  await page.route((url) => url.pathname === path, async (route) => {
    if (done) {
      return route.continue();
    }
    done = true;
    return route.fulfill({ status: 401, contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'https://kith.dev/problems/token_expired', title: 'Unauthorized', status: 401,
        code: 'token_expired', detail: 'the access token has expired' }) });
  });
}

const session = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('kith.session')));

spec('token-refresh', async ({ user }) => {
  const page = await user();
  await signUp(page, unique('ct'));
  const before = await session(page);
  const refreshes = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/v1/auth/refresh')) {
      refreshes.push(r);
    }
  });

  await expireOnce(page, '/api/v1/timelines/moments');
  await open(page, '/moments', 'Moments');
  await page.getByText('No posts yet.').waitFor();
  const after = await session(page);
  check(refreshes.length === 1, 'one refresh: ' + refreshes.length);
  check(after.refresh_token !== before.refresh_token, 'the new token pair is kept (refresh tokens rotate)');
  check(await page.getByRole('alert').count() === 0, 'the user sees no error');

  // the refresh token is refused too (its session ended): the console forgets the session and asks to log in
  await page.route((url) => url.pathname === '/api/v1/auth/refresh', (route) => route.fulfill({ status: 401,
    contentType: 'application/problem+json', body: JSON.stringify({ type: 'https://kith.dev/problems/session_revoked',
      title: 'Unauthorized', status: 401, code: 'session_revoked' }) }));
  await expireOnce(page, '/api/v1/timelines/latest');
  await open(page, '/latest');
  await page.getByRole('heading', { name: 'Welcome to Kith' }).waitFor();
  check(await session(page) === null, 'the session is forgotten');
  return { refreshes: refreshes.length };
});
