import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * Issue 16, the container files (Dockerfile, compose.yaml, deploy/). Docker is not available on the
 * build machine (no daemon, no compose plugin), so they are checked as far as possible without it:
 * compose.yaml parses as YAML and wires two server instances to one PostgreSQL and one Mosquitto
 * with a shared-subscription group and distinct broker sessions; every variable it sets is one the
 * server reads; every file it mounts and every path the Dockerfile copies exists; nginx balances
 * over exactly the server services. The Mosquitto configuration and ACL are run for real (the
 * mosquitto binary): shared subscriptions deliver each frame to one instance only, a datalogger
 * cannot write another's topic.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const read = (p: string) => fs.readFileSync(path.join(ROOT, p), 'utf8');
const yaml = createRequire(import.meta.url)('js-yaml') as { load(s: string): unknown };

interface Service {
  build?: string;
  image?: string;
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: Record<string, unknown> | string[];
}

/** Every `env.X` the server reads (config.ts and the modules' *.config.ts). */
function serverEnvNames(): Set<string> {
  const files = [
    'apps/server/src/config.ts',
    ...fs
      .readdirSync(path.join(ROOT, 'apps/server/src/modules'), { recursive: true })
      .map(String)
      .filter((f) => f.endsWith('.config.ts'))
      .map((f) => `apps/server/src/modules/${f}`),
  ];
  const names = new Set<string>();
  for (const f of files) for (const m of read(f).matchAll(/env\.([A-Z_][A-Z0-9_]*)/g)) names.add(m[1]!);
  return names;
}

describe('deploy files', () => {
  const compose = yaml.load(read('compose.yaml')) as { services: Record<string, Service>; volumes: object };
  const s = compose.services;

  it('compose.yaml: two server instances, PostgreSQL, Mosquitto and a load balancer, wired together', () => {
    expect(Object.keys(s).sort()).toEqual(['lb', 'mosquitto', 'postgres', 'server1', 'server2']);
    const known = serverEnvNames();
    const ids = new Set<string>();
    for (const name of ['server1', 'server2']) {
      const svc = s[name]!;
      expect(svc.build).toBe('.');
      const env = svc.environment!;
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/sunwatch:\$\{POSTGRES_PASSWORD[^}]*\}@postgres:5432\/sunwatch$/);
      expect(env.MQTT_URL).toMatch(/^mqtt:\/\/sunwatch-server:\$\{MQTT_SERVER_PASSWORD[^}]*\}@mosquitto:1883$/);
      expect(env.MQTT_SHARED_GROUP).toBe('sunwatch');
      expect(env.MASTER_KEY).toMatch(/^\$\{MASTER_KEY:\?/); // required, never a value in the file
      expect(env.TRUST_PROXY).toBe('1');
      expect(env.DATA_DIR).toBe('/data');
      expect(svc.volumes).toEqual(['sunwatch-data:/data']); // shared files for both instances
      ids.add(env.MQTT_CLIENT_ID!);
      for (const k of Object.keys(env)) expect(known, `${name}: ${k} is not read by the server`).toContain(k);
    }
    expect(ids.size).toBe(2); // one persistent broker session per instance
    expect(s.postgres!.environment!.POSTGRES_DB).toBe('sunwatch');
    expect(Object.keys(compose.volumes).sort()).toEqual(['mosquitto-data', 'pgdata', 'sunwatch-data']);
    // Bind mounts point at files of the repository (the broker's passwd file is made at install: docs/deploy.md).
    for (const svc of Object.values(s)) {
      for (const v of svc.volumes ?? []) {
        const src = v.split(':')[0]!;
        if (!src.startsWith('./') || src === './deploy/mosquitto/passwd') continue;
        expect(fs.existsSync(path.join(ROOT, src)), src).toBe(true);
      }
    }
    expect(read('docs/deploy.md')).toContain('mosquitto_passwd');
  });

  it('nginx balances over exactly the server services, on their PORT, and overwrites X-Forwarded-For', () => {
    const conf = read('deploy/nginx/nginx.conf');
    const upstream = [...conf.matchAll(/^\s*server\s+([\w-]+):(\d+)/gm)].map((m) => `${m[1]}:${m[2]}`);
    expect(upstream).toEqual(['server1:8080', 'server2:8080']);
    expect(s.server1!.environment!.PORT).toBe('8080');
    expect(conf).toMatch(/proxy_set_header X-Forwarded-For \$remote_addr;/);
    expect(conf.split('{').length).toBe(conf.split('}').length); // braces balance
  });

  it('Dockerfile: multi-stage, non-root, every copied path exists, native module built in a build stage', () => {
    const df = read('Dockerfile');
    const stages = [...df.matchAll(/^FROM\s+\S+\s+AS\s+(\w+)/gm)].map((m) => m[1]);
    expect(stages).toEqual(['toolchain', 'build', 'deps', 'run']);
    const run = df.slice(df.indexOf('AS run'));
    expect(run).toMatch(/^USER node$/m);
    expect(run).not.toMatch(/g\+\+|make|python3/); // no compiler in the final image
    expect(df.slice(0, df.indexOf('AS run'))).toMatch(/g\+\+/);
    expect(read('.npmrc')).toMatch(/build-from-source=true/); // better-sqlite3 compiled, not downloaded
    for (const m of df.matchAll(/^COPY\s+(?!--from)(?:--\S+\s+)*(.+)$/gm)) {
      const parts = m[1]!.trim().split(/\s+/);
      for (const src of parts.slice(0, -1)) expect(fs.existsSync(path.join(ROOT, src)), src).toBe(true);
    }
    const cmd = /^CMD\s+(\[.*\])$/m.exec(df)![1]!;
    const entry = (JSON.parse(cmd) as string[]).at(-1)!;
    if (entry === 'apps/server/dist/main.js') {
      // The compiled server (s29-prod): built in the build stage, copied into the final one.
      expect(df.slice(df.indexOf('AS build'), df.indexOf('AS deps'))).toMatch(/^RUN npm run build -w @sunwatch\/server$/m);
      expect(run).toMatch(/^COPY --from=build \S+ \/app\/apps\/server\/dist apps\/server\/dist$/m);
      expect(fs.existsSync(path.join(ROOT, 'apps/server/scripts/build.mjs'))).toBe(true);
    } else {
      expect(fs.existsSync(path.join(ROOT, entry)), entry).toBe(true);
    }
    const ignore = read('.dockerignore');
    for (const p of ['**/node_modules', '.env', '**/master.key*', 'data']) expect(ignore).toContain(p);
  });

  const MOSQUITTO = '/usr/sbin/mosquitto';
  const PASSWD = '/usr/bin/mosquitto_passwd';
  let broker: ChildProcess | undefined;
  afterAll(() => {
    broker?.kill();
  });

  it.runIf(fs.existsSync(MOSQUITTO) && fs.existsSync(PASSWD))(
    'the Mosquitto configuration: shared subscriptions split frames between instances, ACL per datalogger',
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunwatch-deploy-mqtt-'));
      const port = await new Promise<number>((resolve) => {
        const srv = net.createServer().listen(0, '127.0.0.1', () => {
          const p = (srv.address() as net.AddressInfo).port;
          srv.close(() => resolve(p));
        });
      });
      const passwd = path.join(dir, 'passwd');
      execFileSync(PASSWD, ['-b', '-c', passwd, 'sunwatch-server', 'srv-pw']);
      execFileSync(PASSWD, ['-b', passwd, 'PNA0001', 'a-pw']);
      fs.chmodSync(passwd, 0o600);
      fs.copyFileSync(path.join(ROOT, 'deploy/mosquitto/acl'), path.join(dir, 'acl'));
      fs.mkdirSync(path.join(dir, 'data'));
      // The repository's file, with the container paths mapped into the temp dir and a free port.
      const conf = read('deploy/mosquitto/mosquitto.conf')
        .replaceAll('/mosquitto/config/', `${dir}/`)
        .replaceAll('/mosquitto/data/', `${dir}/data/`)
        .replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`)
        .replace(/^log_dest stdout$/m, 'log_dest stderr');
      fs.writeFileSync(path.join(dir, 'mosquitto.conf'), `${conf}\nuser ${os.userInfo().username}\n`);
      broker = spawn(MOSQUITTO, ['-c', path.join(dir, 'mosquitto.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      broker.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const url = `mqtt://127.0.0.1:${port}`;
      const connect = async (username: string, password: string, clientId: string) => {
        for (let i = 0; ; i++) {
          try {
            return await mqtt.connectAsync(url, {
              username,
              password,
              clientId,
              reconnectPeriod: 0,
              connectTimeout: 2000,
            });
          } catch (e) {
            if (broker!.exitCode !== null) throw new Error(`mosquitto exited: ${stderr}`);
            if (i > 40) throw e;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      const got: string[][] = [[], []];
      const servers = await Promise.all([1, 2].map((i) => connect('sunwatch-server', 'srv-pw', `sunwatch-server${i}`)));
      for (const [i, c] of servers.entries()) {
        c.on('message', (_t, p) => got[i]!.push(p.toString()));
        await c.subscribeAsync('$share/sunwatch/sw/dl/+/data', { qos: 1 });
      }
      const dl = await connect('PNA0001', 'a-pw', 'dl-PNA0001');
      for (let k = 0; k < 40; k++) await dl.publishAsync('sw/dl/PNA0001/data', `f${k}`, { qos: 1 });
      // Not its own topic: the ACL drops it silently (MQTT 3.1.1), so no instance gets it.
      await dl.publishAsync('sw/dl/PNB0002/data', 'forged', { qos: 1 });
      const deadline = Date.now() + 5000;
      while (got[0]!.length + got[1]!.length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 200));
      const all = [...got[0]!, ...got[1]!].sort();
      expect(all).toEqual(Array.from({ length: 40 }, (_, k) => `f${k}`).sort()); // each frame once, none forged
      expect(got[0]!.length).toBeGreaterThan(0);
      expect(got[1]!.length).toBeGreaterThan(0);
      await expect(
        mqtt.connectAsync(url, { username: 'PNA0001', password: 'wrong', clientId: 'dl-x', reconnectPeriod: 0 }),
      ).rejects.toThrow();
      await Promise.all([...servers, dl].map((c) => c.endAsync()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
    20_000,
  );
});
