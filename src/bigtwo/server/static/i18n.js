// Words in the player's language. Every text the page writes goes through t() (or tn() where a count picks the
// form), with {name} placeholders filled from vars; until a catalog is loaded the English text is shown as written.
let catalog = {};

export function loadCatalog(messages) {
  catalog = messages || {};
}

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (vars && key in vars ? String(vars[key]) : whole));
}

export function t(msgid, vars = {}) {
  const got = catalog[msgid];
  return fill(typeof got === "string" && got ? got : msgid, vars);
}

export function tn(singular, plural, n, vars = {}) {
  const forms = catalog[singular];
  const english = n === 1 ? singular : plural;
  const text = Array.isArray(forms) && forms.length ? forms[Math.min(forms.length - 1, n === 1 ? 0 : 1)] : english;
  return fill(text, { n, ...vars });
}
