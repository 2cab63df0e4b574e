/**
 * Create an account (spec §2 "Account management"): the type decides the action (dealer → addDist,
 * owner → addPlantOwner, viewer → addPlantBrowser, group account → addGroupAccount,
 * sub-administrator → addSubAdmin). The form checks the spec §5 rules before sending; what the
 * server refuses shows under the form in the user's language.
 */
import { useState } from 'react';
import { Alert, Form, Input, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiCallError, type Role } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { getSession } from '../../../app/session';
import { useIsPhone } from '../../../components/responsive';
import { PasswordStrength } from '../../../components/password/PasswordStrength';
import type { AccountType } from '../api/account-kinds';
import { createFormErrors, dealerCodes, type CreateValues } from '../api/account-types';
import { encodeSubAccountPassword } from '@sunwatch/protocol';
import { useAdminMutation, useGroups, usePlantChoices, useRoles } from '../api/queries';
import { formText } from './form-text';
import { ADMIN_ROLES } from './use-admin-access';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

/** Which field a server error belongs to (username taken, password rules, e-mail, phone). */
const FIELD_OF_ERROR: Record<number, keyof CreateValues> = {
  21: 'usr',
  24: 'usr',
  519: 'usr',
  17: 'pwd',
  20: 'email',
  19: 'mobile',
  18: 'mobile',
  26: 'email',
};

export default function CreateAccountDialog({
  open,
  role,
  types,
  onClose,
}: {
  open: boolean;
  role: Role;
  /** The types the caller may create (use-admin-access `createTypes`). */
  types: readonly AccountType[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [form] = Form.useForm<CreateValues>();
  const type: AccountType = Form.useWatch('type', form) ?? types[0] ?? 'owner';
  const pwd = Form.useWatch('pwd', form);
  const [serverError, setServerError] = useState<string>();
  const administers = ADMIN_ROLES.includes(role);
  const groups = useGroups(undefined, open && administers);
  const roles = useRoles(undefined, open && administers);
  const [plantSearch, setPlantSearch] = useState('');
  const plants = usePlantChoices(plantSearch, open && type === 'viewer');

  const addDist = useAdminMutation('addDist');
  const addOwner = useAdminMutation('addPlantOwner');
  const addViewer = useAdminMutation('addPlantBrowser');
  const addGroup = useAdminMutation('addGroupAccount');
  const addSub = useAdminMutation('addSubAdmin');
  const pending = [addDist, addOwner, addViewer, addGroup, addSub].some((m) => m.isPending);

  const fieldRule = (field: keyof CreateValues) => ({
    validator: async () => {
      const key = createFormErrors({ ...form.getFieldsValue(true), type })[field];
      if (key) throw new Error(formText(key));
    },
  });

  const close = () => {
    form.resetFields();
    setServerError(undefined);
    onClose();
  };

  const submit = async (v: CreateValues) => {
    const session = getSession();
    if (!session) return;
    setServerError(undefined);
    const common = {
      usr: v.usr.trim(),
      ...encodeSubAccountPassword(session.secret, v.pwd),
      email: v.email?.trim() || undefined,
      mobile: v.mobile?.trim() || undefined,
      desc: v.desc?.trim() || undefined,
    };
    const profile = { ...common, qname: v.qname?.trim() || undefined };
    try {
      if (type === 'dealer') await addDist.mutateAsync({ ...profile, vcode: dealerCodes(v.vcode), rid: v.rid });
      else if (type === 'owner')
        await addOwner.mutateAsync({
          ...profile,
          rid: v.rid,
          groupid: v.groupid,
          addCollector: v.addCollector ?? true,
        });
      else if (type === 'viewer')
        await addViewer.mutateAsync({ ...common, pid: (v.pid ?? []).join(',') || undefined, enable: true });
      else if (type === 'group') await addGroup.mutateAsync({ ...profile, groupid: v.groupid ?? 0 });
      else await addSub.mutateAsync({ ...profile, rid: v.rid });
    } catch (e) {
      const field = e instanceof ApiCallError ? FIELD_OF_ERROR[e.err] : undefined;
      if (field) form.setFields([{ name: field, errors: [apiErrorText(e)] }]);
      setServerError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:create.done', { usr: v.usr.trim() }));
    close();
  };

  const groupOptions = (groups.data?.group ?? []).map((g) => ({ value: g.groupid, label: g.name }));
  const roleOptions = (roles.data?.role ?? []).map((r) => ({ value: r.rid, label: r.name }));

  return (
    <DraggableModal
      open={open}
      title={t('accounts:create.title')}
      onCancel={close}
      onOk={() => form.submit()}
      okText={t('accounts:actions.create')}
      cancelText={t('accounts:actions.cancel')}
      confirmLoading={pending}
      width={phone ? '100%' : 560}
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0, paddingBottom: 0 } : undefined}
      destroyOnHidden
      data-testid="create-account-dialog"
    >
      <Form<CreateValues>
        form={form}
        layout="vertical"
        initialValues={{ type: types[0], addCollector: true }}
        onFinish={(v) => void submit(v)}
        validateTrigger="onBlur"
        requiredMark
      >
        <Form.Item name="type" label={t('accounts:fields.type')} required>
          <Select
            data-testid="create-type"
            options={types.map((ty) => ({ value: ty, label: t(`accounts:types.${ty}`) }))}
            onChange={() => setServerError(undefined)}
          />
        </Form.Item>
        <Form.Item name="usr" label={t('accounts:fields.usr')} required rules={[fieldRule('usr')]}>
          <Input autoComplete="off" maxLength={32} data-testid="create-usr" />
        </Form.Item>
        <Form.Item
          name="pwd"
          label={t('accounts:fields.password')}
          required
          rules={[fieldRule('pwd')]}
          extra={<PasswordStrength value={pwd} />}
        >
          <Input.Password autoComplete="new-password" maxLength={32} data-testid="create-pwd" />
        </Form.Item>
        <Form.Item
          name="confPwd"
          label={t('accounts:fields.confirmPassword')}
          required
          dependencies={['pwd']}
          rules={[fieldRule('confPwd')]}
        >
          <Input.Password autoComplete="new-password" maxLength={32} data-testid="create-confpwd" />
        </Form.Item>
        {type === 'dealer' && (
          <Form.Item
            name="vcode"
            label={t('accounts:fields.dealerCodes')}
            required
            rules={[fieldRule('vcode')]}
            extra={t('accounts:create.vcodeHint')}
          >
            <Input data-testid="create-vcode" />
          </Form.Item>
        )}
        {type === 'group' && (
          <Form.Item name="groupid" label={t('accounts:fields.group')} required rules={[fieldRule('groupid')]}>
            <Select options={groupOptions} loading={groups.isFetching} data-testid="create-group" />
          </Form.Item>
        )}
        {type === 'owner' && administers && (
          <Form.Item name="groupid" label={t('accounts:fields.group')}>
            <Select allowClear options={groupOptions} loading={groups.isFetching} />
          </Form.Item>
        )}
        {(type === 'subAdmin' || type === 'dealer' || (type === 'owner' && administers)) && (
          <Form.Item
            name="rid"
            label={t('accounts:fields.role')}
            required={type === 'subAdmin'}
            rules={type === 'subAdmin' ? [fieldRule('rid')] : []}
            extra={type === 'dealer' ? t('accounts:create.dealerRoleHint') : undefined}
          >
            <Select allowClear options={roleOptions} loading={roles.isFetching} data-testid="create-role" />
          </Form.Item>
        )}
        {type === 'viewer' && (
          <Form.Item name="pid" label={t('accounts:fields.plants')}>
            <Select
              mode="multiple"
              showSearch
              filterOption={false}
              onSearch={setPlantSearch}
              loading={plants.isFetching}
              options={(plants.data?.plant ?? []).map((p) => ({ value: p.pid, label: p.name }))}
              data-testid="create-plants"
            />
          </Form.Item>
        )}
        {type === 'owner' && (
          <Form.Item name="addCollector" label={t('accounts:fields.addCollector')} valuePropName="checked">
            <Switch />
          </Form.Item>
        )}
        {type !== 'viewer' && (
          <Form.Item name="qname" label={t('accounts:fields.nickname')} rules={[fieldRule('qname')]}>
            <Input maxLength={32} />
          </Form.Item>
        )}
        <Form.Item name="email" label={t('accounts:fields.email')} rules={[fieldRule('email')]}>
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        <Form.Item name="mobile" label={t('accounts:fields.mobile')} rules={[fieldRule('mobile')]}>
          <Input maxLength={32} autoComplete="off" />
        </Form.Item>
        <Form.Item name="desc" label={t('accounts:fields.desc')}>
          <Input.TextArea maxLength={1024} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        {serverError && <Alert type="error" showIcon message={serverError} data-testid="create-error" />}
      </Form>
    </DraggableModal>
  );
}
