// @DisplayName: a user posts a video made in the browser (WebM) with a public audience, and another user plays it from latest
'use strict';
const { check, open, shot, signUp, spec, unique, untilShown, until } = require('./harness');

/** A short WebM video recorded from a canvas in the page (Chromium's MediaRecorder), as a file for setInputFiles. */
async function webm(page) {
  const bytes = await page.evaluate(async () => {
    const canvas = document.createElement('canvas');
    canvas.width = 160;
    canvas.height = 120;
    const g = canvas.getContext('2d');
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' });
    const chunks = [];
    recorder.ondataavailable = (e) => chunks.push(e.data);
    const stopped = new Promise((resolve) => { recorder.onstop = resolve; });
    recorder.start();
    for (let frame = 0; frame < 25; frame++) {
      g.fillStyle = 'hsl(' + frame * 14 + ', 70%, 50%)';
      g.fillRect(0, 0, 160, 120);
      await new Promise((r) => requestAnimationFrame(r));
      await new Promise((r) => setTimeout(r, 40));
    }
    recorder.stop();
    await stopped;
    return Array.from(new Uint8Array(await new Blob(chunks).arrayBuffer()));
  });
  return { name: 'clip.webm', mimeType: 'video/webm', buffer: Buffer.from(bytes) };
}

spec('video', async ({ user }) => {
  const authorPage = await user();
  const viewerPage = await user();
  const author = await signUp(authorPage, unique('cv'));
  await signUp(viewerPage, unique('cw'));

  const clip = await webm(authorPage);
  check(clip.buffer.length > 1000, 'a video was recorded: ' + clip.buffer.length + ' bytes');
  const text = 'A clip by ' + author.username;
  await open(authorPage, '/compose', 'Write a post');
  await authorPage.getByLabel('What is new?').fill(text);
  await authorPage.getByLabel('Photos (up to 9) or one video').setInputFiles(clip);
  await authorPage.getByRole('button', { name: 'Publish' }).click();
  await authorPage.getByRole('heading', { name: 'Home', level: 1 }).waitFor();

  await open(viewerPage, '/latest', 'Latest');
  const post = viewerPage.getByRole('article').filter({ hasText: text });
  await untilShown(viewerPage, post, 'the video post in latest');
  const video = post.getByLabel('Video');
  await video.waitFor();
  await until('the video loads its metadata', () => video.evaluate((v) => v.readyState >= 1));
  await shot(viewerPage, 'video');
  return { bytes: clip.buffer.length };
});
