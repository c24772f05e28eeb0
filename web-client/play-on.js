// "Play on from here": a replayed record (the import page's, a finished room's) becomes a new game from the
// position shown, against a person (a correspondence room with two seat links) or the computer (a bot of a
// chosen level takes the other side). The server cuts the record at that turn (POST /api/games/import with
// `turns`, and `bot` and `seat` for the computer); the page then opens the player's own seat link.

import {error_text} from './errors.js';
import {t} from './i18n.js';
import {bot_level_label, chosen_level, el, kBotLevels, kCorrespondenceDays, notify, remember_level} from './ui.js';
import {seat_label} from './words.js';

// The import's query for a choice: {turns, seat, opponent: 'computer'|'person', level, days}.
export function play_on_query({turns, seat, opponent, level, days}) {
  const query = new URLSearchParams({turns: String(turns)});
  if (opponent === 'computer') {
    query.set('bot', String(level));
    query.set('seat', String(seat));
  } else {
    query.set('days', String(days));
  }
  return `/api/games/import?${query}`;
}

// The panel. `record()`: the record text; `turns()`: how many of its turns the position shown follows;
// `game`: the game's name (for the sides in words); `app`: for navigating.
export function play_on_panel({record, turns, game, app}) {
  const side = el('select', {id: 'play-on-side', name: 'play-on-side'},
                  [0, 1].map((seat) => el('option', {value: String(seat)},
                                          seat_label({game}, seat) || t('room.seat_n', {n: seat + 1}))));
  const opponent = el('select', {id: 'play-on-opponent', name: 'play-on-opponent'},
                      el('option', {value: 'computer'}, t('play_on.computer')),
                      el('option', {value: 'person'}, t('play_on.person')));
  const level = el('select', {id: 'play-on-level', name: 'play-on-level'},
                   kBotLevels.map((l) => el('option', {value: String(l), selected: l === chosen_level() ? '' : null},
                                            bot_level_label(l))));
  level.addEventListener('change', () => remember_level(Number(level.value)));
  const days = el('select', {id: 'play-on-days', name: 'play-on-days'},
                  kCorrespondenceDays.map((d) => el('option', {value: String(d), selected: d === 3 ? '' : null},
                                      t('play_on.days', {count: d}))));
  const level_field = el('label', {class: 'play-on-field'}, t('play_on.level'), level);
  const days_field = el('label', {class: 'play-on-field', hidden: true}, t('play_on.time'), days);
  const go = el('button', {id: 'play-on-go', type: 'submit', class: 'primary'}, t('play_on.go'));
  const where = el('p', {class: 'play-on-where muted'});
  const form = el('form', {id: 'play-on', class: 'play-on'},
                  el('h3', {}, t('play_on.title')), where,
                  el('div', {class: 'play-on-fields'},
                     el('label', {class: 'play-on-field'}, t('play_on.you_play'), side),
                     el('label', {class: 'play-on-field'}, t('play_on.against'), opponent), level_field, days_field),
                  go);
  opponent.addEventListener('change', () => {
    level_field.hidden = opponent.value !== 'computer';
    days_field.hidden = opponent.value === 'computer';
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const seat = Number(side.value);
    const url = play_on_query({
      turns: turns(), seat, opponent: opponent.value, level: Number(level.value), days: Number(days.value)
    });
    go.disabled = true;
    try {
      const response = await fetch(url, {method: 'POST', headers: {'Content-Type': 'text/plain'}, body: record()});
      const answer = await response.json().catch(() => ({}));
      if (!response.ok) {
        notify(answer.error ? error_text(answer.error.code, answer.error.message) :
                              t('play_on.failed', {status: String(response.status)}));
        return;
      }
      // My own seat's link takes the seat; the other one (a person's) is shown in the room to send.
      const mine = (answer.links || [])[seat];
      const hash = mine ? `#${new URL(mine, location.href).hash.slice(1)}` : `#/room/${answer.room}`;
      if (app && app.navigate) app.navigate(hash);
      else location.hash = hash;
    } catch {
      notify(t('play_on.unreachable'));
    } finally {
      go.disabled = false;
    }
  });
  const update = () => {
    const n = turns();
    where.textContent = n === 0 ? t('play_on.from_start') : t('play_on.from_turn', {n});
  };
  update();
  return {node: form, update};
}
