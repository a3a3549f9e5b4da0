// @DisplayName: an admin limits a reported user from the queue, the limited user's direct message to a stranger is refused, the user's record shows the limit, the admin lifts it from the user's page and the message goes through; the audit log has both, and a plain user cannot limit anyone
'use strict';
const { api, check, logIn, open, shot, spec, unique } = require('./harness');

/** Registers a user through the API: its id and access token. */
async function register(prefix) {
  const res = await api('POST', '/accounts', null, { username: unique(prefix), password: 'Sunny-pass-1!' });
  check(res.status === 201, 'a user registers: ' + JSON.stringify(res));
  return { id: res.json.user.id, token: res.json.tokens.access_token };
}

/** A direct message from one user to another: the answer's status and problem code. */
async function message(from, to, text) {
  const res = await api('POST', '/direct/' + to.id + '/messages', from.token, { client_id: unique('m'), text });
  return res.status + (res.json && res.json.code ? ' ' + res.json.code : '');
}

spec('ops-limit', async ({ user }) => {
  const admin = await user();
  await logIn(admin, process.env.KITH_ADMIN, process.env.KITH_ADMIN_PASSWORD);
  await admin.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

  const target = await register('cltgt');
  const stranger = await register('clstr');
  const reporter = await register('clrep');
  check(await message(target, stranger, 'hello before') === '201', 'before the limit a message to a stranger is sent');
  // a plain user cannot limit anyone
  const refused = await api('POST', '/admin/users/' + target.id + '/limit', reporter.token, { reason: 'no' });
  check(refused.status === 403 && refused.json.code === 'role_required', 'a plain user is refused: '
    + JSON.stringify(refused));
  const filed = await api('POST', '/reports', reporter.token,
    { target: { type: 'user', id: target.id }, category: 'spam', comment: 'sends spam to strangers' });
  check(filed.status === 201, 'the report is filed: ' + JSON.stringify(filed));
  const reportId = filed.json.id;

  // the admin limits the reported user from the queue
  await open(admin, '/ops/queue', 'Moderation queue');
  const report = admin.locator('li.report', { has: admin.getByRole('heading', { name: 'Report ' + reportId }) });
  await report.waitFor();
  await report.getByLabel('Reason').fill('spam to strangers');
  await report.getByRole('button', { name: 'Limit owner' }).click();
  await admin.getByText('Report ' + reportId + ': limit.').waitFor();
  check(await message(target, stranger, 'hello while limited') === '403 sender_limited',
    'a limited user cannot write to a stranger');

  // the user's record shows the limit; the admin lifts it there
  await open(admin, '/ops/users/' + target.id, 'Users');
  await admin.getByRole('heading', { name: 'User ' + target.id }).waitFor();
  await admin.locator('ul.sanctions li', { hasText: 'limit' }).first().waitFor();
  await admin.getByText('Limited', { exact: true }).waitFor();
  await shot(admin, 'ops-limited-user');
  await admin.getByLabel('Reason').fill('appeal accepted');
  await admin.getByRole('button', { name: 'Unlimit' }).click();
  await admin.getByText('Done.').waitFor();
  await admin.locator('ul.sanctions li', { hasText: 'unlimit' }).first().waitFor();
  await admin.getByText('Active', { exact: true }).waitFor();
  check(await message(target, stranger, 'hello after') === '201', 'after the unlimit the message is sent');

  await open(admin, '/ops/audit', 'Audit log');
  await admin.locator('table.audit tbody tr', { hasText: 'report.limit' }).first().waitFor();
  await admin.locator('table.audit tbody tr', { hasText: 'user.unlimit' }).first().waitFor();
  return { report: reportId, limited: target.id };
});
