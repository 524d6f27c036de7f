// Exact Murmur3Partitioner tokens, shard formulas, skew prediction, rings and replicas (pure; no editor imports).
export * from './murmur3';
export * from './types';
export * from './values';
export * from './serialize';
export * from './token';
export * from './shard';
export * from './skew';
export * from './ring';
export * from './preview';
