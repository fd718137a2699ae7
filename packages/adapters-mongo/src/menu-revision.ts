/**
 * The menu's revision: one counter document in `meta`, bumped by every upsert that changed a
 * product; readers read it on every request and rebuild their cached menu only when it changes. A
 * writer first leaves its mark in the counter document, and a writer that finds another's mark
 * bumps whatever it writes, so a write stopped half-way cannot leave a changed menu under the old
 * revision. A random `epoch` made with the document keeps a wiped database from reissuing a
 * revision a client cached.
 */
import { randomUUID } from 'node:crypto';
import type { Collection } from 'mongodb';

export interface MenuRevisionDocument {
  _id: 'menu';
  epoch: string;
  version: number;
  /** Set while a write is in progress (or was interrupted); the token of its writer. */
  writer?: string;
}

export interface MenuWrite {
  readonly token: string;
  /** Another write was in progress or never finished: bump the revision in any case. */
  readonly mustBump: boolean;
}

const MENU = 'menu';

export class MenuRevision {
  constructor(private readonly meta: Collection<MenuRevisionDocument>) {}

  /** Creates the counter document if it is missing; changes nothing otherwise. */
  async ensure(): Promise<void> {
    await this.meta.updateOne({ _id: MENU }, { $setOnInsert: newCounter() }, { upsert: true });
  }

  async current(): Promise<string> {
    const counter = await this.meta.findOne({ _id: MENU });
    return counter === null ? 'empty' : `${counter.epoch}.${counter.version}`;
  }

  async begin(): Promise<MenuWrite> {
    const token = randomUUID();
    const before = await this.meta.findOneAndUpdate(
      { _id: MENU },
      { $set: { writer: token }, $setOnInsert: newCounter() },
      { upsert: true, returnDocument: 'before' },
    );
    return { token, mustBump: typeof before?.writer === 'string' };
  }

  /** `changed`: the write changed a product, or failed and may have. */
  async end(write: MenuWrite, changed: boolean): Promise<void> {
    if (changed || write.mustBump) await this.meta.updateOne({ _id: MENU }, { $inc: { version: 1 } });
    // Only the last writer to leave its mark removes it: an earlier one may still be running.
    await this.meta.updateOne({ _id: MENU, writer: write.token }, { $unset: { writer: '' } });
  }
}

function newCounter(): { epoch: string; version: number } {
  return { epoch: randomUUID().slice(0, 8), version: 0 };
}
