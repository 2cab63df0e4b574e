export * from './types.js';
export * from './texts.js';
export * from './rules.js';
