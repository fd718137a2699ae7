import { copyIdempotencyRecord } from '@storefront/domain';
const MIN_SWEEP_INTERVAL = 1024;
function recordId(ref) {
    // Length-prefixed so that no (customer, key) pair can collide with another.
    return `${ref.customerId.length}:${ref.customerId}:${ref.key}`;
}
export class IdempotencyRecords {
    records = new Map();
    writesSinceSweep = 0;
    sizeAfterSweep = 0;
    get size() {
        return this.records.size;
    }
    /** The live record, or undefined when there is none or it has expired. */
    find(ref, nowMs) {
        const record = this.records.get(recordId(ref));
        return record !== undefined && record.expiresAt.getTime() > nowMs ? record : undefined;
    }
    /** Starts a new in-flight record, replacing whatever was there. */
    open(claim, nowMs) {
        const id = recordId(claim);
        this.records.delete(id);
        this.records.set(id, copyRecord({ ...claim, state: 'in_progress' }));
        this.writesSinceSweep += 1;
        // Waiting for as many writes as the last sweep left records keeps the cost O(1) per write.
        if (this.writesSinceSweep >= Math.max(MIN_SWEEP_INTERVAL, this.sizeAfterSweep))
            this.sweep(nowMs);
    }
    /** Replaces the in-flight record held by `owner` with `change` applied; false when not held. */
    change(ref, owner, change) {
        const id = recordId(ref);
        const record = this.records.get(id);
        if (record === undefined || record.state !== 'in_progress' || record.owner !== owner)
            return false;
        this.records.set(id, copyRecord({ ...record, ...change }));
        return true;
    }
    /** Drops the in-flight record held by `owner`; a completed one stays, so that it can be replayed. */
    release(ref, owner) {
        const id = recordId(ref);
        const record = this.records.get(id);
        if (record !== undefined && record.state === 'in_progress' && record.owner === owner)
            this.records.delete(id);
    }
    sweep(nowMs) {
        for (const [id, record] of this.records)
            if (record.expiresAt.getTime() <= nowMs)
                this.records.delete(id);
        this.writesSinceSweep = 0;
        this.sizeAfterSweep = this.records.size;
    }
}
/** A frozen copy with its own dates, so that neither the caller nor a reader can change a stored record. */
export function copyRecord(record) {
    return Object.freeze(copyIdempotencyRecord(record));
}
