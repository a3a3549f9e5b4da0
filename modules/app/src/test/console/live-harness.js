// Helpers of the live specs (chat, whiteboard, activities, notifications): setting up a relation through the public
// HTTP API with the session the console holds, where the step under test is elsewhere (following is the people
// view's), and reading what a canvas shows.
'use strict';

/** Calls the HTTP API as the page's signed-in user; resolves with the JSON answer, rejects on a refusal. */
async function api(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const session = JSON.parse(localStorage.getItem('kith.session'));
    const res = await fetch('/api/v1' + path, {
      method,
      headers: { Authorization: 'Bearer ' + session.access_token, 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) {
      throw new Error(method + ' ' + path + ' answered ' + res.status + ': ' + text);
    }
    return text ? JSON.parse(text) : null;
  }, { method, path, body });
}

/** The page's signed-in user id, from the console's session. */
function sessionUser(page) {
  return page.evaluate(() => Number(JSON.parse(localStorage.getItem('kith.session')).user_id));
}

/** Makes the two pages' users friends: each follows the other (mutual follows are friends). */
async function befriend(a, b) {
  const [ida, idb] = [await sessionUser(a), await sessionUser(b)];
  await api(a, 'PUT', '/following/' + idb);
  await api(b, 'PUT', '/following/' + ida);
}

/** How many pixels of the canvas are painted (alpha above zero). */
function paintedPixels(page, selector = 'canvas.board') {
  return page.locator(selector).evaluate((canvas) => {
    const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) {
      painted += data[i] > 0 ? 1 : 0;
    }
    return painted;
  });
}

/** Draws a line with the mouse across the canvas, from and to fractions of its size ([x, y] each 0..1). */
async function drawLine(page, from, to, selector = 'canvas.board') {
  // the mouse acts in the viewport only: bring the whole board into it first (the menu above it may wrap)
  await page.locator(selector).evaluate((el) => el.scrollIntoView({ block: 'start' }));
  const box = await page.locator(selector).boundingBox();
  const at = ([x, y]) => [box.x + x * box.width, box.y + y * box.height];
  await page.mouse.move(...at(from));
  await page.mouse.down();
  await page.mouse.move(...at(to), { steps: 12 });
  await page.mouse.up();
}

/**
 * Calls fn until it resolves with a truthy value (a refusal counts as not yet), polling every 250 ms up to a generous
 * deadline: for what Kith does after answering (the event log's consumers).
 */
async function until(fn, what, timeoutMs = 30000) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    try {
      const value = await fn();
      if (value) {
        return value;
      }
    } catch (e) {
      last = e;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('waited in vain for ' + what + (last ? ': ' + last.message : ''));
}

module.exports = { api, befriend, drawLine, paintedPixels, sessionUser, until };
