// The rules of every variant in plain words, in English and Arabic: what a player needs at the
// table (docs/rules.md has the whole of each, with the choices made where the rules leave room).

import { t, language } from './i18n.js';
import { h } from './ui.js';

/** Each kind's variants, each its rules by language (`en`, `ar`), a line each.
 * @type {Record<string, Record<string, Record<string, string[]>>>} */
const RULES = {
  basra: {
    standard: {
      en: [
        'Two players, or four in two teams (partners sit opposite). 52 cards.',
        'Each player gets 4 cards, and 4 go face up on the floor. When the hands are empty, 4 more each, until the stock is used up.',
        'On your turn play one card. A number card (A–10) takes every floor card of its rank, and groups of floor numbers that add up to it (a 9 takes 7+2 and 4+5). Capturing is automatic.',
        'A queen or king takes only queens or kings. A jack takes the whole floor; so does the 7♦.',
        'A card that takes nothing stays on the floor.',
        'Clearing the floor with a number, queen or king is a basra: 10 points. A jack taking a lone jack is a double basra: 20.',
        'After each deal: most cards 30, each jack and ace 1, 2♣ 2, 10♦ 3, plus basras. A tie for most cards carries the 30 to the next deal.',
        'First side to 101 wins (a house rule can change the target).',
      ],
      ar: [
        'لاعبان، أو أربعة في فريقين (الشريكان متقابلان). ٥٢ ورقة.',
        'يأخذ كل لاعب ٤ أوراق، وتُكشف ٤ على الأرض. عندما تفرغ الأيدي يوزَّع ٤ أوراق أخرى لكل لاعب حتى تنتهي الكومة.',
        'في دورك العب ورقة واحدة. ورقة الرقم (آس حتى ١٠) تأخذ كل ورقة على الأرض من رتبتها، ومجموعات الأرقام التي يساوي مجموعها قيمتها (الـ٩ تأخذ ٧+٢ و٤+٥). الأكل تلقائي.',
        'البنت أو الشايب يأخذ البنات أو الشياب فقط. الولد يأخذ الأرض كلها، وكذلك ٧ الديناري.',
        'الورقة التي لا تأخذ شيئاً تبقى على الأرض.',
        'تنظيف الأرض بورقة رقم أو بنت أو شايب «بصرة»: ١٠ نقاط. ولد يأخذ ولداً وحيداً «بصرة مزدوجة»: ٢٠.',
        'بعد كل توزيعة: أكثر الأوراق ٣٠، كل ولد وآس ١، ٢ السباتي ٢، ١٠ الديناري ٣، والبصرات. عند التعادل في الأكثر تنتقل الـ٣٠ إلى التوزيعة التالية.',
        'أول فريق يصل إلى ١٠١ يفوز (يمكن تغيير الهدف في قواعد الطاولة).',
      ],
    },
    classic44: {
      en: [
        'Two players, 44 cards (no queens or kings). 5 cards each a round; 4 to the floor on the first round only.',
        'Captures as in standard Basra. When the sums overlap you choose what to take: pick the card, then one of the captures offered.',
        'A basra is worth twice the card that made it (an ace 2, a 10 20). Jacks never make a basra; the 7♦ is an ordinary 7.',
        'Each deal: jacks and aces 1, 2♣ 2, 10♦ 3. No bonus for most cards. First to 151 wins.',
      ],
      ar: [
        'لاعبان، ٤٤ ورقة (بلا بنات ولا شياب). ٥ أوراق لكل لاعب في كل جولة، و٤ على الأرض في الجولة الأولى فقط.',
        'الأكل كما في البصرة العادية. عندما تتداخل المجاميع تختار ما تأخذ: اختر الورقة ثم إحدى طرق الأكل المعروضة.',
        'البصرة تساوي ضعف قيمة الورقة التي صنعتها (الآس ٢، والـ١٠ تساوي ٢٠). الولد لا يصنع بصرة أبداً، و٧ الديناري ٧ عادية.',
        'في كل توزيعة: الأولاد والآسات ١، ٢ السباتي ٢، ١٠ الديناري ٣. لا مكافأة للأكثر أوراقاً. أول من يصل إلى ١٥١ يفوز.',
      ],
    },
    cse231: {
      en: [
        'Two players, one deal of 52 cards is the whole game; the first player leads every round.',
        'A card takes floor cards of its rank and pairs of numbers that add up to it — never groups of three or more. Jacks and the 7♦ sweep the floor.',
        'Basras: 10 with a number, 20 with a queen or king, 30 with a jack taking only jacks.',
        '27 or more cards in your pile: 30 points. The higher score wins; equal scores are a draw.',
      ],
      ar: [
        'لاعبان، وتوزيعة واحدة من ٥٢ ورقة هي اللعبة كلها؛ اللاعب الأول يبدأ كل جولة.',
        'الورقة تأخذ أوراق رتبتها وأزواج الأرقام التي مجموعها قيمتها — لا مجموعات من ثلاث أوراق أو أكثر. الولد و٧ الديناري يكنسان الأرض.',
        'البصرات: ١٠ برقم، ٢٠ ببنت أو شايب، ٣٠ بولد يأخذ أولاداً فقط.',
        '٢٧ ورقة أو أكثر في كومتك: ٣٠ نقطة. الأعلى نقاطاً يفوز، والتساوي تعادل.',
      ],
    },
  },
  thirty_one: {
    standard: {
      en: [
        '2 to 8 players, 3 cards each. Your hand is worth the total of the cards of one suit: ace 11, faces 10, others their number. 31 is the best hand.',
        'On your turn take the top card of the stock or of the discard pile, then discard a card (not the one you just took from the discard pile).',
        'Or, at the start of your turn, knock: everyone else has one more turn, then the hands are shown.',
        'The lowest hand loses a life (a knocker who is alone lowest loses two). Holding 31 ends the hand at once: everyone else loses a life.',
        'Three lives, then you ride the bus; lose again and you are out. The last player in wins.',
      ],
      ar: [
        'من ٢ إلى ٨ لاعبين، ٣ أوراق لكل لاعب. قيمة يدك مجموع أوراق نوع واحد: الآس ١١، الصور ١٠، والباقي برقمه. ٣١ أفضل يد.',
        'في دورك خذ الورقة العليا من الكومة أو من كومة المرمى، ثم ارمِ ورقة (ليست التي أخذتها للتو من المرمى).',
        'أو في بداية دورك «اطرق»: لكل لاعب آخر دور واحد إضافي، ثم تُكشف الأيدي.',
        'أدنى يد تخسر حياة (الطارق إن كان وحده الأدنى يخسر حياتين). من يمسك ٣١ ينهي اليد فوراً: الجميع غيره يخسر حياة.',
        'ثلاث حيوات ثم تركب «الباص»؛ إن خسرت بعدها تخرج. آخر لاعب باقٍ يفوز.',
      ],
    },
    classic: {
      en: [
        'Two players: you and the computer. You always start; the computer always deals.',
        'Three tokens, then the last-chance token. At the showdown the lower hand loses one token; a tie costs nothing; the knocker never loses more than one.',
        'Otherwise as standard 31: draw, discard, knock, and 31 ends the hand.',
      ],
      ar: [
        'لاعبان: أنت والحاسوب. أنت تبدأ دائماً، والحاسوب يوزّع دائماً.',
        'ثلاث قطع ثم قطعة الفرصة الأخيرة. عند الكشف تخسر اليد الأدنى قطعة؛ التعادل لا يكلف شيئاً؛ الطارق لا يخسر أكثر من واحدة.',
        'وفيما عدا ذلك كلعبة ٣١ العادية: اسحب، ارمِ، اطرق، و٣١ تنهي اليد.',
      ],
    },
  },
  rummy: {
    standard: {
      en: [
        '2 to 6 players; 10 cards each with two players, 7 with three or four, 6 with five or six.',
        'Melds: a set is 3 or 4 cards of one rank; a run is 3 or more cards in sequence of one suit. Ace is low (A-2-3, not Q-K-A).',
        'Your turn: draw from the stock or take the face-up card; meld and lay off as you like (select cards, then Meld; or select cards and click a meld on the table); then discard one card.',
        'Go out by getting rid of all your cards. You score the cards left in the other hands (faces 10, ace 1); double if you went out in one turn without having melded before (rummy). First to 100 wins.',
      ],
      ar: [
        'من ٢ إلى ٦ لاعبين؛ ١٠ أوراق لكل لاعب مع لاعبَين، ٧ مع ثلاثة أو أربعة، ٦ مع خمسة أو ستة.',
        'التشكيلات: «المجموعة» ٣ أو ٤ أوراق من رتبة واحدة؛ و«السلسلة» ٣ أوراق أو أكثر متتالية من نوع واحد. الآس منخفض (آس-٢-٣، لا بنت-شايب-آس).',
        'دورك: اسحب من الكومة أو خذ الورقة المكشوفة؛ شكّل وأضف كما تشاء (اختر الأوراق ثم «نزّل»، أو اختر أوراقاً وانقر تشكيلة على الطاولة)؛ ثم ارمِ ورقة.',
        'تخرج حين تتخلص من كل أوراقك، وتربح قيمة الأوراق الباقية في أيدي الآخرين (الصور ١٠، الآس ١)، مضاعفة إن خرجت في دور واحد دون تنزيل سابق («رمي»). أول من يصل إلى ١٠٠ يفوز.',
      ],
    },
    classic: {
      en: [
        '2 to 4 players, 7 cards each, 7 rounds. The lowest total at the end wins.',
        'Melds as in standard Rummy, but the ace is low or high in runs (A-2-3 and Q-K-A, never K-A-2).',
        'Your turn: meld and lay off; then one compulsory exchange — take the face-up card and give up one of yours, or turn over the face-down card and keep it (giving one up) or pass it on; then meld again and end your turn.',
        'Emptying your hand ends the round. Each player adds the cards left in hand: ace 1, 2–10 their number, J 11, Q 12, K 13.',
      ],
      ar: [
        'من ٢ إلى ٤ لاعبين، ٧ أوراق لكل لاعب، ٧ جولات. صاحب أقل مجموع في النهاية يفوز.',
        'التشكيلات كما في الرمي العادي، لكن الآس منخفض أو مرتفع في السلاسل (آس-٢-٣ وبنت-شايب-آس، ولا شايب-آس-٢).',
        'دورك: نزّل وأضف؛ ثم تبديل إجباري واحد — خذ الورقة المكشوفة وتخلَّ عن ورقة من أوراقك، أو اقلب الورقة المقلوبة واحتفظ بها (متخلياً عن ورقة) أو مرّرها؛ ثم نزّل مجدداً وأنهِ دورك.',
        'من تفرغ يده ينهي الجولة. يضيف كل لاعب قيمة ما بقي في يده: الآس ١، ٢–١٠ برقمها، الولد ١١، البنت ١٢، الشايب ١٣.',
      ],
    },
  },
  tarneeb: {
    standard: {
      en: [
        'Four players in two teams; partners sit opposite. 13 cards each; ace high.',
        'The auction: bid how many tricks your team will take, 7 to 13, higher than the last bid, or pass (a pass is final). The highest bidder names the trump suit and leads.',
        'Follow suit if you can; otherwise play any card. The highest trump wins the trick, otherwise the highest card of the suit led.',
        'Made: the bidders score the tricks they took (16 for all 13; 26 for a bid of 13 made). Failed: the bidders lose their bid and the defenders score their tricks.',
        'First team to 41 wins; scores can go below zero.',
      ],
      ar: [
        'أربعة لاعبين في فريقين؛ الشريكان متقابلان. ١٣ ورقة لكل لاعب؛ الآس أعلى ورقة.',
        'المزايدة: اطلب عدد الأكلات التي سيأخذها فريقك، من ٧ إلى ١٣، أعلى من الطلب السابق، أو «باس» (الباس نهائي). صاحب أعلى طلب يسمّي الطرنيب ويبدأ اللعب.',
        'العب من النوع الملعوب إن استطعت، وإلا العب أي ورقة. أعلى طرنيب يأخذ الأكلة، وإلا أعلى ورقة من النوع الملعوب.',
        'إن نجح الطلب: يسجل الطالبون عدد أكلاتهم (١٦ إن أخذوا الـ١٣ كلها، و٢٦ لطلب ١٣ ناجح). إن فشل: يخسر الطالبون قيمة طلبهم ويسجل الخصوم أكلاتهم.',
        'أول فريق يصل إلى ٤١ يفوز؛ ويمكن أن تنزل النقاط تحت الصفر.',
      ],
    },
    classic: {
      en: [
        'As standard Tarneeb, but a bid names a number of tricks and a denomination: ♣ < ♦ < ♥ < ♠ < no trump. The final bid\'s suit is trump.',
        'The dealer bids first; a pass is not final. The auction ends after three passes in a row following a bid.',
        'Made: bidders score their tricks (16 for all 13 unbid, 26 for a bid of 13). Failed: bidders lose the bid and the defenders gain it. First team to 61 wins.',
      ],
      ar: [
        'كالطرنيب العادي، لكن الطلب عدد أكلات ونوع: ♣ < ♦ < ♥ < ♠ < بلا طرنيب. نوع الطلب الأخير هو الطرنيب.',
        'الموزّع يطلب أولاً؛ والباس ليس نهائياً. تنتهي المزايدة بثلاث «باس» متتالية بعد طلب.',
        'إن نجح الطلب: يسجل الطالبون أكلاتهم (١٦ إن أخذوا الـ١٣ دون طلبها، ٢٦ لطلب ١٣). إن فشل: يخسر الطالبون قيمة الطلب ويكسبها الخصوم. أول فريق يصل إلى ٦١ يفوز.',
      ],
    },
  },
};

export const KINDS = Object.keys(RULES);

/** Variant names of every kind, in the catalogue's order. */
export const VARIANTS = Object.fromEntries(Object.entries(RULES).map(([kind, v]) => [kind, Object.keys(v)]));

/** The rules of `kind`'s `variant` in the page's language (English when it has none), or null
 * for a variant the page does not know.
 * @param {string} kind @param {string} variant @returns {string[] | null} */
export function rulesOf(kind, variant) {
  const rules = RULES[kind] && RULES[kind][variant];
  return rules ? rules[language()] || rules.en : null;
}

/** The rules page in `root`: every variant's rules, or only `kind`'s (only its `variant`'s).
 * @param {HTMLElement} root @param {string} [kind] @param {string} [variant] */
export function showHelp(root, kind, variant) {
  const page = h('div', { class: 'help' }, h('h1', {}, t('rules_title')));
  const nav = h('nav', { class: 'help-nav', 'aria-label': t('rules') });
  for (const k of KINDS) {
    for (const v of VARIANTS[k]) {
      const current = k === kind && v === variant;
      nav.append(h('a', { href: `#/help/${k}/${v}`, 'aria-current': current ? 'page' : null },
        `${t(`kind_${k}`)} · ${t(`variant_${k}_${v}`)}`));
    }
  }
  page.append(nav);
  /** @type {[string, string[]][]} */
  const shown = kind && RULES[kind] ? [[kind, variant && RULES[kind][variant] ? [variant] : VARIANTS[kind]]] : KINDS.map((k) => [k, VARIANTS[k]]);
  for (const [k, variants] of shown) {
    for (const v of variants) {
      page.append(h('section', { class: 'panel rules', id: `rules-${k}-${v}` },
        h('h2', {}, `${t(`kind_${k}`)} · ${t(`variant_${k}_${v}`)}`),
        // (Every kind and variant shown is one of RULES', so it has rules.)
        h('ul', {}, /** @type {string[]} */ (rulesOf(k, v)).map((line) => h('li', {}, line))),
        h('a', { href: `#/new/${k}/${v}`, class: 'button' }, t('play_this'))));
    }
  }
  page.append(h('p', {}, h('button', { type: 'button', class: 'button ghost', id: 'back' }, t('back'))));
  root.replaceChildren(page);
  /** @type {HTMLButtonElement} */ (page.querySelector('#back')).addEventListener('click', () => history.back());
}
