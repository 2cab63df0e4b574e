/**
 * Create or edit a plant (spec §2 "Projects", §3 Project, §5 rules): name, remark, default
 * project, picture, location (country … district, address, coordinates typed or picked on the
 * map), time zone (fixed once created), rated power, install date, installer, currency, income
 * per kWh and the five tariffs, energy offset. The form checks the protocol's rules before
 * sending; what the server refuses shows under the form in the user's language.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Col, DatePicker, Divider, Form, Input, Row, Select, Switch, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { CURRENCY_SYMBOLS, TIMEZONE_OFFSETS, timezoneLabel, type Catalogue, type Currency, type ParamsOf, type PlantWire } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { useIsPhone } from '../../../components/responsive';
import { toGeoPoint } from '../../shared/maps/basemap';
import {
  CURRENCY_OPTIONS,
  LOCATION_FIELDS,
  PRICE_FIELDS,
  defaultTimezone,
  editedParams,
  energyOffsetChanged,
  plantFormErrors,
  plantFormValues,
  plantWireParams,
  type PlantFormField,
  type PlantFormValues,
} from '../api/plant-form';
import { usePlantOwnerChoices, usePlantWrites } from '../api/mutations';
import { LocationPicker } from './LocationPicker';
import { PlantImageField } from './PlantImageField';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

export interface PlantFormDialogProps {
  open: boolean;
  /** The plant to edit; absent: create. */
  plant?: PlantWire;
  /** Administrators create plants for an owner (addPlant `uid`). */
  chooseOwner: boolean;
  onClose: () => void;
  onSaved?: (pid: number) => void;
}

type FormShape = Omit<PlantFormValues, 'install'> & { install?: dayjs.Dayjs | null; uid?: number };

const toValues = (v: FormShape): PlantFormValues => ({ ...v, install: v.install ? v.install.format('YYYY-MM-DD') : undefined });

export default function PlantFormDialog({ open, plant, chooseOwner, onClose, onSaved }: PlantFormDialogProps) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [form] = Form.useForm<FormShape>();
  const [serverError, setServerError] = useState<string>();
  const writes = usePlantWrites();
  const [ownerSearch, setOwnerSearch] = useState('');
  const [chosenOwner, setChosenOwner] = useState<{ uid: number; usr: string }>();
  const owners = usePlantOwnerChoices(ownerSearch, open && chooseOwner && !plant);
  const ownerOptions = [
    ...(chosenOwner && !owners.data?.owners.some((o) => o.uid === chosenOwner.uid) ? [chosenOwner] : []),
    ...(owners.data?.owners ?? []),
  ].map((o) => ({ value: o.uid, label: o.usr }));
  const editing = plant !== undefined;
  const initial = useMemo<PlantFormValues>(
    () => (plant ? plantFormValues(plant) : { name: '', timezone: defaultTimezone(), currency: 'EUR', isDefault: false }),
    [plant],
  );
  const lon = Form.useWatch('lon', form);
  const lat = Form.useWatch('lat', form);
  const picBig = Form.useWatch('picBig', form);
  const picSmall = Form.useWatch('picSmall', form);
  const currency = Form.useWatch('currency', form) as Currency | undefined;
  const pending = writes.add.isPending || writes.edit.isPending || writes.offset.isPending;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue({ ...initial, install: initial.install ? dayjs(initial.install, 'YYYY-MM-DD') : undefined });
    setServerError(undefined);
  }, [open, initial, form]);

  const rule = (field: PlantFormField) => ({
    validator: async () => {
      const key = plantFormErrors(toValues(form.getFieldsValue(true)))[field];
      if (key) throw new Error(ruleText(key));
    },
  });

  const submit = async (raw: FormShape) => {
    setServerError(undefined);
    const v = toValues({ ...form.getFieldsValue(true), ...raw });
    try {
      if (!plant) {
        if (chooseOwner && !raw.uid) {
          form.setFields([{ name: 'uid', errors: [ruleText('rules.required')] }]);
          return;
        }
        const params = { ...plantWireParams(v, 'create'), ...(chooseOwner && raw.uid ? { uid: raw.uid } : {}) };
        const { pid } = await writes.add.mutateAsync(params as unknown as ParamsOf<Catalogue['addPlant']>);
        if (energyOffsetChanged('0', v.energyOffset)) await writes.offset.mutateAsync({ plantid: pid, energyOffset: Number(v.energyOffset) });
        void notice().success(t('plants:form.created', { name: v.name.trim() }));
        onSaved?.(pid);
      } else {
        const changed = editedParams(initial, v);
        const offsetChanged = energyOffsetChanged(plant.energyOffset, v.energyOffset);
        if (Object.keys(changed).length === 0 && !offsetChanged) {
          void notice().info(t('plants:form.unchanged'));
          onClose();
          return;
        }
        if (Object.keys(changed).length > 0) await writes.edit.mutateAsync({ plantid: plant.pid, ...changed } as unknown as ParamsOf<Catalogue['editPlant']>);
        if (offsetChanged) await writes.offset.mutateAsync({ plantid: plant.pid, energyOffset: Number(v.energyOffset) });
        void notice().success(t('plants:form.saved', { name: v.name.trim() }));
        onSaved?.(plant.pid);
      }
    } catch (e) {
      setServerError(apiErrorText(e));
      return;
    }
    onClose();
  };

  const point = toGeoPoint(lat, lon);
  const col = { xs: 24, md: 12 };
  const col3 = { xs: 24, sm: 12, md: 8 };
  const money = currency && CURRENCY_SYMBOLS[currency] ? CURRENCY_SYMBOLS[currency] : undefined;

  return (
    <DraggableModal
      open={open}
      title={editing ? t('plants:form.editTitle', { name: plant.name }) : t('plants:form.createTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={editing ? t('plants:form.save') : t('plants:form.create')}
      cancelText={t('plants:form.cancel')}
      confirmLoading={pending}
      width={phone ? '100%' : 860}
      style={phone ? { top: 8, maxWidth: '100vw', paddingBottom: 8 } : undefined}
      destroyOnHidden
      forceRender
    >
      <Form<FormShape> form={form} layout="vertical" onFinish={(v) => void submit(v)} requiredMark disabled={pending} data-testid="plant-form">
        <Row gutter={16}>
          <Col {...col}>
            <Form.Item name="name" label={t('plants:form.name')} required rules={[rule('name')]}>
              <Input maxLength={64} autoFocus />
            </Form.Item>
          </Col>
          {chooseOwner && !editing && (
            <Col {...col}>
              <Form.Item name="uid" label={t('plants:form.owner')} required rules={[{ required: true, message: ruleText('rules.required') }]}>
                <Select
                  showSearch
                  filterOption={false}
                  onSearch={setOwnerSearch}
                  onChange={(uid: number) => setChosenOwner(ownerOptions.map((o) => ({ uid: o.value, usr: o.label })).find((o) => o.uid === uid))}
                  loading={owners.isFetching}
                  placeholder={t('plants:form.ownerPlaceholder')}
                  options={ownerOptions}
                  notFoundContent={owners.isFetching ? undefined : t('plants:form.ownerNone')}
                  data-testid="plant-owner"
                  popupRender={(menu) => (
                    <>
                      {menu}
                      {owners.data?.more && (
                        <Typography.Text type="secondary" style={{ display: 'block', padding: '4px 12px', fontSize: 12 }}>
                          {t('plants:form.ownerMore')}
                        </Typography.Text>
                      )}
                    </>
                  )}
                />
              </Form.Item>
            </Col>
          )}
          <Col {...col}>
            <Form.Item
              name="isDefault"
              label={t('plants:form.isDefault')}
              valuePropName="checked"
              tooltip={t('plants:form.isDefaultHint')}
              extra={editing && plant.isDefault ? t('plants:form.isDefaultLocked') : undefined}
            >
              {/* a default is cleared by making another plant the default (editPlant) */}
              <Switch disabled={editing && plant.isDefault} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="remark" label={t('plants:form.remark')}>
              <Input.TextArea rows={2} maxLength={1024} showCount />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item label={t('plants:form.image')}>
              <PlantImageField
                value={picSmall || picBig ? { picBig: picBig ?? '', picSmall: picSmall || picBig || '' } : undefined}
                onChange={(p) => form.setFieldsValue({ picBig: p?.picBig ?? '', picSmall: p?.picSmall ?? '' })}
                disabled={pending}
              />
            </Form.Item>
            <Form.Item name="picBig" hidden>
              <Input />
            </Form.Item>
            <Form.Item name="picSmall" hidden>
              <Input />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start" plain>
          {t('plants:form.location')}
        </Divider>
        <Row gutter={16}>
          {LOCATION_FIELDS.map((f) => (
            <Col key={f} {...col3}>
              <Form.Item name={f} label={t(`plants:form.${f}`)}>
                <Input maxLength={128} />
              </Form.Item>
            </Col>
          ))}
          <Col {...col3}>
            <Form.Item name="address" label={t('plants:form.address')}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="lon" label={t('plants:form.lon')} rules={[rule('lon')]} dependencies={['lat']}>
              <Input inputMode="decimal" placeholder="-180 … 180" data-testid="plant-lon" />
            </Form.Item>
          </Col>
          <Col xs={12} md={6}>
            <Form.Item name="lat" label={t('plants:form.lat')} rules={[rule('lat')]} dependencies={['lon']}>
              <Input inputMode="decimal" placeholder="-90 … 90" data-testid="plant-lat" />
            </Form.Item>
          </Col>
          <Col xs={24} md={12}>
            <Typography.Paragraph type="secondary" style={{ marginTop: phone ? 0 : 30 }}>
              {t('plants:form.mapHint')}
            </Typography.Paragraph>
          </Col>
          <Col span={24} style={{ marginBottom: 16 }}>
            {open && (
              <LocationPicker
                label={t('plants:form.map')}
                value={point}
                height={phone ? 220 : 280}
                onPick={(p) => {
                  form.setFieldsValue({ lon: String(p.lon), lat: String(p.lat) });
                  void form.validateFields(['lon', 'lat']);
                }}
              />
            )}
          </Col>
        </Row>

        <Divider titlePlacement="start" plain>
          {t('plants:form.plantData')}
        </Divider>
        <Row gutter={16}>
          <Col {...col3}>
            <Form.Item
              name="timezone"
              label={t('plants:form.timezone')}
              required
              rules={[rule('timezone')]}
              extra={editing ? t('plants:form.timezoneFixed') : t('plants:form.timezoneOnce')}
            >
              <Select
                disabled={editing}
                showSearch
                optionFilterProp="label"
                options={TIMEZONE_OFFSETS.map((s) => ({ value: s, label: timezoneLabel(s) }))}
                data-testid="plant-timezone"
              />
            </Form.Item>
          </Col>
          <Col {...col3}>
            <Form.Item name="nominalPower" label={t('plants:form.nominalPower')} required rules={[rule('nominalPower')]}>
              <Input inputMode="decimal" suffix="kW" />
            </Form.Item>
          </Col>
          <Col {...col3}>
            <Form.Item name="install" label={t('plants:form.install')} required rules={[rule('install')]}>
              <DatePicker style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
            </Form.Item>
          </Col>
          <Col {...col3}>
            <Form.Item name="installer" label={t('plants:form.installer')}>
              <Input maxLength={128} />
            </Form.Item>
          </Col>
          <Col {...col3}>
            <Form.Item name="energyOffset" label={t('plants:form.energyOffset')} rules={[rule('energyOffset')]} tooltip={t('plants:form.energyOffsetHint')}>
              <Input inputMode="decimal" suffix="kWh" />
            </Form.Item>
          </Col>
        </Row>

        <Divider titlePlacement="start" plain>
          {t('plants:form.income')}
        </Divider>
        <Row gutter={16}>
          <Col {...col3}>
            <Form.Item name="currency" label={t('plants:form.currency')} required rules={[rule('currency')]}>
              <Select options={CURRENCY_OPTIONS.map((c) => ({ value: c, label: `${c} (${CURRENCY_SYMBOLS[c]})` }))} />
            </Form.Item>
          </Col>
          <Col {...col3}>
            <Form.Item name="unitProfit" label={t('plants:form.unitProfit')} rules={[rule('unitProfit')]}>
              <Input inputMode="decimal" prefix={money} suffix="/ kWh" />
            </Form.Item>
          </Col>
          {PRICE_FIELDS.map((f) => (
            <Col key={f} {...col3}>
              <Form.Item name={f} label={t(`plants:form.prices.${f}`)} rules={[rule(f)]}>
                <Input inputMode="decimal" prefix={money} suffix="/ kWh" data-testid={`plant-${f}`} />
              </Form.Item>
            </Col>
          ))}
        </Row>
        {serverError && <Alert type="error" showIcon message={serverError} role="alert" data-testid="plant-form-error" />}
      </Form>
    </DraggableModal>
  );
}

export type { PlantFormValues };
