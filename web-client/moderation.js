// The moderators' page (#/moderation; docs/protocol.md "Moderation"): the open reports, the accounts that
// share an address or a browser and played rated games together, the audit log, and a player's page with
// the actions on him (ban, mute, reset the name) and a room's closing. Everything goes over the page's one
// connection; a player who is no moderator is told so (the server refuses him every command anyway).

import {error_text} from './errors.js';
import {date_time, t} from './i18n.js';
import {el} from './ui.js';

const kDurations = ['1h', '1d', '7d', '30d', 'forever'];

export function render_moderation(root, app) {
  const conn = app.conn;
  document.title = t('moderation.page_title');
  const offs = [];
  const pending = new Map();  // ref -> what to do with the answer
  const page = el('div', {class: 'moderation', id: 'moderation', 'data-state': 'loading'},
                  el('h1', {}, t('moderation.title')));
  const status = el('p', {id: 'moderation-status', class: 'muted', role: 'status'}, t('account.loading'));
  page.append(status);
  root.append(page);

  const ask = (message, then) => {
    const ref = conn.send(message);
    if (ref === null) {
      status.textContent = t('moderation.offline');
      return;
    }
    pending.set(ref, then);
  };
  const answered = (m) => {
    if (m.ref === undefined || !pending.has(m.ref)) return;
    const then = pending.get(m.ref);
    pending.delete(m.ref);
    if (m.type === 'error') {
      status.textContent = error_text(m.code, m.message);
      status.classList.add('form-error');
      return;
    }
    status.classList.remove('form-error');
    then(m);
  };
  for (const type of ['mod_role', 'mod_reports', 'mod_audit', 'mod_links', 'mod_player', 'mod_done', 'error'])
    offs.push(conn.on(type, answered));

  const when = (ms) => date_time(ms, {dateStyle: 'short', timeStyle: 'short'});
  const who = (p) => (p && (p.username || p.name || p.id)) || '';

  // --- sections
  const reports = el('section', {class: 'card', id: 'moderation-reports'});
  const links = el('section', {class: 'card', id: 'moderation-links'});
  const audit = el('section', {class: 'card', id: 'moderation-audit'});
  const player_box = el('div', {id: 'moderation-player-info'});
  const player_input = el('input', {id: 'moderation-player-name', type: 'text', autocomplete: 'off', required: true,
                                    'aria-label': t('moderation.player.field')});
  const player = el('section', {class: 'card', id: 'moderation-player'},
                    el('h2', {}, t('moderation.player.title')),
                    el('form', {class: 'inline-form', id: 'moderation-player-form'},
                       el('label', {for: 'moderation-player-name'}, t('moderation.player.field')), ' ', player_input,
                       ' ', el('button', {type: 'submit'}, t('moderation.player.look_up'))),
                    player_box);
  const room_input = el('input', {id: 'moderation-room-id', type: 'text', autocomplete: 'off', required: true});
  const room_reason = el('input', {id: 'moderation-room-reason', type: 'text', maxlength: 500});
  const room = el('section', {class: 'card', id: 'moderation-room'},
                  el('h2', {}, t('moderation.room.title')),
                  el('form', {class: 'inline-form', id: 'moderation-room-form'},
                     el('label', {for: 'moderation-room-id'}, t('moderation.room.field')), ' ', room_input, ' ',
                     el('label', {for: 'moderation-room-reason'}, t('moderation.reason')), ' ', room_reason, ' ',
                     el('button', {type: 'submit'}, t('moderation.room.close'))));

  const load_reports = () => ask({type: 'mod_reports', status: 'open'}, (m) => {
    const list = m.reports || [];
    reports.replaceChildren(el('h2', {}, t('moderation.reports.title')));
    if (!list.length) {
      reports.append(el('p', {class: 'muted', id: 'moderation-reports-empty'}, t('moderation.reports.empty')));
      return;
    }
    reports.append(el('ul', {class: 'moderation-list'}, list.map((r) => el(
        'li', {class: 'moderation-report', 'data-report': r.id},
        el('p', {}, t('moderation.reports.line', {reporter: who(r.reporter), player: who(r.player),
                                                  when: when(r.at_ms)})),
        el('p', {class: 'moderation-reason'}, t('moderation.reports.reason', {reason: r.reason})),
        r.line ? el('blockquote', {class: 'moderation-chat-line'}, r.line) : null,
        r.room ? el('p', {}, el('a', {href: `#/room/${encodeURIComponent(r.room)}`}, t('moderation.reports.room', {room: r.room})))
               : null,
        el('p', {class: 'moderation-actions'},
           el('button', {type: 'button', class: 'moderation-open', onclick: () => look_up(r.player.id)},
              t('moderation.reports.open_player')), ' ',
           el('button', {type: 'button', class: 'moderation-resolve',
                         onclick: () => ask({type: 'mod_resolve', report: r.id}, () => {
                           status.textContent = t('moderation.done.resolve_report');
                           refresh();
                         })},
              t('moderation.reports.resolve')))))));
  });

  const load_links = () => ask({type: 'mod_links'}, (m) => {
    const pairs = m.pairs || [];
    links.replaceChildren(el('h2', {}, t('moderation.links.title')),
                          el('p', {class: 'muted'}, t('moderation.links.hint')));
    if (!pairs.length) {
      links.append(el('p', {class: 'muted', id: 'moderation-links-empty'}, t('moderation.links.empty')));
      return;
    }
    links.append(el('ul', {class: 'moderation-list'}, pairs.map((p) => el(
        'li', {class: 'moderation-link'},
        el('button', {type: 'button', class: 'link-button', onclick: () => look_up(p.a.id)}, who(p.a)), ' — ',
        el('button', {type: 'button', class: 'link-button', onclick: () => look_up(p.b.id)}, who(p.b)), ': ',
        t(p.device ? (p.address ? 'moderation.links.both' : 'moderation.links.device') : 'moderation.links.address'),
        ', ', t('moderation.links.rated', {count: p.rated_games})))));
  });

  const audit_list = (entries) => entries.length ?
      el('ol', {class: 'moderation-audit-list'}, entries.map((e) => el(
          'li', {'data-action': e.action},
          el('time', {class: 'muted'}, when(e.at_ms)), ' ',
          t('moderation.audit.entry', {actor: e.actor_name || e.actor, action: t(`moderation.action.${e.action}`),
                                       target: e.target_name || e.target}),
          e.detail ? ` — ${e.detail}` : ''))) :
      el('p', {class: 'muted'}, t('moderation.audit.empty'));
  const load_audit = () => ask({type: 'mod_audit'}, (m) => {
    audit.replaceChildren(el('h2', {}, t('moderation.audit.title')), audit_list(m.entries || []));
  });

  const refresh = () => {
    load_reports();
    load_links();
    load_audit();
  };

  function look_up(name) {
    player_input.value = name;
    ask({type: 'mod_player', player: name}, (m) => show_player(m));
  }

  function show_player(m) {
    const p = m.player;
    const reason = el('input', {id: 'moderation-reason', type: 'text', maxlength: 500});
    const duration = el('select', {id: 'moderation-duration'},
                        kDurations.map((d) => el('option', {value: d}, t(`moderation.duration.${d}`))));
    const act = (type, needs_time) => () => {
      const message = {type, player: p.id};
      if (reason.value.trim()) message.reason = reason.value.trim();
      if (needs_time) message.duration = duration.value;
      ask(message, (done) => {
        status.textContent = t(`moderation.done.${done.action}`);
        look_up(p.id);
        load_audit();
      });
    };
    const sanctions = m.sanctions || [];
    player_box.replaceChildren(
        el('h3', {id: 'moderation-player-title', 'data-player': p.id}, p.username ? `${p.username} (${p.name})` : p.name),
        el('p', {class: 'muted'}, t('moderation.player.facts', {id: p.id, role: t(`moderation.role.${p.role}`),
                                                                since: when(p.created_ms)})),
        sanctions.length ?
            el('ul', {id: 'moderation-sanctions'}, sanctions.map((s) => el(
                'li', {'data-kind': s.kind},
                t(s.until_ms ? `moderation.sanction.${s.kind}_until` : `moderation.sanction.${s.kind}`,
                  {until: s.until_ms ? when(s.until_ms) : '', reason: s.reason || '—'})))) :
            el('p', {class: 'muted', id: 'moderation-no-sanction'}, t('moderation.player.no_sanction')),
        el('div', {class: 'moderation-form'},
           el('label', {for: 'moderation-duration'}, t('moderation.duration')), ' ', duration, ' ',
           el('label', {for: 'moderation-reason'}, t('moderation.reason')), ' ', reason),
        el('p', {class: 'moderation-actions'},
           el('button', {type: 'button', id: 'moderation-ban', onclick: act('mod_ban', true)}, t('moderation.ban')), ' ',
           el('button', {type: 'button', id: 'moderation-unban', onclick: act('mod_unban', false)}, t('moderation.unban')), ' ',
           el('button', {type: 'button', id: 'moderation-mute', onclick: act('mod_mute', true)}, t('moderation.mute')), ' ',
           el('button', {type: 'button', id: 'moderation-unmute', onclick: act('mod_unmute', false)}, t('moderation.unmute')), ' ',
           el('button', {type: 'button', id: 'moderation-rename', onclick: act('mod_rename', false)},
              t('moderation.rename'))),
        el('h4', {}, t('moderation.player.history')), audit_list(m.audit || []));
  }

  player.querySelector('form').addEventListener('submit', (e) => {
    e.preventDefault();
    if (player_input.value.trim()) look_up(player_input.value.trim());
  });
  room.querySelector('form').addEventListener('submit', (e) => {
    e.preventDefault();
    const message = {type: 'mod_close_room', room: room_input.value.trim()};
    if (room_reason.value.trim()) message.reason = room_reason.value.trim();
    ask(message, () => {
      status.textContent = t('moderation.done.close_room');
      load_audit();
    });
  });

  offs.push(conn.on_ready(() => ask({type: 'mod_role'}, (m) => {
    if (m.role === 'player') {
      status.textContent = t('moderation.not_allowed');
      page.dataset.state = 'forbidden';
      return;
    }
    status.textContent = t('moderation.role_line', {role: t(`moderation.role.${m.role}`)});
    page.dataset.state = 'ready';
    page.append(reports, player, room, links, audit);
    refresh();
  })));

  return () => {
    for (const off of offs) off();
  };
}
