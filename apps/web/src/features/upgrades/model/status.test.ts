import { describe, expect, it } from 'vitest';
import {
  batchFormProblem,
  batchParams,
  outcomeKey,
  parsePnList,
  pollInterval,
  progressPercent,
  retKey,
  type BatchForm,
} from './status';

describe('upgrade task display', () => {
  it('shows progress 0..1000 as a percentage with one decimal, clamped', () => {
    expect(progressPercent(0)).toBe('0.0');
    expect(progressPercent(453)).toBe('45.3');
    expect(progressPercent(1000)).toBe('100.0');
    expect(progressPercent(1200)).toBe('100.0');
    expect(progressPercent(-5)).toBe('0.0');
  });
  it('names every outcome; a running task whose datalogger is offline is waiting', () => {
    expect([0, 1, 2, 3, 4, 5, 9].map((s) => outcomeKey(s))).toEqual([
      'running',
      'exception',
      'failed',
      'success',
      'cancelled',
      'notInUpgrade',
      'notInUpgrade',
    ]);
    expect(outcomeKey(0, 'waiting')).toBe('waiting');
    expect([0, 1, 2, 3, 7].map(retKey)).toEqual([
      'accepted',
      'failedToStart',
      'offline',
      'alreadyUpgrading',
      'failedToStart',
    ]);
  });
  it('polls while any task runs and stops once none does', () => {
    expect(pollInterval([{ status: 3 }, { status: 0 }])).toBe(2000);
    expect(pollInterval([{ status: 3 }, { status: 2 }])).toBe(false);
    expect(pollInterval(undefined)).toBe(false);
  });
  it('reads pasted PNs without repeats', () => {
    expect(parsePnList(' swa1, swa2\nSWA1;swb3  ')).toEqual(['SWA1', 'SWA2', 'SWB3']);
  });
});

describe('batch form', () => {
  const base: BatchForm = { firmware: 'FW1', type: 0, mode: 'selection', selection: ['A', 'B'] };
  it('a datalogger batch of a selection sends the PN list only', () => {
    expect(batchFormProblem(base)).toBeUndefined();
    expect(batchParams({ ...base, baudRate: 9600, plantid: 3 })).toEqual({ firmware: 'FW1', type: 0, pn: 'A,B' });
  });
  it('a device firmware needs baud rate and device type code (spec §5)', () => {
    expect(batchFormProblem({ ...base, type: 2 })).toBe('baudRate');
    expect(batchFormProblem({ ...base, type: 2, baudRate: 9600 })).toBe('devcode');
    expect(batchParams({ ...base, type: 4, baudRate: 9600, devcode: 2341 })).toEqual({
      firmware: 'FW1',
      type: 4,
      baudRate: 9600,
      devcode: 2341,
      pn: 'A,B',
    });
  });
  it('refuses an empty or oversized selection and a missing firmware; a filter sends its fields', () => {
    expect(batchFormProblem({ ...base, firmware: ' ' })).toBe('firmware');
    expect(batchFormProblem({ ...base, selection: [] })).toBe('selection');
    expect(batchFormProblem({ ...base, selection: Array.from({ length: 257 }, (_, i) => `P${i}`) })).toBe('tooMany');
    const f: BatchForm = { ...base, mode: 'filter', selection: [], plantid: 7, status: 0, model: ' X1 ', version: '' };
    expect(batchFormProblem(f)).toBeUndefined();
    expect(batchParams(f)).toEqual({ firmware: 'FW1', type: 0, plantid: 7, status: 0, model: 'X1' });
  });
});
