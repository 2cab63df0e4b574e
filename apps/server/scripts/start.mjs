/* global process */
// `npm start` of the server: builds dist/main.js when it is missing or older than its sources
// (scripts/build.mjs), then runs it in this very process (signals reach the server directly).
// Production images run `node --enable-source-maps apps/server/dist/main.js` instead.
import { build, isStale } from './build.mjs';

if (isStale()) await build();
process.setSourceMapsEnabled(true);
await import('../dist/main.js');
