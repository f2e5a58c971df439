/**
 * The preview's style sheet, inline (about 2 KB, a few hundred bytes compressed): the page costs one request, and
 * the app's Tailwind build knows none of these classes. The app's colours (stone, brand orange), its dark theme
 * from the system setting (the page has no script to read the app's saved choice), one column at 360 px.
 * Text contrast is at least 4.5:1 in both themes.
 */
export const PREVIEW_STYLE = `
:root{color-scheme:light dark;--bg:#fafaf9;--card:#fff;--text:#1c1917;--muted:#57534e;--line:#e7e5e4;--link:#9a3412;--poster:#e7e5e4;--focus:#9a3412;--ok:#15803d}
@media (prefers-color-scheme:dark){:root{--bg:#0c0a09;--card:#1c1917;--text:#fafaf9;--muted:#a8a29e;--line:#292524;--link:#fdba74;--poster:#292524;--focus:#fdba74;--ok:#4ade80}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:16px/1.5 ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif;overflow-wrap:anywhere}
a{color:var(--link)}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:var(--card);padding:8px;z-index:1}
header,main,footer{max-width:72rem;margin:0 auto;padding:0 16px}
header{display:flex;flex-wrap:wrap;align-items:center;justify-content:space-between;gap:8px;padding-top:12px;padding-bottom:12px}
.brand{display:inline-flex;align-items:center;gap:8px;font-size:1.25rem;font-weight:800;color:var(--text);text-decoration:none}
nav{display:flex;gap:16px;font-weight:600}
h1{font-size:1.75rem;line-height:1.2;margin:16px 0 8px}
h2{font-size:1.25rem;margin:32px 0 12px}
h3{font-size:1rem;margin:0}
.lead{color:var(--muted);margin:0 0 8px;max-width:40rem}
.count{font-size:.875rem;font-weight:400;color:var(--muted)}
.small,.note,.access,.facts,.desc,.in{font-size:.875rem;color:var(--muted);margin:4px 0 0}
ul{list-style:none;padding:0;margin:0}
.plans{display:grid;gap:12px;grid-template-columns:repeat(auto-fill,minmax(min(16rem,100%),1fr))}
.plan{background:var(--card);border:1px solid var(--line);border-radius:16px;padding:16px}
.plan p{margin:4px 0 0}
.price{font-size:1.5rem;font-weight:800}
.features{margin-top:8px;font-size:.875rem}.features li::before{content:"✓ ";color:var(--ok)}
.actions{display:flex;flex-wrap:wrap;gap:12px;margin:24px 0}
.button{display:inline-block;padding:12px 20px;border-radius:12px;background:#c2410c;color:#fff;font-weight:700;text-decoration:none}
.button.secondary{background:transparent;color:var(--text);border:1px solid var(--muted)}
.movies{display:grid;gap:12px;grid-template-columns:repeat(auto-fill,minmax(min(20rem,100%),1fr))}
.movie{display:flex;gap:12px;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:8px}
.movie img,.poster{flex:none;display:block;width:112px;height:63px;object-fit:cover;border-radius:8px;background:var(--poster)}
.movie div{min-width:0}
.desc{display:-webkit-box;-webkit-line-clamp:2;-webkit-box-orient:vertical;overflow:hidden}
.in{color:var(--text);font-weight:600}
footer{display:flex;flex-wrap:wrap;gap:16px;padding-top:24px;padding-bottom:32px;border-top:1px solid var(--line);font-size:.875rem}
`
  .trim()
  .replace(/\n/g, '');
