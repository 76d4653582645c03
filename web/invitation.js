// The page an invite link opens (#/join/ID/CODE, or #/join/ID/CODE/SEAT for a seat the host
// kept for you): who invites you, to which game and variant, under which house rules and
// timer, who sits where and whose partner or opponent you would be; then a name (for someone
// with no account yet) and Take my seat. Read before any account is made.

import * as api from './api.js';
import { t } from './i18n.js';
import { h } from './ui.js';
import { identityPanel, ensureNamedUser, complain } from './identity.js';
import { houseRulesText } from './house_rules.js';
import { levelName, relation, timerText } from './names.js';

/** Who sits in `seat` of the invitation, in words.
 * @param {Api<'Invitation'>} invite @param {number} seat */
function seatText(invite, seat) {
  const info = invite.seats[seat];
  if (info.name) return info.name;
  if (info.bot) return t('computer_level', { level: levelName(info.bot) });
  return t('open_seat');
}

/** The invitation to table `id` (its invite `code`; `wantedSeat` a seat kept for the reader, from
 * the link, or the one chosen before signing in).
 * @param {HTMLElement} root @param {number} id @param {string} code @param {string | number} [wantedSeat] */
export async function showInvitation(root, id, code, wantedSeat) {
  const invite = await api.invitation(id, code);
  const catalogue = await api.knownCatalogue();
  const kind = catalogue.kinds.find((k) => k.kind === invite.kind);
  const variant = kind?.variants.find((v) => v.name === invite.variant);
  const host = invite.seats.find((s) => s.name === invite.invited_by)?.seat ?? 0;
  const game = `${t(`kind_${invite.kind}`)} · ${t(`variant_${invite.kind}_${invite.variant}`)}`;
  const open = invite.open_seats;
  /** @type {number | undefined} */
  let seat = open.includes(Number(wantedSeat)) ? Number(wantedSeat) : open[0];

  // The seat to take, when several are open: each with what it makes you to the host.
  const choice = open.length > 1
    ? h('fieldset', { class: 'seat-choice' }, h('legend', {}, t('invite_choose_seat')),
      open.map((s) => {
        const radio = h('input', { type: 'radio', name: 'seat', id: `invite-seat-${s}`, value: String(s), checked: s === seat });
        radio.addEventListener('change', () => {
          seat = s;
          role.textContent = roleText();
        });
        return h('label', { for: `invite-seat-${s}`, class: 'seat-option' }, radio,
          ` ${t('seat_n', { n: s + 1 })} · ${t(`invite_as_${relation(invite.sides, host, s)}`, { name: invite.invited_by })}`);
      }))
    : null;
  const roleText = () => (seat === undefined
    ? t('invite_no_seat')
    : t('invite_you_sit', { n: seat + 1, role: t(`invite_as_${relation(invite.sides, host, seat)}`, { name: invite.invited_by }) }));
  const role = h('p', { class: 'invite-role' }, roleText());
  const seats = h('ul', { class: 'invite-seats' }, invite.seats.map((s) => h('li', {
    'data-seat': String(s.seat), class: s.open ? 'open' : 'taken',
  }, h('span', { class: 'seat-label' }, t('seat_n', { n: s.seat + 1 })), ' ', h('bdi', {}, seatText(invite, s.seat)),
  invite.sides.some((side) => side.length > 1)
    ? h('span', { class: 'team' }, ` · ${t('team_n', { n: invite.sides.findIndex((side) => side.includes(s.seat)) + 1 })}`)
    : null)));
  /** @type {string[]} */
  const rules = variant ? houseRulesText(variant, invite.options, invite.seats.length) : [];
  const terms = [
    invite.turn ? t('per_move', { time: timerText(invite.turn.seconds) }) : t('no_timer'),
    invite.practice ? t('practice') : null,
  ].filter(Boolean);

  const join = h('button', { type: 'button', class: 'button primary', id: 'join', disabled: seat === undefined }, t('join_game'));
  join.addEventListener('click', async () => {
    join.disabled = true;
    try {
      await ensureNamedUser();
      await api.call('POST', '/games/{id}/join', { path: { id }, body: { invite_code: code, seat } });
      location.hash = `#/game/${id}`;
    } catch (error) {
      // (ensureNamedUser and api.call throw errors with a `code`.)
      if (api.refusalCode(error) === 'already_seated') {
        location.hash = `#/game/${id}`;
        return;
      }
      complain(error);
      join.disabled = false;
    }
  });
  const waiting = invite.status === 'waiting' && open.length > 0;
  root.replaceChildren(h('div', { class: 'lobby invitation', 'data-game': String(id) },
    h('h1', {}, t('invited_by', { name: invite.invited_by })),
    h('p', { class: 'lead' }, t('invited_to', { game })),
    waiting ? role : h('p', { class: 'panel note' }, t('invite_full')),
    h('section', { class: 'panel invite-details' },
      h('h2', {}, t('invite_table')), seats,
      h('h3', {}, t('house_rules')),
      rules.length ? h('ul', { class: 'invite-rules' }, rules.map((line) => h('li', {}, line))) : h('p', { class: 'note' }, t('no_house_rules')),
      h('p', { class: 'note' }, terms.join(t('list_comma'))),
      h('p', {}, h('a', { href: `#/help/${invite.kind}/${invite.variant}` }, t('read_rules')))),
    waiting ? choice : null,
    waiting && !api.currentUser() ? identityPanel(() => showInvitation(root, id, code, seat)) : null,
    waiting ? h('section', { class: 'panel' }, join) : h('p', {}, h('a', { href: '#/', class: 'button' }, t('lobby')))));
}
