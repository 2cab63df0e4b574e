/**
 * The firmware of an upgrade: its id (the library's public firmware code), the firmware type and,
 * for a device firmware (types 2–5), the baud rate (spec §5: both required).
 */
import { Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIRMWARE_TYPES } from '@sunwatch/protocol';
import { BAUD_RATE_CHOICES, isDeviceFirmware } from '../model/status';

/** A labelled field stacked over its control. */
export const FIELD = { display: 'flex', flexDirection: 'column', gap: 4, minWidth: 0 } as const;

export interface FirmwareChoice {
  firmware: string;
  type: number;
  baudRate?: number;
}

export function FirmwareFields({
  value,
  onChange,
  targets = 'all',
}: {
  value: FirmwareChoice;
  onChange: (v: FirmwareChoice) => void;
  /** 'datalogger': only types 0–1; 'device': only 2–5. */
  targets?: 'all' | 'datalogger' | 'device';
}) {
  const { t } = useTranslation('upgrades');
  const types = FIRMWARE_TYPES.filter((ft) => targets === 'all' || (targets === 'device') === (ft.target === 1));
  return (
    <>
      <label style={FIELD}>
        {t('start.firmware')}
        <Input
          value={value.firmware}
          onChange={(e) => onChange({ ...value, firmware: e.target.value })}
          placeholder={t('start.firmwarePlaceholder')}
          maxLength={32}
          data-testid="upg-firmware"
        />
      </label>
      <label style={FIELD}>
        {t('start.type')}
        <Select
          style={{ width: '100%' }}
          value={value.type}
          onChange={(type: number) => onChange({ ...value, type, baudRate: isDeviceFirmware(type) ? value.baudRate : undefined })}
          options={types.map((ft) => ({ value: ft.id, label: t(`types.${ft.key}`) }))}
          data-testid="upg-type"
        />
      </label>
      {isDeviceFirmware(value.type) ? (
        <label style={FIELD}>
          {t('start.baudRate')}
          <Select
            style={{ width: '100%' }}
            value={value.baudRate}
            placeholder={t('start.baudRate')}
            onChange={(baudRate: number) => onChange({ ...value, baudRate })}
            options={BAUD_RATE_CHOICES.map((b) => ({ value: b, label: String(b) }))}
            data-testid="upg-baud"
          />
        </label>
      ) : null}
    </>
  );
}
