// Learning to play: the guided first round (/learn) and the rules explained (/rules/NAME, /rules/table/ID).
// The lesson's steps come from the server (bigtwo.lesson, the same the terminal's `bigtwo learn` walks); each of
// your answers is checked there, so a wrong one is refused in the rules' own words.
import { cardSvg, shortName } from "/static/cards.js";
import { t, tn } from "/static/i18n.js";
import { api, h, miniCards } from "/static/ui.js";

const faces = (cards) => cards.map(shortName).join(" ");

// the lesson's state, for tests and the curious
export const lessonState = { step: 0, done: false, errors: 0 };

export async function learnPage(app, playNow) {
  document.title = t("bigtwo: learn to play");
  const lesson = await api("GET", "/api/learn");
  const steps = lesson.steps;
  const view = { hand: steps[0].hand.slice(), trick: [], trickBy: null, sizes: steps[0].hand_sizes.slice(), log: [], teach: "", error: "" };
  const selected = new Set();
  let pos = 0, timer = null;
  window.bigtwo = { lesson: lessonState };
  const root = h("div", { class: "felt learn", id: "learn" });
  app.classList.add("learn-page");
  app.replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("Learn to play")), h("p", { class: "muted", id: "learn-intro" }, lesson.intro)), root);

  function apply(step) {
    // a move changes the table: its cards on the trick (a pass leaves it), fewer cards in the mover's hand
    if (step.cards.length) {
      view.trick = step.cards; view.trickBy = step.name;
      view.sizes[step.seat] -= step.cards.length;
      if (step.yours) view.hand = view.hand.filter((c) => !step.cards.includes(c));
    }
    view.log.push({ said: step.said, teach: step.yours ? "" : step.teach, yours: step.yours });
    const next = steps[pos + 1];
    if (next && !next.trick.length) { view.trick = []; view.trickBy = null; } // a new trick starts
  }

  function run() {
    // the others' moves come one by one, each with its comment; then the page waits for yours
    clearTimeout(timer);
    if (pos >= steps.length) { lessonState.done = true; render(); return; }
    const step = steps[pos];
    lessonState.step = pos;
    if (step.yours) { view.teach = step.teach; render(); return; }
    view.teach = "";
    render();
    timer = setTimeout(() => { apply(step); pos += 1; run(); }, 650);
  }

  async function answer(text) {
    const step = steps[pos];
    if (!step || !step.yours) return;
    view.error = "";
    try {
      const verdict = await api("POST", "/api/learn/check", { step: pos, answer: text });
      if (!verdict.ok) { view.error = verdict.message; lessonState.errors += 1; render(); return; }
    } catch (e) { view.error = e.message; render(); return; }
    selected.clear();
    apply(step);
    pos += 1;
    run();
  }

  function render() {
    const step = steps[pos];
    const mine = step && step.yours;
    const others = lesson.names.map((name, seat) => ({ name, seat })).filter((s) => s.seat !== 0);
    const seats = h("div", { class: "learn-seats" }, others.map((s) => h("div", { class: `seat${step && step.seat === s.seat ? " turn" : ""}`, "data-seat": s.seat },
      h("div", { class: "who" }, s.name), h("div", { class: "meta" }, tn("{n} card", "{n} cards", view.sizes[s.seat])))));
    const trick = h("div", { class: "trick", id: "trick" },
      h("div", { class: "cards" }, view.trick.map((c) => { const s = h("span", { class: "card", "data-card": c }); s.append(cardSvg(c)); return s; })),
      h("div", { class: "label" }, view.trickBy ? t("played by {name}", { name: view.trickBy }) : t("a new trick: the leader plays anything")));
    const teach = lessonState.done
      ? h("div", { class: "help ok", id: "learn-teach" }, h("span", { class: "text" }, lesson.done))
      : h("div", { class: `help${mine ? " ok" : " empty"}`, id: "learn-teach" }, h("span", { class: "text" }, view.teach),
        mine ? h("span", { class: "muted" }, step.cards.length ? t("Select the cards and press Play.") : t("Press Pass.")) : null);
    const hand = h("div", { class: "hand", id: "hand" }, view.hand.map((c) => {
      const b = h("button", { class: `card${selected.has(c) ? " selected" : ""}`, "data-card": c, "aria-pressed": selected.has(c) ? "true" : "false",
        onclick: () => { if (selected.has(c)) selected.delete(c); else selected.add(c); view.error = ""; render(); } });
      b.append(cardSvg(c));
      return b;
    }));
    const buttons = h("div", { class: "actions" },
      h("button", { class: "primary", id: "play", disabled: !mine || !selected.size, onclick: () => answer(view.hand.filter((c) => selected.has(c)).join(" ")) }, t("Play")),
      h("button", { id: "pass", disabled: !mine, onclick: () => answer("pass") }, t("Pass")),
      h("button", { id: "hint", disabled: !mine, onclick: () => { selected.clear(); for (const c of step.cards) selected.add(c); view.error = step.cards.length ? "" : t("Press Pass."); render(); } }, t("Show me")));
    const error = view.error ? h("div", { class: "prompt" }, h("span", { class: "error", id: "learn-error" }, view.error)) : null;
    const log = h("div", { class: "log", id: "learn-log" }, view.log.map((l) => h("div", { class: `line${l.yours ? " mine" : ""}` }, l.said, l.teach ? h("span", { class: "why" }, ` · ${l.teach}`) : null)));
    const end = lessonState.done ? h("div", { class: "learn-end", id: "learn-end" },
      h("ul", { class: "details" }, lesson.result.map((r) => h("li", {}, r))),
      h("div", { class: "row" },
        playNow ? h("button", { class: "primary", id: "learn-play-now", onclick: playNow }, t("Play a real round against bots")) : null,
        h("a", { href: `/rules/${lesson.rules}`, id: "learn-rules" }, t("The rules in short")),
        h("a", { href: "/" }, t("Lobby")))) : null;
    // replaceChildren writes a null as the text "null": only the parts shown now
    root.replaceChildren(...[seats, trick, error, teach, end, lessonState.done ? null : hand, lessonState.done ? null : buttons, log].filter(Boolean));
    log.scrollTop = log.scrollHeight;
  }
  run();
}

export async function rulesPage(app, name, roomId) {
  document.title = t("bigtwo: rules");
  let data;
  try { data = await api("GET", roomId ? `/api/rooms/${roomId}/rules` : `/api/rules/${encodeURIComponent(name)}`); }
  catch (e) { app.replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("No such rules")), h("p", { class: "error" }, e.message), h("a", { href: "/" }, t("Lobby")))); return; }
  const example = (cards) => h("span", { class: "example" }, miniCards(cards.split(" ")));
  app.replaceChildren(h("section", { class: "panel rules", id: "rules" },
    h("h2", {}, t("How to play: {name}", { name: data.name })),
    h("p", { class: "muted" }, t(data.description)), // a preset's description is in the catalogs
    data.points.map((p) => h("div", { class: "rule-point", "data-topic": p.topic },
      h("h3", {}, p.topic), h("p", {}, p.text),
      p.examples.length ? h("div", { class: "examples", title: faces(p.examples.join(" ").split(" ")) }, p.examples.flatMap((ex, i) => [i && p.ordered ? h("span", { class: "lt" }, "<") : null, example(ex)])) : null)),
    h("div", { class: "row" }, h("a", { href: "/learn", id: "rules-learn" }, t("Learn to play: a guided round")),
      roomId ? h("a", { href: `/room/${roomId}` }, t("Back to the table")) : null, h("a", { href: "/" }, t("Lobby")))));
}
