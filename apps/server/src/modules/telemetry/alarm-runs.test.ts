import { describe, expect, it } from 'vitest';
import { evaluateAlarmRun, type AlarmInfo, type RunSample } from './alarm-runs.js';

const A: AlarmInfo = { level: 2, code: 2, description: 'a' };
const B: AlarmInfo = { level: 0, code: 9, description: 'b' };
const run = (...xs: Array<[number, AlarmInfo[]]>): RunSample[] => xs.map(([ts, alarms]) => ({ ts, alarms }));

describe('evaluateAlarmRun', () => {
  it('new samples: opens at the first sample with a code, closes at the first without', () => {
    const r = evaluateAlarmRun(run([10, []], [20, [A]], [30, [A, B]], [40, [B]], [50, []]), 5, new Set());
    expect(r.transitions).toEqual([
      { ts: 20, code: 2, open: A },
      { ts: 30, code: 9, open: B },
      { ts: 40, code: 2 },
      { ts: 50, code: 9 },
    ]);
    expect(r.episodes).toEqual([]);
  });

  it('continues the stored open set: an open code still active is not reopened, a gone one closes', () => {
    const r = evaluateAlarmRun(run([10, [A]], [20, [A]]), null, new Set([2, 77]));
    expect(r.transitions).toEqual([{ ts: 10, code: 77 }]);
  });

  it('old samples give closed episodes only when both ends are inside the run', () => {
    const r = evaluateAlarmRun(run([1, [B]], [2, []], [3, [A]], [4, []], [5, [B]], [50, []]), 10, new Set([2]));
    expect(r.episodes).toEqual([{ ...A, start: 3, end: 4 }]);
    // The one new sample closes the stored open alarm.
    expect(r.transitions).toEqual([{ ts: 50, code: 2 }]);
  });
});
