/**
 * The worker thread of the default sender (create-webhook-sender.ts): it owns the HTTP poster,
 * its keep-alive connections and the signing, so that the requests' system calls, TLS and parsing
 * happen off the service's event loop. Jobs arrive in batches `[id, job][]`; answers go back in
 * batches `[id, response][]`, one message per turn of this thread's loop.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { WebhookResponse } from '@storefront/domain/adapter-kit';
import { createHttpPoster, type HttpPosterOptions, type SendJob } from './http-sender.js';

const port = parentPort!;
const poster = createHttpPoster(workerData as HttpPosterOptions);
let answers: [number, WebhookResponse][] = [];

function answer(id: number, response: WebhookResponse): void {
  if (answers.length === 0) setImmediate(flush);
  answers.push([id, response]);
}

function flush(): void {
  const batch = answers;
  answers = [];
  port.postMessage(batch);
}

port.on('message', (message: 'close' | [number, SendJob][]) => {
  if (message === 'close') {
    poster.close();
    port.close();
    return;
  }
  for (const [id, job] of message) void poster.post(job).then((response) => answer(id, response));
});
