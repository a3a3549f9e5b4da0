// @DisplayName: every social page passes axe-core's WCAG 2 A and AA rules (labels, contrast, roles) on desktop and phone, and the menu works from the keyboard with focus moving to the new page's heading
'use strict';
const fs = require('fs');
const { check, open, png, publish, signUp, spec, unique, until, userId } = require('./harness');

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PAGES = [['/home', 'Home'], ['/moments', 'Moments'], ['/latest', 'Latest'], ['/compose', 'Write a post'],
  ['/people', 'Find people'], ['/relations', 'Relations'], ['/profile', 'Your profile']];

/** The serious and critical violations of WCAG 2 A and AA rules on the page as it is, one line each. */
async function violations(page, where) {
  // evaluated through the DevTools protocol, which the page's CSP does not govern (the console loads no such script)
  await page.evaluate(AXE);
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa'] } });
    return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '));
  });
  return found.map((v) => where + ' ' + v);
}

spec('accessibility', async ({ user }) => {
  const desk = await user();
  const phone = await user({ phone: true });
  const problems = [];
  await desk.getByRole('heading', { name: 'Welcome to Kith' }).waitFor();
  // the check can fail: an input without a label is reported, then taken away again
  await desk.evaluate(() => document.querySelector('main').insertAdjacentHTML('beforeend', '<input id="unlabelled">'));
  const planted = await violations(desk, '/login');
  check(planted.some((v) => v.includes('label') && v.includes('#unlabelled')), 'axe finds a planted fault: ' + planted);
  await desk.evaluate(() => document.getElementById('unlabelled').remove());
  problems.push(...await violations(desk, '/login'));

  const me = await signUp(desk, unique('cx'));
  await signUp(phone, unique('cy'));
  check(await publish(desk, 'A post to check how posts read') === 201, 'published');
  for (const [path, heading] of PAGES) {
    for (const page of [desk, phone]) {
      await open(page, path, heading);
      await page.waitForLoadState('networkidle');
      problems.push(...await violations(page, path + (page === phone ? ' (phone)' : '')));
    }
  }
  await open(phone, '/users/' + await userId(desk), '');
  await phone.getByRole('heading', { name: '@' + me.username }).waitFor();
  problems.push(...await violations(phone, '/users/:id (phone)'));
  check(problems.length === 0, 'accessibility violations:\n' + problems.join('\n'));

  // keyboard only: Tab to the menu's "Find people", Enter, and focus lands on the new page's heading
  await open(desk, '/home', 'Home');
  await until('the menu link focused', async () => {
    await desk.keyboard.press('Tab');
    return desk.evaluate(() => document.activeElement && document.activeElement.textContent.trim() === 'Find people');
  });
  await desk.keyboard.press('Enter');
  await desk.getByRole('heading', { name: 'Find people', level: 1 }).waitFor();
  await until('focus on the heading', () => desk.evaluate(() => document.activeElement.tagName === 'H1'));
  // on a phone the menu opens from its button
  const toggle = phone.getByRole('button', { name: 'Menu' });
  check(await toggle.getAttribute('aria-expanded') === 'false', 'the phone menu starts closed');
  await toggle.focus();
  await phone.keyboard.press('Enter');
  await phone.getByRole('navigation').getByRole('link', { name: 'Relations' }).click();
  await phone.getByRole('heading', { name: 'Relations', level: 1 }).waitFor();
  return { pages: PAGES.length * 2 + 2 };
});
