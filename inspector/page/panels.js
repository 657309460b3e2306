// The side panels: reloads (and crashes) as they happen, the last build's errors, the log,
// frame statistics, the game module, the coroutines.
import { el, fill } from './dom.js';
import { shortName } from './tree.js';

const MAX_LOG_LINES = 500;
const MAX_TIMELINE = 200;

export class Timeline {
  constructor(list) { this.list = list; this.seen = new Set(); }

  reload(report) {
    if (report.sequence !== undefined) {
      if (this.seen.has(report.sequence)) return;
      this.seen.add(report.sequence);
    }
    const timings = report.timings ?? {};
    const outcome = report.success ? 'reloaded' : `rolled back (${report.failedPhase || 'failed'})`;
    const fields = (report.fields ?? []).map((f) =>
      el('li', { class: `field ${f.outcome}` }, `${shortName(f.class ?? '')}.${f.field}: ${f.outcome}`, f.detail ? ` — ${f.detail}` : ''));
    const counts = ['restored', 'created', 'parked', 'reenabled', 'released']
      .filter((k) => report[k]).map((k) => `${k} ${report[k]}`).join(', ');
    this.add(el('li', { class: `reload ${report.success ? 'ok' : 'failed'}`, dataset: { sequence: report.sequence } },
      el('div', { class: 'headline' },
        el('strong', {}, `#${report.sequence} ${outcome}`),
        ` generation ${report.fromGeneration} → ${report.toGeneration}`,
        timings.totalMs !== undefined ? ` · ${timings.totalMs.toFixed(1)} ms, frame stall ${(timings.frameStallMs ?? 0).toFixed(2)} ms` : ''),
      counts ? el('div', { class: 'counts' }, counts) : null,
      (report.errors ?? []).length ? el('ul', { class: 'errors' }, report.errors.map((e) => el('li', { title: e }, e.replace(/^\/\S*\/([^/]+\(\d+,\d+\))/, '$1')))) : null,
      fields.length ? el('details', {}, el('summary', {}, `${fields.length} field(s)`), el('ul', {}, fields)) : null));
  }

  note(kind, text) { this.add(el('li', { class: kind }, el('strong', {}, text))); }

  add(item) {
    item.dataset.time = new Date().toLocaleTimeString();
    this.list.prepend(item);
    while (this.list.children.length > MAX_TIMELINE) this.list.lastElementChild.remove();
  }
}

export class BuildErrors {
  constructor(list) { this.list = list; }

  show(diagnostics) {
    const errors = (diagnostics ?? []).filter((d) => d.severity === 'error');
    fill(this.list, errors.length ? errors.map((d) => el('li', { class: 'diagnostic' },
      el('code', {}, `${d.file ? `${d.file.split('/').pop()}(${d.line},${d.column})` : ''}`),
      ` ${d.code ?? ''} ${d.message}`)) : [el('li', { class: 'clean' }, 'No errors')]);
  }
}

export class LogView {
  constructor(list, filter) {
    this.list = list;
    this.filter = filter;
    filter.addEventListener('input', () => this.applyFilter());
  }

  add(line) {
    const item = el('li', { class: `log ${line.level}` },
      el('time', {}, new Date(line.time).toLocaleTimeString()), ` [${line.level}] ${line.message}`);
    // Follow new lines only when the list is scrolled to its end (reading older lines stays put),
    // and scroll the list alone, never the panel around it.
    const atEnd = this.list.scrollTop + this.list.clientHeight >= this.list.scrollHeight - 4;
    this.list.append(item);
    while (this.list.children.length > MAX_LOG_LINES) this.list.firstElementChild.remove();
    this.applyFilterTo(item);
    if (atEnd) this.list.scrollTop = this.list.scrollHeight;
  }

  applyFilter() { for (const item of this.list.children) this.applyFilterTo(item); }

  applyFilterTo(item) {
    const text = this.filter.value.trim().toLowerCase();
    item.hidden = text !== '' && !item.textContent.toLowerCase().includes(text);
  }
}

export function showFrames(node, status) {
  const ms = status.frameMs ?? {};
  fill(node, el('dl', {},
    el('dt', {}, 'frame'), el('dd', { id: 'frame-number' }, status.frame),
    el('dt', {}, 'fps'), el('dd', {}, (status.fps ?? 0).toFixed(1)),
    el('dt', {}, 'frame ms'), el('dd', {}, `median ${fmt(ms.median)} · p99 ${fmt(ms.p99)} · max ${fmt(ms.max)}`),
    el('dt', {}, 'generation'), el('dd', {}, status.generation),
    el('dt', {}, 'reloads'), el('dd', {}, `${status.reloads?.ok ?? 0} ok, ${status.reloads?.failed ?? 0} failed`),
    el('dt', {}, 'restarts'), el('dd', {}, status.restarts ?? 0)));
}

export function showModule(node, status) {
  if (!status.gameModule) { fill(node, el('p', { class: 'muted' }, 'No game module')); return; }
  const last = status.lastModuleReload;
  fill(node, el('dl', {},
    el('dt', {}, 'module'), el('dd', { id: 'module-name' }, status.gameModule),
    el('dt', {}, 'build'), el('dd', {}, status.gameModuleGeneration ?? '—'),
    el('dt', {}, 'state'), el('dd', {}, status.gameModuleCrash ? `crashed: ${status.gameModuleCrash}` : 'running'),
    el('dt', {}, 'last reload'), el('dd', {}, last ? (last.text ?? last.outcome) : 'none yet'),
    el('dt', {}, 'its build'), el('dd', { id: 'module-build' }, describeModuleBuild(status.moduleBuild))));
}

// `status.moduleBuild` in words: the build command `run --game-build` runs on a save.
export function describeModuleBuild(build) {
  if (!build) return 'not built by the host (no --game-build)';
  if (build.building) return 'building…';
  const last = build.last;
  if (!last) return 'no build yet';
  return last.success ? `built in ${last.milliseconds} ms` : `failed (exit ${last.exitCode}): ${(last.outputTail ?? '').split('\n').filter(Boolean).slice(-1)[0] ?? ''}`;
}

export function showCoroutines(list, entities) {
  const rows = [];
  for (const entity of entities) {
    for (const script of entity.scripts) {
      for (const coroutine of script.coroutines ?? []) {
        rows.push(el('li', { class: 'coroutine' },
          el('strong', {}, `${entity.name} · ${shortName(script.class)}.${coroutine.method}`),
          ` — ${coroutine.waitingFor}`));
      }
    }
  }
  fill(list, rows.length ? rows : [el('li', { class: 'muted' }, 'No coroutines running')]);
}

function fmt(value) { return value === undefined ? '—' : value.toFixed(2); }
