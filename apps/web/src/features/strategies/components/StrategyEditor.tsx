/**
 * Add or edit an upgrade strategy (spec §2 "Strategy (local upgrade)", §5): name, description,
 * firmware (the library's `queryFirmwares`), type, baud rate, method, timezone, effective and
 * expiry times, canary and failure threshold, reminder, and the associated dataloggers (searched
 * by PN on the server, many selected). Editing is offered only before the start; an empty device
 * selection then keeps the strategy's devices. Server refusals show under the form in the
 * user's language.
 */
import { useEffect, useState } from 'react';
import { Alert, Form, Input, InputNumber, Radio, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BAUD_RATES, FIRMWARE_TYPES, STRATEGY_NAME_MAX, STRATEGY_TEXT_MAX } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { apiErrorText, notice } from '../../../app/notify';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { strategyKeys } from '../api/keys';
import { usePickableDataloggers, useSaveStrategy, type StrategyRow } from '../api/queries';
import {
  TIMEZONES,
  emptyStrategy,
  isDeviceType,
  strategyErrors,
  strategyFormOf,
  strategyParams,
  tzLabel,
  type StrategyFormValues,
} from '../strategy-form';

export interface StrategyEditorProps {
  open: boolean;
  row?: StrategyRow;
  onClose: () => void;
}

export function StrategyEditor({ open, row, onClose }: StrategyEditorProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<StrategyFormValues>();
  const [formError, setFormError] = useState<string>();
  const [search, setSearch] = useState('');
  const type = Form.useWatch('type', form) ?? 0;
  const save = useSaveStrategy();

  useEffect(() => {
    if (!open) return;
    setFormError(undefined);
    form.resetFields();
    form.setFieldsValue(row ? strategyFormOf(row) : emptyStrategy(Date.now()));
  }, [open, row, form]);

  const firmwares = useQuery({
    queryKey: strategyKeys.pickable({ firmware: type }),
    queryFn: () => api.call('queryFirmwares', { page: 0, pagesize: 100, type }),
    enabled: open,
  });
  const loggers = usePickableDataloggers({ page: 0, pagesize: 50, search }, open);

  const rule = (field: keyof StrategyFormValues) => ({
    validator: async () => {
      const key = strategyErrors(form.getFieldsValue(true) as StrategyFormValues, row !== undefined)[field];
      if (key) throw new Error(t(key));
    },
  });

  const submit = async () => {
    setFormError(undefined);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const values = form.getFieldsValue(true) as StrategyFormValues;
    try {
      await save.mutateAsync({ ...(row ? { code: row.code } : {}), values: strategyParams(values) });
    } catch (e) {
      setFormError(apiErrorText(e));
      return;
    }
    void notice().success(t(row ? 'strategies:saved' : 'strategies:created', { name: values.name.trim() }));
    onClose();
  };

  const fwOptions = (firmwares.data?.firmware ?? []).map((f) => ({ value: f.firmware, label: `${f.name} ${f.version}` }));
  if (row && !fwOptions.some((o) => o.value === row.firmware.code)) {
    fwOptions.unshift({ value: row.firmware.code, label: `${row.firmware.name} ${row.firmware.version}` });
  }
  const loggerOptions = (loggers.data?.collector ?? []).map((c) => ({ value: c.pn, label: c.alias ? `${c.pn} (${c.alias})` : c.pn }));

  return (
    <DraggableModal
      open={open}
      title={row ? t('strategies:form.editTitle', { code: row.code }) : t('strategies:form.createTitle')}
      okText={t('strategies:form.save')}
      cancelText={t('strategies:form.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      forceRender
      width={640}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<StrategyFormValues> form={form} layout="vertical" validateTrigger="onBlur" data-testid="strategy-form">
        <Form.Item name="name" label={t('strategies:field.name')} required rules={[rule('name')]}>
          <Input maxLength={STRATEGY_NAME_MAX} data-testid="strategy-name" />
        </Form.Item>
        <Form.Item name="description" label={t('strategies:field.description')} required rules={[rule('description')]}>
          <Input.TextArea maxLength={STRATEGY_TEXT_MAX} autoSize={{ minRows: 2, maxRows: 4 }} data-testid="strategy-description" />
        </Form.Item>
        <Form.Item name="type" label={t('strategies:field.type')} required>
          <Select
            data-testid="strategy-type"
            onChange={() => form.setFieldsValue({ firmware: undefined })}
            options={FIRMWARE_TYPES.map((ft) => ({ value: ft.id, label: t(`strategies:type.${ft.key}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="firmware"
          label={t('strategies:field.firmware')}
          required
          rules={[rule('firmware')]}
          validateTrigger={['onBlur', 'onChange']}
          extra={firmwares.isSuccess && fwOptions.length === 0 ? t('strategies:form.noFirmware') : undefined}
        >
          <Select showSearch optionFilterProp="label" loading={firmwares.isLoading} options={fwOptions} data-testid="strategy-firmware" />
        </Form.Item>
        <Form.Item name="baudRate" label={t('strategies:field.baudRate')} required>
          <Select options={BAUD_RATES.map((b) => ({ value: b, label: String(b) }))} data-testid="strategy-baud" />
        </Form.Item>
        <Form.Item name="method" label={t('strategies:field.method')} required>
          <Radio.Group data-testid="strategy-method">
            <Radio value={0}>{t('strategies:method.0')}</Radio>
            <Radio value={1}>{t('strategies:method.1')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="timezone" label={t('strategies:field.timezone')} required>
          <Select showSearch optionFilterProp="label" options={TIMEZONES.map((h) => ({ value: h, label: tzLabel(h) }))} data-testid="strategy-tz" />
        </Form.Item>
        <Form.Item name="startTime" label={t('strategies:field.startTime')} required rules={[rule('startTime')]} extra={t('strategies:form.timeHint')}>
          <Input placeholder="YYYY-MM-DD HH:mm" data-testid="strategy-start" />
        </Form.Item>
        <Form.Item name="endTime" label={t('strategies:field.endTime')} required rules={[rule('endTime')]}>
          <Input placeholder="YYYY-MM-DD HH:mm" data-testid="strategy-end" />
        </Form.Item>
        <Form.Item name="canaryPercent" label={t('strategies:field.canaryPercent')} extra={t('strategies:form.canaryHint')}>
          <InputNumber min={0} max={100} addonAfter="%" data-testid="strategy-canary" />
        </Form.Item>
        <Form.Item name="failureThresholdPercent" label={t('strategies:field.failureThreshold')} extra={t('strategies:form.thresholdHint')}>
          <InputNumber min={0} max={100} addonAfter="%" data-testid="strategy-threshold" />
        </Form.Item>
        <Form.Item name="reminder" label={t('strategies:field.reminder')}>
          <Input.TextArea maxLength={STRATEGY_TEXT_MAX} autoSize={{ minRows: 1, maxRows: 3 }} data-testid="strategy-reminder" />
        </Form.Item>
        <Form.Item
          name="devices"
          label={t('strategies:field.devices')}
          required={!row}
          rules={[rule('devices')]}
          validateTrigger={['onBlur', 'onChange']}
          extra={isDeviceType(type) ? t('strategies:form.deviceTypeHint') : row ? t('strategies:form.devicesKeep', { n: row.deviceCount }) : undefined}
        >
          <Select
            mode="multiple"
            allowClear
            showSearch
            filterOption={false}
            onSearch={setSearch}
            loading={loggers.isFetching}
            options={loggerOptions}
            placeholder={t('strategies:form.devicesPlaceholder')}
            disabled={isDeviceType(type)}
            data-testid="strategy-devices"
          />
        </Form.Item>
        {formError && <Alert type="error" showIcon message={formError} data-testid="strategy-form-error" />}
      </Form>
    </DraggableModal>
  );
}
