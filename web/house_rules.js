// A variant's house rules as the catalogue describes them: the fields that choose them (a new
// game's form, a tournament's), the values chosen, and the rules in words (an invitation, a
// tournament's summary).

import { h } from './ui.js';
import { t, has, num } from './i18n.js';

/** Catalogue options the forms do not offer (their defaults stand). */
export const HIDDEN_OPTIONS = new Set(['move_cap']);

/** The options of `variant` a person chooses among.
 * @param {Api<'VariantInfo'>} variant @returns {Api<'OptionSpec'>[]} */
export function shownOptions(variant) {
  return variant.options.filter((option) => !HIDDEN_OPTIONS.has(option.name));
}

/** A value of a choice in words ("carried over"), or the value itself.
 * @param {Api<'OptionValue'>} value @returns {string} */
function valueWords(value) {
  return has(`option_value_${value}`) ? t(`option_value_${value}`) : typeof value === 'number' ? num(value) : String(value);
}

/** The field that chooses `option`, set to `value` (its default when left out).
 * @param {Api<'OptionSpec'>} option @param {string} id @param {Api<'OptionValue'>} [value]
 * @returns {HTMLInputElement | HTMLSelectElement} */
export function optionInput(option, id, value = option.default) {
  if (option.type === 'flag') {
    return h('input', { type: 'checkbox', id, name: option.name, checked: value ? true : null });
  }
  // A word from a list, or a number from a list (Tarneeb's targets).
  if (option.type === 'choice' || option.type === 'number') {
    return h('select', { id, name: option.name },
      option.values.map((v) => h('option', { value: String(v), selected: v === value }, valueWords(v))));
  }
  return h('input', {
    type: 'number', id, name: option.name, min: String(option.min), max: String(option.max),
    value: String(value), step: '1', required: true,
  });
}

/** The value a field holds, as the API takes it (a flag's field is a checkbox).
 * @param {Api<'OptionSpec'>} option @param {HTMLInputElement | HTMLSelectElement} input
 * @returns {Api<'OptionValue'>} */
export function optionValue(option, input) {
  if (option.type === 'flag') return /** @type {HTMLInputElement} */ (input).checked;
  if (option.type === 'choice' || option.type === 'number') {
    const raw = input.value;
    return typeof option.default === 'number' ? Number(raw) : raw;
  }
  return Number(input.value);
}

/**
 * The fieldset of `variant`'s house rules, set to `values` (defaults where left out), each
 * field marked `data-option`. `needsFour` marks the rules that only a table of four has.
 * @param {Api<'VariantInfo'>} variant @param {Record<string, Api<'OptionValue'>>} [values]
 * @param {{ prefix?: string }} [settings]
 * @returns {HTMLFieldSetElement}
 */
export function houseRulesFieldset(variant, values = {}, { prefix = 'option' } = {}) {
  const box = h('fieldset', { class: 'options' }, h('legend', {}, t('house_rules')));
  const shown = shownOptions(variant);
  for (const option of shown) {
    const id = `${prefix}-${option.name}`;
    const input = optionInput(option, id, option.name in values ? values[option.name] : option.default);
    input.dataset.option = option.name;
    const label = h('label', { for: id }, t(`option_${option.name}`));
    const note = h('small', { id: `${id}-note` }, t(`option_note_${option.name}`));
    input.setAttribute('aria-describedby', note.id);
    box.append(h('div', { class: `option option-${option.type}`, 'data-needs-four': option.name === 'partnerships' ? '' : null },
      option.type === 'flag' ? [input, label] : [label, input], note));
  }
  if (!shown.length) box.append(h('p', { class: 'note' }, t('no_house_rules')));
  return box;
}

/** The house rules chosen in `form` for `variant`, as the API wants them (defaults left out;
 * a field hidden because it does not apply is left out too).
 * @param {ParentNode} form @param {Api<'VariantInfo'>} variant
 * @returns {Record<string, Api<'OptionValue'>>} */
export function chosenOptions(form, variant) {
  /** @type {Record<string, Api<'OptionValue'>>} */
  const options = {};
  for (const option of variant.options) {
    // The fields marked `data-option` are those optionInput made: an input or a select.
    /** @type {HTMLInputElement | HTMLSelectElement | null} */
    const input = form.querySelector(`[data-option="${option.name}"]`);
    if (!input || input.closest('[hidden]')) continue;
    const value = optionValue(option, input);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

/** The house rules of a table of `seats` in words, one line each ("Points to win: 101"), with
 * the variant's defaults where `values` leaves one out (partnerships only at a table of four).
 * @param {Api<'VariantInfo'>} variant @param {Record<string, Api<'OptionValue'>>} [values] @param {number} [seats]
 * @returns {string[]} */
export function houseRulesText(variant, values = {}, seats = 4) {
  return shownOptions(variant).filter((option) => option.name !== 'partnerships' || seats === 4).map((option) => {
    const value = option.name in values ? values[option.name] : option.default;
    const shown = option.type === 'flag' ? t(value ? 'yes' : 'no') : valueWords(value);
    return t('house_rule_line', { rule: t(`option_${option.name}`), value: shown });
  });
}
