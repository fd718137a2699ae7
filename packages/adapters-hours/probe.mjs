import opening_hours from 'opening_hours';
const tries = ['Mo-Fr 11:00-22:00; Sa,Su 12:00-23:00', '24/7', 'PH off', 'Mo-Fr 10:00-18:00; PH off', 'SH 10:00-12:00', 'garbage', 'Mo-Fr 10-18', 'Mo-Fr sunrise-sunset', 'Fr 18:00-02:00', '', 'Mo-Fr 10:00-18:00 "call us"', 'Mo unknown', 'Mo-Fr 10:00+', 'easter off; 10:00-12:00', 'Mo 12:00,15:00'];
for (const s of tries) {
  try {
    const oh = new opening_hours(s, null);
    console.log(JSON.stringify(s), 'ok', oh.getWarnings(), oh.getStructuredWarnings().map(w=>w.type));
    const d = new Date(2026, 4, 1, 12, 0);
    console.log('  state', oh.getState(d), 'next', oh.getNextChange(d)?.toString());
  } catch (e) { console.log(JSON.stringify(s), 'THROWS', typeof e, e instanceof Error, String(e).slice(0,300)); }
}
