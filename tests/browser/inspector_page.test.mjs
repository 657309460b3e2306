// The browser inspector in headless Chromium (Debian's, driven by playwright-core) against a
// real `scripthost run --inspect` running the demo: the real binaries, compiler, sockets and
// browser. Every wait has a deadline. Run by CTest (tests/browser/CMakeLists.txt) with the
// paths in the environment; `node --test` prints one line per check.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';

const env = (name) => {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set (run through ctest)`);
  return value;
};
const SCRIPTHOST = env('SCRIPTHOST_EXE');
const SCRIPTCTL = env('SCRIPTCTL_EXE');
const DEMO_MODULE = env('DEMO_GAME_MODULE');
const DEMO_SOURCE = env('DEMO_SOURCE_DIR');
const CHROMIUM = process.env.CHROMIUM_EXE ?? '/usr/bin/chromium';
const SCREENSHOT = env('INSPECTOR_SCREENSHOT');
const DEADLINE = 60_000;

// A coroutine for the coroutine panel, an enum and a reference for the field pickers: the demo
// has none of them.
const BLINKER = `using System.Collections;
using UEngine;
public enum Mood { Calm, Busy, Asleep }
public class Blinker : UMonoScriptComponent {
  [SerializeField] int blinks;
  [SerializeField] Mood mood = Mood.Busy;
  [SerializeField] UEntity target;
  void Start() { StartCoroutine(Blink()); }
  IEnumerator Blink() { while (true) { blinks++; yield return new WaitForSeconds(30f); } }
}
`;

let dir, scripts, socket, host, hostLog = '', browser, page, url;

function scriptctl(...args) {
  // Generous: a host starved of CPU (tests beside a build) answers late.
  return execFileSync(SCRIPTCTL, ['--control', socket, '--timeout', '60', ...args], { encoding: 'utf8', timeout: 90_000 });
}
function status() { return JSON.parse(scriptctl('--json', 'status')); }

async function until(what, condition, timeout = DEADLINE) {
  const end = Date.now() + timeout;
  for (;;) {
    try { if (await condition()) return; } catch { /* not yet */ }
    if (host.exitCode !== null && !what.startsWith('the crash'))
      throw new Error(`the host exited (${host.exitCode}) while waiting for ${what}\n--- host log ---\n${hostLog.slice(-4000)}`);
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}\n--- host log ---\n${hostLog.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scripthost-browser-'));
  scripts = path.join(dir, 'scripts');
  fs.cpSync(path.join(DEMO_SOURCE, 'scripts'), scripts, { recursive: true });
  fs.writeFileSync(path.join(scripts, 'Blinker.cs'), BLINKER);
  const scene = JSON.parse(fs.readFileSync(path.join(DEMO_SOURCE, 'scene.json'), 'utf8'));
  scene.entities.push({ name: 'Blinker', scripts: [{ class: 'Blinker' }] });
  fs.writeFileSync(path.join(dir, 'scene.json'), JSON.stringify(scene));
  socket = path.join(dir, 'control.sock');
  host = spawn(SCRIPTHOST, ['run', '--headless', '--inspect', '--scripts', scripts, '--scene',
    path.join(dir, 'scene.json'), '--game', DEMO_MODULE, '--control', socket,
    '--state', path.join(dir, 'state.json'), '--state-interval', '0.5'],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  host.stdout.on('data', (data) => { hostLog += data; });
  host.stderr.on('data', (data) => { hostLog += data; });
  await until('the inspector URL', () => { url = scriptctl('inspect', '--url').trim(); return url.startsWith('http://127.0.0.1:'); });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1400, height: 820 } });
  page.setDefaultTimeout(DEADLINE); // clicks and reads too: a starved machine is slow, not wrong
  await page.goto(url);
  await page.waitForSelector('body[data-host="up"]', { timeout: DEADLINE });
});

after(async () => {
  await browser?.close();
  if (host && host.exitCode === null) {
    try { scriptctl('stop'); } catch { host.kill('SIGTERM'); }
    await new Promise((resolve) => { if (host.exitCode !== null) resolve(); else host.on('exit', resolve); });
  }
  fs.rmSync(dir, { recursive: true, force: true });
});

// The status of a WebSocket handshake on `target` (101 when it is upgraded).
function upgradeStatus(target, headers) {
  return new Promise((resolve, reject) => {
    const request = http.get(target, { headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers } });
    request.on('upgrade', (response, upgraded) => { upgraded.destroy(); resolve(response.statusCode); });
    request.on('response', (response) => { response.resume(); resolve(response.statusCode); });
    request.on('error', reject);
  });
}

const row = (name) => page.locator(`#tree .entity[data-name="${name}"]`);
const field = (name) => page.locator(`#scripts tr[data-field="${name}"]`);

test('the tree lists the demo\'s entities, and the search filters it', async () => {
  for (const name of ['Camera', 'Ball', 'Spinner A', 'Spinner B', 'Heartbeat', 'Spawner'])
    await row(name).waitFor({ timeout: DEADLINE });
  await page.fill('#search', 'spin');
  await until('the filter', async () => (await page.locator('#tree .entity').count()) === 2);
  assert.deepEqual(await page.locator('#tree .entity').evaluateAll((rows) => rows.map((r) => r.dataset.name)), ['Spinner A', 'Spinner B']);
  await page.fill('#search', '');
  await row('Ball').waitFor();
});

test('selecting the ball shows bounces changing', async () => {
  await row('Ball').click();
  await field('bounces').waitFor({ timeout: DEADLINE });
  const read = () => field('bounces').locator('input').inputValue();
  const first = await read();
  await until('bounces to change', async () => (await read()) !== first);
  assert.ok(Number(await read()) > Number(first));
});

test('setting velocity in the page changes it in the host', async () => {
  const inputs = field('velocity').locator('input');
  await inputs.nth(0).fill('0.5');
  await inputs.nth(0).press('Enter');
  await until('the host to hold the new velocity', () => {
    const got = JSON.parse(scriptctl('--json', 'get', 'Ball', 'BallScript', 'velocity'));
    return Math.abs(got.value[0]) === 0.5;
  });
});

test('a value the host refuses is explained beside the field', async () => {
  const input = field('halfWidth').locator('input');
  await input.fill('wide');
  await input.press('Enter');
  await until('the refusal', async () => (await field('halfWidth').locator('.refused').textContent()).includes('number'));
});

test('an enum field is a list of its members, and picking one sets it in the host', async () => {
  await row('Blinker').click();
  const select = field('mood').locator('select');
  await until('the enum list', async () => (await select.inputValue()) === 'Busy');
  assert.deepEqual(await select.locator('option').evaluateAll((options) => options.map((o) => o.textContent)), ['Calm', 'Busy', 'Asleep']);
  await select.selectOption('Asleep');
  await until('the host to hold the new mood', () =>
    JSON.parse(scriptctl('--json', 'get', 'Blinker', 'Blinker', 'mood')).value === 'Asleep');
});

test('a reference field picks from the entities and sets the reference in the host', async () => {
  await row('Blinker').click();
  const ballId = await row('Ball').getAttribute('data-id');
  const [index, generation] = ballId.split(':').map(Number);
  const select = field('target').locator('select');
  await until('the reference list', async () => (await select.locator('option').count()) > 1);
  await select.selectOption({ label: `Ball (${ballId})` });
  await until('the host to hold the reference', () =>
    JSON.parse(scriptctl('--json', 'get', 'Blinker', 'Blinker', 'target')).value?.id === generation * 2 ** 32 + index);
  await select.selectOption({ label: '(none)' });
  await until('the host to hold no reference', () =>
    JSON.parse(scriptctl('--json', 'get', 'Blinker', 'Blinker', 'target')).value === null);
});

test('saving an edited script shows a new reload in the timeline with its report', async () => {
  const before = await page.locator('#timeline li.reload.ok').count();
  const file = path.join(scripts, 'Spinner.cs');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8') + '\n// edited by the browser test\n');
  await until('a new reload', async () => (await page.locator('#timeline li.reload.ok').count()) > before);
  const text = await page.locator('#timeline li.reload.ok').first().textContent();
  assert.match(text, /reloaded/);
  assert.match(text, /generation \d+ → \d+/);
  assert.match(text, /frame stall/);
});

test('saving a typo shows the error with file and line until a good save clears it', async () => {
  const file = path.join(scripts, 'Spinner.cs');
  const good = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(file, good.replace('{', '{ int broken = ;'));
  await until('the build error', async () => /Spinner\.cs\(\d+,\d+\)/.test(await page.locator('#errors').textContent()));
  assert.ok(await page.locator('#errors .diagnostic').count() >= 1);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  assert.match(await page.locator('#errors').textContent(), /Spinner\.cs\(/, 'the error stays');
  fs.writeFileSync(file, good + '\n// fixed\n');
  await until('the error to clear', async () => (await page.locator('#errors').textContent()).includes('No errors'));
});

test('pause, step and resume', async () => {
  await page.click('#pause');
  await page.waitForSelector('body[data-paused="yes"]', { timeout: DEADLINE });
  const paused = status().frame;
  await page.click('#step');
  await until('one step', () => status().frame === paused + 1);
  await page.click('#resume');
  await page.waitForSelector('body[data-paused="no"]', { timeout: DEADLINE });
  await until('frames to go on', () => status().frame > paused + 5);
});

test('the coroutine list shows what each coroutine waits for', async () => {
  await until('the coroutine', async () => /Blinker · Blinker\.Blink — WaitForSeconds/.test(await page.locator('#coroutines').textContent()));
});

test('the log filter keeps the matching lines only', async () => {
  await until('heartbeat lines', async () => (await page.locator('#log li', { hasText: 'heartbeat' }).count()) >= 2);
  // One beat the page has shown (the page sees the lines logged after it subscribed), by its
  // whole "heartbeat N at": the filter is trimmed, and "heartbeat 2" alone also matches
  // "heartbeat 20" (a slow machine gets that far before this check).
  const beat = (await page.locator('#log li', { hasText: 'heartbeat' }).first().textContent()).match(/heartbeat \d+ at/)[0];
  await page.fill('#log-filter', beat);
  const visible = await page.locator('#log li:not([hidden])').allTextContents();
  assert.ok(visible.length >= 1);
  for (const line of visible) assert.ok(line.includes(beat), `${line} does not contain ${beat}`);
  assert.ok(await page.locator('#log li[hidden]').count() >= 1);
  await page.fill('#log-filter', '');
});

test('the frame plot draws a point per second, reloads marked', async () => {
  await until('points in the plot', async () => Number(await page.locator('#frame-plot').getAttribute('data-points')) >= 3);
  assert.equal(await page.locator('#frame-plot canvas').count() >= 1, true);
  assert.ok(Number(await page.locator('#frame-plot').getAttribute('data-reloads')) >= 1);
});

test('the module panel shows the game module and its build', async () => {
  assert.equal((await page.locator('#module-name').textContent()).trim(), 'demo arena');
  // This host was started without --game-build: the page says so rather than "no build yet".
  assert.match(await page.locator('#module-build').textContent(), /no --game-build/);
});

test('a screenshot of the page for the README', async () => {
  await row('Ball').click();
  await field('bounces').waitFor();
  await page.evaluate(() => { document.getElementById('side').scrollTop = 0; document.activeElement?.blur(); });
  await page.screenshot({ path: SCREENSHOT });
  assert.ok(fs.statSync(SCREENSHOT).size > 10_000);
});

test('without the token the page, the WebSocket and the API answer 403, and a foreign Origin is refused', async () => {
  const { origin } = new URL(url);
  const token = new URL(url).searchParams.get('token');
  assert.equal((await fetch(`${origin}/`)).status, 403);
  assert.equal((await fetch(`${origin}/api`, { method: 'POST', body: '{"cmd":"status"}' })).status, 403);
  assert.equal(await upgradeStatus(`${origin}/ws`, {}), 403);
  assert.equal(await upgradeStatus(`${origin}/ws`, { Cookie: `scripthost-inspector-${new URL(url).port}=${token}`, Origin: 'https://evil.example' }), 403);
  assert.equal(await upgradeStatus(`${origin}/ws`, { Cookie: `scripthost-inspector-${new URL(url).port}=${token}`, Origin: origin }), 101);
  const fresh = await browser.newPage();
  const response = await fresh.goto(`${origin}/`);
  assert.equal(response.status(), 403);
  await fresh.close();
  const foreign = await fetch(`${origin}/api`, { method: 'POST', body: '{"cmd":"status"}', headers: { Authorization: `Bearer ${token}`, Origin: 'https://evil.example' } });
  assert.equal(foreign.status, 403);
  const own = await fetch(`${origin}/api`, { method: 'POST', body: '{"cmd":"status"}', headers: { Authorization: `Bearer ${token}` } });
  assert.equal(own.status, 200);
});

test('a crash of the host shows in the timeline and the page reconnects by itself', async () => {
  const pid = status().pid;
  process.kill(pid, 'SIGSEGV');
  await until('the crash in the timeline', async () => (await page.locator('#timeline li.crashed').count()) >= 1, 90_000);
  await page.waitForSelector('body[data-host="up"]', { timeout: 90_000 });
  assert.equal(status().restarts, 1);
  assert.equal(scriptctl('inspect', '--url').trim(), url);
});
