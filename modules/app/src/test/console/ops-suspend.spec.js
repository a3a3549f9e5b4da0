// @DisplayName: an admin sees the overview, a user's report reaches the queue, the admin suspends the reported user and that user's open console is logged out; users, audit log and API keys work, and a plain user is kept out
'use strict';
const { api, check, form, logIn, open, shot, signUp, spec, unique, userId } = require('./harness');

spec('ops-suspend', async ({ user }) => {
  // the admin logs in and sees the overview: this node, its modules and ready stores, charts filling in
  const admin = await user();
  await logIn(admin, process.env.KITH_ADMIN, process.env.KITH_ADMIN_PASSWORD);
  await admin.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  await admin.getByRole('link', { name: 'Operations' }).click();
  await admin.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  const node = admin.locator('table.nodes tbody tr').first();
  await node.waitFor();
  const row = await node.textContent();
  check(row.includes('moderation') && row.includes('gateway'), 'the node lists its modules: ' + row);
  check(/✓\s*redis/.test(row) && /✓\s*mongo/.test(row), 'the stores are ready: ' + row);
  await admin.locator('.spark svg').first().waitFor(); // a second reading draws the first line

  // a plain user is kept out: no menu entry, the page refuses, and so does the API
  const target = await user();
  const bad = await signUp(target, unique('cstgt'));
  check(await target.getByRole('link', { name: 'Operations' }).count() === 0, 'a plain user has no operator menu');
  await open(target, '/ops');
  await target.getByText('This page is for moderators and administrators.').waitFor();
  const badId = await userId(target);

  // a reporter files a report against that user through the API
  const reporter = await api('POST', '/accounts', null, { username: unique('csrep'), password: 'Sunny-pass-1!' });
  check(reporter.status === 201, 'the reporter registers: ' + JSON.stringify(reporter));
  const token = reporter.json.tokens.access_token;
  check((await api('GET', '/admin/system', token)).status === 403, 'the API refuses a plain user the overview');
  const filed = await api('POST', '/reports', token,
    { target: { type: 'user', id: badId }, category: 'harassment', comment: 'abusive messages' });
  check(filed.status === 201, 'the report is filed: ' + JSON.stringify(filed));
  const reportId = filed.json.id;

  // the admin sees it in the queue and suspends the user
  await open(admin, '/ops/queue', 'Moderation queue');
  const report = admin.locator('li.report', { has: admin.getByRole('heading', { name: 'Report ' + reportId }) });
  await report.waitFor();
  check((await report.textContent()).includes('abusive messages'), 'the queue shows the comment');
  await shot(admin, 'ops-queue');
  await report.getByLabel('Reason').fill('harassment of other users');
  await report.getByRole('button', { name: 'Suspend owner' }).click();
  await admin.getByText('Report ' + reportId + ': suspend.').waitFor();

  // the suspended user's open console is logged out with the reason, and cannot log in again
  await target.getByRole('heading', { name: 'Welcome to Kith' }).waitFor();
  const ended = target.locator('.session-ended');
  await ended.waitFor();
  check((await ended.textContent()).includes('session_revoked'), 'the console says why: ' + await ended.textContent());
  await shot(target, 'ops-suspended-user');
  await logIn(target, bad.username, bad.password);
  await form(target, 'Log in').page().getByText('account_suspended').waitFor();

  // the admin finds the reporter by username; the suspended user (hidden, so found by id only) shows the
  // suspension; the audit log has the decision; the admin makes an API key with their own session
  await open(admin, '/ops/users', 'Users');
  await admin.getByLabel('Username').fill(reporter.json.user.username);
  await admin.getByRole('button', { name: 'Search' }).click();
  await admin.getByRole('heading', { name: 'User ' + reporter.json.user.id }).waitFor();
  await open(admin, '/ops/users/' + badId, 'Users');
  await admin.getByText('Hidden (suspended or gone)').waitFor();
  await admin.getByText('Suspended', { exact: true }).waitFor();
  await admin.locator('ul.sanctions li', { hasText: 'suspend' }).first().waitFor();
  await open(admin, '/ops/audit', 'Audit log');
  await admin.locator('table.audit tbody tr', { hasText: 'report.suspend' }).first().waitFor();
  await open(admin, '/ops/integrations', 'Webhooks and API keys');
  await admin.getByRole('heading', { name: 'API keys', exact: true }).waitFor();
  await admin.getByLabel('Name', { exact: true }).fill('console key');
  await admin.getByLabel('users:read').check();
  await admin.getByRole('button', { name: 'Make key' }).click();
  await admin.getByText(/New key \(shown once\): kith_sk_/).waitFor();
  await admin.locator('ul.keys li', { hasText: 'console key' }).waitFor();

  await open(admin, '/ops', 'Overview');
  await admin.locator('.spark svg').first().waitFor();
  await shot(admin, 'ops-overview');
  // the operator pages speak Chinese too
  await admin.getByLabel('Language').selectOption('zh-CN');
  await admin.getByRole('heading', { name: '概览', level: 1 }).waitFor();
  await admin.getByRole('link', { name: '审核队列' }).waitFor();
  return { report: reportId, suspended: badId };
});
