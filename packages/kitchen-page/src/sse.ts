/**
 * A Server-Sent Events parser for a stream read with fetch (an EventSource cannot send an
 * Authorization header, and the API takes Bearer tokens only). It follows the WHATWG event-stream
 * rules the server's frames need: `id`, `event`, `data` (several lines joined), `retry`, comments,
 * CRLF or LF line ends, a frame cut anywhere between two chunks.
 */
export interface SseEvent {
  /** The last `id:` seen so far on the stream (what Last-Event-ID sends back). */
  readonly id: string | undefined;
  readonly type: string;
  readonly data: string;
}

export interface SseHandlers {
  event(event: SseEvent): void;
  retry?(ms: number): void;
}

export class SseParser {
  private buffer = '';
  private lastId: string | undefined;
  private type = '';
  private data: string[] = [];

  constructor(private readonly handlers: SseHandlers) {}

  /** Feeds decoded text; dispatches every event it completes. */
  push(text: string): void {
    this.buffer += text;
    let end: number;
    while ((end = this.lineEnd()) >= 0) {
      const line = this.buffer.slice(0, end);
      const skip = this.buffer[end] === '\r' && this.buffer[end + 1] === '\n' ? 2 : 1;
      this.buffer = this.buffer.slice(end + skip);
      this.line(line);
    }
  }

  /** The index of the first complete line end; a lone CR at the very end may be half of a CRLF. */
  private lineEnd(): number {
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c === '\n') return i;
      if (c === '\r') return i + 1 < this.buffer.length ? i : -1;
    }
    return -1;
  }

  private line(line: string): void {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.data.push(value);
    else if (field === 'event') this.type = value;
    else if (field === 'id' && !value.includes('\0')) this.lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) this.handlers.retry?.(Number(value));
  }

  private dispatch(): void {
    const type = this.type === '' ? 'message' : this.type;
    const data = this.data;
    this.type = '';
    this.data = [];
    if (data.length === 0) return;
    this.handlers.event({ id: this.lastId, type, data: data.join('\n') });
  }
}
