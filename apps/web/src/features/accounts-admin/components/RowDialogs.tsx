/**
 * The dialogs of one account row: edit, reset password, move group, related owner, assign role.
 * Each sends one action and shows the server's refusal under its form.
 */
import { useState, type ReactNode } from 'react';
import { Alert, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiCallError, ROLE, type AccountListRow } from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { getSession } from '../../../app/session';
import { useIsPhone } from '../../../components/responsive';
import { PasswordStrength } from '../../../components/password/PasswordStrength';
import { createFormErrors, dealerCodes, passwordFormErrors } from '../api/account-types';
import { encodeSubAccountPassword } from '@sunwatch/protocol';
import { useAccountSearch, useAdminMutation, useGroups, useRoles } from '../api/queries';
import { formText } from './form-text';
import { isDealerRow } from './row-kinds';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

function DialogShell(props: {
  title: string;
  open: boolean;
  pending: boolean;
  error?: string;
  onOk: () => void;
  onClose: () => void;
  testId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  return (
    <DraggableModal
      open={props.open}
      title={props.title}
      onOk={props.onOk}
      onCancel={props.onClose}
      okText={t('accounts:actions.save')}
      cancelText={t('accounts:actions.cancel')}
      confirmLoading={props.pending}
      width={phone ? '100%' : 520}
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0 } : undefined}
      destroyOnHidden
      data-testid={props.testId}
    >
      {props.children}
      {props.error && <Alert type="error" showIcon message={props.error} data-testid="dialog-error" />}
    </DraggableModal>
  );
}

interface Props {
  row: AccountListRow;
  onClose: () => void;
}

export function EditAccountDialog({ row, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{
    qname: string;
    email: string;
    mobile: string;
    desc: string;
    cname: string;
    ctel: string;
    vcode: string;
  }>();
  const dealer = isDealerRow(row);
  const editDist = useAdminMutation('editDist');
  const editSub = useAdminMutation('editSubAccount');
  const [error, setError] = useState<string>();
  const rule = (field: 'qname' | 'email' | 'mobile' | 'vcode') => ({
    validator: async () => {
      const v = form.getFieldsValue(true) as Record<string, string>;
      // the create rules for the profile fields (username and password are not edited here)
      const key = createFormErrors({
        ...v,
        type: dealer ? 'dealer' : 'owner',
        usr: row.usr,
        pwd: 'Abc_12345',
        confPwd: 'Abc_12345',
      })[field];
      if (key) throw new Error(formText(key));
    },
  });
  const submit = async () => {
    const v = await form.validateFields();
    setError(undefined);
    // empty = cleared (the vendor's `&cname=`)
    const profile = {
      uid: row.uid,
      qname: v.qname ?? '',
      email: v.email ?? '',
      mobile: v.mobile ?? '',
      desc: v.desc ?? '',
    };
    try {
      if (dealer) await editDist.mutateAsync({ ...profile, vcode: dealerCodes(v.vcode) });
      else await editSub.mutateAsync(profile);
    } catch (e) {
      setError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:done'));
    onClose();
  };
  return (
    <DialogShell
      title={t('accounts:edit.title', { usr: row.usr })}
      open
      pending={editDist.isPending || editSub.isPending}
      error={error}
      onOk={() => void submit().catch(() => undefined)}
      onClose={onClose}
      testId="edit-account-dialog"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ qname: row.qname, email: row.email, mobile: row.mobile, desc: row.desc, vcode: row.dist }}
      >
        <Form.Item name="qname" label={t('accounts:fields.nickname')} rules={[rule('qname')]}>
          <Input maxLength={32} />
        </Form.Item>
        {dealer && (
          <Form.Item name="vcode" label={t('accounts:fields.dealerCodes')} rules={[rule('vcode')]}>
            <Input />
          </Form.Item>
        )}
        <Form.Item name="email" label={t('accounts:fields.email')} rules={[rule('email')]}>
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item name="mobile" label={t('accounts:fields.mobile')} rules={[rule('mobile')]}>
          <Input maxLength={32} />
        </Form.Item>
        <Form.Item name="desc" label={t('accounts:fields.desc')}>
          <Input.TextArea maxLength={1024} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </DialogShell>
  );
}

export function ResetPasswordDialog({ row, onClose }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ pwd: string; confPwd: string }>();
  const pwd = Form.useWatch('pwd', form);
  const reset = useAdminMutation('resetAccountPassword');
  const [error, setError] = useState<string>();
  const rule = (field: 'pwd' | 'confPwd') => ({
    validator: async () => {
      const v = form.getFieldsValue(true) as { pwd?: string; confPwd?: string };
      const key = passwordFormErrors(v.pwd, v.confPwd)[field];
      if (key) throw new Error(formText(key));
    },
  });
  const submit = async () => {
    const v = await form.validateFields();
    const session = getSession();
    if (!session) return;
    setError(undefined);
    try {
      await reset.mutateAsync({ uid: row.uid, ...encodeSubAccountPassword(session.secret, v.pwd) });
    } catch (e) {
      if (e instanceof ApiCallError && e.err === 17) form.setFields([{ name: 'pwd', errors: [apiErrorText(e)] }]);
      setError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:password.done', { usr: row.usr }));
    onClose();
  };
  return (
    <DialogShell
      title={t('accounts:password.title', { usr: row.usr })}
      open
      pending={reset.isPending}
      error={error}
      onOk={() => void submit().catch(() => undefined)}
      onClose={onClose}
      testId="reset-password-dialog"
    >
      <Typography.Paragraph type="secondary">{t('accounts:password.hint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" validateTrigger="onBlur">
        <Form.Item
          name="pwd"
          label={t('accounts:fields.newPassword')}
          required
          rules={[rule('pwd')]}
          extra={<PasswordStrength value={pwd} />}
        >
          <Input.Password autoComplete="new-password" maxLength={32} />
        </Form.Item>
        <Form.Item
          name="confPwd"
          label={t('accounts:fields.confirmPassword')}
          required
          dependencies={['pwd']}
          rules={[rule('confPwd')]}
        >
          <Input.Password autoComplete="new-password" maxLength={32} />
        </Form.Item>
      </Form>
    </DialogShell>
  );
}

/** Move one or more accounts into a group, or out of any group. */
export function MoveGroupDialog({ rows, onClose }: { rows: AccountListRow[]; onClose: () => void }) {
  const { t } = useTranslation();
  const groups = useGroups();
  const move = useAdminMutation('moveAccountGroup');
  const [groupid, setGroupid] = useState<number | 'none' | undefined>(
    rows.length === 1 && rows[0]!.groupId ? rows[0]!.groupId : undefined,
  );
  const [error, setError] = useState<string>();
  const submit = async () => {
    if (groupid === undefined) {
      setError(t('accounts:create.groupRequired'));
      return;
    }
    try {
      await move.mutateAsync({ uid: rows.map((r) => r.uid).join(','), groupid: groupid === 'none' ? '' : groupid });
    } catch (e) {
      setError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:done'));
    onClose();
  };
  return (
    <DialogShell
      title={t('accounts:moveGroup.title', { n: rows.length })}
      open
      pending={move.isPending}
      error={error}
      onOk={() => void submit()}
      onClose={onClose}
      testId="move-group-dialog"
    >
      <Select
        style={{ width: '100%' }}
        value={groupid}
        onChange={setGroupid}
        loading={groups.isFetching}
        aria-label={t('accounts:fields.group')}
        options={[
          { value: 'none', label: t('accounts:filters.ungrouped') },
          ...(groups.data?.group ?? []).map((g) => ({ value: g.groupid, label: g.name })),
        ]}
      />
    </DialogShell>
  );
}

/** Related owner: put plant owners under a distributor or manufacturer found by search. */
export function RelateOwnerDialog({ rows, onClose }: { rows: AccountListRow[]; onClose: () => void }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const found = useAccountSearch(search);
  const relate = useAdminMutation('relateOwner');
  const [puid, setPuid] = useState<number>();
  const [error, setError] = useState<string>();
  const superiors = (found.data?.account ?? []).filter(
    (a) => (a.role === ROLE.MANUFACTURER || isDealerRow(a)) && a.enable,
  );
  const submit = async () => {
    if (!puid) {
      setError(t('accounts:relate.required'));
      return;
    }
    try {
      await relate.mutateAsync({ uid: rows.map((r) => r.uid).join(','), puid });
    } catch (e) {
      setError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:done'));
    onClose();
  };
  return (
    <DialogShell
      title={t('accounts:relate.title', { n: rows.length })}
      open
      pending={relate.isPending}
      error={error}
      onOk={() => void submit()}
      onClose={onClose}
      testId="relate-owner-dialog"
    >
      <Typography.Paragraph type="secondary">{t('accounts:relate.hint')}</Typography.Paragraph>
      <Select
        style={{ width: '100%' }}
        showSearch
        filterOption={false}
        value={puid}
        onChange={setPuid}
        onSearch={setSearch}
        loading={found.isFetching}
        placeholder={t('accounts:relate.search')}
        notFoundContent={search ? t('accounts:empty') : null}
        options={superiors.map((a) => ({
          value: a.uid,
          label: `${a.usr}${a.qname ? ` (${a.qname})` : ''} · ${t(`common:roles.${a.role}`)}`,
        }))}
      />
    </DialogShell>
  );
}

/** Assign a custom role (required: "a role is required when assigning permissions"). */
export function AssignRoleDialog({ rows, onClose }: { rows: AccountListRow[]; onClose: () => void }) {
  const { t } = useTranslation();
  const roles = useRoles();
  const assign = useAdminMutation('assignRole');
  const [rid, setRid] = useState<number | undefined>(rows.length === 1 && rows[0]!.rid ? rows[0]!.rid : undefined);
  const [error, setError] = useState<string>();
  const dealers = rows.some(isDealerRow);
  const submit = async () => {
    if (!rid) {
      setError(formText('rules.role.required'));
      return;
    }
    try {
      await assign.mutateAsync({ uid: rows.map((r) => r.uid).join(','), rid });
    } catch (e) {
      setError(apiErrorText(e));
      return;
    }
    void notice().success(t('accounts:done'));
    onClose();
  };
  const options = (roles.data?.role ?? []).map((r) => ({
    value: r.rid,
    label: r.name,
    // a dealer cannot be bound to a role with data permissions (spec §5)
    disabled: dealers && r.dataGroups.length > 0,
  }));
  return (
    <DialogShell
      title={t('accounts:assignRole.title', { n: rows.length })}
      open
      pending={assign.isPending}
      error={error}
      onOk={() => void submit()}
      onClose={onClose}
      testId="assign-role-dialog"
    >
      {dealers && <Typography.Paragraph type="secondary">{t('accounts:create.dealerRoleHint')}</Typography.Paragraph>}
      <Select
        style={{ width: '100%' }}
        value={rid}
        onChange={setRid}
        loading={roles.isFetching}
        options={options}
        aria-label={t('accounts:fields.role')}
        data-testid="assign-role-select"
      />
    </DialogShell>
  );
}
