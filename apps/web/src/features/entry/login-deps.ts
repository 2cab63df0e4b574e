/** The real dependencies of the login flow: the app's API client and session store. */
import { api } from '../../app/api';
import {
  clearSession,
  getRememberToken,
  getSession,
  homePathFor,
  saveLogin,
  setPermissions,
  type Session,
} from '../../app/session';
import type { LoginDeps } from './login-flow';

export const appLoginDeps: LoginDeps<Session> = {
  api,
  getSession,
  getRememberToken,
  clearSession,
  saveLogin,
  setPermissions,
  homePathFor,
};
