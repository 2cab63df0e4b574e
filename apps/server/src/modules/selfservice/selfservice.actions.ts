import type { HandlerMap } from '../../http/registry.js';
import { callerOf } from '../../http/registry.js';
import { selfService } from './selfservice.service.js';

/** Issue 12 self-service (protocol actions/selfservice.ts). */
export const selfServiceHandlers: HandlerMap = {
  getPictureCode: ({ call }, ctx) => selfService(ctx).pictureCode(call.ip),
  sendSmsCodeMobile: async ({ params, call }, ctx) => {
    await selfService(ctx).sendSignupCode(params, call.ip, call.locale);
    return undefined;
  },
  sendSmsCode: async ({ params, call }, ctx) => {
    const { usr, channel, mobile, email, vkey, vcode } = params;
    await selfService(ctx).sendResetCode({ usr, channel, mobile, email, vkey, vcode }, call.ip, call.locale);
    return undefined;
  },
  confirmSmsCode: async ({ params }, ctx) => {
    await selfService(ctx).confirmResetCode(params);
    return undefined;
  },
  smsCodeUpdatePassword: async ({ params }, ctx) => {
    const { usr, channel, smsCode, pwd, pwdtext, mobile, email } = params;
    await selfService(ctx).resetPassword({ usr, channel, smsCode, pwd, pwdtext, mobile, email });
    return undefined;
  },
  regBindMobileUsually: ({ params }, ctx) => {
    const { usr, pwd, pwdtext, code, sn, country, mobile } = params;
    return selfService(ctx).signup({ usr, pwd, pwdtext, code, sn, country, mobile, 'company-key': params['company-key'] }, 'phone');
  },
  regBindMailboxUsually: ({ params }, ctx) => {
    const { usr, pwd, pwdtext, code, sn, country, email } = params;
    return selfService(ctx).signup({ usr, pwd, pwdtext, code, sn, country, email, 'company-key': params['company-key'] }, 'email');
  },
  reg: ({ params, call }, ctx) => {
    const { usr, pwd, pwdtext, sn, mobile, email } = params;
    return selfService(ctx).reg({ usr, pwd, pwdtext, sn, mobile, email, 'company-key': params['company-key'] }, { verifySign: call.verifyLoginSign, client: call });
  },
  sendBindCode: async ({ params, ...i }, ctx) => {
    const { purpose, channel, mobile, email } = params;
    await selfService(ctx).sendBindCode(callerOf(i), { purpose, channel, mobile, email }, i.call.ip, i.call.locale);
    return undefined;
  },
  bindMobile: async ({ params, ...i }, ctx) => {
    await selfService(ctx).bind(callerOf(i), 'phone', params.mobile, params.smsCode, i.call);
    return undefined;
  },
  bindEmail: async ({ params, ...i }, ctx) => {
    await selfService(ctx).bind(callerOf(i), 'email', params.email, params.smsCode, i.call);
    return undefined;
  },
  unbindMobile: async ({ params, ...i }, ctx) => {
    await selfService(ctx).unbind(callerOf(i), 'phone', params.smsCode, i.call);
    return undefined;
  },
  unbindEmail: async ({ params, ...i }, ctx) => {
    await selfService(ctx).unbind(callerOf(i), 'email', params.smsCode, i.call);
    return undefined;
  },
};
