/**
 * Summary statistics shared by the bench scenarios. No dependencies on purpose: search-typo.mjs
 * imports it into a process whose heap it measures.
 */

/** The lower median (the middle value of an odd count, the lower of the two middle ones otherwise). */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/** One row's numbers from a list of load runs: medians of throughput, latency and CPU, all bad answers. */
export const summarize = (runs) => ({
  rps: median(runs.map((m) => m.rps)),
  p50: median(runs.map((m) => m.p50)),
  p99: median(runs.map((m) => m.p99)),
  cpu: median(runs.map((m) => m.cpu)),
  bad: runs.reduce((sum, m) => sum + m.bad, 0),
});
