// cluster-key-slot (ioredis's own dependency, pinned in package.json) ships no types.
declare module 'cluster-key-slot' {
  /** The Redis Cluster slot (0-16383) of a key: CRC16 of its hash tag, or of the whole key. */
  function calculateSlot(key: string | Buffer): number;
  export = calculateSlot;
}
