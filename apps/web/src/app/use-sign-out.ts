import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { baseClient } from './api';
import { clearSession, getRememberToken } from './session';

/**
 * Signs out: revokes the token and the remember-me token on the server (ignoring a token that is
 * already gone — e.g. after a password change), clears the local session and cached server
 * state, and goes to the entry page.
 */
export function useSignOut(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async () => {
    const rem = getRememberToken();
    try {
      await baseClient.call('logout', rem ? { rem } : {});
    } catch {
      // The session may already be revoked server-side; the local session is cleared anyway.
    }
    clearSession();
    queryClient.clear();
    await navigate('/entry');
  };
}
