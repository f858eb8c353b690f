import { escapeHtml, Markup, markup } from './html';

describe('preference centre markup', () => {
  it('escapes every interpolated value, text and attributes alike', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\``)).toBe(
      '&lt;a href=&quot;x&quot; onclick=&#39;y&#39;&gt;&amp;&#96;',
    );
    const name = '"><script>alert(1)</script>';
    expect(markup`<input value="${name}"><p>${name}</p>`.text).toBe(
      '<input value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"><p>&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
  });

  it('keeps its own fragments and joins arrays', () => {
    const items = ['<b>', 'c'].map((t) => markup`<li>${t}</li>`);
    expect(markup`<ul>${items}</ul>${new Markup('<br>')}${undefined}${false}`.text).toBe(
      '<ul><li>&lt;b&gt;</li><li>c</li></ul><br>',
    );
  });
});
