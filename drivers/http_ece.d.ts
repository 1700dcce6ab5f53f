// Types for http_ece (the RFC 8188 encrypted content-encoding web-push uses), as the tests use it: decrypting
// an aes128gcm push with the subscription's private key and auth secret.
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface DecryptParams {
    version: 'aes128gcm' | 'aesgcm';
    privateKey?: ECDH;
    authSecret?: string;
    dh?: string;
    key?: string;
    salt?: string;
  }

  export function decrypt(buffer: Buffer, params: DecryptParams): Buffer;
}
