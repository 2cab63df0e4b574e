/**
 * The real dependencies of the login flow: the app's API client and session store. The flow
 * uses the client without the global err-10 redirect: a dead old token answering `logout`
 * with 10 must not navigate away (and drop `?redirect=`) in the middle of a sign-in.
 */
import { baseClient } from '../../app/api';
import { landingFor } from '../../app/edition';
import {
  clearSession,
  getRememberToken,
  getSession,
  saveLogin,
  setPermissions,
  type Session,
} from '../../app/session';
import type { LoginDeps } from './login-flow';
import { appNodeDeps } from './nodes/node-deps';

export const appLoginDeps: LoginDeps<Session> = {
  api: baseClient,
  getSession,
  getRememberToken,
  clearSession,
  saveLogin,
  setPermissions,
  // the role's landing page, or the first page of its area the account may open
  homePathFor: landingFor,
  nodes: appNodeDeps,
};
