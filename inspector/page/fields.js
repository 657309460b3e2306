// The selected entity's scripts and their fields, with a widget per kind of value. The fields
// are listed with `get` and then watched (`watchFields`): the host sends what changed, at most
// ten times a second. A widget being edited is left alone until it is applied (Enter, or
// leaving it), and a refused value shows the host's reason beside the field.
import { el, fill } from './dom.js';
import { shortName } from './tree.js';

const NUMBER_TYPES = new Set(['int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'int64',
  'uint64', 'float', 'double', 'char']);
const VECTOR_SIZES = { vector2: 2, vector3: 3, vector4: 4, quaternion: 4, color: 4 };

export class ScriptFields {
  // `entities()`: the host's entities as `entities` lists them (for reference pickers).
  constructor(container, connection, entities = () => []) {
    this.container = container;
    this.connection = connection;
    this.entities = entities;
    this.entity = null;
    this.widgets = new Map(); // "script/field" → {update(value), editing()}
    this.watchId = null;
    this.rows = []; // the watch's rows: "script/field" keys
    connection.on('fields', (data) => this.changed(data));
  }

  show(entity) {
    this.entity = entity;
    this.widgets.clear();
    this.watchId = null;
    if (!entity) { fill(this.container); this.connection.request('watchFields', { watch: [] }).catch(() => {}); return; }
    fill(this.container, entity.scripts.map((script) => el('article', { class: 'script', dataset: { script: script.id, class: script.class } },
      el('h3', {}, shortName(script.class), script.enabled ? '' : el('span', { class: 'tag off' }, 'disabled'),
        script.parked ? el('span', { class: 'tag off' }, 'parked') : ''),
      el('table', { class: 'fields' }, el('tbody', { id: `fields-${script.id}` })))));
  }

  // Lists the shown entity's fields (again: after a reload they may be others), then watches them.
  async showFields() {
    await this.refresh();
    await this.watch();
  }

  async watch() {
    const entity = this.entity;
    if (!entity) return;
    const scripts = entity.scripts.filter((script) => !script.parked);
    let result;
    try {
      result = await this.connection.request('watchFields', { watch: scripts.map((script) => ({ entity: entity.id, script: script.id })) });
    } catch { return; }
    if (this.entity !== entity) return;
    this.rows = [];
    for (const target of result.targets)
      target.fields.forEach((field, i) => { this.rows[target.row + i] = `${target.scriptId}/${field.name}`; });
    this.watchId = result.watch;
  }

  // A `fields` event: the rows that changed (and the ones that went) since the last one.
  changed(data) {
    if (data.watch !== this.watchId) return;
    for (const [row, value] of data.changes) {
      const widget = this.widgets.get(this.rows[row]);
      if (!widget) continue;
      widget.node.closest('tr')?.classList.remove('gone');
      if (!widget.editing()) widget.update(value);
    }
    for (const row of data.gone) this.widgets.get(this.rows[row])?.node.closest('tr')?.classList.add('gone');
  }

  // Reads every field of every script of the shown entity (one `get` per script).
  async refresh() {
    const entity = this.entity;
    if (!entity) return;
    await Promise.all(entity.scripts.map(async (script) => {
      let result;
      try {
        result = await this.connection.request('get', { entity: entity.id, script: script.id });
      } catch { return; }
      if (this.entity !== entity) return;
      const body = this.container.querySelector(`#fields-${CSS.escape(script.id)}`);
      if (!body) return;
      for (const field of result.fields) this.fieldRow(body, entity, script, field);
    }));
  }

  fieldRow(body, entity, script, field) {
    const key = `${script.id}/${field.name}`;
    let widget = this.widgets.get(key);
    if (!widget) {
      widget = makeWidget(field, (value) => this.apply(entity, script, field, value, widget), this.entities);
      this.widgets.set(key, widget);
      body.append(el('tr', { dataset: { field: field.name, type: field.type } },
        el('th', { title: field.typeName ?? field.type }, field.displayName ?? field.name),
        el('td', {}, widget.node, widget.error)));
    }
    if (!widget.editing()) widget.update(field.value);
  }

  async apply(entity, script, field, value, widget) {
    widget.error.textContent = '';
    try {
      const result = await this.connection.request('set', { entity: entity.id, script: script.id, field: field.name, value });
      widget.update(result.value);
    } catch (error) {
      widget.error.textContent = error.message;
    }
  }
}

function makeWidget(field, apply, entities) {
  const error = el('span', { class: 'refused', role: 'alert' });
  const type = field.type;
  if (type === 'bool') {
    const box = el('input', { type: 'checkbox', onchange: () => apply(box.checked) });
    return { node: box, error, editing: () => false, update: (v) => { box.checked = !!v; } };
  }
  if (VECTOR_SIZES[type]) {
    const inputs = Array.from({ length: VECTOR_SIZES[type] }, (_, i) => numberInput(`${'xyzw'[i]}`));
    const node = el('span', { class: 'vector' }, inputs);
    const send = () => apply(inputs.map((input) => parseNumber(input.value)));
    for (const input of inputs) commitOn(input, send);
    return { node, error, editing: () => inputs.includes(document.activeElement),
             update: (v) => inputs.forEach((input, i) => { input.value = formatNumber(v?.[i]); }) };
  }
  if (NUMBER_TYPES.has(type)) {
    const input = numberInput(field.name);
    commitOn(input, () => apply(parseNumber(input.value)));
    return { node: input, error, editing: () => document.activeElement === input,
             update: (v) => { input.value = formatNumber(v); } };
  }
  if (type === 'enum' && Array.isArray(field.enumMembers)) {
    const select = el('select', { 'aria-label': field.name, onchange: () => apply(select.value) },
      field.enumMembers.map((name) => el('option', { value: name }, name)));
    return { node: select, error, editing: () => document.activeElement === select,
             update: (v) => { ensureOption(select, String(v), String(v)); select.value = String(v); } };
  }
  if (type === 'reference') return referencePicker(field, apply, error, entities);
  if (type === 'string' || type === 'enum') {
    const input = el('input', { type: 'text', 'aria-label': field.name });
    commitOn(input, () => apply(input.value));
    return { node: input, error, editing: () => document.activeElement === input,
             update: (v) => { input.value = v ?? ''; } };
  }
  // Lists, arrays, records: their JSON, edited as text.
  const area = el('textarea', { rows: 2, 'aria-label': field.name, spellcheck: false });
  commitOn(area, () => {
    let value;
    try { value = JSON.parse(area.value); } catch (e) { error.textContent = `not JSON: ${e.message}`; return; }
    apply(value);
  });
  return { node: area, error, editing: () => document.activeElement === area,
           update: (v) => { area.value = JSON.stringify(v); } };
}

function numberInput(label) {
  return el('input', { type: 'text', inputmode: 'decimal', class: 'number', 'aria-label': label });
}

// Applies on Enter and when the widget is left after a change.
function commitOn(input, send) {
  let changed = false;
  input.addEventListener('input', () => { changed = true; });
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !(input.tagName === 'TEXTAREA' && event.shiftKey)) {
      event.preventDefault(); changed = false; send();
    }
  });
  input.addEventListener('blur', () => { if (changed) { changed = false; send(); } });
}

function parseNumber(text) {
  const trimmed = text.trim();
  if (['nan', 'inf', '-inf'].includes(trimmed)) return trimmed;
  const number = Number(trimmed);
  return trimmed !== '' && Number.isFinite(number) ? number : trimmed; // the host explains what it refuses
}

function formatNumber(value) {
  if (typeof value !== 'number') return value ?? '';
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 1e5) / 1e5);
}

const MAX_CHOICES = 1000; // a picker lists at most this many objects (the current one always)

// "index:generation" → the packed id a reference value carries ({"id": packed}).
export function packedId(text) {
  const [index, generation] = String(text).split(':').map(Number);
  return generation * 2 ** 32 + index;
}

// What a reference field may point at, from the `entities` listing: entities, or the scripts
// or components whose class the field names.
function referenceChoices(field, entities) {
  const className = field.typeName ?? '';
  const short = className.slice(className.lastIndexOf('.') + 1);
  const choices = [];
  for (const entity of entities()) {
    if (field.refTarget === 'entity' || field.refTarget === undefined) {
      choices.push({ id: packedId(entity.id), label: `${entity.name} (${entity.id})` });
    } else if (field.refTarget === 'script') {
      for (const script of entity.scripts)
        if (script.class === className || script.class.endsWith(`.${short}`))
          choices.push({ id: packedId(script.id), label: `${entity.name} / ${shortName(script.class)} (${script.id})` });
    } else {
      for (const component of entity.components)
        if (short.toLowerCase().includes(component.type.toLowerCase()))
          choices.push({ id: packedId(component.id), label: `${entity.name} / ${component.type} (${component.id})` });
    }
    if (choices.length >= MAX_CHOICES) break;
  }
  return choices;
}

// A reference: a list of what it may point at, and "none"; the list is filled when opened.
function referencePicker(field, apply, error, entities) {
  const select = el('select', { 'aria-label': field.name }, el('option', { value: '' }, '(none)'));
  let current = '';
  const fillChoices = () => {
    const options = [el('option', { value: '' }, '(none)')];
    for (const choice of referenceChoices(field, entities))
      options.push(el('option', { value: String(choice.id) }, choice.label));
    fill(select, options);
    ensureOption(select, current, `id ${current}`);
    select.value = current;
  };
  select.addEventListener('focus', fillChoices);
  select.addEventListener('mousedown', fillChoices);
  select.addEventListener('change', () => apply(select.value ? { id: Number(select.value) } : null));
  return { node: select, error, editing: () => document.activeElement === select,
           update: (v) => {
             current = v && v.id !== undefined ? String(v.id) : '';
             if (select.options.length <= 1) fillChoices();
             ensureOption(select, current, `id ${current}`);
             select.value = current;
           } };
}

// Adds an option for `value` to `select` unless it has one (a value the list does not offer).
function ensureOption(select, value, label) {
  if (value !== '' && ![...select.options].some((o) => o.value === value))
    select.append(el('option', { value }, label));
}
