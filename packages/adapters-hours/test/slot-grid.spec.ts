/**
 * The domain's slot grid on real time zones (the opening hours adapter supplies the offsets): a
 * 15-minute grid on ordinary days and on the days the clocks change.
 */
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { SlotGrid } from '@storefront/domain/adapter-kit';
import { createOpeningHours } from '../src/index.js';

const gridIn = (timeZone: string, minutes = 15) => new SlotGrid(createOpeningHours(undefined, timeZone), minutes);
/** The wall clock of `at` in `timeZone`, `HH:MM`. */
const wall = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

describe('SlotGrid', () => {
  it('cuts an ordinary Berlin day into 96 quarter hours from local midnight', () => {
    const slots = gridIn('Europe/Berlin').slotsOf('2026-06-10');
    expect(slots).to.have.length(96);
    expect(slots[0]!.start.toISOString()).to.equal('2026-06-09T22:00:00.000Z');
    expect(slots[95]!.end.toISOString()).to.equal('2026-06-10T22:00:00.000Z');
  });

  it('has 92 slots on the spring-forward day, with no slot at 02:00–02:45', () => {
    const zone = 'Europe/Berlin';
    const slots = gridIn(zone).slotsOf('2026-03-29');
    expect(slots).to.have.length(92);
    const labels = slots.map((slot) => wall(slot.start, zone));
    expect(labels.slice(6, 10)).to.deep.equal(['01:30', '01:45', '03:00', '03:15']);
    expect(labels).not.to.include('02:00');
    for (const slot of slots) expect(slot.end.getTime() - slot.start.getTime()).to.equal(15 * 60_000);
    expect(slots[0]!.start.toISOString()).to.equal('2026-03-28T23:00:00.000Z');
    expect(slots[91]!.end.toISOString()).to.equal('2026-03-29T22:00:00.000Z');
  });

  it('has 100 slots on the fall-back day, 02:00–02:45 twice (once per offset)', () => {
    const zone = 'Europe/Berlin';
    const slots = gridIn(zone).slotsOf('2026-10-25');
    expect(slots).to.have.length(100);
    const labels = slots.map((slot) => wall(slot.start, zone));
    expect(labels.filter((label) => label === '02:00')).to.have.length(2);
    expect(labels.slice(8, 16)).to.deep.equal(['02:00', '02:15', '02:30', '02:45', '02:00', '02:15', '02:30', '02:45']);
    expect(slots[0]!.start.toISOString()).to.equal('2026-10-24T22:00:00.000Z');
    expect(slots[99]!.end.toISOString()).to.equal('2026-10-25T23:00:00.000Z');
  });

  it('starts a day whose midnight the clocks skip at the first instant after the gap (America/Santiago)', () => {
    const grid = gridIn('America/Santiago');
    expect(grid.dayStart('2026-09-06').toISOString()).to.equal('2026-09-06T04:00:00.000Z');
    expect(grid.slotsOf('2026-09-06')).to.have.length(92);
  });

  it('finds the slot containing an instant, and the date of it in the store zone', () => {
    const grid = gridIn('America/New_York');
    const at = new Date('2026-03-08T16:37:12Z'); // 12:37 EDT, on the spring-forward day
    expect(grid.slotAt(at)).to.deep.equal({ start: new Date('2026-03-08T16:30:00Z'), end: new Date('2026-03-08T16:45:00Z') });
    expect(grid.dateAt(new Date('2026-03-09T03:59:00Z'))).to.equal('2026-03-08');
    expect(grid.next(grid.slotAt(new Date('2026-03-09T03:50:00Z'))).start.toISOString()).to.equal('2026-03-09T04:00:00.000Z');
  });

  it('keeps hour-long slots on the wall clock\'s hours across a change', () => {
    const zone = 'Europe/Berlin';
    const slots = gridIn(zone, 60).slotsOf('2026-10-25');
    expect(slots).to.have.length(25);
    expect(slots.every((slot) => wall(slot.start, zone).endsWith(':00'))).to.equal(true);
  });

  it('puts every instant in the slot of its store date, east and west of UTC and before 1970', () => {
    for (const zone of ['America/New_York', 'Europe/Berlin', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/Santiago']) {
      const grid = gridIn(zone);
      for (const base of [Date.UTC(2026, 2, 7), Date.UTC(2026, 9, 24), Date.UTC(1969, 11, 31)]) {
        // Every 7 minutes for three days: across midnights and the clocks' changes.
        for (let t = base; t < base + 3 * 86_400_000; t += 7 * 60_000) {
          const at = new Date(t);
          const slot = grid.slotsOf(grid.dateAt(at)).find((s) => s.start.getTime() <= t && t < s.end.getTime());
          expect(grid.slotAt(at), `${zone} ${at.toISOString()}`).to.deep.equal(slot);
        }
      }
    }
  });
});
