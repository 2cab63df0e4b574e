/**
 * The describing fields shared by the upload and edit dialogs: name and version (required), type,
 * baud rate, description, upgrade mode, note and the notes per language (`i18n` on the wire).
 */
import { Button, Flex, Form, Input, InputNumber, Select } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  BAUD_RATES,
  FIRMWARE_TEXT_MAX,
  FIRMWARE_TYPES,
  LOCALES,
  LOCALE_NAMES,
  type FirmwareRow,
} from '@sunwatch/protocol';

export interface FirmwareFormValues {
  firmwareName: string;
  firmwareVersion: string;
  type: number;
  baudRate?: number;
  desc: string;
  upgradeMode: number;
  note: string;
  notes: { locale?: string; text?: string }[];
}

export function formValuesOf(r?: FirmwareRow): FirmwareFormValues {
  return {
    firmwareName: r?.name ?? '',
    firmwareVersion: r?.version ?? '',
    type: r?.type ?? 0,
    baudRate: r?.baudRate ?? undefined,
    desc: r?.desc ?? '',
    upgradeMode: r?.upgradeMode ?? 0,
    note: r?.note ?? '',
    notes: Object.entries(r?.notes ?? {}).map(([locale, text]) => ({ locale, text })),
  };
}

/** The wire parameters of the describing fields (notes as the JSON object locale → text). */
export function wireParamsOf(v: FirmwareFormValues) {
  const notes: Record<string, string> = {};
  for (const n of v.notes ?? []) if (n.locale && n.text?.trim()) notes[n.locale] = n.text.trim();
  return {
    firmwareName: v.firmwareName.trim(),
    firmwareVersion: v.firmwareVersion.trim(),
    type: v.type,
    baudRate: v.baudRate ?? '',
    desc: v.desc ?? '',
    upgradeMode: v.upgradeMode ?? 0,
    note: v.note ?? '',
    i18n: JSON.stringify(notes),
  };
}

export function FirmwareFields() {
  const { t } = useTranslation('firmware');
  const required = (key: string) => ({ required: true, whitespace: true, message: t(key, { ns: 'rules' }) });
  return (
    <>
      <Flex gap={12} wrap>
        <Form.Item
          name="firmwareName"
          label={t('form.name')}
          rules={[required('rules.firmware.nameRequired')]}
          style={{ flex: '1 1 180px' }}
        >
          <Input maxLength={FIRMWARE_TEXT_MAX.name} data-testid="fw-form-name" />
        </Form.Item>
        <Form.Item
          name="firmwareVersion"
          label={t('form.version')}
          rules={[required('rules.firmware.versionRequired')]}
          style={{ flex: '1 1 120px' }}
        >
          <Input maxLength={FIRMWARE_TEXT_MAX.version} data-testid="fw-form-version" />
        </Form.Item>
      </Flex>
      <Flex gap={12} wrap>
        <Form.Item name="type" label={t('form.type')} style={{ flex: '1 1 160px' }}>
          <Select
            options={FIRMWARE_TYPES.map((ft) => ({ value: ft.id, label: t(`types.${ft.key}`) }))}
            data-testid="fw-form-type"
          />
        </Form.Item>
        <Form.Item name="baudRate" label={t('form.baudRate')} style={{ flex: '1 1 120px' }}>
          <Select
            allowClear
            placeholder={t('form.noBaudRate')}
            options={BAUD_RATES.map((b) => ({ value: b, label: String(b) }))}
          />
        </Form.Item>
        <Form.Item name="upgradeMode" label={t('form.upgradeMode')} style={{ flex: '0 1 110px' }}>
          <InputNumber min={0} max={9} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Flex>
      <Form.Item name="desc" label={t('form.desc')}>
        <Input.TextArea rows={2} maxLength={FIRMWARE_TEXT_MAX.desc} data-testid="fw-form-desc" />
      </Form.Item>
      <Form.Item name="note" label={t('form.note')}>
        <Input.TextArea rows={2} maxLength={FIRMWARE_TEXT_MAX.note} />
      </Form.Item>
      <Form.Item label={t('form.notes')} style={{ marginBottom: 8 }}>
        <Form.List name="notes">
          {(fields, { add, remove }) => (
            <Flex vertical gap={8}>
              {fields.map((f) => (
                <Flex key={f.key} gap={8} wrap align="start">
                  <Form.Item name={[f.name, 'locale']} noStyle>
                    <Select
                      placeholder={t('form.language')}
                      options={LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }))}
                      style={{ width: 150, maxWidth: '100%' }}
                    />
                  </Form.Item>
                  <Form.Item name={[f.name, 'text']} noStyle>
                    <Input
                      placeholder={t('form.noteText')}
                      maxLength={FIRMWARE_TEXT_MAX.note}
                      style={{ flex: '1 1 160px', width: 'auto' }}
                    />
                  </Form.Item>
                  <Button icon={<DeleteOutlined />} aria-label={t('delete')} onClick={() => remove(f.name)} />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} onClick={() => add({})} style={{ alignSelf: 'flex-start' }}>
                {t('form.addNote')}
              </Button>
            </Flex>
          )}
        </Form.List>
      </Form.Item>
    </>
  );
}
