// Password hashes: scrypt (node:crypto) with a random salt per password, compared in constant time. The cost
// is stored with each hash, so it can be raised later without breaking older ones.
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import type { ScryptOptions } from 'node:crypto';

/** Production cost N = 2^15 (OWASP's scrypt baseline with r = 8, p = 1). Tests lower it through buildServer. */
export const DEFAULT_SCRYPT_COST = 2 ** 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;
const PREFIX = 'scrypt';

function derive(password: string, salt: Buffer, cost: number, r: number, p: number): Promise<Buffer> {
  // scrypt needs about 128 * N * r bytes; leave headroom above Node's 32 MB default.
  const options: ScryptOptions = { N: cost, r, p, maxmem: 256 * cost * r + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export function isValidCost(cost: number): boolean {
  return Number.isInteger(cost) && cost >= 2 && (cost & (cost - 1)) === 0 && cost <= 2 ** 20;
}

export class PasswordHasher {
  private decoy: Promise<string> | undefined;

  constructor(private readonly cost: number = DEFAULT_SCRYPT_COST) {
    if (!isValidCost(cost))
      throw new Error(`The scrypt cost must be a power of two from 2 to 2^20, not ${cost}`);
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await derive(password, salt, this.cost, BLOCK_SIZE, PARALLELISM);
    return [PREFIX, this.cost, BLOCK_SIZE, PARALLELISM, salt.toString('base64'), key.toString('base64')].join(
      '$',
    );
  }

  /**
   * Whether `password` matches `stored`. With no stored hash (an unknown email) it still spends the same scrypt
   * work on a decoy, so the answer's timing does not tell whether an account exists.
   */
  async verify(password: string, stored: string | undefined): Promise<boolean> {
    const target = stored ?? (await this.decoyHash());
    const parts = target.split('$');
    const [prefix, n, r, p, saltB64, keyB64] = parts;
    const cost = Number(n);
    const blockSize = Number(r);
    const parallelism = Number(p);
    if (
      parts.length !== 6 ||
      prefix !== PREFIX ||
      !isValidCost(cost) ||
      !Number.isInteger(blockSize) ||
      !Number.isInteger(parallelism) ||
      saltB64 === undefined ||
      keyB64 === undefined
    ) {
      return false;
    }
    const expected = Buffer.from(keyB64, 'base64');
    const actual = await derive(password, Buffer.from(saltB64, 'base64'), cost, blockSize, parallelism);
    const matches = expected.length === actual.length && timingSafeEqual(expected, actual);
    return stored !== undefined && matches;
  }

  private decoyHash(): Promise<string> {
    this.decoy ??= this.hash(randomBytes(18).toString('base64'));
    return this.decoy;
  }
}
