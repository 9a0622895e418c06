// Playing cards drawn as inline SVG: no image files, no fonts beyond the system's sans-serif.
// A card is named as the server names it: rank (3-9, T, J, Q, K, A, 2) and suit (D, C, H, S), or BJ / RJ.

import { t } from "/static/i18n.js";

const NS = "http://www.w3.org/2000/svg";
const RANKS = { T: "10" };
// the suits' names in the player's language (the same messages as bigtwo.words.SUIT_WORDS), looked up when said
const SUIT_NAMES = () => ({ D: t("diamonds"), C: t("clubs"), H: t("hearts"), S: t("spades") });

// suit shapes in a 20 x 20 box
const PIPS = {
  D: "M10 0.5 L18.5 10 L10 19.5 L1.5 10 Z",
  H: "M10 18.5 C10 18.5 0.8 12.4 0.8 6.4 C0.8 3.1 3.2 0.9 6 0.9 C7.9 0.9 9.3 2.1 10 3.7 " +
     "C10.7 2.1 12.1 0.9 14 0.9 C16.8 0.9 19.2 3.1 19.2 6.4 C19.2 12.4 10 18.5 10 18.5 Z",
  S: "M10 0.8 C10 0.8 0.9 7.8 0.9 12.3 C0.9 15.3 3.1 16.9 5.4 16.9 C7.1 16.9 8.4 16 9.1 14.8 " +
     "C8.9 16.7 8.1 18.2 6.8 19.3 L13.2 19.3 C11.9 18.2 11.1 16.7 10.9 14.8 C11.6 16 12.9 16.9 14.6 16.9 " +
     "C16.9 16.9 19.1 15.3 19.1 12.3 C19.1 7.8 10 0.8 10 0.8 Z",
  C: "M5.6 5.6 a4.4 4.4 0 1 0 8.8 0 a4.4 4.4 0 1 0 -8.8 0 Z " +
     "M0.9 11.6 a4.4 4.4 0 1 0 8.8 0 a4.4 4.4 0 1 0 -8.8 0 Z " +
     "M10.3 11.6 a4.4 4.4 0 1 0 8.8 0 a4.4 4.4 0 1 0 -8.8 0 Z " +
     "M9 9 L11 9 L12.6 19.3 L7.4 19.3 Z",
};

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  for (const c of children) node.append(c);
  return node;
}

function pip(suit, x, y, size, color) {
  const s = size / 20;
  return el("path", { d: PIPS[suit], fill: color, transform: `translate(${x} ${y}) scale(${s})` });
}

function text(x, y, value, size, color, anchor = "middle", weight = "700") {
  const t = el("text", {
    x, y, "font-size": size, "font-family": "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    "font-weight": weight, fill: color, "text-anchor": anchor,
  });
  t.textContent = value;
  return t;
}

// A record marks the second deck's copy of a card with a prime (3D'); it looks the same.
const face = (name) => name.replace(/'$/, "");

export function cardLabel(name) {
  name = face(name);
  if (name === "BJ") return t("black joker");
  if (name === "RJ") return t("red joker");
  const rank = name.slice(0, -1), suit = name.slice(-1);
  return t("{rank} of {suit}", { rank: RANKS[rank] || rank, suit: SUIT_NAMES()[suit] || suit });
}

export function shortName(name) {
  name = face(name);
  if (name === "BJ" || name === "RJ") return name; // as the terminal writes them (bigtwo.words)
  const rank = name.slice(0, -1), suit = name.slice(-1);
  return `${RANKS[rank] || rank}${{ D: "♦", C: "♣", H: "♥", S: "♠" }[suit] || suit}`;
}

// The face of a card (60 x 84 units, scaled by CSS).
export function cardSvg(name) {
  name = face(name);
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-face", role: "img", "aria-label": cardLabel(name) });
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 6, fill: "#fffdf8", stroke: "#444", "stroke-width": 1.5 }));
  if (name === "BJ" || name === "RJ") {
    const color = name === "RJ" ? "#c62828" : "#222";
    svg.append(el("path", {
      d: "M30 22 L34.7 36.5 L50 36.5 L37.6 45.5 L42.4 60 L30 51 L17.6 60 L22.4 45.5 L10 36.5 L25.3 36.5 Z",
      fill: color,
    }));
    svg.append(text(30, 76, "JOKER", 10, color));
    svg.append(text(5, 14, name, 11, color, "start")); // RJ / BJ, as the log and the terminal write it
    return svg;
  }
  const rank = name.slice(0, -1), suit = name.slice(-1);
  const color = suit === "D" || suit === "H" ? "#c62828" : "#1b1b1b";
  const label = RANKS[rank] || rank;
  svg.append(text(label.length > 1 ? 4 : 5, 19, label, label.length > 1 ? 15 : 17, color, "start"));
  svg.append(pip(suit, 4.5, 23, 11, color));
  svg.append(pip(suit, 19, 35, 30, color));
  const corner = el("g", { transform: "rotate(180 30 42)" });
  corner.append(text(label.length > 1 ? 4 : 5, 19, label, label.length > 1 ? 15 : 17, color, "start"));
  svg.append(corner);
  return svg;
}

// The back of a card, for the other seats' hands.
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 60 84", class: "card-back", "aria-hidden": "true" });
  const pattern = el("pattern", { id: "b2back", width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" });
  pattern.append(el("rect", { width: 8, height: 8, fill: "#1f4e8c" }));
  pattern.append(el("rect", { width: 4, height: 8, fill: "#2a63ad" }));
  svg.append(el("defs", {}, [pattern]));
  svg.append(el("rect", { x: 0.75, y: 0.75, width: 58.5, height: 82.5, rx: 6, fill: "#fff", stroke: "#444", "stroke-width": 1.5 }));
  svg.append(el("rect", { x: 4, y: 4, width: 52, height: 76, rx: 4, fill: "url(#b2back)" }));
  return svg;
}
