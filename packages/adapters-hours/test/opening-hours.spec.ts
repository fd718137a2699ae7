import { spawnSync } from 'node:child_process';
import { describe, it } from 'mocha';
import { expect } from 'chai';
import { createOpeningHours, isValidTimeZone, OpeningHoursError } from '../src/index.js';
import { nextTransition, offsetAt } from '../src/zoned-time.js';

const WEEK = 'Mo-Fr 11:00-22:00; Sa,Su 12:00-23:00';
const HOUR_MS = 3_600_000;

function at(iso: string): Date {
  return new Date(iso);
}

/** The ISO instant of `nextChange`, or null. */
function nextChangeIso(schedule: string, timeZone: string, from: string): string | null {
  return createOpeningHours(schedule, timeZone).nextChange(at(from))?.toISOString() ?? null;
}

function refusal(schedule: string | undefined, timeZone: string): OpeningHoursError {
  try {
    createOpeningHours(schedule, timeZone);
  } catch (error) {
    expect(error).to.be.instanceOf(OpeningHoursError);
    return error as OpeningHoursError;
  }
  expect.fail(`expected ${JSON.stringify(schedule)} in ${timeZone} to be refused`);
}

/** Runs `body` with the process's time zone set to `timeZone`, then puts the old one back. */
function withProcessTimeZone<T>(timeZone: string, body: () => T): T {
  const saved = process.env.TZ;
  process.env.TZ = timeZone;
  try {
    return body();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

describe('createOpeningHours', () => {
  it('is always open, and never changes, when no schedule is given', () => {
    for (const schedule of [undefined, '', '   ']) {
      const hours = createOpeningHours(schedule, 'Europe/Berlin');
      expect(hours.schedule).to.equal(null);
      expect(hours.timeZone).to.equal('Europe/Berlin');
      expect(hours.isOpen(at('2026-05-03T03:00:00Z'))).to.equal(true);
      expect(hours.nextChange(at('2026-05-03T03:00:00Z'))).to.equal(null);
    }
  });

  it('keeps the schedule and the time zone it was given', () => {
    const hours = createOpeningHours(` ${WEEK} `, 'America/New_York');
    expect(hours.schedule).to.equal(WEEK);
    expect(hours.timeZone).to.equal('America/New_York');
    expect(hours.warnings).to.deep.equal([]);
  });

  it('refuses a schedule that is not opening_hours syntax, naming it', () => {
    const error = refusal('Mo-Fx 10:00-18:00', 'UTC');
    expect(error.message).to.include('"Mo-Fx 10:00-18:00"').and.include('not valid');
  });

  it('refuses points in time, which are not opening hours', () => {
    expect(refusal('Mo 12:00', 'UTC').message).to.include('"Mo 12:00"');
  });

  it('refuses an unknown time zone, naming it, even without a schedule', () => {
    expect(refusal(WEEK, 'Mars/Olympus').message).to.include('"Mars/Olympus"').and.include('time zone');
    expect(refusal(undefined, 'Europe/Berlinn').message).to.include('"Europe/Berlinn"');
  });

  it('refuses public and school holidays, since the store has no location to know them', () => {
    for (const schedule of [`${WEEK}; PH off`, `${WEEK}; SH off`, 'Mo-Fr,PH 10:00-18:00', `${WEEK}; feiertag off`]) {
      const error = refusal(schedule, 'Europe/Berlin');
      expect(error.message).to.include(`"${schedule}"`).and.include('(PH, SH)').and.include('no location');
    }
  });

  it('accepts closed days written as dates, and "PH" inside a comment', () => {
    const hours = createOpeningHours(`${WEEK}; Dec 25 off "no PH here"`, 'UTC');
    expect(hours.isOpen(at('2026-12-25T12:00:00Z'))).to.equal(false);
    expect(hours.isOpen(at('2026-12-24T12:00:00Z'))).to.equal(true);
  });

  it('refuses sun times, which the library would replace with fixed guesses', () => {
    expect(refusal('Mo-Fr sunrise-sunset', 'UTC').message).to.include('"Mo-Fr sunrise-sunset"').and.include('sunrise');
    expect(refusal('Mo-Fr 10:00-(sunset-01:00)', 'UTC').message).to.include('sunset');
  });

  it('refuses a schedule that leaves the state unknown, which would read as closed', () => {
    for (const schedule of ['Mo-Fr 10:00+', 'Mo-Fr 10:00-18:00 "call us"', 'Mo unknown; Tu-Fr 10:00-18:00']) {
      expect(refusal(schedule, 'UTC').message).to.include(`"${schedule}"`).and.include('unknown');
    }
  });

  it('accepts a comment after an explicit "open"', () => {
    const hours = createOpeningHours('Mo-Fr 10:00-18:00 open "call ahead"', 'UTC');
    expect(hours.isOpen(at('2026-05-04T12:00:00Z'))).to.equal(true);
  });

  it('passes on the library warnings for a schedule it had to correct', () => {
    const hours = createOpeningHours('Mo-Fr 10-18', 'UTC');
    expect(hours.warnings).to.have.length(1);
    expect(hours.warnings[0]).to.include('10:00-18:00');
    expect(hours.isOpen(at('2026-05-04T17:59:00Z'))).to.equal(true);
  });
});

describe('isValidTimeZone', () => {
  it('accepts IANA zone names and refuses anything else', () => {
    expect(isValidTimeZone('Europe/Berlin')).to.equal(true);
    expect(isValidTimeZone('UTC')).to.equal(true);
    expect(isValidTimeZone('Mars/Olympus')).to.equal(false);
    expect(isValidTimeZone('')).to.equal(false);
  });
});

describe('OpeningHours from an OpenStreetMap schedule', () => {
  describe('in UTC', () => {
    const hours = createOpeningHours(WEEK, 'UTC');

    it('is open from 11:00 to 22:00 on a weekday', () => {
      // 2026-05-04 is a Monday.
      expect(hours.isOpen(at('2026-05-04T10:59:59Z'))).to.equal(false);
      expect(hours.isOpen(at('2026-05-04T11:00:00Z'))).to.equal(true);
      expect(hours.isOpen(at('2026-05-04T21:59:59Z'))).to.equal(true);
      expect(hours.isOpen(at('2026-05-04T22:00:00Z'))).to.equal(false);
    });

    it('is open from 12:00 to 23:00 on the weekend', () => {
      // 2026-05-02 is a Saturday.
      expect(hours.isOpen(at('2026-05-02T11:30:00Z'))).to.equal(false);
      expect(hours.isOpen(at('2026-05-02T12:00:00Z'))).to.equal(true);
      expect(hours.isOpen(at('2026-05-02T22:59:59Z'))).to.equal(true);
      expect(hours.isOpen(at('2026-05-02T23:00:00Z'))).to.equal(false);
    });

    it('names the next closing when open and the next opening when closed', () => {
      expect(hours.nextChange(at('2026-05-01T15:00:00Z'))?.toISOString()).to.equal('2026-05-01T22:00:00.000Z');
      // Friday night: the next opening is Saturday at 12:00, not a weekday's 11:00.
      expect(hours.nextChange(at('2026-05-01T22:00:00Z'))?.toISOString()).to.equal('2026-05-02T12:00:00.000Z');
    });
  });

  describe('in a time zone', () => {
    it('reads the schedule on the store clock: one instant is open in Berlin and closed in New York', () => {
      // 10:00Z on Monday 2026-05-04 is 12:00 in Berlin (CEST) and 06:00 in New York (EDT).
      expect(createOpeningHours(WEEK, 'Europe/Berlin').isOpen(at('2026-05-04T10:00:00Z'))).to.equal(true);
      expect(createOpeningHours(WEEK, 'America/New_York').isOpen(at('2026-05-04T10:00:00Z'))).to.equal(false);
      // 23:00Z is 01:00 on Tuesday in Berlin and 19:00 on Monday in New York.
      expect(createOpeningHours(WEEK, 'Europe/Berlin').isOpen(at('2026-05-04T23:00:00Z'))).to.equal(false);
      expect(createOpeningHours(WEEK, 'America/New_York').isOpen(at('2026-05-04T23:00:00Z'))).to.equal(true);
    });

    it('gives the next change as a true instant', () => {
      expect(nextChangeIso(WEEK, 'America/New_York', '2026-05-04T10:00:00Z')).to.equal('2026-05-04T15:00:00.000Z');
      expect(nextChangeIso(WEEK, 'Asia/Kathmandu', '2026-05-04T00:00:00Z')).to.equal('2026-05-04T05:15:00.000Z');
    });
  });

  describe('when clocks change (Europe/Berlin, 2026)', () => {
    const berlin = createOpeningHours(WEEK, 'Europe/Berlin');

    it('opens at 12:00 local: 11:00Z in winter and 10:00Z in summer', () => {
      // Saturday 2026-03-28 is winter time (UTC+1), Sunday 2026-03-29 summer time (UTC+2) from 02:00.
      expect(berlin.isOpen(at('2026-03-28T10:59:59Z'))).to.equal(false);
      expect(berlin.isOpen(at('2026-03-28T11:00:00Z'))).to.equal(true);
      expect(berlin.isOpen(at('2026-03-29T09:59:59Z'))).to.equal(false);
      expect(berlin.isOpen(at('2026-03-29T10:00:00Z'))).to.equal(true);
      // Sunday 2026-10-25 is winter time again from 03:00.
      expect(berlin.isOpen(at('2026-10-24T10:00:00Z'))).to.equal(true);
      expect(berlin.isOpen(at('2026-10-25T10:30:00Z'))).to.equal(false);
      expect(berlin.isOpen(at('2026-10-25T11:00:00Z'))).to.equal(true);
    });

    it('finds the next opening across the spring-forward change', () => {
      // Saturday 23:30 winter time; Sunday 12:00 is summer time.
      expect(berlin.nextChange(at('2026-03-28T22:30:00Z'))?.toISOString()).to.equal('2026-03-29T10:00:00.000Z');
    });

    it('finds the next opening and closing across the fall-back change', () => {
      // Saturday 23:30 summer time; Sunday 12:00 and 23:00 are winter time.
      expect(berlin.nextChange(at('2026-10-24T21:30:00Z'))?.toISOString()).to.equal('2026-10-25T11:00:00.000Z');
      expect(berlin.nextChange(at('2026-10-25T11:00:00Z'))?.toISOString()).to.equal('2026-10-25T22:00:00.000Z');
    });

    it('opens right after the gap when the opening time does not exist that night', () => {
      // 02:30 does not exist on 2026-03-29: clocks go from 02:00 (01:00Z) straight to 03:00.
      const hours = createOpeningHours('Mo-Su 02:30-04:00', 'Europe/Berlin');
      expect(hours.isOpen(at('2026-03-29T00:59:59Z'))).to.equal(false);
      expect(hours.nextChange(at('2026-03-29T00:30:00Z'))?.toISOString()).to.equal('2026-03-29T01:00:00.000Z');
      expect(hours.isOpen(at('2026-03-29T01:00:00Z'))).to.equal(true);
      expect(hours.nextChange(at('2026-03-29T01:00:00Z'))?.toISOString()).to.equal('2026-03-29T02:00:00.000Z');
      // The next night has no gap: 02:30 summer time.
      expect(hours.nextChange(at('2026-03-29T02:00:00Z'))?.toISOString()).to.equal('2026-03-30T00:30:00.000Z');
    });

    it('skips a range that lies wholly inside the gap, since its state never shows', () => {
      const hours = createOpeningHours('Mo-Su 02:10-02:40', 'Europe/Berlin');
      expect(hours.nextChange(at('2026-03-28T23:30:00Z'))?.toISOString()).to.equal('2026-03-30T00:10:00.000Z');
    });

    it('reaches an ambiguous time at its earlier instant when clocks fall back', () => {
      // 02:30 happens twice on 2026-10-25: at 00:30Z (summer time) and at 01:30Z (winter time).
      const hours = createOpeningHours('Mo-Su 02:30-04:00', 'Europe/Berlin');
      expect(hours.nextChange(at('2026-10-24T23:00:00Z'))?.toISOString()).to.equal('2026-10-25T00:30:00.000Z');
    });

    it('reads the repeated hour again after clocks fall back', () => {
      const hours = createOpeningHours('Mo-Su 02:30-04:00', 'Europe/Berlin');
      // Open at 02:45 summer time; at 01:00Z the clock shows 02:00 again, before the opening.
      expect(hours.isOpen(at('2026-10-25T00:45:00Z'))).to.equal(true);
      expect(hours.nextChange(at('2026-10-25T00:45:00Z'))?.toISOString()).to.equal('2026-10-25T01:00:00.000Z');
      expect(hours.isOpen(at('2026-10-25T01:10:00Z'))).to.equal(false);
      expect(hours.nextChange(at('2026-10-25T01:10:00Z'))?.toISOString()).to.equal('2026-10-25T01:30:00.000Z');
      // Then open until 04:00 winter time.
      expect(hours.nextChange(at('2026-10-25T01:45:00Z'))?.toISOString()).to.equal('2026-10-25T03:00:00.000Z');
    });

    it('finds the clock changes themselves to the millisecond', () => {
      expect(offsetAt(Date.parse('2026-03-29T00:59:59.999Z'), 'Europe/Berlin')).to.equal(HOUR_MS);
      expect(offsetAt(Date.parse('2026-03-29T01:00:00Z'), 'Europe/Berlin')).to.equal(2 * HOUR_MS);
      const from = Date.parse('2026-03-01T00:00:00Z');
      expect(nextTransition(from, from + 60 * 86_400_000, 'Europe/Berlin')).to.equal(Date.parse('2026-03-29T01:00:00Z'));
      expect(nextTransition(from, from + 60 * 86_400_000, 'UTC')).to.equal(null);
    });
  });

  describe('across midnight', () => {
    const hours = createOpeningHours('Fr 18:00-02:00', 'UTC');

    it('stays open from Friday evening into Saturday night', () => {
      // 2026-05-01 is a Friday.
      expect(hours.isOpen(at('2026-05-01T01:00:00Z'))).to.equal(false);
      expect(hours.isOpen(at('2026-05-01T17:59:59Z'))).to.equal(false);
      expect(hours.isOpen(at('2026-05-01T18:00:00Z'))).to.equal(true);
      expect(hours.isOpen(at('2026-05-02T01:59:59Z'))).to.equal(true);
      expect(hours.isOpen(at('2026-05-02T02:00:00Z'))).to.equal(false);
    });

    it('closes at 02:00 on Saturday and opens again next Friday', () => {
      expect(hours.nextChange(at('2026-05-01T20:00:00Z'))?.toISOString()).to.equal('2026-05-02T02:00:00.000Z');
      expect(hours.nextChange(at('2026-05-02T02:00:00Z'))?.toISOString()).to.equal('2026-05-08T18:00:00.000Z');
    });
  });

  describe('that never changes', () => {
    it('is always open with 24/7, and has no next change', () => {
      const hours = createOpeningHours('24/7', 'Europe/Berlin');
      for (const iso of ['2026-03-29T01:00:00Z', '2026-05-04T03:00:00Z', '2026-10-25T01:30:00Z']) {
        expect(hours.isOpen(at(iso))).to.equal(true);
        expect(hours.nextChange(at(iso))).to.equal(null);
      }
    });

    it('is never open when always closed, and has no next change', () => {
      const hours = createOpeningHours('off', 'Europe/Berlin');
      expect(hours.isOpen(at('2026-05-04T12:00:00Z'))).to.equal(false);
      expect(hours.nextChange(at('2026-05-04T12:00:00Z'))).to.equal(null);
    });
  });

  describe('whatever the process time zone is', () => {
    const cases: ReadonlyArray<[schedule: string, zone: string, from: string]> = [
      [WEEK, 'Europe/Berlin', '2026-03-28T22:30:00Z'],
      [WEEK, 'Europe/Berlin', '2026-10-24T21:30:00Z'],
      ['Mo-Su 02:30-04:00', 'Europe/Berlin', '2026-03-29T00:30:00Z'],
      ['Mo-Su 02:30-04:00', 'Europe/Berlin', '2026-10-25T00:45:00Z'],
      ['Mo-Su 02:30-04:00', 'America/New_York', '2026-03-08T05:00:00Z'],
      ['Fr 18:00-02:00', 'UTC', '2026-05-01T20:00:00Z'],
      [WEEK, 'America/New_York', '2026-05-04T23:00:00Z'],
    ];
    const answers = (): string[] =>
      cases.map(([schedule, zone, from]) => {
        const hours = createOpeningHours(schedule, zone);
        return `${hours.isOpen(at(from))} ${hours.nextChange(at(from))?.toISOString()}`;
      });

    it('gives the same answers with process.env.TZ set to other zones', () => {
      const expected = withProcessTimeZone('UTC', answers);
      expect(expected[0]).to.equal('false 2026-03-29T10:00:00.000Z');
      for (const zone of ['America/New_York', 'Europe/Berlin', 'Pacific/Chatham', 'Asia/Kathmandu']) {
        const actual = withProcessTimeZone(zone, () => {
          // The switch took effect: local fields now follow the other zone.
          expect(new Date('2026-01-01T00:00:00Z').getTimezoneOffset()).to.not.equal(0);
          return answers();
        });
        expect(actual, `with TZ=${zone}`).to.deep.equal(expected);
      }
    });

    it('gives the same answers in a process started in another zone', () => {
      const index = new URL('../src/index.js', import.meta.url).href;
      const script = `
        const { createOpeningHours } = await import(${JSON.stringify(index)});
        const cases = ${JSON.stringify(cases)};
        console.log(JSON.stringify(cases.map(([schedule, zone, from]) => {
          const hours = createOpeningHours(schedule, zone);
          return hours.isOpen(new Date(from)) + ' ' + hours.nextChange(new Date(from))?.toISOString();
        })));`;
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        env: { ...process.env, TZ: 'America/Los_Angeles' },
        encoding: 'utf8',
      });
      expect(child.stderr).to.equal('');
      expect(JSON.parse(child.stdout)).to.deep.equal(withProcessTimeZone('UTC', answers));
    });
  });
});
