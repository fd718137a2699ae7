/**
 * The baseline: a bare node:http server that answers every request with the body and content type
 * it is given (those of the service's GET /api/products). Forked by bench/run.mjs, same as the
 * service, so both are measured the same way.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';

const body = readFileSync(process.env.BASELINE_BODY_FILE);
const contentType = process.env.BASELINE_CONTENT_TYPE;

const server = http.createServer((_req, res) => {
  res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.send({ ready: true, url: `http://127.0.0.1:${server.address().port}` });
});
process.on('message', (message) => {
  if (message.cmd === 'stop') server.close(() => process.exit(0));
  if (message.cmd === 'cpu') process.send({ id: message.id, ok: true, result: process.cpuUsage() });
});
process.on('disconnect', () => process.exit(0));
