// The inspector page: wires the connection to the panels. Everything it shows comes from the
// control protocol's requests (status, entities, get, watchFields) and events (reload,
// diagnostics, log, module, crashed, frames, fields), the same ones scriptctl uses.
import { Connection } from './connection.js';
import { el, fill } from './dom.js';
import { EntityTree } from './tree.js';
import { ScriptFields } from './fields.js';
import { FramePlot } from './plot.js';
import { BuildErrors, LogView, Timeline, describeModuleBuild, showCoroutines, showFrames, showModule } from './panels.js';

const STATUS_MS = 1000;

const $ = (id) => document.getElementById(id);
const connection = new Connection(`ws://${location.host}/ws`);
const tree = new EntityTree($('tree'), $('search'), (entity) => showEntity(entity));
const fields = new ScriptFields($('scripts'), connection, () => tree.entities);
const timeline = new Timeline($('timeline'));
const errors = new BuildErrors($('errors'));
const log = new LogView($('log'), $('log-filter'));
const plot = new FramePlot($('frame-plot'));
let hostUp = false;
let selected = null;
let crashesShown = 0; // restarts whose crash the timeline shows

// A crash, from the `crashed` event or from `status.lastCrash` when the page (re)connects: the
// event comes on the restarted host's first frame, which can be before the page subscribes.
function noteCrash(crash) {
  if (!crash || crash.restarts <= crashesShown) return;
  crashesShown = crash.restarts;
  timeline.note('crashed', `host crashed: ${crash.description} (restart ${crash.restarts})`);
}

function setHostState(text, kind) {
  const badge = $('host-state');
  badge.textContent = text;
  badge.className = `badge ${kind}`;
  document.body.dataset.host = kind;
}

function showEntity(entity) {
  selected = entity;
  $('selected-name').textContent = entity ? entity.name : 'Select an entity';
  fill($('selected-meta'), entity ? [
    el('span', { class: 'tag' }, `id ${entity.id}`),
    el('span', { class: 'tag' }, entity.active ? 'active' : 'inactive'),
    entity.position ? el('span', { class: 'tag' }, `position ${entity.position.map((v) => v.toFixed(2)).join(', ')}`) : null,
  ] : []);
  fill($('components'), entity && entity.components.length
    ? [el('h3', {}, 'Components'), el('ul', {}, entity.components.map((c) => el('li', {}, `${c.type} (${c.id})`)))] : []);
  fields.show(entity);
  fields.showFields();
}

// The entity listing costs the host in proportion to its entities (about 1 ms a thousand, in
// the frame that answers): asked once a second up to 1,000 entities, then less often (10,000
// entities: every 10 s); a reload, a step or a selection asks at once.
let listing = null;
let nextListing = 0;

async function pollStatus(force = false) {
  if (!hostUp) return;
  try {
    const due = force || !listing || Date.now() >= nextListing;
    const [status, fresh] = await Promise.all([connection.request('status'), due ? connection.request('entities') : null]);
    $('summary').textContent = `generation ${status.generation} · ${status.entities} entities · ${status.scripts} scripts`;
    showFrames($('frames'), status);
    showModule($('module'), status);
    setPaused(status.paused);
    if (!fresh) return;
    listing = fresh;
    nextListing = Date.now() + Math.min(10_000, Math.max(1_000, listing.entities.length));
    tree.update(listing.entities);
    showCoroutines($('coroutines'), listing.entities);
    if (selected) {
      const now = listing.entities.find((e) => e.id === selected.id);
      if (!now) showEntity(null);
      else if (now.scripts.map((s) => s.id).join() !== selected.scripts.map((s) => s.id).join()) showEntity(now);
    }
  } catch { /* the host went; its event says so */ }
}

function setPaused(paused) {
  document.body.dataset.paused = paused ? 'yes' : 'no';
  $('pause').disabled = paused;
  $('step').disabled = !paused;
  $('resume').disabled = !paused;
}

async function onHostConnected() {
  hostUp = true;
  setHostState('running', 'up');
  try {
    await connection.request('subscribe', { topics: ['reload', 'diagnostics', 'module', 'moduleBuild', 'crashed', 'log', 'frames'] });
    const status = await connection.request('status');
    if (status.lastReload) timeline.reload(status.lastReload);
    if (status.restarts > 0) noteCrash(status.lastCrash);
    errors.show(status.buildDiagnostics);
  } catch { /* retried on the next connection */ }
  if (selected) fields.showFields(); // a new connection to the host: watch again
  pollStatus();
}

connection.on('inspector', (data) => {
  if (data.host === 'connected') onHostConnected();
  else { hostUp = false; setHostState('host not running', 'down'); timeline.note('down', `host gone: ${data.message ?? ''}`); }
});
connection.on('socket', (state) => { if (!state.open) { hostUp = false; setHostState('inspector unreachable', 'down'); } });
connection.on('reload', (report) => {
  timeline.reload(report);
  plot.reload(report);
  if (report.success && selected) fields.showFields(); // the fields may be others now
  pollStatus(true);
});
connection.on('frames', (frames) => plot.add(frames));
connection.on('diagnostics', (data) => errors.show(data.diagnostics));
connection.on('log', (line) => log.add(line));
connection.on('crashed', noteCrash);
connection.on('module', (data) => timeline.note('module', `game module: ${data.text ?? data.outcome}`));
connection.on('moduleBuild', (data) => timeline.note(data.success ? 'module' : 'failed', `game module build: ${describeModuleBuild({ last: data })}`));

$('pause').addEventListener('click', () => connection.request('pause').then((r) => setPaused(r.paused)).catch(() => {}));
$('resume').addEventListener('click', () => connection.request('resume').then((r) => setPaused(r.paused)).catch(() => {}));
$('step').addEventListener('click', () => connection.request('step', { frames: 1 }).then(() => pollStatus(true)).catch(() => {}));

setInterval(pollStatus, STATUS_MS);
