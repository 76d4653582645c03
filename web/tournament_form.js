// The form that makes a tournament, or changes one before its start: every term the API takes
// (format, game, variant and house rules, rounds or minutes, the start in the reader's own
// time, how empty seats are filled, rated or not, the turn timer, public or private), and above
// the button, in words, what an entrant will get. An admin's form (on /admin) makes public or
// private ones; a registered player's (in the lobby) private ones.

import * as api from './api.js';
import { t, tn } from './i18n.js';
import { h } from './ui.js';
import { houseRulesFieldset, chosenOptions } from './house_rules.js';
import { termsLines } from './tournament_views.js';
import { levelName, timerText } from './names.js';
import { problemText } from './problems.js';

const FORMATS = ['swiss', 'arena', 'duplicate', 'teams'];
const TIMERS = [15, 30, 60, 120, 300, 600];

/** A moment as the value of a `datetime-local` field: in the reader's own time. */
function localValue(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Whether a table of `seats` of this game can be two partnerships of two (team matches). */
function pairsOfTwo(kind, seats, options) {
  if (seats !== 4) return false;
  if (kind === 'tarneeb') return true;
  return kind === 'basra' && options.partnerships !== false;
}

/**
 * The form. `existing`: a tournament to change (its summary), else a new one. `admin`: the
 * form offers public or private (a player's is always private). `onDone(summary)` runs once it
 * is made or changed.
 */
export async function tournamentForm({ existing = null, admin = false, onDone }) {
  const catalogue = await api.knownCatalogue();
  const kinds = catalogue.kinds;
  const bounds = catalogue.turn;
  const form = h('form', { class: 'panel tournament-form', id: 'tournament-form', novalidate: '' });
  const field = (id, label, input, note) => h('div', { class: 'row' },
    h('label', { for: id }, label), input, note ? h('p', { class: 'note', id: `${id}-note` }, note) : null);

  const name = h('input', { id: 'tf-name', name: 'name', required: true, maxlength: '60', value: existing?.name || '', autocomplete: 'off' });
  const format = h('fieldset', { class: 'formats' }, h('legend', {}, t('tf_format')),
    FORMATS.map((f) => h('label', { class: 'format-choice', for: `tf-format-${f}` },
      h('input', {
        type: 'radio', name: 'format', id: `tf-format-${f}`, value: f,
        checked: (existing ? (existing.teams ? 'teams' : existing.format) : 'swiss') === f,
      }),
      h('strong', {}, t(`format_${f}`)), ' ', h('span', { class: 'note' }, t(`tf_format_${f}_note`)))));
  const kind = h('select', { id: 'tf-kind', name: 'kind' },
    kinds.map((k) => h('option', { value: k.kind, selected: (existing?.kind || 'basra') === k.kind }, t(`kind_${k.kind}`))));
  const variant = h('select', { id: 'tf-variant', name: 'variant' });
  const seats = h('select', { id: 'tf-seats', name: 'seats' });
  const rules = h('div', { class: 'tf-rules' });
  const rounds = h('input', { id: 'tf-rounds', type: 'number', min: '1', max: '20', step: '1', required: true, value: String(existing?.rounds || 3) });
  const minutes = h('input', { id: 'tf-minutes', type: 'number', min: '1', max: '1440', step: '1', required: true, value: String(existing?.minutes || 30) });
  const soon = new Date(Date.now() + 15 * 60000);
  const start = h('input', {
    id: 'tf-start', type: 'datetime-local', required: true, step: '1',
    value: localValue(existing ? new Date(existing.starts_at) : soon), min: localValue(new Date()),
  });
  const fill = h('select', { id: 'tf-fill', name: 'fill' });
  const rated = h('input', { id: 'tf-rated', type: 'checkbox', checked: existing ? existing.rated : true });
  const turn = h('select', { id: 'tf-turn', name: 'turn' },
    TIMERS.filter((s) => s >= bounds.min_seconds && s <= bounds.max_seconds)
      .map((s) => h('option', { value: String(s), selected: s === (existing?.turn?.seconds || 60) }, timerText(s))));
  const takeover = h('input', {
    id: 'tf-takeover', type: 'number', required: true, step: '1',
    min: String(bounds.min_takeover_after), max: String(bounds.max_takeover_after),
    value: String(existing?.turn?.takeover_after ?? 2),
  });
  const privacy = admin
    ? h('input', { id: 'tf-private', type: 'checkbox', checked: existing ? existing.private : false, disabled: Boolean(existing) })
    : null;
  const preview = h('section', { class: 'tournament-preview', 'aria-live': 'polite', 'aria-labelledby': 'tf-preview-title' },
    h('h3', { id: 'tf-preview-title' }, t('tf_preview')), h('ul', { id: 'tf-preview' }));
  const status = h('p', { class: 'field-error', id: 'tf-error', role: 'alert', hidden: true });
  const submit = h('button', { type: 'submit', class: 'button primary', id: 'tf-submit' },
    t(existing ? 'tf_save' : 'tf_make'));

  const chosen = {
    kind: () => kinds.find((k) => k.kind === kind.value) || kinds[0],
    variant: () => chosen.kind().variants.find((v) => v.name === variant.value) || chosen.kind().variants[0],
    format: () => form.querySelector('input[name="format"]:checked')?.value || 'swiss',
  };

  const fillVariants = (wanted) => {
    const k = chosen.kind();
    const pick = wanted || (k.variants.find((v) => v.default) || k.variants[0]).name;
    variant.replaceChildren(...k.variants.map((v) => h('option', { value: v.name, selected: v.name === pick }, t(`variant_${k.kind}_${v.name}`))));
    fill.replaceChildren(h('option', { value: '' }, t('tf_fill_none')),
      ...k.levels.map((l) => h('option', { value: l.name, selected: existing?.fill === l.name }, t('computer_level', { level: levelName(l.name) }))));
  };
  const fillSeats = (wanted) => {
    const v = chosen.variant();
    const pick = wanted || Math.min(...v.seats);
    seats.replaceChildren(...v.seats.map((n) => h('option', { value: String(n), selected: n === pick }, t('n_players', { n }))));
    rules.replaceChildren(houseRulesFieldset(v, existing && existing.kind === kind.value && existing.variant === v.name ? existing.options : {}, { prefix: 'tf-option' }));
    showSeats();
  };
  // Partnerships are a choice only where there are four to pair.
  const showSeats = () => {
    for (const node of rules.querySelectorAll('[data-needs-four]')) node.hidden = Number(seats.value) !== 4;
  };
  seats.addEventListener('change', showSeats);

  const body = () => {
    const f = chosen.format();
    const out = {
      name: name.value.trim(),
      format: f === 'teams' ? 'duplicate' : f,
      kind: kind.value,
      variant: variant.value,
      seats: Number(seats.value),
      options: chosenOptions(rules, chosen.variant()),
      starts_at: Number.isNaN(new Date(start.value).getTime()) ? null : new Date(start.value).toISOString(),
      rated: rated.checked,
      turn: { seconds: Number(turn.value), takeover_after: Number(takeover.value) },
    };
    if (f === 'teams') out.teams = true;
    if (f === 'arena') out.minutes = Number(minutes.value);
    else out.rounds = Number(rounds.value);
    if (fill.value) out.fill = fill.value;
    if (!existing) out.private = admin ? privacy.checked : true;
    return out;
  };

  /** What an entrant will get, in words, from the form as it stands. */
  const describe = () => {
    const f = chosen.format();
    const b = body();
    const starts = new Date(start.value);
    const lines = termsLines({
      ...b,
      format: b.format,
      teams: f === 'teams',
      rounds: Number(rounds.value),
      minutes: Number(minutes.value),
      starts_at: Number.isNaN(starts.getTime()) ? null : starts.toISOString(),
      private: existing ? existing.private : !admin || privacy.checked,
    }, chosen.variant());
    if (f === 'teams' && !pairsOfTwo(b.kind, b.seats, b.options)) lines.unshift(t('tf_says_teams_need_pairs'));
    // (A start already past is refused when the form is sent.)
    if (!Number.isNaN(starts.getTime()) && starts.getTime() < Date.now()) lines.unshift(t('tf_start_passed'));
    form.querySelector('#tf-preview').replaceChildren(...lines.map((line) => h('li', {}, line)));
  };

  const showFormat = () => {
    const arena = chosen.format() === 'arena';
    rounds.closest('.row').hidden = arena;
    minutes.closest('.row').hidden = !arena;
    rounds.required = !arena;
    minutes.required = arena;
    describe();
  };

  kind.addEventListener('change', () => {
    fillVariants(null);
    fillSeats(null);
    describe();
  });
  variant.addEventListener('change', () => {
    fillSeats(null);
    describe();
  });
  for (const radio of format.querySelectorAll('input')) radio.addEventListener('change', showFormat);
  form.addEventListener('input', describe);
  form.addEventListener('change', describe);

  fillVariants(existing?.variant);
  fillSeats(existing?.seats);
  form.append(
    h('h2', {}, t(existing ? 'tf_title_change' : admin ? 'tf_title_make' : 'tf_title_private')),
    field('tf-name', t('tf_name'), name),
    format,
    field('tf-kind', t('game'), kind),
    field('tf-variant', t('variant'), variant),
    field('tf-seats', t('tf_seats'), seats),
    rules,
    field('tf-rounds', t('tf_rounds'), rounds),
    field('tf-minutes', t('tf_minutes'), minutes),
    field('tf-start', t('tf_start'), start, t('tf_start_note')),
    field('tf-fill', t('tf_fill'), fill),
    h('div', { class: 'row' }, rated, h('label', { for: 'tf-rated' }, t('rated'))),
    field('tf-turn', t('turn_timer'), turn),
    field('tf-takeover', t('tf_takeover'), takeover),
    // (Node.append writes a null out as text: the player's form has no public-or-private choice.)
    privacy ? h('div', { class: 'row' }, privacy, h('label', { for: 'tf-private' }, t('tf_private'))) : '',
    preview, status, h('div', { class: 'row form-actions' }, submit));
  showFormat();

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.hidden = true;
    if (!name.value.trim()) {
      status.textContent = t('tf_name_needed');
      status.hidden = false;
      name.focus();
      return;
    }
    if (!form.checkValidity()) {
      form.reportValidity();
      return;
    }
    if (new Date(start.value).getTime() < Date.now()) {
      status.textContent = t('tf_start_passed');
      status.hidden = false;
      start.focus();
      return;
    }
    submit.disabled = true;
    try {
      const made = existing ? await api.changeTournament(existing.id, body()) : await api.makeTournament(body());
      onDone(made);
    } catch (error) {
      status.textContent = problemText(error, 'manage');
      status.hidden = false;
      submit.disabled = false;
    }
  });
  return form;
}

/** Calling a tournament off: a reason to give (optional) and a button that asks once more. */
export function cancelForm(tournament, onDone) {
  const reason = h('input', { id: 'tc-reason', maxlength: '200', autocomplete: 'off', placeholder: t('tc_reason_placeholder') });
  const confirm = h('button', { type: 'submit', class: 'button danger', id: 'tc-confirm' }, t('tc_confirm'));
  const status = h('p', { class: 'field-error', role: 'alert', hidden: true });
  const form = h('form', { class: 'panel cancel-form', id: 'cancel-form' },
    h('h2', {}, t('tc_title')),
    h('p', { class: 'note' }, t(tournament.status === 'running' ? 'tc_note_running' : 'tc_note_upcoming', { entrants: tn('entrants_count', tournament.entrants) })),
    h('label', { for: 'tc-reason' }, t('tc_reason')), reason, status, confirm);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    confirm.disabled = true;
    try {
      onDone(await api.cancelTournament(tournament.id, reason.value.trim()));
    } catch (error) {
      status.textContent = problemText(error, 'manage');
      status.hidden = false;
      confirm.disabled = false;
    }
  });
  return form;
}
