/** One subtitle language of the film: a WebVTT file on the phone, as an object URL. */
export interface PlayerSubtitle {
  language: string;
  label: string;
  src: string;
}
