import { escapeHtml } from '@core/html';

describe('escapeHtml', () => {
  it('turns the characters that could end a text or an attribute into entities', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
  });

  it('escapes an ampersand once, so an entity written by a person stays as they wrote it', () => {
    expect(escapeHtml('&amp; &lt;')).toBe('&amp;amp; &amp;lt;');
  });

  it('leaves other text as it is', () => {
    expect(escapeHtml('Stop date set: two weeks from Monday. ✓')).toBe(
      'Stop date set: two weeks from Monday. ✓',
    );
  });
});
