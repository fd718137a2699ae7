/**
 * GET /metrics on a node:http server of its own (METRICS_PORT): outside the API, its limits and its
 * logs, reachable only where the operator binds it (METRICS_HOST, loopback by default).
 */
import http from 'node:http';
import type { PrometheusMetrics } from './prometheus-metrics.js';

export const METRICS_PATH = '/metrics';

export function createMetricsServer(metrics: PrometheusMetrics, onError: (error: unknown) => void): http.Server {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?', 1)[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: metrics are at ${METRICS_PATH}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Use GET.\n');
      return;
    }
    metrics.scrape().then(
      ({ text, contentType }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' }).end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('The metrics could not be collected.\n');
      },
    );
  });
  // Longer than a scrape interval (Prometheus: 15 s by default), so that the scraper keeps its connection.
  server.keepAliveTimeout = 65_000;
  return server;
}

/** Stops the metrics server and cuts its scrapers' kept-alive connections; nothing when there is none. */
export function closeMetricsServer(server: http.Server | undefined): Promise<void> {
  if (server === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    // An error only says it was not listening (its start failed): closed either way.
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
