import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { Flex, Spin } from 'antd';
import { Navigate, Outlet, createBrowserRouter, redirect, useNavigate, type RouteObject } from 'react-router';
import { AreaLayout } from '../layouts/AreaLayout';
import { SettingsLayout } from '../layouts/SettingsLayout';
import NoPermissionPage from '../pages/NoPermissionPage';
import NotFoundPage from '../pages/NotFoundPage';
import { PlaceholderPage } from '../pages/PlaceholderPage';
import { RouteErrorPage } from '../pages/RouteErrorPage';
import { baseClient, setNavigator } from './api';
import { resolveNavigation, type GuardDeps } from './guard';
import { rememberNotFound } from './not-found';
import { AREAS, type AreaDef, type FeatureId, type RouteNode } from './routes';

const EntryPage = lazy(() => import('../features/entry/EntryPage'));
const PersonalBasicPage = lazy(() => import('../features/account/pages/PersonalBasicPage'));
const OverviewPage = lazy(() => import('../features/overview/pages/OverviewPage'));
const DeviceListPage = lazy(() => import('../features/devices/pages/DeviceListPage'));
const DeviceDetailPage = lazy(() => import('../features/devices/pages/DeviceDetailPage'));
const ProjectsPage = lazy(() => import('../features/projects/pages/ProjectsPage'));

const FEATURES: Record<FeatureId, () => ReactNode> = {
  personalBasic: () => <PersonalBasicPage />,
  overview: () => <OverviewPage />,
  deviceList: () => <DeviceListPage />,
  deviceDetail: () => <DeviceDetailPage />,
  projects: () => <ProjectsPage />,
};

function Loading() {
  return (
    <Flex align="center" justify="center" style={{ minHeight: 240 }}>
      <Spin size="large" />
    </Flex>
  );
}

function page(node: RouteNode): ReactNode {
  const content = node.feature ? FEATURES[node.feature]() : <PlaceholderPage titleKey={node.titleKey} />;
  return <Suspense fallback={<Loading />}>{content}</Suspense>;
}

function nodeRoute(node: RouteNode, parentPath: string): RouteObject {
  const full = `${parentPath}/${node.path}`;
  if (node.layout === 'settings') {
    return {
      path: node.path,
      element: <SettingsLayout node={node} basePath={full} />,
      children: [
        {
          index: true,
          element: node.defaultChild ? (
            <Navigate to={`${full}/${node.defaultChild}`} replace />
          ) : (
            <PlaceholderPage titleKey={node.indexTitleKey ?? node.titleKey} />
          ),
        },
        ...(node.children ?? []).map((c) => nodeRoute(c, full)),
      ],
    };
  }
  if (node.subPage) {
    const sub = node.subPage;
    return {
      path: node.path,
      children: [
        { index: true, element: page(node) },
        { path: sub.pattern, element: <Suspense fallback={<Loading />}>{FEATURES[sub.feature]()}</Suspense> },
      ],
    };
  }
  return { path: node.path, element: page(node) };
}

function areaRoute(area: AreaDef): RouteObject {
  return {
    path: area.base.slice(1),
    element: <AreaLayout area={area} />,
    children: [
      { index: true, element: <Navigate to={`${area.base}/${area.defaultChild}`} replace /> },
      ...area.children.map((n) => nodeRoute(n, area.base)),
    ],
  };
}

/** Registers client-side navigation for the api's err-10 handling. */
function Root() {
  const navigate = useNavigate();
  useEffect(() => {
    setNavigator((to) => void navigate(to));
  }, [navigate]);
  return <Outlet />;
}

export function buildRoutes(deps: GuardDeps = { call: baseClient.call }): RouteObject[] {
  return [
    {
      id: 'root',
      element: <Root />,
      errorElement: <RouteErrorPage />,
      HydrateFallback: Loading,
      // The guard sees every navigation (the spec's checks depend on the whole path).
      shouldRevalidate: () => true,
      loader: async ({ request }) => {
        const url = new URL(request.url);
        const result = await resolveNavigation(url, deps);
        if ('redirect' in result) {
          if (result.redirect === '/404') rememberNotFound(url.pathname);
          throw redirect(result.redirect);
        }
        return null;
      },
      children: [
        { index: true, element: <Navigate to="/entry" replace /> },
        {
          path: 'entry',
          element: (
            <Suspense fallback={<Loading />}>
              <EntryPage />
            </Suspense>
          ),
        },
        { path: '401', element: <NoPermissionPage /> },
        { path: '404', element: <NotFoundPage /> },
        ...AREAS.map(areaRoute),
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
