import { describe, expect, it } from 'vitest';
import { DATALOGGER_COMMANDS } from '../commands.js';
import { FIRMWARE_TYPES } from '../firmware.js';
import { dataloggerTypeFunctions, devcodeFunctions, isCellularCommMethod, isWifiCommMethod } from './functions.js';
import { DEVICE_DEFINITIONS, getDefinition } from './registry.js';

describe('device functions derived from the code', () => {
  it('every devcode: its controls, the device firmware types, the device debug commands, its parameter count', () => {
    for (const def of DEVICE_DEFINITIONS) {
      const f = devcodeFunctions(def);
      expect(f.controls.ids).toEqual(def.controls.map((c) => c.id));
      expect(f.controls.readback).toBe(def.controls.filter((c) => c.readback).length);
      expect(f.upgrade.firmwareTypes).toEqual(['control1', 'control2', 'bms', 'slaveMcu']);
      expect(f.debug.commands).toEqual(['read', 'passthrough']);
      expect(f.acceleration.parameters).toBe(def.fields.filter((x) => !x.internal).length);
    }
    // a definition change shows at once: one control more, one more in the functions
    const def = getDefinition(2341)!;
    const more = {
      ...def,
      controls: [...def.controls, { ...def.controls[0]!, id: 'extra_ctrl', readback: undefined }],
    };
    expect(devcodeFunctions(more).controls.count).toBe(def.controls.length + 1);
  });

  it('datalogger types: acceleration for Wi-Fi modules only, a flow card for cellular ones', () => {
    expect(isWifiCommMethod('WiFi')).toBe(true);
    expect(isWifiCommMethod(' wi-fi ')).toBe(true);
    expect(isWifiCommMethod('4G')).toBe(false);
    expect(isCellularCommMethod('GPRS')).toBe(true);
    expect(isCellularCommMethod('Ethernet')).toBe(false);
    const wifi = dataloggerTypeFunctions(['WiFi']);
    expect(wifi).toMatchObject({ acceleration: true, flowCard: false, debug: true });
    expect(wifi.upgrade.firmwareTypes).toEqual(FIRMWARE_TYPES.filter((t) => t.target === 0).map((t) => t.key));
    expect(wifi.commands.every((c) => DATALOGGER_COMMANDS.includes(c))).toBe(true);
    expect(wifi.commands).not.toContain('upgrade_begin');
    expect(dataloggerTypeFunctions(['WiFi', '4G'])).toMatchObject({ acceleration: false, flowCard: true });
    expect(dataloggerTypeFunctions([])).toMatchObject({ acceleration: false, flowCard: false });
  });
});
