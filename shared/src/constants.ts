/** Business constants from product §9 and the contact details the static pages show. */
export const SUPPORT = {
  phone: '+256 772 000 111',
  phoneHref: 'tel:+256772000111',
  secondPhone: '+256 700 000 222',
  secondPhoneHref: 'tel:+256700000222',
  whatsappHref: 'https://wa.me/256772000111',
  email: 'support@filamu.ug',
  dmcaEmail: 'dmca@filamu.ug',
  office: 'Plot 12, Kampala Road, Kampala, Uganda',
  mapHref: 'https://www.openstreetmap.org/search?query=Kampala%20Road%2C%20Kampala',
} as const;

export const DAYS_REMAINING_WARNING = 7;
export const HERO_AUTOPLAY_MS = 5000;
export const TIME_ZONE = 'Africa/Kampala';
export const DEVICE_ID_HEADER = 'X-Device-Id';
export const REQUEST_ID_HEADER = 'X-Request-Id';
