// Mounts a game's board module (./boards/GAME.js), or a plain fallback when the module is missing or
// fails, so a game stays playable: the view as JSON and the legal action texts as buttons.

import {t} from './i18n.js';
import {el} from './ui.js';

export async function mount_board(root, ctx) {
  try {
    const module = await import(`./boards/${ctx.game}.js`);
    if (typeof module.mount !== 'function') throw new Error('no mount()');
    return module.mount(root, ctx);
  } catch (err) {
    console.warn(`cinq: board for ${ctx.game} unavailable, using the fallback`, err);
    root.replaceChildren();
    return mount_fallback(root, ctx);
  }
}

// Batik's expanded drops run to thousands: past this many, buttons give way to typing the text.
const kMaxButtons = 300;

function mount_fallback(root, ctx) {
  const actions = el('div', {class: 'fallback-actions', 'aria-label': t('board.legal_actions')});
  const input = el('input', {type: 'text', id: 'fallback-text', 'aria-label': t('board.action_text')});
  const form =
      el('form', {class: 'fallback-form', hidden: true}, input, el('button', {type: 'submit'}, t('board.play')));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    if (input.value.trim()) ctx.act([input.value.trim()], false);
    input.value = '';
  });
  const view = el('pre', {class: 'fallback-view'});
  const box =
      el('div', {class: 'board-fallback'},
         el('p', {class: 'muted'}, t('board.no_drawing')),
         actions, form, view);
  root.append(box);
  return {
    update(position, info) {
      view.textContent = JSON.stringify(position.view, null, 2);
      actions.replaceChildren();
      form.hidden = !info.canAct;
      if (!info.canAct) return;
      const legal = position.legal || [];
      if (legal.length > kMaxButtons) {
        actions.append(el('p', {class: 'muted'}, t('board.many_actions', {count: String(legal.length), example: legal[0]})));
        return;
      }
      for (const text of legal) {
        actions.append(
            el('button', {
              class: 'legal-action',
              type: 'button',
              'data-action': text,
              'data-legal': 'true',
              onclick: () => ctx.act([text], false),
            },
               text));
      }
    },
    destroy() { box.remove(); },
  };
}
