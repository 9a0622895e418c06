// Words in the player's language. Every text the page writes goes through t() (or tn() where a count picks the
// form), with {name} placeholders filled from vars; until a catalog is loaded the English text is shown as written.
// The catalog (GET /api/i18n/{lang}, bigtwo.i18n.catalog_json) carries the messages and the language's CLDR plural
// rule as data (Babel's parsed conditions): the page may run no code it is sent, so the rule is evaluated here.
let catalog = {};
// English's rule until a catalog is loaded: "one" when i = 1 and v = 0
const IS = (operand, k) => ["relation", ["in", [operand, []], ["range_list", [[["value", [k]], ["value", [k]]]]]]];
let plural = { tags: ["one", "other"], rules: [["one", ["and", [IS("i", 1), IS("v", 0)]]]] };
let lang = "en";

export const LANGUAGES = {
  en: "English", zh_Hant: "繁體中文", zh_Hans: "简体中文", fil: "Filipino", id: "Bahasa Indonesia",
  ms: "Bahasa Melayu", vi: "Tiếng Việt",
};

export function loadCatalog(data) {
  const got = data || {};
  catalog = got.messages || (got.plural ? {} : got);
  if (got.plural) plural = got.plural;
  if (got.lang) lang = got.lang;
}

export function language() { return lang; }

// The language this browser asked for with the picker (a cookie the server reads too, and localStorage).
export function chosenLanguage() {
  try { return localStorage.getItem("bigtwo:lang"); } catch { return null; }
}
export function chooseLanguage(code) {
  try { localStorage.setItem("bigtwo:lang", code); } catch { /* private mode: the cookie still holds it */ }
  document.cookie = `bigtwo_lang=${encodeURIComponent(code)}; path=/; max-age=31536000; samesite=lax`;
}

// Load the catalog the server picks for this browser (the picker's choice, else Accept-Language, else English)
// and mark the page's language.
export async function startLanguage() {
  const chosen = chosenLanguage();
  if (chosen && !document.cookie.includes(`bigtwo_lang=${chosen}`)) chooseLanguage(chosen);
  try {
    const res = await fetch(`/api/i18n/${encodeURIComponent(chosen || "auto")}`);
    if (res.ok) {
      const data = await res.json();
      loadCatalog(data);
      document.documentElement.lang = data.html_lang || data.lang;
    }
  } catch { /* the page stays in English */ }
}

function fill(text, vars) {
  return text.replace(/\{(\w+)\}/g, (whole, key) => (vars && key in vars ? String(vars[key]) : whole));
}

export function t(msgid, vars = {}) {
  const got = catalog[msgid];
  return fill(typeof got === "string" && got ? got : msgid, vars);
}

// CLDR's operands of a number (https://unicode.org/reports/tr35/tr35-numbers.html#Operands)
function operands(n) {
  const text = String(n);
  const abs = Math.abs(Number(n));
  const frac = text.includes(".") ? text.split(".")[1] : "";
  const trimmed = frac.replace(/0+$/, "");
  return { n: abs, i: Math.floor(abs), v: frac.length, w: trimmed.length, f: Number(frac || 0), t: Number(trimmed || 0), c: 0, e: 0 };
}

// Babel's parsed condition (bigtwo.i18n.catalog_json): ["and"|"or", [a, b]], ["not", [x]],
// ["relation", [method, expr, ["range_list", [[lo, hi], ...]]]], ["mod", [expr, expr]], ["value", [k]], [operand, []]
function value(expr, ops) {
  const [kind, args] = expr;
  if (kind === "value") return args[0];
  if (kind === "mod") return value(args[0], ops) % value(args[1], ops);
  return ops[kind];
}
function holds(node, ops) {
  const [kind, args] = node;
  if (kind === "and") return holds(args[0], ops) && holds(args[1], ops);
  if (kind === "or") return holds(args[0], ops) || holds(args[1], ops);
  if (kind === "not") return !holds(args[0], ops);
  if (kind === "relation") {
    const [method, expr, [, ranges]] = args;
    const x = value(expr, ops);
    // "in" matches whole numbers only; "within" any number in the range
    return ranges.some(([lo, hi]) => x >= value(lo, ops) && x <= value(hi, ops) && (method === "within" || Number.isInteger(x)));
  }
  return false;
}

// The CLDR category of n in the catalog's language (one, few, other ...).
export function pluralCategory(n) {
  const ops = operands(n);
  for (const [tag, rule] of plural.rules) if (holds(rule, ops)) return tag;
  return "other";
}

export function tn(singular, plural_, n, vars = {}) {
  const forms = catalog[singular];
  let text;
  if (Array.isArray(forms) && forms.length) {
    const index = Math.max(0, plural.tags.indexOf(pluralCategory(n)));
    text = forms[Math.min(forms.length - 1, index)];
  } else {
    text = pluralCategory(n) === "one" ? singular : plural_;
  }
  return fill(text, { n, ...vars });
}

// the combination kinds' names (the same messages as bigtwo.words.KIND_NAMES)
const KIND_NAMES = {
  single: () => t("single"), pair: () => t("pair"), triple: () => t("triple"), quad: () => t("four of a kind"),
  two_pairs: () => t("two pairs"), straight: () => t("straight"), flush: () => t("flush"), full_house: () => t("full house"),
  four_of_a_kind: () => t("four of a kind"), straight_flush: () => t("straight flush"), royal_flush: () => t("royal flush"),
  two_pair_junk: () => t("two pairs and a junk card"), triple_junk: () => t("triple and two junk cards"), sisters: () => t("sisters"),
  pair_straight: () => t("pair straight"), triple_straight: () => t("triple straight"), five_of_a_kind: () => t("five of a kind"),
  joker_pair: () => t("joker pair"), dragon: () => t("dragon"),
};
export function kindName(kind) { return KIND_NAMES[kind] ? KIND_NAMES[kind]() : String(kind).replaceAll("_", " "); }
