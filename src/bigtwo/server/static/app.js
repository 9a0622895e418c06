// The browser client: the lobby, the table (over a WebSocket) and the replay viewer. No build step.
// The server is the referee: this page only shows the views it is sent and asks for moves.
import { cardSvg, shortName } from "/static/cards.js";
import { learnPage, rulesPage } from "/static/learn.js";
import { tablePage } from "/static/table.js";
import { LANGUAGES, chooseLanguage, language, startLanguage, t, tn } from "/static/i18n.js";
import { account, api, h, miniCards, saved } from "/static/ui.js";

const app = document.getElementById("app");
const statusLine = document.getElementById("status");
await startLanguage();  // the catalog first: every word below is said in the browser's language

// --- the language picker (the choice persists: localStorage and a cookie the server reads) --------------------
function languagePicker() {
  const pick = h("select", { id: "language", "aria-label": t("Language") },
    Object.entries(LANGUAGES).map(([code, name]) => h("option", { value: code, lang: code.replace("_", "-") }, name)));
  pick.value = language() in LANGUAGES ? language() : "en";
  pick.addEventListener("change", () => { chooseLanguage(pick.value); location.reload(); });
  return pick;
}
// --- the theme picker: the system's, light or dark, kept in this browser (theme.js applies it before drawing) ---
function themePicker() {
  const pick = h("select", { id: "theme", "aria-label": t("Theme") },
    h("option", { value: "system" }, t("system theme")), h("option", { value: "light" }, t("light")), h("option", { value: "dark" }, t("dark")));
  pick.value = window.bigtwoTheme ? window.bigtwoTheme.chosen() : "system";
  pick.addEventListener("change", () => window.bigtwoTheme?.choose(pick.value));
  return pick;
}
document.querySelector("header")?.append(languagePicker(), themePicker());
// the header's links (index.html writes them in English for a page without its script)
for (const [id, text] of [["nav-learn", t("Learn to play")], ["nav-leaderboard", t("Leaderboards")], ["nav-me", t("My page")]]) {
  const link = document.getElementById(id);
  if (link) link.textContent = text;
}

// --- who this browser is signed in as (its CSRF token goes with every change) -------------------------------
async function loadAccount() {
  try {
    const me = await api("GET", "/api/account");
    account.csrf = me.csrf; account.username = me.username; account.ratings = me.ratings || {};
  } catch { account.csrf = null; account.username = null; account.ratings = {}; }
  const link = document.getElementById("nav-me");
  if (link) { link.hidden = !account.username; if (account.username) link.href = `/players/${encodeURIComponent(account.username)}`; }
}

// --- routing ----------------------------------------------------------------------------------------------
const path = location.pathname;
let m;
account.ready = loadAccount();  // the table starts at once; a change it asks for waits for the account (ui.js)
if ((m = path.match(/^\/room\/([A-Za-z0-9_-]+)/))) tablePage(m[1], app, statusLine);
else if ((m = path.match(/^\/replay\/([A-Za-z0-9_-]+)/))) replayPage(m[1]);
else if (path === "/learn") learnPage(app, () => playNow(statusLine));
else if ((m = path.match(/^\/rules\/table\/([A-Za-z0-9_-]+)/))) rulesPage(app, null, m[1]);
else if ((m = path.match(/^\/rules\/([A-Za-z0-9_-]+)/))) rulesPage(app, m[1], null);
else account.ready.then(lobbyPage);

// --- one click to a game: a table of bots with the defaults, seated under this browser's name (or a new one) ---
function guestName() {
  let name = account.username || localStorage.getItem("bigtwo:name");
  if (!name) {
    name = `${t("Guest")} ${Math.floor(100 + Math.random() * 900)}`;
    localStorage.setItem("bigtwo:name", name);
  }
  return name;
}

export async function playNow(err) {
  try {
    const made = await api("POST", "/api/rooms", {
      name: "", preset: "classic", players: 4, rounds: 3, host_name: guestName(), public: false, move_seconds: 0,
      seats: [{ kind: "open" }, { kind: "bot" }, { kind: "bot" }, { kind: "bot" }],
    });
    saved.set(made.room.id, { seat: made.seat, token: made.token, host: made.host_token });
    await api("POST", `/api/rooms/${made.room.id}/start`, { fill_with_bots: true }, made.host_token);
    location.href = `/room/${made.room.id}`;
  } catch (e) { if (err) err.textContent = e.message; }
}

function playPanel() {
  const err = h("div", { class: "error", id: "play-now-error" });
  const name = guestName();
  const nameInput = h("input", { type: "text", id: "play-name", maxlength: 24, value: name, "aria-label": t("your name"), disabled: !!account.username,
    onchange: () => { const v = nameInput.value.trim(); if (v) localStorage.setItem("bigtwo:name", v); } });
  return h("section", { class: "panel play-now", id: "play" },
    h("div", { class: "row" },
      h("button", { class: "primary big", id: "play-now", onclick: () => playNow(err) }, t("Play now")),
      h("span", { class: "muted" }, t("Big Two against three bots, 3 rounds.")),
      h("label", { class: "muted", for: "play-name" }, t("Your name")), nameInput),
    h("div", { class: "row muted" }, h("a", { href: "/learn", id: "lobby-learn" }, t("New to Big Two? Learn to play")), "·",
      h("a", { href: "/rules/classic", id: "lobby-rules" }, t("The rules in short"))), err);
}

// the quick match: a table at once against bots of a rating band; rated for an account, unrated for a guest
// (who plays under the name in the Play now box)
function quickForm(presets, fail, guest = false) {
  const rated = presets.filter((p) => p.name in FAMILY_OF);
  const preset = h("select", { id: "quick-preset" }, rated.map((p) => h("option", { value: p.name }, `${p.title ? t(p.title) : p.name} (${RATED[FAMILY_OF[p.name]]})`)));
  preset.value = "classic";
  const band = h("select", { id: "quick-band" },
    h("option", { value: "level" }, t("about your rating")), h("option", { value: "weaker" }, t("rated at or below you")),
    h("option", { value: "stronger" }, t("rated at or above you")), h("option", { value: "any" }, t("any bot")));
  const rounds = h("input", { type: "number", id: "quick-rounds", min: 1, max: 100, value: 3 });
  const delay = h("input", { type: "number", id: "quick-delay", min: 0, max: 10, step: "any", value: 0.8 });
  return h("form", { id: "quick", onsubmit: async (ev) => {
      ev.preventDefault(); fail({ message: "" });
      const name = guest ? (document.getElementById("play-name")?.value.trim() || guestName()) : undefined;
      try {
        const made = await api("POST", "/api/quick-match", { preset: preset.value, band: band.value, rounds: Number(rounds.value) || null, bot_delay: Number(delay.value) || 0, name });
        saved.set(made.room.id, { seat: made.seat, token: made.token, host: made.host_token });
        location.href = `/room/${made.room.id}`;
      } catch (e) { fail(e); }
    } }, h("div", { class: "grid2" }, h("label", {}, t("Rules"), preset), h("label", {}, t("Bots"), band),
      h("label", {}, t("Rounds"), rounds), h("label", {}, t("Bot pause (s)"), delay)),
      h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "quick-button" }, t("Play a quick match"))));
}

// --- the account panel: sign up / in / out, change password, quick match ----------------------------------
const RATED = { classic: t("Big Two (classic-like)"), president: t("President"), winner: t("Winner"), "zheng-shangyou": t("Zheng Shangyou"), "tien-len": t("Tien Len") };
function accountPanel(presets) {
  const err = h("div", { class: "error", id: "account-error" });
  const box = h("section", { class: "panel", id: "account" });
  const fail = (e) => { err.textContent = e.message; };
  if (!account.username) {
    const user = h("input", { type: "text", id: "account-username", maxlength: 24, autocomplete: "username", placeholder: t("username") });
    const pass = h("input", { type: "password", id: "account-password", maxlength: 128, autocomplete: "current-password", placeholder: t("password (8 or more characters)") });
    const go = (what) => async (ev) => {
      ev.preventDefault(); err.textContent = "";
      try { await api("POST", `/api/account/${what}`, { username: user.value.trim(), password: pass.value }); location.reload(); }
      catch (e) { fail(e); }
    };
    box.append(h("h2", {}, t("Your account")),
      h("div", { class: "muted" }, t("Sign in to keep a rating and a history; playing needs no account.")),
      h("form", { class: "grid2", id: "account-form", onsubmit: go("signin") },
        h("label", {}, t("Username"), user), h("label", {}, t("Password"), pass),
        h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "signin" }, t("Sign in")),
          h("button", { type: "button", id: "signup", onclick: go("signup") }, t("Sign up")))),
      h("h3", {}, t("Quick match (unrated)")), quickForm(presets, fail, true), err);
    return box;
  }
  const ratings = Object.entries(account.ratings).map(([f, r]) => `${RATED[f] || f} ${r.rating.toFixed(1)}${r.provisional ? ` ${t("(provisional)")}` : ""}`);
  const current = h("input", { type: "password", id: "password-current", autocomplete: "current-password" });
  const fresh = h("input", { type: "password", id: "password-new", autocomplete: "new-password" });
  box.append(h("h2", {}, t("Your account")),
    h("div", { class: "row" }, h("span", { id: "account-name" }, t("Signed in as {name}", { name: account.username })),
      h("a", { href: `/players/${encodeURIComponent(account.username)}`, id: "my-page" }, t("your page")),
      h("a", { href: "/leaderboard" }, t("leaderboards")),
      h("button", { id: "signout", onclick: async () => { try { await api("POST", "/api/account/signout"); location.reload(); } catch (e) { fail(e); } } }, t("Sign out"))),
    h("div", { class: "muted", id: "my-ratings" }, ratings.length ? t("Ratings: {list}", { list: ratings.join(" · ") }) : t("No rated matches yet: a quick match is rated.")),
    h("h3", {}, t("Quick match (rated)")),
    quickForm(presets, fail),
    h("details", {}, h("summary", {}, t("Change password")),
      h("form", { class: "grid2", id: "password-form", onsubmit: async (ev) => {
        ev.preventDefault(); err.textContent = "";
        try { await api("POST", "/api/account/password", { current: current.value, new: fresh.value }); location.reload(); } catch (e) { fail(e); }
      } }, h("label", {}, t("Current password"), current), h("label", {}, t("New password"), fresh),
        h("div", { class: "row" }, h("button", { type: "submit" }, t("Change password"))))), err);
  return box;
}
// a table's status as the lobby lists it
const STATUS = { waiting: t("waiting"), playing: t("playing"), paused: t("paused"), over: t("over") };
const FAMILY_OF = { classic: "classic", bga: "classic", "chor-dai-di": "classic", "hong-kong": "classic", "house-code": "classic",
  indonesia: "classic", malaysia: "classic", "pusoy-dos": "classic", singapore: "classic", taiwan: "classic", vietnam: "classic",
  president: "president", winner: "winner", "zheng-shangyou": "zheng-shangyou", "tien-len": "tien-len" };

// --- the lobby --------------------------------------------------------------------------------------------
async function lobbyPage() {
  document.title = t("bigtwo: lobby");
  const [presets, bots] = await Promise.all([api("GET", "/api/presets"), api("GET", "/api/bots")]);
  const err = h("div", { class: "error", id: "create-error" });
  const preset = h("select", { id: "preset" }, presets.map((p) => h("option", { value: p.name }, `${p.title ? t(p.title) : p.name} (${p.min_players}-${p.max_players})`)));
  const describe = h("div", { class: "muted" });
  const players = h("input", { type: "number", id: "players", min: 2, max: 8, value: 4 });
  const seatsBox = h("div", { class: "grid2", id: "seat-choices" });
  // "" asks for the table's default: the strongest bot that answers within the bot pause, for these rules
  const strength = h("select", { id: "strength" },
    h("option", { value: "", title: t("the strongest bot that answers within the bot pause, at these rules") }, t("the strongest for the pause")),
    bots.map((b) => h("option", { value: b.name, title: b.description }, b.name)));
  strength.value = "";

  function drawSeats() {
    const n = Math.max(2, Math.min(8, Number(players.value) || 4));
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren(...Array.from({ length: n - 1 }, (_, i) => h("label", {}, t("Seat {n}", { n: i + 2 }),
      h("select", { class: "seat-choice", "data-seat": i + 1 },
        h("option", { value: "open" }, t("a friend (invite link)")),
        h("option", { value: "bot:" }, t("bot: the table's strength")),
        bots.map((b) => h("option", { value: `bot:${b.name}` }, t("bot: {name}", { name: b.name })))))));
    [...seatsBox.querySelectorAll("select")].forEach((s, i) => { s.value = old[i] || `bot:${strength.value}`; });
  }
  function presetChanged() {
    const p = presets.find((x) => x.name === preset.value);
    describe.replaceChildren(t(p.description), " ", h("a", { href: `/rules/${p.name}`, id: "preset-rules" }, t("how to play")));
    players.min = p.min_players; players.max = p.max_players;
    if (Number(players.value) < p.min_players || Number(players.value) > p.max_players) players.value = p.players;
    drawSeats();
  }
  preset.addEventListener("change", presetChanged);
  players.addEventListener("input", drawSeats);

  const form = h("form", { id: "create" },
    h("div", { class: "grid2" },
      h("label", {}, t("Your name"), h("input", { type: "text", id: "host-name", maxlength: 24, required: true, value: account.username || localStorage.getItem("bigtwo:name") || "", disabled: !!account.username })),
      h("label", {}, t("Table name"), h("input", { type: "text", id: "table-name", maxlength: 60, placeholder: t("optional") })),
      h("label", {}, t("Rules"), preset),
      h("label", {}, t("Players"), players),
      h("label", {}, t("Rounds"), h("input", { type: "number", id: "rounds", min: 1, max: 100, value: 3 })),
      h("label", {}, t("…or play to points (a total reaching it ends the match)"), h("input", { type: "number", id: "points", min: 1, max: 100000, placeholder: t("optional") })),
      h("label", {}, t("Seconds a move (0: no limit)"), h("input", { type: "number", id: "move-seconds", min: 0, max: 3600, value: 60 })),
      h("label", {}, t("Bot strength"), strength),
      h("label", {}, t("Bot pause (s)"), h("input", { type: "number", id: "bot-delay", min: 0, max: 10, step: "any", value: 0.8 }))),
    describe,
    h("h3", {}, t("Seats")), h("div", { class: "muted" }, t("Seat 1 is yours; the others play after you, in turn.")), seatsBox,
    h("label", {}, t("House rules (TOML: one setting a line, e.g. pass_locks_out = true)"),
      h("textarea", { id: "house-rules", placeholder: 'suit_order = "CDHS"\nlast_play_forbidden = "two-single-or-pair"' })),
    h("label", {}, h("input", { type: "checkbox", id: "public", checked: true }), " ", t("list this table in the lobby")),
    account.username ? h("label", {}, h("input", { type: "checkbox", id: "rated" }), " ", t("rated (a preset without house rules; signed-in players and bots only)")) : null,
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "create-button" }, t("Create table"))), err);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const name = form.querySelector("#host-name").value.trim();
    localStorage.setItem("bigtwo:name", name);
    const seats = [{ kind: "open" }, ...[...seatsBox.querySelectorAll("select")].map((s) =>
      s.value === "open" ? { kind: "open" } : { kind: "bot", bot: s.value.slice(4) || null })];
    const toml = form.querySelector("#house-rules").value.trim();
    const body = {
      name: form.querySelector("#table-name").value.trim(), preset: preset.value, players: Number(players.value),
      points: Number(form.querySelector("#points").value) || null,
      bot: strength.value || null, seats, host_name: name,
      move_seconds: Number(form.querySelector("#move-seconds").value) || 0,
      bot_delay: Number(form.querySelector("#bot-delay").value) || 0, public: form.querySelector("#public").checked,
      rated: account.username ? form.querySelector("#rated").checked : false,
    };
    if (!body.points) body.rounds = Number(form.querySelector("#rounds").value) || null;
    if (toml) body.rules_toml = toml;
    try {
      const made = await api("POST", "/api/rooms", body);
      saved.set(made.room.id, { seat: made.seat, token: made.token, host: made.host_token });
      location.href = `/room/${made.room.id}`;
    } catch (e) { err.textContent = e.message; }
  });

  const list = h("ul", { class: "rooms", id: "lobby" });
  const records = h("ul", { class: "rooms", id: "records" });
  app.replaceChildren(
    playPanel(),
    h("section", { class: "panel" }, h("h2", {}, t("Open tables")), list),
    accountPanel(presets),
    h("section", { class: "panel" }, h("h2", {}, t("New table")), form),
    h("section", { class: "panel" }, h("h2", {}, t("Finished games")), records));
  if (presets.some((p) => p.name === "classic")) preset.value = "classic";
  presetChanged();

  async function refresh() {
    try {
      const rooms = await api("GET", "/api/rooms");
      list.replaceChildren(...(rooms.length ? rooms.map((r) => {
        const open = r.seats.filter((s) => s.kind === "open").length;
        return h("li", {}, h("span", { class: "name" }, r.name),
          h("span", { class: "muted" }, [r.rules_name, tn("{n} player", "{n} players", r.players), STATUS[r.status] || r.status,
            r.rated ? t("rated") : null, open ? tn("{n} open seat", "{n} open seats", open) : null].filter(Boolean).join(" · ")),
          h("a", { href: `/room/${r.id}` }, open && r.status !== "over" ? t("join") : t("watch")));
      }) : [h("li", { class: "muted" }, t("No open tables: start one below."))]));
      const done = await api("GET", "/api/records?limit=10");
      records.replaceChildren(...(done.length ? done.map((r) => h("li", {}, h("span", { class: "name" }, r.name),
        h("span", { class: "muted" }, `${r.preset} · ${r.seats.join(", ")}`),
        h("span", { class: "when" }, finishedWhen(r.finished_at)),
        r.standings && r.standings.standings ? h("span", { class: "result" }, wonBy(r)) : null,
        h("a", { href: `/replay/${r.id}` }, t("replay")), h("a", { href: r.downloads.text }, t("record")),
        h("a", { href: r.downloads.json }, "(JSON)")))
        : [h("li", { class: "muted" }, t("None yet."))]));
      statusLine.textContent = "";
    } catch (e) { statusLine.textContent = t("lobby: {error}", { error: e.message }); }
  }
  refresh();
  setInterval(refresh, 5000);
}

// who won a finished game, with their total where the rules score points ("won by Ana, +18")
function wonBy(r) {
  const first = r.standings.standings[0], total = (r.standings.totals || [])[first];
  const name = r.seats[first];
  const signed = total > 0 ? `+${total}` : `${total}`;
  return total ? t("won by {name}, {total}", { name, total: signed }) : t("won by {name}", { name });
}

// when a game finished, in this browser's own words for dates ("7 Dec, 17:40")
function finishedWhen(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? "" : d.toLocaleString(undefined, { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit" });
}

// --- the replay viewer ------------------------------------------------------------------------------------
async function replayPage(roomId) {
  document.title = t("bigtwo: replay");
  let data;
  try { data = await api("GET", `/api/records/${roomId}/replay`); }
  catch (e) { app.replaceChildren(h("section", { class: "panel" }, h("h2", {}, t("No replay")), h("p", { class: "error" }, e.message), h("a", { href: "/" }, t("lobby")))); return; }
  let i = 0, timer = null;
  const frames = data.frames;
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: 0, id: "replay-slider", "aria-label": t("Replay") });
  const view = h("div", { class: "felt replay", id: "replay" });
  function draw() {
    const f = frames[i];
    slider.value = i;
    view.replaceChildren(
      h("div", { class: "topbar" }, h("span", { class: "title" }, data.name), h("span", { class: "info" }, t("{rules} · round {round} · step {step} of {steps}", { rules: data.rules, round: f.round, step: i, steps: frames.length - 1 }))),
      // which way play went (the hands below are in the order of play); none at two players
      data.direction_said ? h("div", { class: "seat-order", id: "replay-direction" }, data.direction_said.listed) : null,
      h("div", { class: "prompt", id: "replay-note" }, f.label),
      h("div", { class: "trick" }, h("div", { class: "cards" }, (f.trick ? f.trick.cards : []).map((c) => { const s = h("span", { class: "card" }); s.append(cardSvg(c)); return s; })),
        h("div", { class: "label" }, f.trick ? t("played by {name}", { name: data.seats[f.trick.seat] }) : "")),
      h("div", { class: "hands" }, f.hands.map((cards, s) => {
        const out = f.finished.indexOf(s);
        const state = out >= 0 ? ` · ${t("out #{n}", { n: out + 1 })}` : f.passed.includes(s) ? ` · ${t("passed")}` : "";
        const role = f.roles && f.roles[s] && f.roles[s] !== "neutral" ? ` · ${f.roles[s]}` : "";
        // rounds scored by the order players go out in have no points: the place is the result
        const score = f.scores && !data.ranks_only ? ` · ${t("this round {score}", { score: `${f.scores[s] > 0 ? "+" : ""}${f.scores[s]}` })}` : "";
        const total = data.ranks_only ? "" : ` · ${t("total {n}", { n: f.totals[s] })}`;
        return h("div", { class: `seatrow${f.actor === s ? " acted" : ""}${f.to_move === s ? " next" : ""}` },
          h("div", { class: "who" }, `${data.seats[s]} · ${tn("{n} card", "{n} cards", cards.length)}${state}${role}${total}${score}${f.actor === s ? " ◀" : ""}`), miniCards(cards));
      })));
  }
  const step = (d) => { i = Math.max(0, Math.min(frames.length - 1, i + d)); draw(); };
  slider.addEventListener("input", () => { i = Number(slider.value); draw(); });
  const play = h("button", { id: "replay-play", onclick: () => {
    if (timer) { clearInterval(timer); timer = null; play.textContent = t("Play"); return; }
    play.textContent = t("Stop");
    timer = setInterval(() => { if (i >= frames.length - 1) { clearInterval(timer); timer = null; play.textContent = t("Play"); } else step(1); }, 700);
  } }, t("Play"));
  app.replaceChildren(
    h("section", { class: "panel" }, h("h2", {}, t("Replay: {name}", { name: data.name })),
      h("div", { class: "row" }, h("button", { onclick: () => { i = 0; draw(); } }, t("First")), h("button", { id: "replay-prev", onclick: () => step(-1) }, "◀"), play,
        h("button", { id: "replay-next", onclick: () => step(1) }, "▶"), h("button", { onclick: () => { i = frames.length - 1; draw(); } }, t("Last")),
        h("a", { href: `/api/records/${roomId}?format=text`, id: "replay-download" }, t("Download the record")),
        h("a", { href: `/api/records/${roomId}?format=json` }, "(JSON)"), h("a", { href: "/" }, t("Lobby"))), slider,
      reviewControls(roomId, data, () => frames[i].round)),
    view);
  draw();
}

// The review: one seat's decisions in the round shown, rated from that seat's view (GET .../review)
const REVIEW_LABELS = { good: () => t("good"), inaccuracy: () => t("inaccuracy"), mistake: () => t("mistake"), blunder: () => t("blunder") };
function reviewControls(roomId, data, round) {
  const seat = h("select", { id: "review-seat", "aria-label": t("Whose decisions") }, data.seats.map((name, s) => h("option", { value: s }, name)));
  const out = h("div", { id: "review", "aria-live": "polite" });
  const moves = (cards) => (cards ? cards.map(shortName).join(" ") : t("pass"));
  const go = async () => {
    const r = round(), who = data.seats[Number(seat.value)];
    out.replaceChildren(h("p", {}, t("Reviewing {name}'s decisions in round {round}…", { name: who, round: r })));
    let got;
    try { got = await api("GET", `/api/records/${roomId}/review?seat=${Number(seat.value)}&round=${r}`); }
    catch (e) { out.replaceChildren(h("p", { class: "error" }, e.message)); return; }
    const rows = got.decisions.map((d, k) => h("tr", { class: `review-${d.label}` }, h("td", {}, String(k + 1)), h("td", {}, moves(d.played)),
      h("td", {}, d.label === "good" ? "" : moves(d.best)), h("td", {}, d.loss.toFixed(1)), h("td", {}, REVIEW_LABELS[d.label]())));
    const [a, b, c] = got.thresholds;
    out.replaceChildren(
      h("h3", {}, t("Review of {name}'s decisions, round {round}", { name: who, round: r })),
      h("table", {}, h("thead", {}, h("tr", {}, h("th", {}, t("Decision")), h("th", {}, t("Played")), h("th", {}, t("Better")), h("th", {}, t("Points lost")), h("th", {}, t("Label")))), h("tbody", {}, rows)),
      h("p", {}, t("Blunders: {blunders} · mistakes: {mistakes} · inaccuracies: {inaccuracies}. Points lost: inaccuracy from {a}, mistake from {b}, blunder from {c}.",
        { blunders: got.counts.blunder, mistakes: got.counts.mistake, inaccuracies: got.counts.inaccuracy, a, b, c })));
  };
  return h("div", { class: "row" }, seat, h("button", { id: "review-button", onclick: go }, t("Review")), out);
}
