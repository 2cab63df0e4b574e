/**
 * Account management (spec §2, §3, §6): /adminNew/account, /admin/account (the old edition's
 * look: card tabs, compact bordered tables) and /adminNewStatr/home/account (the operator, over
 * all accounts). Tabs: users, groups, roles, device control permissions; each tab only when the
 * caller's role and function points allow it. The tab is kept in the address bar (`tab`).
 */
import { lazy, Suspense } from 'react';
import { Card, Skeleton, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useSearchParams } from 'react-router';
import { areaOfPath } from '../../../app/routes';
import { UsersTab } from '../components/UsersTab';
import { useAdminAccess } from '../components/use-admin-access';

const GroupsTab = lazy(() => import('../components/GroupsTab'));
const RolesTab = lazy(() => import('../components/RolesTab'));
const CtrlFieldsTab = lazy(() => import('../components/CtrlFieldsTab'));

type TabKey = 'users' | 'groups' | 'roles' | 'ctrl';

export default function AccountsAdminPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [params, setParams] = useSearchParams();
  const classic = areaOfPath(pathname)?.edition === 'old';
  const access = useAdminAccess();
  const tabs: TabKey[] = [
    'users',
    ...(access.groupsTab ? (['groups'] as const) : []),
    ...(access.rolesTab ? (['roles'] as const) : []),
    ...(access.ctrlTab ? (['ctrl'] as const) : []),
  ];
  const wanted = params.get('tab') as TabKey | null;
  const active: TabKey = wanted && tabs.includes(wanted) ? wanted : 'users';
  const fallback = <Skeleton active paragraph={{ rows: 6 }} />;
  const body = (key: TabKey) => {
    if (key !== active) return null;
    if (key === 'users') return <UsersTab access={access} classic={classic} />;
    const Tab = key === 'groups' ? GroupsTab : key === 'roles' ? RolesTab : CtrlFieldsTab;
    return (
      <Suspense fallback={fallback}>
        <Tab access={access} classic={classic} />
      </Suspense>
    );
  };
  return (
    <Card
      title={t('accounts:title')}
      data-testid="accounts-admin"
      data-edition={classic ? 'old' : 'new'}
      size={classic ? 'small' : undefined}
    >
      <Tabs
        type={classic ? 'card' : 'line'}
        size={classic ? 'small' : 'middle'}
        activeKey={active}
        onChange={(k) => setParams(k === 'users' ? {} : { tab: k }, { replace: true })}
        items={tabs.map((k) => ({ key: k, label: t(`accounts:tabs.${k}`), children: body(k) }))}
      />
    </Card>
  );
}
