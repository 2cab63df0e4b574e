import { lazy, Suspense, useEffect, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { Navigate, Outlet, createBrowserRouter, redirect, useNavigate, type RouteObject } from 'react-router';
import { currentLocale } from '../i18n';
import { baseClient, setNavigator } from './api';
import { resolveNavigation, type GuardDeps } from './guard';
import { rememberNotFound } from './not-found';
import { AREAS, type AreaDef, type PageLoader, type RouteNode } from './routes';

const EntryPage = lazy(() => import('../features/entry/EntryPage'));
/**
 * antd's providers (theme, locale, App) with the antd/dayjs locale pack of the current language:
 * loaded with the first page that renders antd. The entry page is plain React and stays outside,
 * so signing in does not download antd (issue 8, entry page ≤ 200 KB). A failed locale pack
 * leaves antd in English rather than failing the page.
 */
const AntdScope = lazy(async () => {
  const [m] = await Promise.all([
    import('./antd-providers'),
    import('./locale-packs')
      .then((p) => p.loadLocalePack(currentLocale()))
      .catch((err: unknown) => console.warn('[i18n] could not load the antd/dayjs locale', err)),
  ]);
  return { default: m.AntdProviders };
});
// Layouts and status pages load on demand too (issue 8, first load): the entry page must not
// carry the area menus, dropdowns, tabs and result illustrations it never shows.
const AreaLayout = lazy(() => import('../layouts/AreaLayout').then((m) => ({ default: m.AreaLayout })));
const SettingsLayout = lazy(() => import('../layouts/SettingsLayout').then((m) => ({ default: m.SettingsLayout })));
const TabsLayout = lazy(() => import('../layouts/TabsLayout').then((m) => ({ default: m.TabsLayout })));
const NoPermissionPage = lazy(() => import('../pages/NoPermissionPage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));
const QrConfirmPage = lazy(() => import('../features/entry/qr/QrConfirmPage'));
const RouteErrorPage = lazy(() => import('../pages/RouteErrorPage').then((m) => ({ default: m.RouteErrorPage })));

function suspended(element: ReactNode): ReactNode {
  return <Suspense fallback={<Loading />}>{element}</Suspense>;
}

/** One lazy component per page loader of the route table (a loader shared by nodes is one chunk, one component). */
const lazyPages = new Map<PageLoader, LazyExoticComponent<ComponentType>>();
function lazyPage(load: PageLoader): LazyExoticComponent<ComponentType> {
  let Page = lazyPages.get(load);
  if (!Page) {
    Page = lazy(load);
    lazyPages.set(load, Page);
  }
  return Page;
}

function pageElement(load: PageLoader): ReactNode {
  const Page = lazyPage(load);
  return (
    <Suspense fallback={<Loading />}>
      <Page />
    </Suspense>
  );
}

/** Shown while a lazy page or layout loads: plain markup (global.css), no antd. */
export function Loading() {
  return (
    <div className="sw-loading" role="status" aria-busy="true" data-testid="route-loading">
      <span className="sw-loading-spinner" aria-hidden="true" />
    </div>
  );
}

function antd(element: ReactNode): ReactNode {
  return suspended(<AntdScope>{element}</AntdScope>);
}

/**
 * The node's page. Every leaf of the route table has one (routes.test.ts checks it); a node
 * without one could only come from a broken table, and answers "page not found".
 */
function page(node: RouteNode): ReactNode {
  return node.page ? pageElement(node.page) : <Navigate to="/404" replace />;
}

function nodeRoute(node: RouteNode, parentPath: string): RouteObject {
  const full = `${parentPath}/${node.path}`;
  if (node.layout === 'settings') {
    return {
      path: node.path,
      element: suspended(<SettingsLayout node={node} basePath={full} />),
      children: [
        {
          index: true,
          // The index: the default child, else the node's own page (the operator home).
          element: node.defaultChild ? (
            <Navigate to={`${full}/${node.defaultChild}`} replace />
          ) : (
            page(node)
          ),
        },
        ...(node.children ?? []).map((c) => nodeRoute(c, full)),
      ],
    };
  }
  if (node.layout === 'tabs') {
    // The node's own page is the first tab (its index); each child is a tab of its own address.
    return {
      path: node.path,
      element: suspended(<TabsLayout node={node} basePath={full} />),
      children: [{ index: true, element: page(node) }, ...(node.children ?? []).map((c) => nodeRoute(c, full))],
    };
  }
  if (node.subPage) {
    const sub = node.subPage;
    return {
      path: node.path,
      children: [
        { index: true, element: page(node) },
        { path: sub.pattern, element: pageElement(sub.page) },
      ],
    };
  }
  return { path: node.path, element: page(node) };
}

function areaRoute(area: AreaDef): RouteObject {
  return {
    path: area.base.slice(1),
    element: suspended(<AreaLayout area={area} />),
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
      errorElement: antd(<RouteErrorPage />),
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
          element: suspended(<EntryPage />),
        },
        { path: 'qr/confirm', element: suspended(<QrConfirmPage />) },
        {
          // every page but the entry page renders antd: one pathless scope loads its providers
          id: 'antd',
          element: antd(<Outlet />),
          children: [
            { path: '401', element: suspended(<NoPermissionPage />) },
            { path: '404', element: suspended(<NotFoundPage />) },
            ...AREAS.map(areaRoute),
            { path: '*', element: suspended(<NotFoundPage />) },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(buildRoutes());
}
