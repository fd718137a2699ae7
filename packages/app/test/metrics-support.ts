/**
 * Scraping GET /metrics in tests: the text read by a Prometheus text-format parser (prom2javascript)
 * and look-ups in it; the servers listening in this process; whether a Redis answers.
 */
import { expect } from 'chai';
import { getMetricsFromIterator, type PromData, type PromHistogramData, type PromMetric, type PromMetrics } from 'prom2javascript';

type Labels = Readonly<Record<string, string>>;
type ValueType = 'counter' | 'gauge';

const sameLabels = (labels: Labels, wanted: Labels): boolean => JSON.stringify(Object.entries(labels).sort()) === JSON.stringify(Object.entries(wanted).sort());

export class Scrape {
  constructor(readonly metrics: PromMetrics) {}

  family(name: string, type: ValueType | 'histogram'): PromMetric {
    const family = this.metrics[name];
    expect(family, `${name} is not in the scrape`).to.not.equal(undefined);
    expect(family!.type, `${name}'s type`).to.equal(type);
    return family!;
  }

  /** The value of the counter or gauge sample whose labels are exactly `labels`; 0 when there is none (never counted). */
  value(name: string, type: ValueType, labels: Labels = {}): number {
    const samples = this.family(name, type).data as PromData[];
    return samples.find((sample) => sameLabels(sample.labels, labels))?.value ?? 0;
  }

  /** Whether the counter or gauge has a sample with exactly `labels`. */
  has(name: string, type: ValueType, labels: Labels): boolean {
    return (this.family(name, type).data as PromData[]).some((sample) => sameLabels(sample.labels, labels));
  }

  /** The histogram's series with exactly `labels` (without `le`); undefined when there is none. */
  histogram(name: string, labels: Labels): PromHistogramData | undefined {
    return (this.family(name, 'histogram').data as PromHistogramData[]).find((series) => sameLabels(series.labels, labels));
  }

  /** Every value of `label` among the samples of `name`. */
  labelValues(name: string, type: ValueType | 'histogram', label: string): string[] {
    return (this.family(name, type).data as { labels: Labels }[]).flatMap((sample) => (sample.labels[label] === undefined ? [] : [sample.labels[label]]));
  }
}

/**
 * One scrape, parsed. prom2javascript reads no NaN, which the text format allows and prom-client
 * writes (as `Nan`, which Prometheus reads) for the event-loop delay gauges of an interval in which
 * the delay monitor took no sample: such a scrape is taken again, at most twice.
 */
export async function scrape(metricsUrl: string): Promise<Scrape> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(metricsUrl);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    if (attempt < 3 && /^nodejs_eventloop_lag_\w+ Nan$/m.test(text)) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      continue;
    }
    return new Scrape(await getMetricsFromIterator(text.split('\n')[Symbol.iterator]()));
  }
}

/** Scrapes until `done` holds (at most `timeoutMs`), and returns the last scrape. */
export async function scrapeUntil(metricsUrl: string, done: (scrape: Scrape) => boolean, timeoutMs = 5_000): Promise<Scrape> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const last = await scrape(metricsUrl);
    if (done(last) || Date.now() > deadline) return last;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The servers listening in this process. */
export const listening = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPServerWrap').length;

/**
 * The listening count once it stops moving (a closed server's handle goes a moment after its
 * `close` resolved), or once it reaches `expected` when given; after a second at most.
 */
export async function listeningSettled(expected?: number): Promise<number> {
  const deadline = Date.now() + 1_000;
  let last = listening();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    const now = listening();
    if ((expected === undefined ? now === last : now === expected) || Date.now() > deadline) return now;
    last = now;
  }
}

