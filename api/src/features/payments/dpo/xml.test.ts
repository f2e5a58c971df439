import { describe, expect, it } from 'vitest';
import {
  buildRequestXml,
  decodeEntities,
  escapeXml,
  parseApi3g,
  readMobileOptions,
  readStatus,
  shieldFreeText,
  splitInstructions,
  text,
} from './xml.ts';

describe('DPO XML', () => {
  it('escapes every interpolated value', () => {
    expect(escapeXml(`a & b < c > d " e ' f`)).toBe('a &amp; b &lt; c &gt; d &quot; e &apos; f');
    const xml = buildRequestXml('TOK', 'verifyToken', { TransactionToken: '</TransactionToken><Request>cancelToken' });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="utf-8"?><API3G><CompanyToken>TOK</CompanyToken><Request>verifyToken</Request>' +
        '<TransactionToken>&lt;/TransactionToken&gt;&lt;Request&gt;cancelToken</TransactionToken></API3G>',
    );
    const round = parseApi3g(xml)!;
    expect(text(round, 'Request')).toBe('verifyToken');
    expect(text(round, 'TransactionToken')).toBe('</TransactionToken><Request>cancelToken');
  });

  it('leaves out undefined elements and refuses invalid element names', () => {
    expect(buildRequestXml('T', 'cancelToken', { A: undefined, B: 'b' })).toContain('</Request><B>b</B></API3G>');
    expect(() => buildRequestXml('T', 'x', { 'bad name': 'v' })).toThrow(/element name/);
  });

  it('keeps every value a string: 000 is never 0, 0130 keeps its zero', () => {
    const root = parseApi3g(
      '<API3G><Result>000</Result><Code>0130</Code><TransactionAmount>15000.00</TransactionAmount></API3G>',
    )!;
    expect(text(root, 'Result')).toBe('000');
    expect(text(root, 'Code')).toBe('0130');
    expect(text(root, 'TransactionAmount')).toBe('15000.00');
    expect(readStatus(root).code).toBe('000');
  });

  it('reads StatusCode before Result before Code', () => {
    expect(readStatus(parseApi3g('<API3G><Result>801</Result></API3G>')!).code).toBe('801');
    expect(readStatus(parseApi3g('<API3G><Result>000</Result><StatusCode>130</StatusCode></API3G>')!).code).toBe('130');
    expect(readStatus(parseApi3g('<API3G><Code>000</Code><Explanation>Results Found</Explanation></API3G>')!)).toEqual({
      code: '000',
      explanation: 'Results Found',
    });
  });

  it('decodes entities leniently and leaves a bare & alone', () => {
    expect(decodeEntities('Shortly&#8218 you')).toBe('Shortly\u201a you');
    expect(decodeEntities('a &amp; b & c &#x41; &#65 &nbsp; &#0; &#xD800;')).toBe('a & b & c A A &nbsp; &#0; &#xD800;');
    expect(decodeEntities('&amp;lt;')).toBe('&lt;');
  });

  it('parses documents DPO sends malformed, and gives null for non-XML', () => {
    const root = parseApi3g(
      '<API3G><StatusCode>130</StatusCode><ResultExplanation>Tom & Jerry</ResultExplanation><instructions>1. A & B<br>;2. C</instructions></API3G>',
    )!;
    expect(readStatus(root)).toEqual({ code: '130', explanation: 'Tom & Jerry' });
    expect(splitInstructions(text(root, 'instructions')!)).toEqual(['A & B', 'C']);
    expect(parseApi3g('')).toBeNull();
    expect(parseApi3g('plain text')).toBeNull();
  });

  it('normalises one-or-many mobileoption in every shape', () => {
    const opt = '<mobileoption><paymentname>X</paymentname><instructions>a;b;</instructions></mobileoption>';
    expect(readMobileOptions(parseApi3g(`<API3G><paymentoptions>${opt}</paymentoptions></API3G>`)!)).toHaveLength(1);
    expect(
      readMobileOptions(parseApi3g(`<API3G><paymentoptions>${opt}${opt}${opt}</paymentoptions></API3G>`)!),
    ).toHaveLength(3);
    expect(readMobileOptions(parseApi3g(`<paymentoptions>${opt}${opt}</paymentoptions>`)!)).toHaveLength(2);
    expect(readMobileOptions(parseApi3g(opt)!)[0]).toMatchObject({ paymentName: 'X', steps: ['a', 'b'] });
    expect(readMobileOptions(parseApi3g('<API3G><paymentoptions></paymentoptions></API3G>')!)).toEqual([]);
  });

  it('refuses prototype-polluting element names without polluting anything', () => {
    expect(parseApi3g('<API3G><__proto__><polluted>yes</polluted></__proto__><Result>000</Result></API3G>')).toBeNull();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('shieldFreeText', () => {
  // The lazy regex it replaced (quadratic on unclosed openings), as the reference for what it must produce.
  const byRegex = (xml: string) =>
    xml.replace(
      /<(instructions|ResultExplanation|Explanation)>([\s\S]*?)<\/\1>/g,
      (match, name: string, content: string) =>
        content.includes('<![CDATA[') || content.includes(']]>') ? match : `<${name}><![CDATA[${content}]]></${name}>`,
    );

  it('wraps free text in CDATA exactly as the regex did', () => {
    for (const xml of [
      '<API3G><Result>000</Result><ResultExplanation>Paid & <b>done</b></ResultExplanation></API3G>',
      '<a><instructions>1. Dial *165#<br/>2. Pay</instructions><Explanation>x</Explanation><instructions>y</instructions></a>',
      '<Explanation>kept <![CDATA[as is]]></Explanation><Explanation>open',
      '<Explanation><Explanation>nested</Explanation></Explanation>',
      '<ResultExplanation>unclosed <Explanation>closed</Explanation>',
      'no elements at all',
      '<Explanation></Explanation>',
    ]) {
      expect(shieldFreeText(xml)).toBe(byRegex(xml));
    }
  });
});
