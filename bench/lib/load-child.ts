/**
 * The load generator process of the ingestion benches (forked by `startLoad` in ./fleet.ts):
 * receives its LoadSpec, reports 'ready' once every datalogger is connected, publishes on go,
 * then sends its LoadReport and exits.
 */
import { runLoad, type LoadSpec } from './fleet.js';

process.once('message', (spec: LoadSpec) => {
  const go = new Promise<void>((resolve) => process.once('message', () => resolve()));
  runLoad(spec, () => process.send?.({ type: 'ready' }), go).then(
    (r) => process.send?.({ type: 'report', report: r }, () => process.exit(0)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
});
