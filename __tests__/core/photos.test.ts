import {
  checkPhoto,
  checkPhotoSource,
  isPhotoURL,
  localPhotoURL,
  PHOTO_MAX_BYTES,
  PHOTO_SOURCE_MAX_BYTES,
  toPhotoMap,
} from '../../core/photos';

describe('checkPhoto', () => {
  it.each(['image/webp', 'image/png', 'image/jpeg'])('keeps %s up to 512 KB', (type) => {
    expect(checkPhoto({ size: PHOTO_MAX_BYTES, sniffedType: type })).toEqual({ ok: true, contentType: type });
  });
  it.each([
    [{ size: 10, sniffedType: 'image/gif' }, 'notImage'],
    [{ size: 10, sniffedType: 'image/svg+xml' }, 'notImage'],
    [{ size: 10, sniffedType: undefined }, 'notImage'],
    [{ size: PHOTO_MAX_BYTES + 1, sniffedType: 'image/webp' }, 'tooLarge'],
    [{ size: 0, sniffedType: undefined }, 'empty'],
  ])('refuses %j as %s', (input, problem) => {
    expect(checkPhoto(input)).toEqual({ ok: false, problem });
  });
});

describe('checkPhotoSource', () => {
  it('lets the browser try any image up to 25 MB', () => {
    expect(checkPhotoSource({ size: PHOTO_SOURCE_MAX_BYTES, type: 'image/heic' })).toBeNull();
    expect(checkPhotoSource({ size: 1000, type: '' })).toBeNull();
  });
  it('refuses a file said not to be an image, a huge one and an empty one before decoding', () => {
    expect(checkPhotoSource({ size: 1000, type: 'application/pdf' })).toBe('notImage');
    expect(checkPhotoSource({ size: PHOTO_SOURCE_MAX_BYTES + 1, type: 'image/png' })).toBe('sourceTooLarge');
    expect(checkPhotoSource({ size: 0, type: 'image/png' })).toBe('empty');
  });
});

describe('isPhotoURL', () => {
  it.each([
    localPhotoURL('AbCdEfGhIjKlMnOpQrSt'),
    'https://firebasestorage.googleapis.com/v0/b/qupm.appspot.com/o/photos%2Fu1%2Fp1?alt=media&token=abc',
    'http://127.0.0.1:9199/v0/b/demo/o/photos%2Fu%2Fp?alt=media',
  ])('shows %s', (url) => {
    expect(isPhotoURL(url)).toBe(true);
  });
  it.each([
    'javascript:alert(1)',
    'data:image/png;base64,AAAA',
    '/api/photos/../../etc/passwd',
    '/api/users/x',
    'http://evil.example/face.png',
    'https://example.com/" onerror="x',
    `https://a.b/${'x'.repeat(1100)}`,
    '',
    42,
  ])('drops %s', (url) => {
    expect(isPhotoURL(url)).toBe(false);
  });
});

describe('toPhotoMap', () => {
  it('keeps the valid faces of a stored map and drops the rest', () => {
    const good = localPhotoURL('AbCdEfGhIjKlMnOpQrSt');
    expect(toPhotoMap({ a: good, b: 'javascript:x', c: 3 })).toEqual({ a: good });
    expect(toPhotoMap(null)).toEqual({});
    expect(toPhotoMap([good])).toEqual({});
  });
});
