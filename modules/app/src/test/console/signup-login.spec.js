// @DisplayName: a user signs up, logs out, is refused a wrong password with the problem's code, logs in and sees their profile, in English and in Chinese
'use strict';
const { check, form, live, logIn, logOut, open, shot, signUp, spec, unique } = require('./harness');

spec('signup-login', async ({ user }) => {
  const page = await user();
  await page.getByRole('heading', { name: 'Welcome to Kith' }).waitFor();
  check(page.url().endsWith('#/login'), 'a visitor lands on the login page: ' + page.url());
  await shot(page, 'login');

  const me = await signUp(page, unique('cs'));
  await live(page);
  await open(page, '/profile', 'Your profile');
  await page.getByText('@' + me.username).first().waitFor();
  await shot(page, 'profile');
  await logOut(page);

  await logIn(page, me.username, 'not the password');
  const alert = form(page, 'Log in').page().getByRole('alert');
  await alert.waitFor();
  check((await alert.textContent()).includes('invalid_credentials'), 'the refusal shows its code: '
    + await alert.textContent());

  // logged out on the profile page, the user is taken back there after logging in
  await logIn(page, me.username, me.password);
  await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
  await page.getByText('@' + me.username).first().waitFor();

  // the language switch re-renders the shell and the view; the choice survives a reload
  await page.getByLabel('Language').selectOption('zh-CN');
  await page.getByRole('heading', { name: '我的资料' }).waitFor();
  await page.reload();
  await page.getByRole('heading', { name: '我的资料' }).waitFor();
  await page.getByRole('button', { name: '退出登录' }).waitFor();
  await shot(page, 'profile-zh');
  return { user: me.username };
});
