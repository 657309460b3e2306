// The entity tree: every entity under its parent, filtered by name. Laid out again when the
// list changes; a filter keeps the entities that match and the parents that lead to them.
// Only the rows in view (and a margin around them) are in the DOM — a list of 10,000 entities
// costs what a list of a hundred does — with spacers above and below that keep the scrollbar
// true.
import { el, fill } from './dom.js';

const MARGIN_ROWS = 60; // rendered beyond the view on each side

export class EntityTree {
  constructor(list, search, onSelect) {
    this.list = list;
    this.search = search;
    this.onSelect = onSelect;
    this.entities = [];
    this.selected = null;
    this.signature = '';
    this.rows = [];      // the laid-out tree: {entity, depth, matches}
    this.rowHeight = 0;  // px, measured from the first row drawn
    this.drawn = '';     // the window last drawn: "first-last"
    search.addEventListener('input', () => this.render());
    list.addEventListener('scroll', () => this.draw());
  }

  update(entities) {
    const signature = entities.map((e) => `${e.id}/${e.name}/${e.parent}/${e.active}/${e.scripts.length}/${e.components.length}`).join('|');
    this.entities = entities;
    if (signature !== this.signature) {
      this.signature = signature;
      this.render();
    }
  }

  select(id) {
    this.selected = id;
    for (const row of this.list.querySelectorAll('.entity'))
      row.classList.toggle('selected', row.dataset.id === id);
    this.onSelect(this.entities.find((e) => e.id === id) ?? null);
  }

  render() {
    const filter = this.search.value.trim().toLowerCase();
    const byParent = new Map();
    for (const entity of this.entities) {
      const key = entity.parent ?? '';
      if (!byParent.has(key)) byParent.set(key, []);
      byParent.get(key).push(entity);
    }
    const shown = new Set();
    if (filter) {
      const byId = new Map(this.entities.map((e) => [e.id, e]));
      for (const entity of this.entities) {
        if (!entity.name.toLowerCase().includes(filter)) continue;
        for (let at = entity; at && !shown.has(at.id); at = byId.get(at.parent)) shown.add(at.id);
      }
    }
    const rows = [];
    const visit = (parent, depth) => {
      for (const entity of byParent.get(parent) ?? []) {
        if (filter && !shown.has(entity.id)) continue;
        rows.push({ entity, depth, matches: !!filter && entity.name.toLowerCase().includes(filter) });
        visit(entity.id, depth + 1);
      }
    };
    visit('', 0);
    this.rows = rows;
    this.filter = filter;
    this.list.dataset.rows = String(rows.length); // how many the tree lists, drawn or not
    this.drawn = '';
    this.draw();
  }

  // Draws the rows in view, with a margin, between two spacers.
  draw() {
    if (!this.rows.length) {
      this.drawn = '';
      fill(this.list, [el('li', { class: 'empty' }, this.filter ? 'No entity matches' : 'No entities')]);
      return;
    }
    const height = this.rowHeight || 22;
    const first = Math.max(0, Math.floor(this.list.scrollTop / height) - MARGIN_ROWS);
    const last = Math.min(this.rows.length, Math.ceil((this.list.scrollTop + this.list.clientHeight) / height) + MARGIN_ROWS);
    const span = `${first}-${last}`;
    if (span === this.drawn) return;
    this.drawn = span;
    const spacer = (rows) => el('li', { class: 'spacer-row', 'aria-hidden': 'true', style: `height: ${rows * height}px` });
    fill(this.list, [spacer(first), ...this.rows.slice(first, last).map((r) => this.row(r.entity, r.depth, r.matches)),
      spacer(this.rows.length - last)]);
    if (!this.rowHeight) {
      const drawnRow = this.list.querySelector('.entity');
      if (drawnRow && drawnRow.offsetHeight > 0) { this.rowHeight = drawnRow.offsetHeight; this.drawn = ''; this.draw(); }
    }
  }

  row(entity, depth, matches) {
    const kinds = [
      ...entity.scripts.map((s) => el('span', { class: 'tag script' }, shortName(s.class))),
      ...entity.components.map((c) => el('span', { class: 'tag component' }, c.type)),
    ];
    return el('li', {
      class: ['entity', entity.active ? '' : 'inactive', entity.id === this.selected ? 'selected' : '', matches ? 'match' : ''].join(' ').trim(),
      role: 'treeitem', tabindex: '0', dataset: { id: entity.id, name: entity.name },
      style: `padding-left: ${0.5 + depth * 1.1}em`,
      onclick: () => this.select(entity.id),
      onkeydown: (event) => { if (event.key === 'Enter') this.select(entity.id); },
    }, el('span', { class: 'name' }, entity.name), ...kinds);
  }
}

export function shortName(className) {
  const dot = className.lastIndexOf('.');
  return dot < 0 ? className : className.slice(dot + 1);
}
