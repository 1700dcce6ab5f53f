import { parseDocumentId } from '@core/ids';

describe('parseDocumentId', () => {
  it('accepts a 20-character alphanumeric id', () => {
    expect(parseDocumentId('AbCdEfGhIj0123456789')).toBe('AbCdEfGhIj0123456789');
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'AbCdEfGhIj0123456789x'],
    ['a path separator', 'AbCdEfGhIj012345678/'],
    ['a dot segment', '..'],
    ['script', '<script>alert(1)</scr'],
    ['empty', ''],
  ])('refuses an id that is %s', (_label, value) => {
    expect(parseDocumentId(value)).toBeNull();
  });

  it('refuses values that are not strings', () => {
    expect(parseDocumentId(undefined)).toBeNull();
    expect(parseDocumentId(1234567890)).toBeNull();
    expect(parseDocumentId({ toString: () => 'AbCdEfGhIj0123456789' })).toBeNull();
  });
});
