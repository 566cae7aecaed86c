/**
 * Snowflake-style 64-bit ids: milliseconds since 2020 in the high bits, a per-process
 * worker number and a sequence below, so ids sort by creation and never collide in one process.
 */
const EPOCH = 1577836800000n;
const worker = BigInt(process.pid % 1024);
let lastMs = 0n;
let seq = 0n;

export function newId(): string {
  let ms = BigInt(Date.now());
  if (ms === lastMs) {
    seq = (seq + 1n) & 4095n;
    if (seq === 0n) while (ms <= lastMs) ms = BigInt(Date.now());
  } else {
    seq = 0n;
  }
  if (ms < lastMs) ms = lastMs;
  lastMs = ms;
  return (((ms - EPOCH) << 22n) | (worker << 12n) | seq).toString();
}
