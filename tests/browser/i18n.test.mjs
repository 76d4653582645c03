// Every string the page asks for exists in English and in Arabic (no test browser needed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRINGS } from '../../web/i18n.js';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
// Every code the API's document lists for a problem (the page words each one).
const document = JSON.parse(readFileSync(path.join(web, '../openapi/openapi.json'), 'utf8'));
const PROBLEM_CODES = document.components.schemas.ProblemCode.enum;

const sources = ['', 'games/'].flatMap((dir) =>
  readdirSync(path.join(web, dir)).filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(web, dir, f), 'utf8')));

test('English and Arabic have the same keys, none empty', () => {
  const en = Object.keys(STRINGS.en).sort();
  const ar = Object.keys(STRINGS.ar).sort();
  // (Arabic has more plural forms than English: two, few, many, zero.)
  const arabicPlural = (k) => /_(zero|two|few|many)$/.test(k) && `${k.replace(/_(zero|two|few|many)$/, '')}_other` in STRINGS.en;
  assert.deepEqual(ar.filter((k) => !en.includes(k) && !arabicPlural(k)), [], 'only in Arabic');
  assert.deepEqual(en.filter((k) => !ar.includes(k)), [], 'missing in Arabic');
  for (const lang of ['en', 'ar']) {
    for (const [key, text] of Object.entries(STRINGS[lang])) assert.ok(text.trim(), `${lang}.${key} is empty`);
  }
});

test('every key the page uses is there, and the placeholders agree', () => {
  const used = new Set();
  for (const source of sources) for (const m of source.matchAll(/\bt\('([a-z0-9_]+)'/g)) used.add(m[1]);
  // Words said of a seat (narrate.js): the sentence, and its own "you" form where it has one.
  for (const source of sources) {
    for (const m of source.matchAll(/\bsay\('([a-z0-9_]+)'/g)) used.add(m[1]);
    for (const m of source.matchAll(/\bsay\(event\.rummy \? '([a-z0-9_]+)' : '([a-z0-9_]+)'/g)) used.add(m[1]).add(m[2]);
  }
  // Keys built at run time, from the catalogue's and the engine's fixed names.
  const built = [
    ...['basra', 'thirty_one', 'rummy', 'tarneeb'].flatMap((k) => [`kind_${k}`, `summary_${k}`]),
    'variant_basra_standard', 'variant_basra_classic44', 'variant_basra_cse231',
    ...['thirty_one', 'rummy', 'tarneeb'].flatMap((k) => [`variant_${k}_standard`, `variant_${k}_classic`]),
    ...['waiting', 'active', 'hand_over', 'finished', 'abandoned'].map((s) => `status_${s}`),
    ...'A23456789TJQK'.split('').map((r) => `rank_${r}`),
    ...'CDHS'.split('').map((s) => `suit_${s}`),
    ...['slow', 'normal', 'fast', 'instant'].map((s) => `speed_${s}`),
    ...['easy', 'medium', 'hard', 'random', 'greedy', 'strong'].map((l) => `level_${l}`),
    ...['target', 'partnerships', 'double_basra', 'majority_tie', 'move_cap', 'three_of_a_kind', 'rounds'].map((o) => `option_${o}`),
    ...['target', 'partnerships', 'double_basra', 'majority_tie', 'three_of_a_kind', 'rounds'].map((o) => `option_note_${o}`),
    ...['lowest_hand', 'knocker_alone_lowest', 'thirty_one'].map((c) => `item_life_lost_${c}`),
    'item_contract_made', 'item_contract_set', 'outcome_won', 'outcome_you_won', 'outcome_you_won_with',
    'pool_people', 'pool_computers', 'pool_bots', 'export_json', 'export_text',
    ...['declined', 'cancelled', 'expired'].map((s) => `challenge_${s}_note`),
    ...['generic', 'later', 'too_fast', 'too_slow', 'rated', 'casual', 'variant', 'no_bots', 'only_bots'].map((r) => `decline_${r}`),
    // The analysis: its grades, methods, and the move types it names.
    ...['good', 'inaccuracy', 'mistake', 'blunder'].map((g) => `grade_${g}`),
    ...['double_dummy', 'sampled'].map((m) => `analysis_method_${m}`),
    // Every problem code the API answers (problems.js), and where some read differently.
    ...PROBLEM_CODES.map((c) => `problem_${c}`),
    'problem_unauthorized_sign_in', 'problem_unauthorized_game', 'problem_not_found_game', 'problem_not_found_tournament',
    'problem_tournament_closed_manage', 'problem_muted_until', 'problem_offline', 'problem_error',
    // The tournament page: its states, formats, reasons; the pages that cannot be shown.
    ...['upcoming', 'running', 'finished', 'cancelled'].map((s) => `tournament_${s}`),
    ...['swiss', 'arena', 'duplicate', 'teams'].flatMap((f) => [`format_${f}`, `tf_format_${f}_note`, `tf_says_${f}`]),
    ...['table_not_found', 'table_not_yours', 'table_not_public', 'tournament_not_found', 'tournament_private'].flatMap((r) => [r, `${r}_note`]),
    ...['partner', 'opponent', 'player'].flatMap((r) => [`invite_as_${r}`, `invite_seat_${r}`]),
    ...['tricks', 'points', 'lives', 'tokens'].map((u) => `analysis_lost_${u}`),
    'basra_prompt_touch',
    ...['play', 'knock', 'draw', 'discard', 'draw_stock', 'take_discard', 'keep', 'pass_drawn', 'meld', 'lay_off', 'end_turn', 'bid', 'pass', 'trump']
      .map((m) => `move_${m}`),
    'pile_stock', 'pile_discard',
  ];
  // A plural (tn) has its `_other` form in both languages, and English its `_one`; every form a
  // language has takes the same placeholders as English's `_other`.
  const plurals = new Set();
  for (const source of sources) for (const m of source.matchAll(/\btn\('([a-z0-9_]+)'/g)) plurals.add(m[1]);
  for (const unit of ['tricks', 'points', 'lives', 'tokens']) plurals.add(`analysis_unit_${unit}`);
  const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((h) => h !== 'n').sort().join(',');
  for (const key of plurals) {
    assert.ok(`${key}_other` in STRINGS.en && `${key}_one` in STRINGS.en, `en lacks the plural forms of ${key}`);
    assert.ok(`${key}_other` in STRINGS.ar, `ar lacks ${key}_other`);
    for (const lang of ['en', 'ar']) {
      for (const form of ['zero', 'one', 'two', 'few', 'many', 'other']) {
        const text = STRINGS[lang][`${key}_${form}`];
        if (text !== undefined) assert.equal(holes(text), holes(STRINGS.en[`${key}_other`]), `placeholders of ${lang}.${key}_${form}`);
      }
    }
  }
  // A "you" form says the same but for who does it.
  for (const key of Object.keys(STRINGS.en).filter((k) => k.endsWith('_you'))) {
    const base = key.slice(0, -4);
    if (!(base in STRINGS.en)) continue;
    const without = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).filter((h) => !['who', 'name', 'dealer'].includes(h)).sort().join(',');
    for (const lang of ['en', 'ar']) assert.equal(without(STRINGS[lang][key]), without(STRINGS.en[base]), `placeholders of ${lang}.${key}`);
  }
  for (const key of [...used, ...built]) {
    assert.ok(key in STRINGS.en, `en lacks ${key}`);
    assert.ok(key in STRINGS.ar, `ar lacks ${key}`);
    const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    assert.equal(holes(STRINGS.ar[key]), holes(STRINGS.en[key]), `placeholders of ${key}`);
  }
});

test('plurals and numbers read right in both languages', async () => {
  const { tn, t, num, pinLanguage } = await import('../../web/i18n.js');
  pinLanguage('en');
  assert.equal(tn('team_tricks', 1, { team: 1 }), 'Team 1: 1 trick');
  assert.equal(tn('team_tricks', 4, { team: 2 }), 'Team 2: 4 tricks');
  assert.equal(tn('rounds_count', 1), '1 round');
  assert.equal(tn('entrants_count', 0), 'nobody entered yet');
  pinLanguage('ar');
  assert.equal(tn('team_tricks', 2, { team: 1 }), 'الفريق ١: أكلتان');
  assert.equal(tn('team_tricks', 3, { team: 1 }), 'الفريق ١: ٣ أكلات');
  assert.equal(tn('team_tricks', 11, { team: 1 }), 'الفريق ١: ١١ أكلة');
  assert.equal(num(1234.5), '١٬٢٣٤٫٥');
  // A list in Arabic takes the Arabic comma.
  assert.equal(t('list_comma'), '، ');
  pinLanguage('en');
});
