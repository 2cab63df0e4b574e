import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import {
  ACCOUNT_STATUS,
  ApiError,
  CODE_LIMITS,
  CODE_MAX_ATTEMPTS,
  CODE_VALIDITY_MS,
  PICTURE_CODE_VALIDITY_MS,
  ROLE,
  TOO_SIMPLE_PASSWORDS,
  isEmail,
  isMainlandMobile,
  isPn,
  passwordSchema,
  rc4DecryptHex,
  sha1Hex,
  usernameSchema,
  type AuthDat,
  type CodePurpose,
} from '@sunwatch/protocol';
import type { AppContext, Caller } from '../../context.js';
import type { AccountRow } from '../accounts/accounts.repository.js';
import { checkProfile } from '../accounts/account-fields.js';
import { CodeRepository, type CodeRow } from './code.repository.js';
import { codeMail, codeSms } from './code-texts.js';
import { contactChangeMail, contactChangeSms } from './contact-change-texts.js';
import { fmtTs } from '../../shared/local-time.js';
import { newPictureCode, pictureSvg } from './picture-code.js';
import { OutboxSmsProvider, type SmsProvider } from './sms.js';

const HOUR = 3_600_000;
const TOO_SIMPLE = new Set(TOO_SIMPLE_PASSWORDS.map(sha1Hex));
const SHA1_HEX = /^[0-9a-fA-F]{40}$/;

export type Channel = 'phone' | 'email';
/** `0`/`00` phone, `1`/`01` email (spec §7). */
export const channelOf = (c: string): Channel => (c === '0' || c === '00' ? 'phone' : 'email');

function hashCode(code: string, salt = randomBytes(16).toString('hex')): string {
  return `${salt}:${createHash('sha256')
    .update(salt + code)
    .digest('hex')}`;
}
function codeMatches(stored: string, code: string): boolean {
  const [salt] = stored.split(':');
  const a = Buffer.from(stored);
  const b = Buffer.from(hashCode(code, salt));
  return a.length === b.length && timingSafeEqual(a, b);
}
const normEmail = (s: string) => s.trim().toLowerCase();

/**
 * Verification codes, signup, password retrieval and bind/unbind (issue 12, spec §4, §5, §7):
 * codes are 6 digits, stored salted-hashed, single use, dead after CODE_MAX_ATTEMPTS wrong entries;
 * a phone code lives 1 minute, an email code 5. Sending is limited per address and per IP (524)
 * and refused while the previous code to the address is still valid (525). Mails go through the
 * durable mail queue (outbox without SMTP_URL), SMS through an SmsProvider (outbox by default).
 */
export class SelfServiceService {
  readonly codes: CodeRepository;
  sms: SmsProvider;

  constructor(private readonly ctx: AppContext) {
    this.codes = new CodeRepository(ctx.db);
    this.sms = new OutboxSmsProvider(ctx.services.notifications.queue, ctx.now);
  }

  private get now(): number {
    return this.ctx.now();
  }

  // ------------------------------------------------------------------ codes

  private async send(p: {
    purpose: CodePurpose;
    channel: Channel;
    target: string;
    accountId: number | null;
    ip: string;
    locale: string;
  }): Promise<void> {
    const now = this.now;
    const latest = await this.codes.latest(p.purpose, p.target, undefined);
    if (latest && latest.expires_at > now && latest.attempts < CODE_MAX_ATTEMPTS) throw new ApiError(525);
    if ((await this.codes.countSince({ target: p.target }, now - HOUR)) >= CODE_LIMITS.perTargetHour)
      throw new ApiError(524);
    if ((await this.codes.countSince({ ip: p.ip }, now - HOUR)) >= CODE_LIMITS.perIpHour) throw new ApiError(524);
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const validity = CODE_VALIDITY_MS[p.channel];
    const id = await this.codes.insert({
      purpose: p.purpose,
      channel: p.channel === 'phone' ? 0 : 1,
      target: p.target,
      account_id: p.accountId,
      code_hash: hashCode(code),
      ip: p.ip,
      created_at: now,
      expires_at: now + validity,
    });
    const dedupeKey = `code:${id}`;
    if (p.channel === 'email') {
      const n = this.ctx.services.notifications;
      await n.queue.enqueue(
        {
          dedupeKey,
          kind: 'code',
          accountId: p.accountId,
          recipient: p.target,
          locale: p.locale,
          ...codeMail(p.locale, code, validity),
        },
        n.sender.enabled ? 'queued' : 'outbox',
        now,
      );
    } else {
      await this.sms.send({
        to: p.target,
        text: codeSms(p.locale, code, validity),
        locale: p.locale,
        accountId: p.accountId,
        dedupeKey,
      });
    }
  }

  /**
   * Checks a code: 512 when there is none or it does not match (the wrong attempt is counted even
   * though the call fails), 513 when expired or dead. `consume` marks it used, else confirmed.
   */
  private async check(
    row: CodeRow | undefined,
    code: string,
    mode: 'consume' | 'confirm' | 'consumeConfirmed',
  ): Promise<CodeRow> {
    const now = this.now;
    if (!row) throw new ApiError(512);
    if (row.expires_at <= now || row.attempts >= CODE_MAX_ATTEMPTS) throw new ApiError(513);
    if (!codeMatches(row.code_hash, code)) {
      await this.ctx.dbh.durable(() => this.codes.addAttempt(row.id));
      throw new ApiError(512);
    }
    if (mode === 'confirm') await this.codes.markConfirmed(row.id);
    else await this.codes.markUsed(row.id, now);
    return row;
  }

  // ------------------------------------------------------------------ picture code

  async pictureCode(ip: string): Promise<{ key: string; img: string }> {
    const now = this.now;
    if ((await this.codes.picturesSince(ip, now - HOUR)) >= CODE_LIMITS.pictureCodesPerIpHour) throw new ApiError(524);
    await this.codes.deleteExpiredPictures(now);
    const key = randomBytes(16).toString('hex');
    const code = newPictureCode();
    await this.codes.insertPicture({
      key,
      code_hash: hashCode(code),
      ip,
      created_at: now,
      expires_at: now + PICTURE_CODE_VALIDITY_MS,
    });
    return { key, img: pictureSvg(code) };
  }

  /** Single use: the picture code is gone after one check, right or wrong (384 when wrong or expired). */
  private async checkPicture(key: string, typed: string): Promise<void> {
    const row = await this.codes.picture(key);
    await this.ctx.dbh.durable(() => this.codes.deletePicture(key));
    if (!row || row.expires_at <= this.now || !codeMatches(row.code_hash, typed.trim().toUpperCase()))
      throw new ApiError(384, 'vcode');
  }

  // ------------------------------------------------------------------ signup

  /** sendSmsCodeMobile: a signup code to a phone (mainland pattern, 19) or an email (20) no account has (18 / 26). */
  async sendSignupCode(
    p: { channel: string; mobile?: string | undefined; email?: string | undefined },
    ip: string,
    locale: string,
  ): Promise<void> {
    const channel = channelOf(p.channel);
    const target = await this.freeTarget(channel, p.mobile, p.email);
    await this.send({ purpose: 'signup', channel, target, accountId: null, ip, locale });
  }

  /** A phone or email no other account has (18 / 26); phone codes go to mainland mobiles only (`mainland`). */
  private async freeTarget(
    channel: Channel,
    mobile: string | undefined,
    email: string | undefined,
    self?: number,
    mainland = true,
  ): Promise<string> {
    if (channel === 'phone') {
      const m = (mobile ?? '').trim();
      if (!m) throw new ApiError(7, 'mobile');
      if (mainland && !isMainlandMobile(m)) throw new ApiError(19);
      const holder = await this.ctx.dbh.db
        .selectFrom('accounts')
        .select('id')
        .where('mobile', '=', m)
        .executeTakeFirst();
      if (holder && Number(holder.id) !== self) throw new ApiError(18);
      return m;
    }
    const e = normEmail(email ?? '');
    if (!e) throw new ApiError(7, 'email');
    if (!isEmail(e) || e.length > 64) throw new ApiError(20);
    const holder = await this.ctx.dbh.db
      .selectFrom('accounts')
      .select('id')
      .where((eb) => eb(eb.fn('lower', ['email']), '=', e))
      .executeTakeFirst();
    if (holder && Number(holder.id) !== self) throw new ApiError(26);
    return e;
  }

  /**
   * The sha1hex of a self-service password (`key` = sha1hex(usr), for `reg` sha1hex(PN)); 16 when
   * it does not decrypt to a digest, 17 on the §5 rules.
   */
  private password(key: string, pwd: string, pwdtext: string | undefined): string {
    const digest = rc4DecryptHex(key, pwd);
    if (digest === undefined || !SHA1_HEX.test(digest)) throw new ApiError(16);
    const sha1 = digest.toLowerCase();
    if (pwdtext !== undefined) {
      const text = rc4DecryptHex(key, pwdtext);
      if (text === undefined || sha1Hex(text) !== sha1 || !passwordSchema.safeParse(text).success)
        throw new ApiError(17);
    } else if (!this.ctx.config.passwordChangeCompat) {
      throw new ApiError(17, 'pwdtext');
    }
    if (TOO_SIMPLE.has(sha1)) throw new ApiError(17);
    return sha1;
  }

  /**
   * regBindMobileUsually / regBindMailboxUsually: a plant owner under the distributor that holds the
   * datalogger `sn` (else its manufacturer), its default plant named after the PN, the datalogger
   * bound to it. Errors: 15 company key, 21 username format, 519 taken, 16/17 password, 19/20 and
   * 18/26 contact, 259 PN format, 257 unknown PN, 772 already bound, 512/513 code.
   */
  async signup(
    p: {
      usr: string;
      pwd: string;
      pwdtext?: string | undefined;
      code: string;
      'company-key': string;
      sn: string;
      country: string;
      mobile?: string | undefined;
      email?: string | undefined;
    },
    channel: Channel,
  ): Promise<{ uid: number; usr: string }> {
    if (!(await this.ctx.services.companyKeys.isValid(p['company-key']))) throw new ApiError(15);
    const usr = p.usr.trim();
    if (!usernameSchema.safeParse(usr).success) throw new ApiError(21);
    if (await this.ctx.repos.accounts.findByUsr(usr)) throw new ApiError(519);
    const pwdSha1 = this.password(sha1Hex(usr), p.pwd, p.pwdtext);
    const target = await this.freeTarget(channel, p.mobile, p.email);
    const pn = p.sn.trim().toUpperCase();
    if (!isPn(pn)) throw new ApiError(259, 'sn');
    const dl = await this.unregisteredDatalogger(pn, 772);
    await this.check(await this.codes.latest('signup', target, undefined), p.code, 'consume');
    const uid = await this.createOwner({
      usr,
      pwdSha1,
      parentId: dl.parentId,
      contact: channel === 'phone' ? { mobile: target } : { email: target },
      pn,
      tzOffset: dl.tzOffset,
      country: p.country.toUpperCase(),
    });
    return { uid, usr };
  }

  /**
   * The datalogger of `pn` that an owner may register with: known (else 257), held by no owner
   * (else `registeredErr`: 772 for the web signup, the vendor's 520 for `reg`) and under a
   * distributor or manufacturer, who becomes the new owner's parent.
   */
  private async unregisteredDatalogger(
    pn: string,
    registeredErr: 520 | 772,
  ): Promise<{ parentId: number; tzOffset: number }> {
    const dl = await this.ctx.dbh.db
      .selectFrom('dataloggers')
      .select(['owner_id', 'admin_id', 'vendor_id', 'tz_offset'])
      .where('pn', '=', pn)
      .executeTakeFirst();
    if (!dl) throw new ApiError(257, 'sn');
    if (dl.owner_id != null) throw new ApiError(registeredErr, 'sn');
    const parentId = dl.admin_id ?? dl.vendor_id;
    if (parentId == null) throw new ApiError(257, 'sn');
    return { parentId: Number(parentId), tzOffset: Number(dl.tz_offset) };
  }

  /**
   * A self-registered plant owner under `parentId`, its default plant named after the PN (time
   * zone of the datalogger) and the datalogger bound to it through the same rules as an owner
   * adding one. Runs inside the action's transaction: a failing plant or binding leaves nothing.
   */
  private async createOwner(p: {
    usr: string;
    pwdSha1: string;
    parentId: number;
    contact: { mobile?: string; email?: string };
    pn: string;
    tzOffset: number;
    country: string | undefined;
    via?: string;
  }): Promise<number> {
    const { usr, pn } = p;
    const row = await this.ctx.services.accounts.createWithDigest({
      usr,
      pwdSha1: p.pwdSha1,
      role: ROLE.OWNER,
      parentId: p.parentId,
      canAddDatalogger: true,
      ...p.contact,
    });
    await this.ctx.services.audit.record({
      entity: 'account',
      entityId: row.id,
      before: null,
      after: {
        usr,
        role: ROLE.OWNER,
        parent_id: row.parent_id,
        path: row.path,
        ...p.contact,
        self_registered: true,
        ...(p.via ? { via: p.via } : {}),
      },
    });
    const owner: Caller = {
      accountId: row.id,
      usr,
      role: ROLE.OWNER,
      path: row.path,
      status: row.status,
      adminOf: null,
      permissions: null,
      sessionId: 0,
    };
    const addPlant = this.ctx.services.plantAdmin.add.bind(this.ctx.services.plantAdmin);
    const { pid } = await addPlant(owner, {
      name: pn,
      'address.timezone': p.tzOffset,
      ...(p.country ? { 'address.country': p.country } : {}),
    } as Parameters<typeof addPlant>[1]);
    await this.ctx.services.collectorAdmin.addToPlant(owner, pid, pn, undefined);
    return row.id;
  }

  /**
   * The vendor's `reg` (vendor-actions.md §3): `pwd` = hex(RC4(key = sha1hex(sn), sha1hex(password))),
   * signed as sha1(salt + pwd + tail) (`verifySign`), optionally `pwdtext` = hex(RC4(key =
   * sha1hex(sn), password)) so the §5 rules apply (required unless the compatible password
   * policy admits the vendor form). No verification code: the unregistered PN is the proof.
   * Answers the new owner's sign-in (the login reply). Errors: 7 missing, 4 sign, 15 company key,
   * 21 username, 19/20 contact format, 18/26 contact bound, 259 PN format, 16/17 password,
   * 519 username taken, 257 unknown PN, 520 PN already registered.
   */
  async reg(
    p: {
      usr?: string | undefined;
      pwd?: string | undefined;
      pwdtext?: string | undefined;
      sn?: string | undefined;
      'company-key'?: string | undefined;
      mobile?: string | undefined;
      email?: string | undefined;
    },
    call: { verifySign: (prefix: string) => boolean; client: { ip: string; userAgent: string } },
  ): Promise<AuthDat> {
    for (const k of ['usr', 'pwd', 'sn', 'company-key'] as const) if (!p[k]?.trim()) throw new ApiError(7, k);
    const pwd = p.pwd!;
    if (!call.verifySign(pwd)) throw new ApiError(4);
    if (!(await this.ctx.services.companyKeys.isValid(p['company-key']!))) throw new ApiError(15);
    const usr = p.usr!.trim();
    if (!usernameSchema.safeParse(usr).success) throw new ApiError(21);
    const contact = checkProfile({ mobile: p.mobile, email: p.email }) as { mobile?: string; email?: string };
    if (contact.email) contact.email = normEmail(contact.email);
    if (!contact.mobile) delete contact.mobile;
    if (!contact.email) delete contact.email;
    const sn = p.sn!.trim();
    const pn = sn.toUpperCase();
    if (!isPn(pn)) throw new ApiError(259, 'sn');
    const pwdSha1 = this.password(sha1Hex(sn), pwd, p.pwdtext);
    if (await this.ctx.repos.accounts.findByUsr(usr)) throw new ApiError(519);
    if (contact.mobile) await this.freeTarget('phone', contact.mobile, undefined, undefined, false);
    if (contact.email) await this.freeTarget('email', undefined, contact.email);
    const dl = await this.unregisteredDatalogger(pn, 520);
    const uid = await this.createOwner({
      usr,
      pwdSha1,
      parentId: dl.parentId,
      contact,
      pn,
      tzOffset: dl.tzOffset,
      country: undefined,
      via: 'reg',
    });
    return this.ctx.services.auth.signInAs(uid, call.client, { demo: false });
  }

  // ------------------------------------------------------------------ password retrieval

  private async account(usr: string): Promise<AccountRow> {
    const a = await this.ctx.repos.accounts.findByUsr(usr.trim());
    if (!a) throw new ApiError(261);
    if (a.status === ACCOUNT_STATUS.DISABLED) throw new ApiError(25);
    if (a.status === ACCOUNT_STATUS.CANCELLED) throw new ApiError(27);
    return a;
  }

  /** The bound address of a channel, 514 when none; 515 when `given` is not it. */
  private bound(a: AccountRow, channel: Channel, given?: string): string {
    const bound = channel === 'phone' ? a.mobile.trim() : normEmail(a.email);
    if (!bound) throw new ApiError(514);
    if (given !== undefined) {
      const g = channel === 'phone' ? given.trim() : normEmail(given);
      if (g !== bound) throw new ApiError(515);
    }
    return bound;
  }

  /**
   * sendSmsCode. The first check (no mobile/email) proves the account exists and has the channel
   * bound by answering 515 (spec §4: "step 0 advances when the server answers 515"); it takes the
   * picture code (`vkey`/`vcode`, 384), required unless the compatible password policy admits the
   * vendor's form without it. With the address: the code goes to it when it is the bound one.
   */
  async sendResetCode(
    p: {
      usr: string;
      channel: string;
      mobile?: string | undefined;
      email?: string | undefined;
      vkey?: string | undefined;
      vcode?: string | undefined;
    },
    ip: string,
    locale: string,
  ): Promise<void> {
    const channel = channelOf(p.channel);
    const given = channel === 'phone' ? p.mobile : p.email;
    if (given === undefined || given === '') {
      if (p.vkey) await this.checkPicture(p.vkey, p.vcode ?? '');
      else if (!this.ctx.config.passwordChangeCompat) throw new ApiError(7, 'vcode');
      const a = await this.account(p.usr);
      this.bound(a, channel);
      throw new ApiError(515);
    }
    const a = await this.account(p.usr);
    const target = this.bound(a, channel, given);
    await this.send({ purpose: 'reset', channel, target, accountId: a.id, ip, locale });
  }

  /** confirmSmsCode: the newest reset code of the account (512 / 513). */
  async confirmResetCode(p: { usr: string; smsCode: string }): Promise<void> {
    const a = await this.account(p.usr);
    await this.check(await this.codes.latest('reset', undefined, a.id), p.smsCode, 'confirm');
  }

  /** smsCodeUpdatePassword: the code to the bound address (515), then the new password; every session ends. */
  async resetPassword(p: {
    usr: string;
    channel: string;
    smsCode: string;
    pwd: string;
    pwdtext?: string | undefined;
    mobile?: string | undefined;
    email?: string | undefined;
  }): Promise<void> {
    const channel = channelOf(p.channel);
    const a = await this.account(p.usr);
    const target = this.bound(a, channel, (channel === 'phone' ? p.mobile : p.email) ?? '');
    const sha1 = this.password(sha1Hex(a.usr), p.pwd, p.pwdtext);
    await this.check(await this.codes.latest('reset', target, a.id), p.smsCode, 'consumeConfirmed');
    await this.ctx.services.accounts.setPasswordSha1(a.id, sha1);
    const now = this.now;
    const sessions = await this.ctx.repos.sessions.revokeAccountSessions(a.id, now);
    const remembered = await this.ctx.repos.sessions.revokeAccountRemember(a.id, now);
    await this.ctx.services.audit.record({
      entity: 'account',
      entityId: a.id,
      before: null,
      after: { changed: ['password'], by: `code:${channel}`, revoked_sessions: sessions, revoked_remember: remembered },
    });
  }

  // ------------------------------------------------------------------ bind / unbind

  async sendBindCode(
    caller: Caller,
    p: { purpose: 'bind' | 'unbind'; channel: string; mobile?: string | undefined; email?: string | undefined },
    ip: string,
    locale: string,
  ): Promise<void> {
    const channel = channelOf(p.channel);
    const a = await this.self(caller);
    if (p.purpose === 'bind') {
      const target = await this.freeTarget(channel, p.mobile, p.email, a.id);
      const current = channel === 'phone' ? a.mobile.trim() : normEmail(a.email);
      if (current === target) throw new ApiError(271);
      await this.send({ purpose: 'bind', channel, target, accountId: a.id, ip, locale });
    } else {
      await this.send({ purpose: 'unbind', channel, target: this.bound(a, channel), accountId: a.id, ip, locale });
    }
  }

  private async self(caller: Caller): Promise<AccountRow> {
    const a = await this.ctx.repos.accounts.findById(caller.accountId);
    if (!a) throw new ApiError(10);
    return a;
  }

  async bind(caller: Caller, channel: Channel, value: string, smsCode: string, origin: ChangeOrigin): Promise<void> {
    const a = await this.self(caller);
    const target = await this.freeTarget(
      channel,
      channel === 'phone' ? value : undefined,
      channel === 'email' ? value : undefined,
      a.id,
    );
    await this.check(await this.codes.latest('bind', target, a.id), smsCode, 'consume');
    const field = channel === 'phone' ? 'mobile' : 'email';
    await this.ctx.repos.accounts.update(a.id, { [field]: target, updated_at: this.now });
    await this.ctx.services.audit.record({
      entity: 'account',
      entityId: a.id,
      before: { [field]: a[field] },
      after: { [field]: target },
    });
    await this.notifyContactChange(a, { ...a, [field]: target }, origin);
  }

  async unbind(caller: Caller, channel: Channel, smsCode: string, origin: ChangeOrigin): Promise<void> {
    const a = await this.self(caller);
    const target = this.bound(a, channel);
    await this.check(await this.codes.latest('unbind', target, a.id), smsCode, 'consume');
    const field = channel === 'phone' ? 'mobile' : 'email';
    await this.ctx.repos.accounts.update(a.id, { [field]: '', updated_at: this.now });
    await this.ctx.services.audit.record({
      entity: 'account',
      entityId: a.id,
      before: { [field]: a[field] },
      after: { [field]: '' },
    });
    await this.notifyContactChange(a, { ...a, [field]: '' }, origin);
  }

  // ------------------------------------------------------------------ security notice

  /**
   * After the recovery e-mail or phone of an account changed or was cleared (bind/unbind,
   * editAccount, editSubAccount, editDist): a security notice to each OLD address that changed, a
   * mail through the durable queue (outbox without SMTP) and an SMS through the provider, in the
   * language of the call, naming when (UTC) and the IP the change came from. Enqueued in the
   * call's transaction: a change that rolls back sends nothing.
   */
  async notifyContactChange(
    before: Pick<AccountRow, 'id' | 'usr' | 'email' | 'mobile'>,
    after: Pick<AccountRow, 'email' | 'mobile'>,
    origin: ChangeOrigin,
  ): Promise<void> {
    const now = this.now;
    const nonce = randomBytes(6).toString('hex');
    const base = { usr: before.usr, date: `${fmtTs(now, 0)} UTC`, ip: origin.ip || '?' };
    const oldEmail = before.email.trim();
    const newEmail = after.email.trim();
    if (oldEmail && normEmail(oldEmail) !== normEmail(newEmail)) {
      const n = this.ctx.services.notifications;
      await n.queue.enqueue(
        {
          dedupeKey: `contact-change:${before.id}:email:${now}:${nonce}`,
          kind: 'security',
          accountId: before.id,
          recipient: oldEmail,
          locale: origin.locale,
          ...contactChangeMail(origin.locale, { ...base, removed: newEmail === '' }),
        },
        n.sender.enabled ? 'queued' : 'outbox',
        now,
      );
    }
    const oldMobile = before.mobile.trim();
    const newMobile = after.mobile.trim();
    if (oldMobile && oldMobile !== newMobile) {
      await this.sms.send({
        to: oldMobile,
        text: contactChangeSms(origin.locale, { ...base, removed: newMobile === '' }),
        locale: origin.locale,
        accountId: before.id,
        dedupeKey: `contact-change:${before.id}:mobile:${now}:${nonce}`,
      });
    }
  }
}

/** Where a contact change came from: the call's IP and language. */
export interface ChangeOrigin {
  ip: string;
  locale: string;
}

const services = new WeakMap<AppContext, SelfServiceService>();

/** The self-service service of an app context (built on first use). */
export function selfService(ctx: AppContext): SelfServiceService {
  let s = services.get(ctx);
  if (!s) {
    s = new SelfServiceService(ctx);
    services.set(ctx, s);
  }
  return s;
}
