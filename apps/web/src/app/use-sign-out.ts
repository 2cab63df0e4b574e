import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { baseClient } from './api';
import { clearSession, getRememberToken } from './session';

/**
 * Signs out: goes to the entry page first (`to`: /entry, or one of its modes; the area's pages
 * unmount, so none of their requests can fail on the dead session and redirect elsewhere, as
 * happened while the lazy entry page loaded), then revokes the token and the remember-me token on
 * the server (ignoring a token that is already gone — e.g. after a password change), and clears the
 * local session and cached server state.
 */
export function useSignOut(to = '/entry'): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    const rem = getRememberToken();
    await navigate(to);
    try {
      await baseClient.call('logout', rem ? { rem } : {});
    } catch {
      // The session may already be revoked server-side; the local session is cleared anyway.
    }
    clearSession();
    queryClient.clear();
  };
}
