#!/usr/bin/env node
/**
 * Typo-tolerant search (DECISIONS, "Search tolerates typos"), measured two ways; loopback only,
 * bounded, stops by itself. See docs/performance.md, "Typo-tolerant search".
 *
 * In-process (this file run on its own; bench/run.mjs runs it in the `typo` scenario):
 *   node bench/search-typo.mjs                 # ~30 s: index build and the memory the typo step adds at
 *                                              # 100,000 dishes, CPU µs per query (exact and typo'd),
 *                                              # and the candidate walk on a menu of a 50,000-word vocabulary
 *   node bench/search-typo.mjs --alternatives  # + the candidate steps not chosen (deletion neighbourhoods,
 *                                              # trigrams, a scan) on the same vocabularies (~2 min more)
 * It re-runs itself with --expose-gc (heap figures are taken after a full collection).
 *
 * Over HTTP (`typoScenario`, called by bench/run.mjs): the same query on the demo menu (25 dishes)
 * and on 100,000 dishes, an exact and a typo'd one, runs alternated round after round; the ratio of
 * 100k to demo per round, and its median.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMenu, prng, writeMenuFile } from './gen-menu.mjs';
import { median, summarize } from './stats.mjs';

const here = fileURLToPath(import.meta.url);
const dist = (path) => new URL(`../packages/domain/dist/src/search/${path}`, import.meta.url).href;
const MENU_SIZE = 100_000;
/** The HTTP queries: the same string on both menus. */
export const TYPO_QUERIES = { exact: 'chicken', typo: 'chiken' };
const TARGET = 0.5;

const fmt = (n, digits = 0) => (n === undefined || Number.isNaN(n) ? '' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }));
const mib = (bytes) => fmt(bytes / 2 ** 20, 1);

/**
 * The HTTP part: `ctx` brings bench/run.mjs's helpers (`run`, `child`, `row`, `log`) and its
 * running demo-menu service. Returns notes and verdicts for its report.
 */
export async function typoScenario({ service, child, run, row, log, serviceEnv, tmp, rounds }) {
  const menuFile = join(tmp, 'menu-typo.json');
  writeMenuFile(MENU_SIZE, menuFile);
  const big = await child('service.mjs', { ...serviceEnv, STOREFRONT_MENU_FILE: menuFile });
  const notes = [];
  const verdicts = [];
  try {
    const path = (q) => `/api/search?q=${encodeURIComponent(q)}`;
    const totals = {};
    for (const [kind, q] of Object.entries(TYPO_QUERIES)) {
      const [demo, large] = await Promise.all([service, big].map(async (s) => (await (await fetch(`${s.url}${path(q)}`)).json()).meta.total));
      totals[kind] = { demo, large };
    }
    log(`typo search: ${Object.entries(TYPO_QUERIES).map(([kind, q]) => `${kind} "${q}" (demo ${totals[kind].demo} hits, ${fmt(MENU_SIZE)} dishes ${fmt(totals[kind].large)})`).join(', ')}, demo and 100k alternated, ${rounds} rounds`);
    const runs = Object.fromEntries(Object.keys(TYPO_QUERIES).map((kind) => [kind, { demo: [], large: [] }]));
    for (let round = 0; round < rounds; round++) {
      const line = [];
      for (const [kind, q] of Object.entries(TYPO_QUERIES)) {
        runs[kind].demo.push(await run(service, { url: `${service.url}${path(q)}` }));
        runs[kind].large.push(await run(big, { url: `${big.url}${path(q)}` }));
        const [d, l] = [runs[kind].demo.at(-1), runs[kind].large.at(-1)];
        line.push(`${kind} demo ${fmt(d.rps)}, 100k ${fmt(l.rps)} (${fmt(l.rps / d.rps, 3)})`);
      }
      log(`    round ${round + 1}: ${line.join('; ')} req/s`);
    }
    for (const [kind, q] of Object.entries(TYPO_QUERIES)) {
      const { demo, large } = runs[kind];
      const ratios = large.map((m, i) => m.rps / demo[i].rps);
      const cpuRatios = large.map((m, i) => demo[i].cpu / m.cpu);
      row(`GET /api/search?q=${q} (${kind}), demo menu (${totals[kind].demo} hits)`, summarize(demo));
      row(`GET /api/search?q=${q} (${kind}), ${fmt(MENU_SIZE)} dishes (${fmt(totals[kind].large)} hits)`, summarize(large), median(ratios), 'demo menu');
      verdicts.push(
        `search ${kind} ("${q}") at ${fmt(MENU_SIZE)} dishes ≥ ${TARGET} of the demo menu: **${median(ratios) >= TARGET ? 'met' : 'not met'}** (${fmt(median(ratios), 2)}, median of ${ratios.length} alternated rounds: ${ratios.map((r) => fmt(r, 2)).join(', ')}; in CPU µs per request, demo's over 100k's: ${fmt(median(cpuRatios), 2)})`,
      );
    }
    const build = await big.call('index-build', { repeat: 3 });
    notes.push(`typo: ${fmt(MENU_SIZE)} dishes, MenuSearchIndex.build (typo vocabulary included) ${build.map((ms) => fmt(ms)).join(', ')} ms (3 builds, in the service process); service start-up ${fmt(big.startMs)} ms`);
  } finally {
    await big.stop();
  }
  return { notes, verdicts };
}

// ---------------------------------------------------------------------------------------------
// In-process measurements.

/** CPU µs of `fn` per call: the minimum over `rounds` of `times` calls. */
function cpuPerCall(fn, times, rounds = 7) {
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const before = process.cpuUsage();
    for (let i = 0; i < times; i++) fn(i, r);
    const used = process.cpuUsage(before);
    best = Math.min(best, (used.user + used.system) / times);
  }
  return best;
}

/**
 * Heap in use and typed arrays' buffers (kept outside V8's heap), after full collections (a pause
 * between them: buffers are freed after the collection that finds them dead).
 */
async function heapAfterGc() {
  for (let i = 0; i < 3; i++) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

/** Pronounceable pseudo-words: a menu with a large vocabulary (a marketplace of many kitchens). */
function vocabulary(count, seed) {
  const random = prng(seed);
  const onsets = ['b', 'c', 'd', 'f', 'g', 'l', 'm', 'n', 'p', 'r', 's', 't', 'v', 'z', 'ch', 'sh', 'br', 'tr', 'st', 'pl', 'gr', 'k'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ou', 'ia', 'ee'];
  const codas = ['', '', '', 'n', 'r', 's', 'l', 'm'];
  const pick = (list) => list[Math.floor(random() * list.length)];
  const words = new Set();
  while (words.size < count) {
    const syllables = 1 + Math.floor(random() * 3);
    let word = '';
    for (let s = 0; s < syllables; s++) word += pick(onsets) + pick(vowels) + pick(codas);
    if (word.length >= 3) words.add(word);
  }
  return [...words];
}

/** 100,000 dishes over `words`, common words more often (the square of a uniform draw). */
function largeVocabularyMenu(words, count) {
  const random = prng(count);
  const word = () => words[Math.floor(random() * random() * words.length)];
  return Array.from({ length: count }, (_, i) => ({
    productId: `prd_${i}`,
    name: `${word()} ${word()} ${word()} no. ${i + 1}`,
    description: Array.from({ length: 12 }, word).join(' '),
    category: ['Starters', 'Mains', 'Desserts', 'Drinks'][i % 4],
    price: 1000,
    currency: 'USD',
    tags: [word(), word()],
    available: true,
  }));
}

/** One random edit (insertion, deletion, substitution, swap) to `word`. */
function misspell(word, random) {
  const at = Math.floor(random() * word.length);
  const letter = 'abcdefghiklmnoprstuvz'[Math.floor(random() * 21)];
  switch (Math.floor(random() * 4)) {
    case 0:
      return word.slice(0, at) + letter + word.slice(at);
    case 1:
      return word.slice(0, at) + word.slice(at + 1);
    case 2:
      return word.slice(0, at) + letter + word.slice(at + 1);
    default:
      return at + 1 < word.length ? word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2) : letter + word;
  }
}

async function inProcess(alternatives) {
  const { MenuSearchIndex } = await import(dist('menu-search-index.js'));
  const { TypoVocabulary } = await import(dist('typo-vocabulary.js'));
  const { buildPostings } = await import(dist('postings.js'));
  const { walkTypos } = await import(dist('levenshtein-walk.js'));
  const { WordTrie } = await import(dist('word-trie.js'));
  const { tokenize } = await import(dist('normalize.js'));
  const { lettersOnly, typoBudget } = await import(dist('typo-rules.js'));
  const out = [];
  const say = (line) => {
    out.push(line);
    console.error(line);
  };

  // 1. The bench menu: build time and the memory of the typo vocabulary.
  const products = generateMenu(MENU_SIZE).products.map((p, i) => ({ productId: `prd_${i}`, ...p }));
  const builds = [];
  let index;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    index = MenuSearchIndex.build(products);
    builds.push(performance.now() - t0);
  }
  index = null;
  const h0 = await heapAfterGc();
  index = MenuSearchIndex.build(products);
  const h1 = await heapAfterGc();
  const { sortedTokens } = buildPostings(products);
  const h2 = await heapAfterGc();
  const t0 = performance.now();
  let typos = TypoVocabulary.build(sortedTokens);
  const vocabMs = performance.now() - t0;
  const h3 = await heapAfterGc();
  say(`typo, in-process: ${fmt(MENU_SIZE)} dishes (bench/gen-menu.mjs), ${fmt(sortedTokens.length)} tokens, ${fmt(typos.size)} without a digit (the typo vocabulary)`);
  say(`  MenuSearchIndex.build: ${builds.map((ms) => fmt(ms)).join(', ')} ms (typo vocabulary ${fmt(vocabMs, 1)} ms of it)`);
  say(`  memory (heap and array buffers): index ${mib(h1 - h0)} MiB with the typo vocabulary, ${mib(h1 - h0 - (h3 - h2))} MiB without; the typo vocabulary ${fmt((h3 - h2) / 1024, 1)} KiB (${fmt(typos.nodes)} trie nodes)`);
  typos = null;

  // 2. Query costs at 100k: cold (a fresh index), lists kept but not the results (the index's
  // private `rank`, which the results cache sits in front of), and asked again (the results cache).
  const queries = ['chicken', 'chiken', 'chik', 'pizza', 'piza', 'spicy chicken', 'spicy chiken', 'mozarela', 'sandwhich', 'burgr', 'brgr', 'chicken sp', 'chiken sp'];
  const fresh = MenuSearchIndex.build(products);
  // Every query once first, so that "cold" is the work of a fresh index, not the compiler's.
  for (const q of queries) index.search(q, { page: 1, limit: 20 });
  say('  CPU µs per query at 100k dishes: cold (first query of a fresh index) / lists kept, results not / asked again');
  for (const q of queries) {
    const c0 = process.cpuUsage();
    const { total } = fresh.search(q, { page: 1, limit: 20 });
    const c = process.cpuUsage(c0);
    const terms = tokenize(q);
    const warm = cpuPerCall(() => index.rank(terms, 20), 100);
    const again = cpuPerCall(() => index.search(q, { page: 1, limit: 20 }), 1000);
    say(`    ${q.padEnd(14)} ${fmt(total).padStart(6)} hits: ${fmt(c.user + c.system)} / ${fmt(warm, 1)} / ${fmt(again, 1)}`);
  }

  // The candidate walk alone on this vocabulary, for misspelt menu words.
  const menuTrie = WordTrie.build(sortedTokens.filter(lettersOnly));
  const misspelt = { 1: ['chiken', 'piza', 'spicey', 'burgr', 'salmn', 'ramne', 'chese', 'lemonde'], 2: ['mozarela', 'sandwhich', 'margarita', 'tirmasiu', 'chikcenx', 'smoothee'] };
  const menuWalks = [1, 2].map((d) => {
    const words = misspelt[d];
    return `${d} edit${d > 1 ? 's' : ''} ${fmt(cpuPerCall((i) => walkTypos(menuTrie, words[i % words.length], d, true, () => {}), 2000, 20), 1)} µs`;
  });
  say(`  walk on this vocabulary, per misspelt word (prefix mode): ${menuWalks.join(', ')}`);

  // 3. The candidate walk on a large vocabulary: rows computed and CPU µs per query word.
  const words = vocabulary(50_000, 14);
  const bigMenu = largeVocabularyMenu(words, MENU_SIZE);
  const bigBuilds = [];
  let bigIndex;
  for (let i = 0; i < 3; i++) {
    bigIndex = null;
    const i0 = i === 2 ? await heapAfterGc() : 0;
    const b0 = performance.now();
    bigIndex = MenuSearchIndex.build(bigMenu);
    bigBuilds.push(performance.now() - b0);
    if (i === 2) bigBuilds.heap = await heapAfterGc() - i0;
  }
  const bigTokens = buildPostings(bigMenu).sortedTokens;
  const g0 = await heapAfterGc();
  const w0 = performance.now();
  let bigTypos = TypoVocabulary.build(bigTokens);
  const bigVocabMs = performance.now() - w0;
  const g1 = await heapAfterGc();
  const letterWords = bigTokens.filter(lettersOnly);
  const letterTrie = WordTrie.build(letterWords);
  say(`typo, in-process: ${fmt(MENU_SIZE)} dishes over ${fmt(letterWords.length)} distinct words (pseudo-words, common ones more often)`);
  say(`  MenuSearchIndex.build ${bigBuilds.map((ms) => fmt(ms)).join(', ')} ms, the typo vocabulary ${fmt(bigVocabMs, 1)} ms of it`);
  say(`  memory: index ${mib(bigBuilds.heap)} MiB with the typo vocabulary, ${mib(bigBuilds.heap - (g1 - g0))} MiB without; the typo vocabulary ${mib(g1 - g0)} MiB (${fmt(bigTypos.nodes)} trie nodes)`);
  bigTypos = null;
  const random = prng(5);
  const samples = { 1: [], 2: [] };
  while (samples[1].length < 200 || samples[2].length < 200) {
    const q = misspell(letterWords[Math.floor(random() * letterWords.length)], random);
    const d = typoBudget(q);
    if (d > 0 && samples[d].length < 200) samples[d].push(q);
  }
  for (const d of [1, 2]) {
    for (const prefix of [false, true]) {
      let rows = 0;
      let found = 0;
      for (const q of samples[d]) rows += walkTypos(letterTrie, q, d, prefix, () => found++);
      const us = cpuPerCall((i) => walkTypos(letterTrie, samples[d][i % 200], d, prefix, () => {}), 200);
      say(`  walk, ${d} edit${d > 1 ? 's' : ''}${prefix ? ', prefix mode' : ''}: ${fmt(us, 1)} µs and ${fmt(rows / 200)} rows per query word (of ${fmt(letterWords.length)} words), ${fmt(found / 200, 1)} words found`);
    }
  }
  const typoQueries = [...samples[1].slice(0, 3), ...samples[2].slice(0, 3)];
  const costs = typoQueries.map((q) => {
    const c0 = process.cpuUsage();
    const { total } = bigIndex.search(q, { page: 1, limit: 20 });
    const c = process.cpuUsage(c0);
    const terms = tokenize(q);
    const warm = cpuPerCall(() => bigIndex.rank(terms, 20), 50);
    return `${q} (${fmt(total)} hits) ${fmt(c.user + c.system)} / ${fmt(warm, 1)}`;
  });
  say(`  whole queries on it, CPU µs first asked / lists kept: ${costs.join('; ')}`);

  if (alternatives) {
    say("alternatives for the candidate step (whole-word typos only: none of them finds a typo'd prefix without more structures):");
    for (const [name, vocab] of [['gen-menu', sortedTokens.filter(lettersOnly)], ['pseudo-words', letterWords]]) {
      for (const line of await compareAlternatives(name, vocab, samples, walkTypos, WordTrie)) say(line);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Candidate steps not chosen, for the record (`--alternatives`): build time, heap, µs per query word.

/** Optimal string alignment distance, or `d + 1` as soon as it must exceed `d`. */
function boundedOsa(a, b, d) {
  if (Math.abs(a.length - b.length) > d) return d + 1;
  let before = null;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (before !== null && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2] + 1);
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > d) return d + 1;
    [before, prev] = [prev, cur];
  }
  return prev[b.length];
}

/** Every string `word` gives with up to `d` letters deleted (itself included). */
function deletes(word, d, into = new Set()) {
  into.add(word);
  if (d > 0 && word.length > 1) for (let i = 0; i < word.length; i++) deletes(word.slice(0, i) + word.slice(i + 1), d - 1, into);
  return into;
}

/** SymSpell: every delete of every word (1 from 3 letters, 2 from 6: what a 4- or 8-letter query can reach), by delete. */
function buildDeletes(words) {
  const map = new Map();
  words.forEach((word, id) => {
    const reach = word.length >= 6 ? 2 : word.length >= 3 ? 1 : 0;
    for (const key of deletes(word, reach)) {
      const ids = map.get(key);
      if (ids === undefined) map.set(key, [id]);
      else ids.push(id);
    }
  });
  return map;
}

function lookupDeletes(map, words, query, d) {
  const found = new Set();
  for (const key of deletes(query, d)) for (const id of map.get(key) ?? []) if (!found.has(id) && boundedOsa(query, words[id], d) <= d) found.add(id);
  return found.size;
}

const grams = (word) => {
  const padded = `^^${word}$$`;
  return Array.from({ length: padded.length - 2 }, (_, i) => padded.slice(i, i + 3));
};

/** Trigrams (padded) → word ids; a query's candidates share enough of them (q-gram lemma: an edit breaks at most 3). */
function buildTrigrams(words) {
  const map = new Map();
  words.forEach((word, id) => {
    for (const g of new Set(grams(word))) {
      const ids = map.get(g);
      if (ids === undefined) map.set(g, [id]);
      else ids.push(id);
    }
  });
  return { map, counts: new Int32Array(words.length) };
}

function lookupTrigrams({ map, counts }, words, query, d) {
  const qs = [...new Set(grams(query))];
  const need = Math.max(1, qs.length - 3 * d);
  const touched = [];
  let found = 0;
  for (const g of qs) for (const id of map.get(g) ?? []) if (counts[id]++ === 0) touched.push(id);
  for (const id of touched) {
    if (counts[id] >= need && boundedOsa(query, words[id], d) <= d) found++;
    counts[id] = 0;
  }
  return found;
}

async function compareAlternatives(name, words, samples, walkTypos, WordTrie) {
  const lines = [];
  const measureBuild = async (build) => {
    const h0 = await heapAfterGc();
    const t0 = performance.now();
    const built = build();
    const ms = performance.now() - t0;
    return { built, ms, heap: (await heapAfterGc()) - h0 };
  };
  const trieBuilt = await measureBuild(() => WordTrie.build(words));
  const deletesBuilt = await measureBuild(() => buildDeletes(words));
  const trigramsBuilt = await measureBuild(() => buildTrigrams(words));
  const queries = (d) => samples[d];
  for (const d of [1, 2]) {
    const walk = cpuPerCall((i) => walkTypos(trieBuilt.built, queries(d)[i % 200], d, false, () => {}), 200, 3);
    const sym = cpuPerCall((i) => lookupDeletes(deletesBuilt.built, words, queries(d)[i % 200], d), 200, 3);
    const tri = cpuPerCall((i) => lookupTrigrams(trigramsBuilt.built, words, queries(d)[i % 200], d), 200, 3);
    const scan = cpuPerCall((i) => words.filter((w) => boundedOsa(queries(d)[i % 200], w, d) <= d).length, 20, 3);
    lines.push(`  ${name} (${fmt(words.length)} words), ${d} edit${d > 1 ? 's' : ''}, CPU µs per query word: trie walk ${fmt(walk, 1)}, deletes ${fmt(sym, 1)}, trigrams ${fmt(tri, 1)}, scan ${fmt(scan, 1)}`);
  }
  lines.push(`  ${name}: build / heap: trie ${fmt(trieBuilt.ms, 1)} ms / ${mib(trieBuilt.heap)} MiB (${fmt(trieBuilt.built.nodes)} nodes), deletes ${fmt(deletesBuilt.ms)} ms / ${mib(deletesBuilt.heap)} MiB (${fmt(deletesBuilt.built.size)} keys), trigrams ${fmt(trigramsBuilt.ms)} ms / ${mib(trigramsBuilt.heap)} MiB`);
  return lines;
}

if (process.argv[1] === here) {
  if (typeof globalThis.gc !== 'function') {
    const again = spawnSync(process.execPath, ['--expose-gc', here, ...process.argv.slice(2)], { stdio: 'inherit' });
    process.exit(again.status ?? 1);
  }
  const lines = await inProcess(process.argv.includes('--alternatives'));
  console.log(lines.join('\n'));
}
