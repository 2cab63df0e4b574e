// Imported first by main.tsx: validation without eval, as the server's CSP requires (no 'unsafe-eval').
import { enableCspSafeValidation } from '@sunwatch/protocol';

enableCspSafeValidation();
