/**
 * The payer's details DPO echoes back (phone, name, email) masked for the payment log: enough to match a
 * complaint ("0772***456", "N*** S***"), not enough to contact or name the payer from a log line.
 */

const PHONE_FIELDS = ['customerphone', 'phonenumber', 'phone', 'msisdn', 'mobile'];
const NAME_FIELDS = ['customername', 'customerfirstname', 'customerlastname', 'cardholdername', 'payername'];
const EMAIL_FIELDS = ['customeremail', 'email'];

/** 0772123456 → 0772***456; short values are hidden whole. */
function maskPhone(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') return trimmed;
  return trimmed.length <= 7 ? '***' : `${trimmed.slice(0, 4)}***${trimmed.slice(-3)}`;
}

/** Nakato Sarah → N*** S*** */
function maskName(value: string): string {
  return value
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => `${[...word][0]}***`)
    .join(' ');
}

/** nakato@example.com → n***@example.com */
function maskEmail(value: string): string {
  const at = value.lastIndexOf('@');
  return at > 0 ? `${value[0]}***${value.slice(at)}` : value.trim() === '' ? '' : '***';
}

function maskerFor(field: string): ((value: string) => string) | undefined {
  const key = field.toLowerCase();
  if (PHONE_FIELDS.includes(key)) return maskPhone;
  if (NAME_FIELDS.includes(key)) return maskName;
  if (EMAIL_FIELDS.includes(key)) return maskEmail;
  return undefined;
}

const ELEMENT = /<([A-Za-z_][\w.-]*)(\s[^>]*)?>([^<]*)<\/\1\s*>/g;

/** Masks the payer's fields in a DPO request or answer (raw XML, well-formed or not), leaving the rest as it was. */
export function maskPersonalXml(xml: string): string {
  return xml.replace(ELEMENT, (whole, name: string, attributes: string | undefined, value: string) => {
    const mask = maskerFor(name);
    return mask ? `<${name}${attributes ?? ''}>${mask(value)}</${name}>` : whole;
  });
}

/** The same for a flattened answer (element name → text). */
export function maskPersonalFields(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, maskerFor(key)?.(value) ?? value]));
}
