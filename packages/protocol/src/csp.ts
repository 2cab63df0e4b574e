import { z } from 'zod';

/**
 * Makes zod validate without its JIT (which probes `Function('')`): the web app's
 * Content-Security-Policy has no 'unsafe-eval', so the probe would only report a violation.
 * Call once, before the first parse (apps/web/src/csp-safe.ts).
 */
export function enableCspSafeValidation(): void {
  z.config({ jitless: true });
}
