import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { HOST_NAME_RE, LOCALES, type ConsultDat, type ServerNode } from '@sunwatch/protocol';
import type { SeedDomain } from '../custom-domains/custom-domains.service.js';

/**
 * Host-dependent branding and server nodes (issue 12), read once at start and validated: a bad
 * file stops the server with the offending path in the message. Documented in
 * docs/branding.md. Without a file every host looks like today's Sunwatch and there is one node,
 * this server. Since issue 14 the file's hosts only seed the custom-domain table (managed by the
 * operator, read on every request: modules/custom-domains); the `default` entry, the app links,
 * filing number, version label and nodes stay configuration.
 */

const locale = z.enum(LOCALES as unknown as [string, ...string[]]);
/** A file under `<BRANDING_DIR>/<host>/` (no path separators, an image extension). */
const assetFile = z.string().regex(/^[\w.-]+\.(png|jpe?g|svg|webp)$/i, 'a file name in the host folder (png, jpg, svg, webp)');

const contactSchema = z.object({
  phoneNum: z.string().max(32).default(''),
  email: z.string().max(120).default(''),
  wechat: z.string().max(64).default(''),
  englishName: z.string().max(120).default(''),
});

export const hostBrandingSchema = z
  .object({
    /** Brand name shown instead of Sunwatch. */
    title: z.string().max(60).default(''),
    background: assetFile.optional(),
    logo: assetFile.optional(),
    /** Locales the picker offers (empty = all 11). */
    languages: z.array(locale).default([]),
    /** One locale the page is shown in, whatever the visitor chose. */
    forceLanguage: locale.optional(),
    demo: z.boolean().default(true),
    qrLogin: z.boolean().default(true),
    /** App links of the host: with at least one, the app-download prompt shows. */
    app: z.object({ ios: z.url().default(''), android: z.url().default('') }).partial().optional(),
    /** The main public host: its filing number shows for Chinese. */
    filingNumber: z.string().max(60).default(''),
    versionLabel: z.string().max(40).default(''),
    /** Contact info of the host when the operator has set none (consultParam/getParam fallback). */
    contact: contactSchema.optional(),
  })
  .strict()
  .refine((h) => !h.forceLanguage || h.languages.length === 0 || h.languages.includes(h.forceLanguage), {
    message: 'forceLanguage must be one of languages',
  });

export type HostBranding = z.output<typeof hostBrandingSchema>;

const nodeSchema = z
  .object({
    name: z.string().min(1).max(40),
    /** Origin of the node (`https://eu.example.com`), or '' for this server. */
    url: z.union([z.literal(''), z.url().regex(/^https?:\/\/[^/?#]+$/, 'an origin without path')]),
  })
  .strict();

export const brandingFileSchema = z
  .object({
    /** Server nodes of queryDomainListNotLogin; the first two are the default production nodes (261 retry). */
    nodes: z.array(nodeSchema).max(20).default([]),
    /** Every host without an entry of its own. */
    default: hostBrandingSchema.default(hostBrandingSchema.parse({})),
    /** By host name (lower case, no port). */
    hosts: z.record(z.string().regex(HOST_NAME_RE, 'a host name'), hostBrandingSchema).default({}),
  })
  .strict();

export interface BrandingConfig {
  nodes: ServerNode[];
  default: HostBranding;
  hosts: Record<string, HostBranding>;
  /** Folder of the host assets (`<dir>/<host>/logo.png`, `ios.png`, `android.png`); BRANDING_DIR. */
  dir: string;
  /** Origins other nodes' pages call this server from (CORS), and this page calls (CSP connect-src). */
  nodeOrigins: string[];
}

export const FALLBACK_CONTACT: ConsultDat = { phoneNum: '', email: 'support@sunwatch.example', wechat: '', englishName: 'Sunwatch' };

/** BRANDING_FILE (JSON), SERVER_NODES (a JSON array of nodes, replacing the file's), BRANDING_DIR. */
export function loadBrandingConfig(env: NodeJS.ProcessEnv, baseDir: string): BrandingConfig {
  const file = env.BRANDING_FILE?.trim();
  let raw: unknown = {};
  if (file) {
    const p = path.resolve(baseDir, file);
    try {
      raw = JSON.parse(readFileSync(p, 'utf8'));
    } catch (e) {
      throw new Error(`BRANDING_FILE ${p}: ${(e as Error).message}`);
    }
  }
  const nodesEnv = env.SERVER_NODES?.trim();
  if (nodesEnv) {
    try {
      raw = { ...(raw as object), nodes: JSON.parse(nodesEnv) };
    } catch (e) {
      throw new Error(`SERVER_NODES: ${(e as Error).message}`);
    }
  }
  const parsed = brandingFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`branding configuration: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  const hosts: Record<string, HostBranding> = {};
  for (const [h, b] of Object.entries(parsed.data.hosts)) hosts[h.toLowerCase()] = b;
  const dir = path.resolve(baseDir, env.BRANDING_DIR?.trim() || (file ? path.dirname(path.resolve(baseDir, file)) : 'branding'));
  const nodeOrigins = [...new Set(parsed.data.nodes.map((n) => n.url).filter((u) => u !== ''))];
  return { nodes: parsed.data.nodes, default: parsed.data.default, hosts, dir, nodeOrigins };
}

/** Whether an asset of a host exists (the download QR images are probes, spec §7). */
export function hostAssetExists(config: BrandingConfig, host: string, file: string): boolean {
  return existsSync(path.join(config.dir, host, file));
}

/** The file's hosts as the custom-domain table's start-up seed (insert-only), pictures read from BRANDING_DIR. */
export function brandingSeedDomains(config: BrandingConfig): SeedDomain[] {
  const read = (host: string, file: string | undefined): Buffer | undefined => {
    if (!file) return undefined;
    const p = path.join(config.dir, host, file);
    return existsSync(p) ? readFileSync(p) : undefined;
  };
  return Object.entries(config.hosts).map(([host, b]) => ({
    host,
    title: b.title,
    languages: b.languages,
    forceLanguage: b.forceLanguage ?? '',
    demo: b.demo,
    qrLogin: b.qrLogin,
    contact: b.contact,
    logo: read(host, b.logo),
    background: read(host, b.background),
  }));
}
