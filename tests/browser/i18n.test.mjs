// Every string the page asks for exists in English and in Arabic (no test browser needed).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STRINGS } from '../../web/i18n.js';

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web');
const sources = ['', 'games/'].flatMap((dir) =>
  readdirSync(path.join(web, dir)).filter((f) => f.endsWith('.js')).map((f) => readFileSync(path.join(web, dir, f), 'utf8')));

test('English and Arabic have the same keys, none empty', () => {
  const en = Object.keys(STRINGS.en).sort();
  const ar = Object.keys(STRINGS.ar).sort();
  assert.deepEqual(ar.filter((k) => !en.includes(k)), [], 'only in Arabic');
  assert.deepEqual(en.filter((k) => !ar.includes(k)), [], 'missing in Arabic');
  for (const lang of ['en', 'ar']) {
    for (const [key, text] of Object.entries(STRINGS[lang])) assert.ok(text.trim(), `${lang}.${key} is empty`);
  }
});

test('every key the page uses is there, and the placeholders agree', () => {
  const used = new Set();
  for (const source of sources) for (const m of source.matchAll(/\bt\('([a-z0-9_]+)'/g)) used.add(m[1]);
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
    ...['play', 'knock', 'draw', 'discard', 'draw_stock', 'take_discard', 'keep', 'pass_drawn', 'meld', 'lay_off', 'end_turn', 'bid', 'pass', 'trump']
      .map((m) => `move_${m}`),
    'pile_stock', 'pile_discard',
  ];
  for (const key of [...used, ...built]) {
    assert.ok(key in STRINGS.en, `en lacks ${key}`);
    assert.ok(key in STRINGS.ar, `ar lacks ${key}`);
    const holes = (text) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort().join(',');
    assert.equal(holes(STRINGS.ar[key]), holes(STRINGS.en[key]), `placeholders of ${key}`);
  }
});
