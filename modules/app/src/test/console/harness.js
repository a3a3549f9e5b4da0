// Shared helpers of the console specs (*.spec.js, one scenario per file, run by ConsoleBrowserTest): Debian's
// Chromium through playwright-core (no browser download), a fresh browser context per user, the console's
// sign-up and log-in forms, screenshots into KITH_SCREENSHOTS, and the one-JSON-line result the Java test reads.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require('playwright-core');

const base = process.env.KITH_URL;
const shots = process.env.KITH_SCREENSHOTS || path.join(__dirname, '..', '..', '..', 'target', 'console-screenshots');
// generous: the suite runs with every core busy; waits end as soon as their condition holds
const TIMEOUT = 30000;
let seq = Date.now() % 1e8;

/** A username no other run has used (letters and digits, starting with a letter). */
function unique(prefix) {
  seq += 1;
  return prefix + seq.toString(36);
}

/** Throws unless condition holds. */
function check(condition, message) {
  if (!condition) {
    throw new Error(message);
  }
}

/** Saves a PNG of the page as <name>.png in the screenshots folder. */
async function shot(page, name) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, name + '.png') });
}

/**
 * Runs a spec: body receives {browser, user} and resolves with extra result members. Prints {ok: true, ...} or, on
 * failure, {ok: false, error} after a screenshot of every open page; exits non-zero on failure.
 */
async function spec(name, body) {
  const browser = await chromium.launch({
    executablePath: process.env.KITH_CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  const pages = [];
  const problems = [];
  /** A new user's browser window (its own context: storage, session) on a phone or desktop viewport. */
  async function user(options = {}) {
    const context = await browser.newContext({
      viewport: options.phone ? { width: 390, height: 800 } : { width: 1200, height: 850 },
      locale: options.locale || 'en-US',
    });
    context.setDefaultTimeout(TIMEOUT);
    const page = await context.newPage();
    page.on('pageerror', (e) => problems.push('page error: ' + e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) {
        problems.push('console error: ' + m.text());
      }
    });
    pages.push(page);
    await page.goto(base + '/console/');
    return page;
  }
  try {
    const extra = await body({ browser, user });
    check(problems.length === 0, 'the page reported errors: ' + problems.join('; '));
    console.log(JSON.stringify({ ok: true, spec: name, ...extra }));
  } catch (e) {
    for (let i = 0; i < pages.length; i++) {
      await shot(pages[i], 'failed-' + name + '-' + i).catch(() => {});
    }
    console.log(JSON.stringify({ ok: false, spec: name, error: String(e.stack || e), problems }));
    process.exitCode = 1;
  } finally {
    await browser.close();
  }
}

/** The form under the heading called name. */
function form(page, name) {
  return page.locator('form', { has: page.getByRole('heading', { name, exact: true }) });
}

/** Signs up on the console's login page; resolves once the new user lands on their home timeline. */
async function signUp(page, username, password = 'correct horse ' + username) {
  const f = form(page, 'Create an account');
  await f.getByLabel('Username', { exact: true }).fill(username);
  await f.getByLabel('Password', { exact: true }).fill(password);
  await f.getByRole('button', { name: 'Create an account' }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
  return { username, password };
}

/** Fills and sends the console's login form. */
async function logIn(page, username, password) {
  const f = form(page, 'Log in');
  await f.getByLabel('Username, email or phone').fill(username);
  await f.getByLabel('Password', { exact: true }).fill(password);
  await f.getByRole('button', { name: 'Log in' }).click();
}

/** Logs out with the bar's button; resolves once the login page is back. */
async function logOut(page) {
  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Welcome to Kith' }).waitFor();
}

/** Goes to a console path (#/path) and waits for the page's heading. */
async function open(page, consolePath, heading) {
  await page.evaluate((p) => { location.hash = '#' + p; }, consolePath);
  if (heading) {
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
  }
}

/** The signed-in user's id as the profile page shows it. */
async function userId(page) {
  await open(page, '/profile', 'Your profile');
  return Number(await page.locator('.user-id').textContent());
}

/** Waits until the console's bridge connection answers as the signed-in user. */
async function live(page) {
  await page.locator('kith-console[data-live]').waitFor({ state: 'attached' });
}

const CRC = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) {
    c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return c >>> 0;
});

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  let crc = 0xffffffff;
  for (const b of body) {
    crc = CRC[(crc ^ b) & 0xff] ^ (crc >>> 8);
  }
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE((crc ^ 0xffffffff) >>> 0, body.length + 4);
  return out;
}

/** A PNG file of width x height pixels in a diagonal gradient of rgb, for Playwright's setInputFiles. */
function png(name, width, height, rgb = [40, 120, 220]) {
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      const shade = (x + y) / (width + height);
      row[1 + x * 3] = rgb[0] * shade;
      row[2 + x * 3] = rgb[1] * (1 - shade) + 60;
      row[3 + x * 3] = rgb[2];
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const buffer = Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header),
    chunk('IDAT', require('zlib').deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
  return { name, mimeType: 'image/png', buffer };
}

/** Calls step() until it resolves truthy, failing after TIMEOUT (it may click a refresh button, say). */
async function until(what, step) {
  const deadline = Date.now() + TIMEOUT;
  for (;;) {
    if (await step()) {
      return;
    }
    if (Date.now() > deadline) {
      throw new Error('timed out: ' + what);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Finds a user by exact username on the people page and opens their page. */
async function visit(page, username) {
  await open(page, '/people', 'Find people');
  await page.getByLabel('Exact username').fill(username);
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByRole('list', { name: 'Results' }).getByRole('link', { name: '@' + username }).click();
  await page.getByRole('heading', { name: '@' + username, level: 1 }).waitFor();
}

/**
 * Waits until the open timeline shows posts matching locator, asking for newer posts meanwhile (fan-out to
 * timelines is asynchronous).
 */
async function untilShown(page, locator, what) {
  await until(what, async () => {
    if (await locator.count()) {
      return true;
    }
    await page.getByRole('button', { name: 'Show newer posts' }).click();
    return false;
  });
}

/** Publishes a public post through the API with the page's own session (what the console stored); its status. */
function publish(page, text) {
  return page.evaluate(async (body) => {
    const session = JSON.parse(localStorage.getItem('kith.session'));
    const res = await fetch('/api/v1/posts', { method: 'POST', body: JSON.stringify(body),
      headers: { Authorization: 'Bearer ' + session.access_token, 'Content-Type': 'application/json' } });
    return res.status;
  }, { text, visibility: 'public' });
}

/** A JSON call to the API as a plain HTTP client (the reporter needs no browser). */
async function api(method, path, token, body) {
  const res = await fetch(base + '/api/v1' + path, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: 'Bearer ' + token } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json().catch(() => null) };
}

module.exports = {
  api, base, check, form, live, logIn, logOut, open, png, publish, shot, signUp, spec, unique, until, untilShown,
  userId, visit, TIMEOUT,
};
