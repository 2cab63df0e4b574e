/** Renders the whole app (providers, router with guards) at a path, for layout tests. */
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { ApiCallError } from '@sunwatch/protocol';
import { Providers } from '../app/providers';
import { buildRoutes } from '../app/router';
import type { GuardDeps } from '../app/guard';

/** Guard dependencies whose server calls all answer "not supported" (the session is local). */
export function offlineGuardDeps(): GuardDeps {
  return {
    call: vi.fn(async () => {
      throw new ApiCallError(9, 'ERR_NOT_SUPPORTED');
    }) as unknown as GuardDeps['call'],
  };
}

/** The app at `path`; returns its memory router (for `router.state.location`). */
export function renderAppAt(path: string, deps: GuardDeps = offlineGuardDeps()) {
  const router = createMemoryRouter(buildRoutes(deps), { initialEntries: [path] });
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}
