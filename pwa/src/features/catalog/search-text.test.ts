import { describe, expect, it } from 'vitest';
import { onSent, onUrlSearch, searchText, type SearchText } from './search-text.ts';

const typed = (box: SearchText, text: string): SearchText => ({ ...box, text });

describe('the search box and the URL', () => {
  it('keeps keys typed while its own search was reaching the URL', () => {
    // "Kigam" was sent after a pause; "b" was typed before the URL said "Kigam".
    const box = onUrlSearch(typed(onSent(searchText(''), 'Kigam'), 'Kigamb'), 'Kigam');
    expect(box.text).toBe('Kigamb');
    expect(box.sent).toEqual([]);
    expect(box.replaced).toBe(0);
  });

  it('keeps the last key when a newer search was sent before the older one reached the URL', () => {
    // A slow phone: "Kigamb" sent, "o" typed after a pause and "Kigambo" sent, and only then the URL says "Kigamb".
    let box = typed(searchText(''), 'Kigambo');
    box = onSent(onSent(box, 'Kigamb'), 'Kigambo');
    box = onUrlSearch(box, 'Kigamb');
    expect(box.text).toBe('Kigambo');
    expect(box.sent).toEqual(['Kigambo']);
    box = onUrlSearch(box, 'Kigambo');
    expect(box).toEqual({ text: 'Kigambo', seen: 'Kigambo', sent: [], replaced: 0 });
  });

  it('keeps keys not yet sent when the URL changes under them', () => {
    // "Kigamb" reached the URL; "o" was typed; the URL then showed another search (an older render, a link).
    let box = onUrlSearch(onSent(searchText(''), 'Kigamb'), 'Kigamb');
    box = onUrlSearch(typed(box, 'Kigambo'), '');
    expect(box.text).toBe('Kigambo');
    expect(box.replaced).toBe(0);
  });

  it('takes a search from elsewhere (back, a link) when nothing typed is waiting, and ignores a URL it has seen', () => {
    const settled = searchText('Kigambo');
    const back = onUrlSearch(settled, 'Omukwano');
    expect(back.text).toBe('Omukwano');
    expect(back.replaced).toBe(1);
    const sentAndEchoed = onUrlSearch(onSent(typed(searchText(''), 'Kigam'), 'Kigam'), 'Kigam');
    expect(onUrlSearch(sentAndEchoed, 'Kigambo')).toMatchObject({ text: 'Kigambo', replaced: 1 });
    const unchanged = { ...searchText('Kigambo'), text: 'Kiga' };
    expect(onUrlSearch(unchanged, 'Kigambo')).toBe(unchanged);
  });
});
