// The entity tree: every entity under its parent, filtered by name. Rebuilt when the list
// changes; a filter keeps the entities that match and the parents that lead to them.
import { el, fill } from './dom.js';

export class EntityTree {
  constructor(list, search, onSelect) {
    this.list = list;
    this.search = search;
    this.onSelect = onSelect;
    this.entities = [];
    this.selected = null;
    this.signature = '';
    search.addEventListener('input', () => this.render());
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
        rows.push(this.row(entity, depth, filter));
        visit(entity.id, depth + 1);
      }
    };
    visit('', 0);
    fill(this.list, rows.length ? rows : [el('li', { class: 'empty' }, filter ? 'No entity matches' : 'No entities')]);
  }

  row(entity, depth, filter) {
    const kinds = [
      ...entity.scripts.map((s) => el('span', { class: 'tag script' }, shortName(s.class))),
      ...entity.components.map((c) => el('span', { class: 'tag component' }, c.type)),
    ];
    const matches = filter && entity.name.toLowerCase().includes(filter);
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
