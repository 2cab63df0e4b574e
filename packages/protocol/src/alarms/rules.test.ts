import { describe, expect, it } from 'vitest';
import { alarmRuleMatches, inTimeSlot, localMinuteOfDay, type AlarmFacts, type AlarmRule } from './rules.js';
import { alarmDeviceType, alarmText } from './index.js';

const rule = (over: Partial<AlarmRule> = {}): AlarmRule => ({
  id: 1,
  name: 'r',
  enabled: true,
  stime: '',
  etime: '',
  atype: [],
  pid: [],
  device: [],
  level: [],
  code: [],
  desc: '',
  mute: true,
  hide: false,
  ...over,
});

// devcode 5121 (grid-tie inverter): code 1 "Grid over voltage", fault (level 2).
const fault: AlarmFacts = {
  devcode: 5121,
  devtype: 512,
  code: 1,
  level: 2,
  sn: 'INV-001',
  pn: 'W0000000000001',
  pid: 7,
  timezone: 3600,
};
const offline: AlarmFacts = {
  devcode: null,
  devtype: null,
  code: 263,
  level: 3,
  sn: '',
  pn: 'W0000000000001',
  pid: 7,
  timezone: 3600,
};
// 2026-11-25 10:30 UTC = 11:30 at UTC+1
const at = Date.UTC(2026, 10, 25, 10, 30);

describe('alarmRuleMatches', () => {
  it('an empty enabled rule matches everything; a disabled one nothing', () => {
    expect(alarmRuleMatches(rule(), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule(), offline, at)).toBe(true);
    expect(alarmRuleMatches(rule({ enabled: false }), fault, at)).toBe(false);
  });

  it('alarm type, code, plant, device type and device filter must all hold', () => {
    expect(alarmRuleMatches(rule({ level: [2] }), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule({ level: [0, 1] }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ code: [1, 5] }), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule({ code: [5] }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ pid: [8] }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ pid: [7] }), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule({ atype: ['inverter'] }), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule({ atype: ['battery'] }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ atype: ['datalogger'] }), offline, at)).toBe(true);
    expect(alarmRuleMatches(rule({ device: ['inv-001'] }), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule({ device: ['w0000000000001'] }), offline, at)).toBe(true);
    expect(alarmRuleMatches(rule({ device: ['INV-002'] }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ level: [2], device: ['INV-002'] }), fault, at)).toBe(false);
  });

  it('the time slot is read in the plant timezone, half-open, wrapping midnight', () => {
    expect(alarmRuleMatches(rule({ stime: '11:00', etime: '12:00' }), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule({ stime: '10:00', etime: '11:30' }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ stime: '22:00', etime: '06:00' }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ stime: '22:00', etime: '06:00' }), fault, Date.UTC(2026, 10, 25, 23, 0))).toBe(true);
    expect(inTimeSlot(0, '22:00', '06:00')).toBe(true);
    expect(inTimeSlot(360, '22:00', '06:00')).toBe(false);
    expect(localMinuteOfDay(Date.UTC(2026, 0, 1, 0, 30), -3600)).toBe(23 * 60 + 30);
  });

  it('the description keyword matches the text in any language, case-insensitively', () => {
    expect(alarmRuleMatches(rule({ desc: 'over volt' }), fault, at)).toBe(true);
    expect(alarmRuleMatches(rule({ desc: alarmText(5121, 1, 'de_DE').slice(0, 8).toUpperCase() }), fault, at)).toBe(
      true,
    );
    expect(alarmRuleMatches(rule({ desc: 'frequency' }), fault, at)).toBe(false);
    expect(alarmRuleMatches(rule({ desc: 'offline' }), offline, at)).toBe(true);
    // an unknown code has no description to match
    expect(alarmRuleMatches(rule({ desc: 'unknown' }), { ...fault, code: 9999 }, at)).toBe(false);
  });
});

describe('alarm texts and device types', () => {
  it('translates definition faults, the offline alarm and unknown codes at read time', () => {
    expect(alarmText(5121, 1, 'en_US')).toBe('Grid over voltage');
    const de = alarmText(5121, 1, 'de_DE');
    expect(de).not.toBe('Grid over voltage');
    expect(de.length).toBeGreaterThan(3);
    expect(alarmText(null, 263, 'fr_FR')).toBe('Enregistreur hors ligne');
    expect(alarmText(5121, 9999, 'de_DE')).toBe('Unbekannter Alarmcode 9999');
    expect(alarmText(5121, 9999, 'xx')).toBe('Unknown alarm code 9999');
  });

  it('derives the spec device type of alarm from the definition, the devtype or the missing device', () => {
    expect(alarmDeviceType(5121, 512)).toBe('inverter');
    expect(alarmDeviceType(5122, 512)).toBe('micro-inverter');
    expect(alarmDeviceType(5123, 1792)).toBe('battery');
    expect(alarmDeviceType(2341, 2304)).toBe('storage-controller');
    expect(alarmDeviceType(9999, 2048)).toBe('charger');
    expect(alarmDeviceType(null, null)).toBe('datalogger');
  });
});
