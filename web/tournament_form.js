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

/** What the form sends: a tournament's terms, the seats, house rules and timer always among them.
 * @typedef {Api<'CreateTournament'>
 *   & { seats: number, options: Record<string, Api<'OptionValue'>>, turn: Api<'TurnPolicy'> }} Sent */

/** A start this far back is taken as now (the server allows a minute: a form sent slowly). */
const START_GRACE_MS = 30000;

/** Whether the start typed in `field` has passed, beyond the grace a form sent now has.
 * @param {HTMLInputElement} field */
function startPassed(field) {
  const starts = new Date(field.value).getTime();
  return !Number.isNaN(starts) && starts < Date.now() - START_GRACE_MS;
}

/** A moment as the value of a `datetime-local` field: in the reader's own time.
 * @param {Date} date */
function localValue(date) {
  /** @param {number} n */
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Whether a table of `seats` of this game can be two partnerships of two (team matches).
 * @param {string} kind @param {number} seats @param {Record<string, Api<'OptionValue'>>} options */
function pairsOfTwo(kind, seats, options) {
  if (seats !== 4) return false;
  if (kind === 'tarneeb') return true;
  return kind === 'basra' && options.partnerships !== false;
}

/**
 * The form. `existing`: a tournament to change (its summary), else a new one. `admin`: the
 * form offers public or private (a player's is always private). `onDone(summary)` runs once it
 * is made or changed.
 * @param {{
 *   existing?: Api<'TournamentSummary'> | null, admin?: boolean,
 *   onDone: (summary: Api<'TournamentSummary'>) => void,
 * }} options
 * @returns {Promise<HTMLFormElement>}
 */
export async function tournamentForm({ existing = null, admin = false, onDone }) {
  const catalogue = await api.knownCatalogue();
  const kinds = catalogue.kinds;
  const form = h('form', { class: 'panel tournament-form', id: 'tournament-form', novalidate: '' });
  const fields = formFields(catalogue, existing, admin);
  const { kind, variant, seats, rules, fill, rounds, minutes } = fields;
  /** @type {Chosen} */
  const chosen = {
    kind: () => kinds.find((k) => k.kind === kind.value) || kinds[0],
    variant: () => chosen.kind().variants.find((v) => v.name === variant.value) || chosen.kind().variants[0],
    format: () => /** @type {HTMLInputElement | null} */ (form.querySelector('input[name="format"]:checked'))?.value || 'swiss',
  };

  /** @param {string | null | undefined} wanted */
  const fillVariants = (wanted) => {
    const k = chosen.kind();
    const pick = wanted || (k.variants.find((v) => v.default) || k.variants[0]).name;
    variant.replaceChildren(...k.variants.map((v) => h('option', { value: v.name, selected: v.name === pick }, t(`variant_${k.kind}_${v.name}`))));
    fill.replaceChildren(h('option', { value: '' }, t('tf_fill_none')),
      ...k.levels.map((l) => h('option', { value: l.name, selected: existing?.fill === l.name }, t('computer_level', { level: levelName(l.name) }))));
  };
  /** @param {number | null | undefined} wanted */
  const fillSeats = (wanted) => {
    const v = chosen.variant();
    const pick = wanted || Math.min(...v.seats);
    seats.replaceChildren(...v.seats.map((n) => h('option', { value: String(n), selected: n === pick }, t('n_players', { n }))));
    rules.replaceChildren(houseRulesFieldset(v, existing && existing.kind === kind.value && existing.variant === v.name ? existing.options : {}, { prefix: 'tf-option' }));
    showSeats();
  };
  // Partnerships are a choice only where there are four to pair.
  const showSeats = () => {
    for (const node of /** @type {NodeListOf<HTMLElement>} */ (rules.querySelectorAll('[data-needs-four]')))
      node.hidden = Number(seats.value) !== 4;
  };
  seats.addEventListener('change', showSeats);

  const body = () => sent(fields, chosen, existing, admin);
  const describe = () => preview(form, fields, chosen, existing, admin);
  const showFormat = () => {
    const arena = chosen.format() === 'arena';
    // (Each is in its field's row.)
    /** @type {HTMLElement} */ (rounds.closest('.row')).hidden = arena;
    /** @type {HTMLElement} */ (minutes.closest('.row')).hidden = !arena;
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
  for (const radio of fields.format.querySelectorAll('input')) radio.addEventListener('change', showFormat);
  form.addEventListener('input', describe);
  form.addEventListener('change', describe);

  fillVariants(existing?.variant);
  fillSeats(existing?.seats);
  form.append(h('h2', {}, t(existing ? 'tf_title_change' : admin ? 'tf_title_make' : 'tf_title_private')), ...layout(fields));
  showFormat();
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    submitForm(form, fields, body, existing, onDone);
  });
  return form;
}

/** The form's current choices, read from its fields.
 * @typedef {{ kind: () => Api<'KindInfo'>, variant: () => Api<'VariantInfo'>, format: () => string }} Chosen */

/** The form's fields, as a new tournament (or `existing`) fills them first.
 * @param {Api<'Catalogue'>} catalogue @param {Api<'TournamentSummary'> | null} existing @param {boolean} admin */
function formFields(catalogue, existing, admin) {
  const bounds = catalogue.turn;
  const soon = new Date(Date.now() + 15 * 60000);
  const privacy = admin
    ? h('input', { id: 'tf-private', type: 'checkbox', checked: existing ? existing.private : false, disabled: Boolean(existing) })
    : null;
  return {
    name: h('input', { id: 'tf-name', name: 'name', required: true, maxlength: '60', value: existing?.name || '', autocomplete: 'off' }),
    format: h('fieldset', { class: 'formats' }, h('legend', {}, t('tf_format')),
      FORMATS.map((f) => h('label', { class: 'format-choice', for: `tf-format-${f}` },
        h('input', {
          type: 'radio', name: 'format', id: `tf-format-${f}`, value: f,
          checked: (existing ? (existing.teams ? 'teams' : existing.format) : 'swiss') === f,
        }),
        h('strong', {}, t(`format_${f}`)), ' ', h('span', { class: 'note' }, t(`tf_format_${f}_note`))))),
    kind: h('select', { id: 'tf-kind', name: 'kind' },
      catalogue.kinds.map((k) => h('option', { value: k.kind, selected: (existing?.kind || 'basra') === k.kind }, t(`kind_${k.kind}`)))),
    variant: h('select', { id: 'tf-variant', name: 'variant' }),
    seats: h('select', { id: 'tf-seats', name: 'seats' }),
    rules: h('div', { class: 'tf-rules' }),
    rounds: h('input', { id: 'tf-rounds', type: 'number', min: '1', max: '20', step: '1', required: true, value: String(existing?.rounds || 3) }),
    minutes: h('input', { id: 'tf-minutes', type: 'number', min: '1', max: '1440', step: '1', required: true, value: String(existing?.minutes || 30) }),
    start: h('input', {
      id: 'tf-start', type: 'datetime-local', required: true, step: '1',
      value: localValue(existing ? new Date(existing.starts_at) : soon), min: localValue(new Date(Date.now() - START_GRACE_MS)),
    }),
    fill: h('select', { id: 'tf-fill', name: 'fill' }),
    rated: h('input', { id: 'tf-rated', type: 'checkbox', checked: existing ? existing.rated : true }),
    turn: h('select', { id: 'tf-turn', name: 'turn' },
      TIMERS.filter((s) => s >= bounds.min_seconds && s <= bounds.max_seconds)
        .map((s) => h('option', { value: String(s), selected: s === (existing?.turn?.seconds || 60) }, timerText(s)))),
    takeover: h('input', {
      id: 'tf-takeover', type: 'number', required: true, step: '1',
      min: String(bounds.min_takeover_after), max: String(bounds.max_takeover_after),
      value: String(existing?.turn?.takeover_after ?? 2),
    }),
    privacy,
    status: h('p', { class: 'field-error', id: 'tf-error', role: 'alert', hidden: true }),
    submit: h('button', { type: 'submit', class: 'button primary', id: 'tf-submit' }, t(existing ? 'tf_save' : 'tf_make')),
  };
}

/** @typedef {ReturnType<typeof formFields>} Fields */

/** The fields in their rows, the preview of the terms and the button below them.
 * @param {Fields} f */
function layout(f) {
  /** @param {string} id @param {string} label @param {HTMLElement} input @param {string} [note] */
  const field = (id, label, input, note) => h('div', { class: 'row' },
    h('label', { for: id }, label), input, note ? h('p', { class: 'note', id: `${id}-note` }, note) : null);
  const preview = h('section', { class: 'tournament-preview', 'aria-live': 'polite', 'aria-labelledby': 'tf-preview-title' },
    h('h3', { id: 'tf-preview-title' }, t('tf_preview')), h('ul', { id: 'tf-preview' }));
  return [
    field('tf-name', t('tf_name'), f.name),
    f.format,
    field('tf-kind', t('game'), f.kind),
    field('tf-variant', t('variant'), f.variant),
    field('tf-seats', t('tf_seats'), f.seats),
    f.rules,
    field('tf-rounds', t('tf_rounds'), f.rounds),
    field('tf-minutes', t('tf_minutes'), f.minutes),
    field('tf-start', t('tf_start'), f.start, t('tf_start_note')),
    field('tf-fill', t('tf_fill'), f.fill),
    h('div', { class: 'row' }, f.rated, h('label', { for: 'tf-rated' }, t('rated'))),
    field('tf-turn', t('turn_timer'), f.turn),
    field('tf-takeover', t('tf_takeover'), f.takeover),
    // (Node.append writes a null out as text: the player's form has no public-or-private choice.)
    f.privacy ? h('div', { class: 'row' }, f.privacy, h('label', { for: 'tf-private' }, t('tf_private'))) : '',
    preview, f.status, h('div', { class: 'row form-actions' }, f.submit),
  ];
}

/** What the form sends, as it stands.
 * @param {Fields} f @param {Chosen} chosen @param {Api<'TournamentSummary'> | null} existing @param {boolean} admin */
function sent(f, chosen, existing, admin) {
  const format = chosen.format();
  // (The format, game and variant are the values of the form's own choices, from FORMATS and
  // the catalogue.)
  /** @type {Sent} */
  const out = {
    name: f.name.value.trim(),
    format: /** @type {Api<'TournamentFormat'>} */ (format === 'teams' ? 'duplicate' : format),
    kind: /** @type {Api<'GameKind'>} */ (f.kind.value),
    variant: /** @type {Api<'VariantName'>} */ (f.variant.value),
    seats: Number(f.seats.value),
    options: chosenOptions(f.rules, chosen.variant()),
    starts_at: Number.isNaN(new Date(f.start.value).getTime()) ? null : new Date(f.start.value).toISOString(),
    rated: f.rated.checked,
    turn: { seconds: Number(f.turn.value), takeover_after: Number(f.takeover.value) },
  };
  if (format === 'teams') out.teams = true;
  if (format === 'arena') out.minutes = Number(f.minutes.value);
  else out.rounds = Number(f.rounds.value);
  if (f.fill.value) out.fill = f.fill.value;
  // (An admin's form has the public-or-private box.)
  if (!existing) out.private = admin ? /** @type {HTMLInputElement} */ (f.privacy).checked : true;
  return out;
}

/** What an entrant will get, in words, from the form as it stands: written into its preview.
 * @param {HTMLFormElement} form @param {Fields} f @param {Chosen} chosen
 * @param {Api<'TournamentSummary'> | null} existing @param {boolean} admin */
function preview(form, f, chosen, existing, admin) {
  const format = chosen.format();
  const b = sent(f, chosen, existing, admin);
  const starts = new Date(f.start.value);
  const lines = termsLines({
    ...b,
    format: b.format,
    teams: format === 'teams',
    rounds: Number(f.rounds.value),
    minutes: Number(f.minutes.value),
    starts_at: Number.isNaN(starts.getTime()) ? null : starts.toISOString(),
    private: existing ? existing.private : !admin || /** @type {HTMLInputElement} */ (f.privacy).checked,
  }, chosen.variant());
  if (format === 'teams' && !pairsOfTwo(b.kind, b.seats, b.options)) lines.unshift(t('tf_says_teams_need_pairs'));
  // (A start already past is refused when the form is sent; one a moment ago is now.)
  if (startPassed(f.start)) lines.unshift(t('tf_start_passed'));
  /** @type {Element} */ (form.querySelector('#tf-preview')).replaceChildren(...lines.map((line) => h('li', {}, line)));
}

/** Sends the form, once its name, its fields and its start are good; says what went wrong.
 * @param {HTMLFormElement} form @param {Fields} f @param {() => Sent} body
 * @param {Api<'TournamentSummary'> | null} existing
 * @param {(summary: Api<'TournamentSummary'>) => void} onDone */
async function submitForm(form, f, body, existing, onDone) {
  const { status, name, start, submit } = f;
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
  if (startPassed(start)) {
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
}

/** Calling a tournament off: a reason to give (optional) and a button that asks once more.
 * @param {Api<'TournamentSummary'>} tournament @param {(summary: Api<'TournamentSummary'>) => void} onDone */
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
