/**
 * The firmware of an upgrade: its id (the library's public firmware code), the firmware type and,
 * for a device firmware (types 2–5), the baud rate (spec §5: both required).
 */
import { useState } from 'react';
import { Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { FIRMWARE_TYPES } from '@sunwatch/protocol';
import { useFirmwareChoices } from '../api/queries';
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
  library,
}: {
  value: FirmwareChoice;
  onChange: (v: FirmwareChoice) => void;
  /** 'datalogger': only types 0–1; 'device': only 2–5. */
  targets?: 'all' | 'datalogger' | 'device';
  /** Pick from the firmware library (queryFirmwares; system_settings) instead of typing the id. */
  library?: boolean;
}) {
  const { t } = useTranslation('upgrades');
  const types = FIRMWARE_TYPES.filter((ft) => targets === 'all' || (targets === 'device') === (ft.target === 1));
  return (
    <>
      {library ? (
        <LibraryPicker value={value} onChange={onChange} />
      ) : (
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
      )}
      <label style={FIELD}>
        {t('start.type')}
        <Select
          style={{ width: '100%' }}
          value={value.type}
          onChange={(type: number) =>
            onChange({ ...value, type, baudRate: isDeviceFirmware(type) ? value.baudRate : undefined })
          }
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

/** The library's firmware, searchable; choosing one sets its type and baud rate. Unsigned ones cannot be distributed. */
function LibraryPicker({ value, onChange }: { value: FirmwareChoice; onChange: (v: FirmwareChoice) => void }) {
  const { t } = useTranslation('upgrades');
  const [search, setSearch] = useState('');
  const q = useFirmwareChoices(search);
  const rows = q.data?.firmware ?? [];
  return (
    <label style={FIELD}>
      {t('start.firmware')}
      <Select
        showSearch
        filterOption={false}
        onSearch={setSearch}
        style={{ width: '100%', minWidth: 200 }}
        value={value.firmware || undefined}
        placeholder={t('start.firmwarePlaceholder')}
        loading={q.isFetching}
        onChange={(code: string) => {
          const f = rows.find((r) => r.firmware === code);
          onChange({ firmware: code, type: f?.type ?? value.type, baudRate: f?.baudRate ?? undefined });
        }}
        options={rows.map((r) => ({
          value: r.firmware,
          disabled: !r.signed,
          label: `${r.name} ${r.version} (${t(`types.${FIRMWARE_TYPES.find((ft) => ft.id === r.type)?.key ?? 'general'}`)})${r.signed ? '' : ` · ${t('start.unsigned')}`}`,
        }))}
        data-testid="upg-firmware"
      />
    </label>
  );
}
