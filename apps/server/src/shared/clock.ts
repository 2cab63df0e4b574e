/** The current instant in epoch ms. Injected (`config.now`, `ctx.now`) so tests can pin time. */
export type Clock = () => number;
