// Small pieces every page shares: building elements, calling the API, what this browser keeps, and words.
import { cardSvg } from "/static/cards.js";
import { t } from "/static/i18n.js";

export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "class") node.className = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

// The signed-in session's CSRF token (GET /api/account): every change this page asks for carries it, so a
// page of another site, which cannot read it, cannot act with this browser's session cookie.
export const account = { csrf: null, username: null, ready: null };

export async function api(method, path, body, token) {
  if (method !== "GET" && account.ready) await account.ready;
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
  if (account.csrf && method !== "GET") headers["X-CSRF-Token"] = account.csrf;
  const res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try { data = await res.json(); } catch { data = null; }
  if (!res.ok) {
    let msg = data && data.detail;
    if (Array.isArray(msg)) msg = msg.map((d) => `${(d.loc || []).slice(1).join(".")}: ${d.msg}`).join("; ");
    throw new Error(msg || `${res.status} ${res.statusText}`);
  }
  return data;
}

// What this browser keeps: a room's seat and tokens, and the player's own preferences.
function read(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key)) ?? fallback; } catch { return fallback; }
}
export const saved = {
  get(room) { return read(`bigtwo:${room}`, {}); },
  set(room, value) { localStorage.setItem(`bigtwo:${room}`, JSON.stringify({ ...saved.get(room), ...value })); },
};
export const prefs = {
  get() { return read("bigtwo:prefs", {}); },
  set(value) { localStorage.setItem("bigtwo:prefs", JSON.stringify({ ...prefs.get(), ...value })); },
};
export const handOrder = {
  get(room) { return read(`bigtwo:hand:${room}`, {}); },
  set(room, value) { localStorage.setItem(`bigtwo:hand:${room}`, JSON.stringify(value)); },
};

export function miniCards(cards, cls = "mini") {
  return h("span", { class: cls }, cards.map((c) => { const s = h("span", { class: "card", "data-card": c }); s.append(cardSvg(c)); return s; }));
}

// --- words: the same as the terminal's (bigtwo.words): names, "you", verbs that agree, plurals -------------
export function plural(n, word, many) { return `${n} ${n === 1 ? word : many || `${word}s`}`; }
export function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th");
  return `${n}${s}`;
}
const IRREGULAR = { is: "are", was: "were", has: "have", does: "do", goes: "go" };
function youForm(verb) {
  if (IRREGULAR[verb]) return IRREGULAR[verb];
  if (!verb.endsWith("s") || verb.endsWith("ss")) return verb;
  if (/(sses|shes|ches|xes|zes)$/.test(verb)) return verb.slice(0, -2);
  return verb.slice(0, -1);
}
// a combination's name in words: the server sends its identifier ("full_house"), a player reads "full house"
const KIND_WORDS = {
  single: "single", pair: "pair", triple: "triple", quad: "four of a kind", two_pairs: "two pairs", straight: "straight",
  flush: "flush", full_house: "full house", four_of_a_kind: "four of a kind", straight_flush: "straight flush",
  royal_flush: "royal flush", two_pair_junk: "two pairs and a card", triple_junk: "triple and two cards",
  sisters: "sisters", pair_straight: "pair straight", triple_straight: "triple straight",
  five_of_a_kind: "five of a kind", joker_pair: "pair of jokers", dragon: "dragon",
};
export function kindName(kind) {
  return t(KIND_WORDS[kind] || String(kind).replace(/_/g, " "));
}

export function wording(room, me) {
  const names = room.seats.map((s) => s.name);
  const name = (s) => (s === me ? "You" : names[s] ?? "nobody");
  return {
    name,
    object: (s) => (s === me ? "you" : names[s] ?? "nobody"),
    subject: (s, verb) => (s === me ? `You ${youForm(verb)}` : `${name(s)} ${verb}`),
  };
}
