export { loadConfig, DEFAULT_LOGIN_THROTTLE } from './config.js';
export type { AppConfig, LoginThrottleConfig, LogLevel } from './config.js';
export { buildApp } from './app.js';
export { startServer } from './server.js';
export type { RunningServer } from './server.js';
export { seedDemo, DEMO_ACCOUNTS } from './demo/seed-demo.js';
export type { AppContext, Caller } from './context.js';
export type { Scope } from './modules/accounts/accounts.repository.js';
