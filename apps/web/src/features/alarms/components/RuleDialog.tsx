/**
 * Adds or edits an alarm filter rule: name, on/off, time slot (both ends or none = all day),
 * device types, plants, devices (SNs or datalogger PNs), alarm types, codes, a description
 * keyword, and its effect: not notified and/or hidden from the lists (at least one).
 */
import { useState } from 'react';
import { Alert, Checkbox, Form, Input, Select, Space, Switch } from 'antd';
import type { AlarmDeviceType, AlarmRuleRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText, notice } from '../../../app/notify';
import { useIsPhone } from '../../../components/responsive';
import { useSaveRule, type RuleFields } from '../api/queries';
import { DEVICE_TYPES, LEVEL_KEYS } from '../model/vocabulary';
import { PlantSelect } from './AlarmFilters';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export interface RuleFormValues {
  name: string;
  enable: boolean;
  stime: string;
  etime: string;
  atype: AlarmDeviceType[];
  pid: number[];
  device: string[];
  level: number[];
  code: string[];
  desc: string;
  effect: Array<'mute' | 'hide'>;
}

export function ruleFormValues(r: AlarmRuleRow | undefined): RuleFormValues {
  return {
    name: r?.name ?? '',
    enable: r ? r.enable === 1 : true,
    stime: r?.stime ?? '',
    etime: r?.etime ?? '',
    atype: r?.atype ?? [],
    pid: r?.pid ?? [],
    device: r?.device ?? [],
    level: r?.level ?? [],
    code: (r?.code ?? []).map(String),
    desc: r?.desc ?? '',
    effect: r ? [...(r.mute ? (['mute'] as const) : []), ...(r.hide ? (['hide'] as const) : [])] : ['mute', 'hide'],
  };
}

/** The wire fields of a rule form (lists as CSV; an empty list = any). */
export function ruleWireFields(v: RuleFormValues): RuleFields {
  return {
    name: v.name.trim(),
    enable: v.enable ? 1 : 0,
    stime: v.stime,
    etime: v.etime,
    atype: v.atype.join(','),
    pid: v.pid.join(','),
    device: v.device.map((d) => d.trim()).filter(Boolean).join(','),
    level: v.level.join(','),
    code: v.code.map((c) => c.trim()).filter(Boolean).join(','),
    desc: v.desc.trim(),
    mute: v.effect.includes('mute') ? 1 : 0,
    hide: v.effect.includes('hide') ? 1 : 0,
  };
}

export default function RuleDialog({ rule, plants, onClose }: { rule?: AlarmRuleRow; plants: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [form] = Form.useForm<RuleFormValues>();
  const save = useSaveRule();
  const [error, setError] = useState<string>();

  const submit = async () => {
    let values: RuleFormValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    try {
      await save.mutateAsync({ id: rule?.id, fields: ruleWireFields(values) });
      void notice().success(t('alarms:rules.saved'));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  return (
    <DraggableModal
      open
      title={t(rule ? 'alarms:rules.edit' : 'alarms:rules.add')}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t('alarms:rules.save')}
      okButtonProps={{ 'data-testid': 'rule-save' } as Record<`data-${string}`, string>}
      cancelText={t('alarms:cancel')}
      confirmLoading={save.isPending}
      destroyOnHidden
      {...(phone ? { width: '100%', style: { top: 0, maxWidth: '100vw', margin: 0 } } : { width: 620 })}
      data-testid="rule-dialog"
    >
      <Form<RuleFormValues> form={form} layout="vertical" initialValues={ruleFormValues(rule)} requiredMark="optional">
        <Form.Item
          name="name"
          label={t('alarms:rules.field.name')}
          rules={[
            { required: true, whitespace: true, message: t('alarms:rules.nameRequired') },
            { min: 2, max: 32, message: t('alarms:rules.nameLength', { min: 2, max: 32 }) },
          ]}
        >
          <Input maxLength={32} data-testid="rule-name-input" />
        </Form.Item>
        <Form.Item name="enable" label={t('alarms:rules.field.enable')} valuePropName="checked">
          <Switch data-testid="rule-enable-input" />
        </Form.Item>
        <Form.Item label={t('alarms:rules.field.timeSlot')} extra={t('alarms:rules.timeSlotHint')}>
          <Space.Compact>
            <Form.Item
              name="stime"
              noStyle
              dependencies={['etime']}
              rules={[
                ({ getFieldValue }) => ({
                  validator: (_, v: string) =>
                    !v === !getFieldValue('etime') ? Promise.resolve() : Promise.reject(new Error(t('alarms:rules.timeSlotBoth'))),
                }),
              ]}
            >
              <Input type="time" aria-label={t('alarms:rules.field.start')} style={{ width: 130 }} data-testid="rule-stime" />
            </Form.Item>
            <Form.Item name="etime" noStyle>
              <Input type="time" aria-label={t('alarms:rules.field.end')} style={{ width: 130 }} data-testid="rule-etime" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="atype" label={t('alarms:rules.field.deviceType')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('alarms:rules.any')}
            options={DEVICE_TYPES.map((a) => ({ value: a, label: t(`alarms:atype.${a}`) }))}
            data-testid="rule-atype"
          />
        </Form.Item>
        {plants && (
          <Form.Item name="pid" label={t('alarms:rules.field.plants')}>
            <RulePlants />
          </Form.Item>
        )}
        <Form.Item name="device" label={t('alarms:rules.field.devices')} extra={t('alarms:rules.devicesHint')}>
          <Select mode="tags" allowClear tokenSeparators={[',', ' ']} placeholder={t('alarms:rules.any')} open={false} data-testid="rule-device" />
        </Form.Item>
        <Form.Item name="level" label={t('alarms:rules.field.levels')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('alarms:rules.any')}
            options={LEVEL_KEYS.map((k, level) => ({ value: level, label: t(`alarms:level.${k}`) }))}
            data-testid="rule-level"
          />
        </Form.Item>
        <Form.Item
          name="code"
          label={t('alarms:rules.field.codes')}
          rules={[
            {
              validator: (_, v: string[] | undefined) =>
                (v ?? []).every((c) => /^\d{1,9}$/.test(c.trim())) ? Promise.resolve() : Promise.reject(new Error(t('alarms:rules.codesInvalid'))),
            },
          ]}
        >
          <Select mode="tags" allowClear tokenSeparators={[',', ' ']} placeholder={t('alarms:rules.any')} open={false} data-testid="rule-code" />
        </Form.Item>
        <Form.Item name="desc" label={t('alarms:rules.field.desc')} rules={[{ max: 64 }]}>
          <Input maxLength={64} placeholder={t('alarms:rules.any')} data-testid="rule-desc" />
        </Form.Item>
        <Form.Item
          name="effect"
          label={t('alarms:rules.field.effect')}
          rules={[{ required: true, type: 'array', min: 1, message: t('alarms:rules.effectRequired') }]}
        >
          <Checkbox.Group
            options={[
              { value: 'mute', label: <span data-testid="rule-effect-mute">{t('alarms:rules.mute')}</span> },
              { value: 'hide', label: <span data-testid="rule-effect-hide">{t('alarms:rules.hide')}</span> },
            ]}
          />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon message={error} data-testid="rule-error" />}
    </DraggableModal>
  );
}

/** The plant picker inside the form (Form.Item passes value and onChange). */
function RulePlants({ value, onChange }: { value?: number[]; onChange?: (v: number[]) => void }) {
  return (
    <PlantSelect
      multiple
      value={value ?? []}
      onChange={(v) => onChange?.(Array.isArray(v) ? v : typeof v === 'number' ? [v] : [])}
      width="100%"
      testId="rule-plants"
    />
  );
}
