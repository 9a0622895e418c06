// The browser client: the lobby, the table (over a WebSocket) and the replay viewer. No build step.
// The server is the referee: this page only shows the views it is sent and asks for moves.
import { cardBack, cardSvg, shortName } from "/static/cards.js";

const app = document.getElementById("app");
const statusLine = document.getElementById("status");

// --- small helpers ----------------------------------------------------------------------------------------
function h(tag, attrs = {}, ...children) {
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

async function api(method, path, body, token) {
  const headers = { "Content-Type": "application/json" };
  if (token) headers.Authorization = `Bearer ${token}`;
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

const saved = {
  get(room) { try { return JSON.parse(localStorage.getItem(`bigtwo:${room}`)) || {}; } catch { return {}; } },
  set(room, value) { localStorage.setItem(`bigtwo:${room}`, JSON.stringify({ ...saved.get(room), ...value })); },
};

function miniCards(cards) {
  return h("span", { class: "mini" }, cards.map((c) => { const s = h("span", { class: "card" }); s.append(cardSvg(c)); return s; }));
}

function seatName(room, seat) {
  if (seat === null || seat === undefined) return "—";
  const s = room.seats[seat];
  return s ? s.name : `seat ${seat}`;
}

function scoreTable(room, roundsDone, totals) {
  const names = room.seats.map((s) => s.name);
  return h("div", { class: "scroll" }, h("table", { class: "scores" },
    h("thead", {}, h("tr", {}, h("th", {}, "round"), names.map((n) => h("th", {}, n)))),
    h("tbody", {},
      roundsDone.map((r) => h("tr", {}, h("td", {}, `${r.round + 1}`),
        r.scores.map((v, i) => h("td", { title: `${r.cards_left[i]} cards left` }, v > 0 ? `+${v}` : `${v}`)))),
      h("tr", { class: "total" }, h("td", {}, "total"), (totals || []).map((v) => h("td", {}, `${v}`))))));
}

// --- routing ----------------------------------------------------------------------------------------------
const path = location.pathname;
let m;
if ((m = path.match(/^\/room\/([A-Za-z0-9_-]+)/))) tablePage(m[1]);
else if ((m = path.match(/^\/replay\/([A-Za-z0-9_-]+)/))) replayPage(m[1]);
else lobbyPage();

// --- the lobby --------------------------------------------------------------------------------------------
async function lobbyPage() {
  document.title = "bigtwo: lobby";
  const [presets, bots] = await Promise.all([api("GET", "/api/presets"), api("GET", "/api/bots")]);
  const err = h("div", { class: "error", id: "create-error" });
  const preset = h("select", { id: "preset" }, presets.map((p) => h("option", { value: p.name }, `${p.name} (${p.min_players}-${p.max_players})`)));
  const describe = h("div", { class: "muted" });
  const players = h("input", { type: "number", id: "players", min: 2, max: 8, value: 4 });
  const seatsBox = h("div", { class: "grid2", id: "seat-choices" });
  const strength = h("select", { id: "strength" }, bots.map((b) => h("option", { value: b.name, title: b.description }, b.name)));
  strength.value = (bots.find((b) => b.default) || bots[0]).name;

  function drawSeats() {
    const n = Math.max(2, Math.min(8, Number(players.value) || 4));
    const old = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    seatsBox.replaceChildren(...Array.from({ length: n - 1 }, (_, i) => h("label", {}, `Seat ${i + 1}`,
      h("select", { class: "seat-choice", "data-seat": i + 1 },
        h("option", { value: "open" }, "a friend (invite link)"),
        bots.map((b) => h("option", { value: `bot:${b.name}` }, `bot: ${b.name}`))))));
    [...seatsBox.querySelectorAll("select")].forEach((s, i) => { s.value = old[i] || `bot:${strength.value}`; });
  }
  function presetChanged() {
    const p = presets.find((x) => x.name === preset.value);
    describe.textContent = p.description;
    players.min = p.min_players; players.max = p.max_players;
    if (Number(players.value) < p.min_players || Number(players.value) > p.max_players) players.value = p.players;
    drawSeats();
  }
  preset.addEventListener("change", presetChanged);
  players.addEventListener("input", drawSeats);

  const form = h("form", { id: "create" },
    h("div", { class: "grid2" },
      h("label", {}, "Your name", h("input", { type: "text", id: "host-name", maxlength: 24, required: true, value: localStorage.getItem("bigtwo:name") || "" })),
      h("label", {}, "Table name", h("input", { type: "text", id: "table-name", maxlength: 60, placeholder: "optional" })),
      h("label", {}, "Rules", preset),
      h("label", {}, "Players", players),
      h("label", {}, "Rounds", h("input", { type: "number", id: "rounds", min: 1, max: 100, value: 3 })),
      h("label", {}, "…or play to points (a total reaching it ends the match)", h("input", { type: "number", id: "points", min: 1, max: 100000, placeholder: "optional" })),
      h("label", {}, "Seconds a move (0: no limit)", h("input", { type: "number", id: "move-seconds", min: 0, max: 3600, value: 60 })),
      h("label", {}, "Bot strength", strength),
      h("label", {}, "Bot pause (s)", h("input", { type: "number", id: "bot-delay", min: 0, max: 10, step: "any", value: 0.8 }))),
    describe,
    h("h3", {}, "Seats"), h("div", { class: "muted" }, "Seat 0 is yours."), seatsBox,
    h("label", {}, "House rules (TOML: one setting a line, e.g. pass_locks_out = true)",
      h("textarea", { id: "house-rules", placeholder: 'suit_order = "CDHS"\nlast_play_forbidden = "two-single-or-pair"' })),
    h("label", {}, h("input", { type: "checkbox", id: "public", checked: true }), " list this table in the lobby"),
    h("div", { class: "row" }, h("button", { class: "primary", type: "submit", id: "create-button" }, "Create table")), err);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const name = form.querySelector("#host-name").value.trim();
    localStorage.setItem("bigtwo:name", name);
    const seats = [{ kind: "open" }, ...[...seatsBox.querySelectorAll("select")].map((s) =>
      s.value === "open" ? { kind: "open" } : { kind: "bot", bot: s.value.slice(4) })];
    const toml = form.querySelector("#house-rules").value.trim();
    const body = {
      name: form.querySelector("#table-name").value.trim(), preset: preset.value, players: Number(players.value),
      points: Number(form.querySelector("#points").value) || null,
      bot: strength.value, seats, host_name: name,
      move_seconds: Number(form.querySelector("#move-seconds").value) || 0,
      bot_delay: Number(form.querySelector("#bot-delay").value) || 0, public: form.querySelector("#public").checked,
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
    h("section", { class: "panel" }, h("h2", {}, "Open tables"), list),
    h("section", { class: "panel" }, h("h2", {}, "New table"), form),
    h("section", { class: "panel" }, h("h2", {}, "Finished games"), records));
  if (presets.some((p) => p.name === "classic")) preset.value = "classic";
  presetChanged();

  async function refresh() {
    try {
      const rooms = await api("GET", "/api/rooms");
      list.replaceChildren(...(rooms.length ? rooms.map((r) => {
        const open = r.seats.filter((s) => s.kind === "open").length;
        return h("li", {}, h("span", { class: "name" }, r.name),
          h("span", { class: "muted" }, `${r.rules_name} · ${r.players} players · ${r.status}${open ? ` · ${open} open` : ""}`),
          h("a", { href: `/room/${r.id}` }, open && r.status !== "over" ? "join" : "watch"));
      }) : [h("li", { class: "muted" }, "No open tables: start one below.")]));
      const done = await api("GET", "/api/records?limit=10");
      records.replaceChildren(...(done.length ? done.map((r) => h("li", {}, h("span", { class: "name" }, r.name),
        h("span", { class: "muted" }, `${r.preset} · ${r.seats.join(", ")}`),
        h("a", { href: `/replay/${r.id}` }, "replay"), h("a", { href: r.downloads.text }, "record"),
        h("a", { href: r.downloads.json }, "(JSON)")))
        : [h("li", { class: "muted" }, "None yet.")]));
      statusLine.textContent = "";
    } catch (e) { statusLine.textContent = `lobby: ${e.message}`; }
  }
  refresh();
  setInterval(refresh, 5000);
}

// --- the table --------------------------------------------------------------------------------------------
function tablePage(roomId) {
  document.title = "bigtwo: table";
  const state = { view: null, selected: new Set(), error: "", errorSeq: -1, ws: null, retry: 0, receivedAt: 0 };
  let botNames = ["greedy"];
  api("GET", "/api/bots").then((bots) => { botNames = bots.map((b) => b.name); render(); }).catch(() => {});
  window.bigtwo = state; // for people poking at the page (and tests)

  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/rooms/${roomId}`);
    state.ws = ws;
    statusLine.textContent = "connecting…";
    ws.onopen = () => {
      state.retry = 0;
      statusLine.textContent = "connected";
      ws.send(JSON.stringify({ type: "hello", token: saved.get(roomId).token || null }));
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "view") {
        const before = state.view;
        state.view = msg;
        state.receivedAt = performance.now();
        if (before && before.seq !== msg.seq) { state.selected.clear(); if (state.errorSeq < msg.seq) state.error = ""; }
        render();
      } else if (msg.type === "error") {
        state.error = msg.message;
        state.errorSeq = msg.seq;
        render();
      }
    };
    ws.onclose = (ev) => {
      // the server says why it closed (too many messages, not reading, table closed...): show it
      statusLine.textContent = ev.reason ? `disconnected (${ev.reason}): reconnecting…` : "disconnected: reconnecting…";
      if (ev.code === 4404 || ev.code === 4410) {
        const title = ev.code === 4404 ? "No such table" : "This table was closed";
        app.replaceChildren(h("section", { class: "panel" }, h("h2", {}, title), ev.reason ? h("p", {}, ev.reason) : "", h("a", { href: "/" }, "back to the lobby")));
        statusLine.textContent = "";
        return;
      }
      state.retry = Math.min(state.retry + 1, 6);
      setTimeout(connect, 250 * 2 ** state.retry);
    };
  }

  function send(msg) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(msg));
    else { state.error = "not connected: reconnecting…"; render(); }
  }

  function selectedCards() {
    const hand = state.view.match.hand;
    return [...state.selected].sort((a, b) => a - b).map((i) => hand[i]);
  }

  function render() {
    const v = state.view;
    if (!v) return;
    const room = v.room, me = v.you.seat, g = v.match, mine = saved.get(roomId);
    document.title = `bigtwo: ${room.name}`;
    const children = [topBar(v, mine)];
    if (room.status === "waiting") children.push(waitingRoom(v, mine));
    else if (g) children.push(tableArea(v));
    if (me === null && room.status !== "over" && room.seats.some((s) => s.kind === "open")) children.push(joinPanel(room));
    if (v.broken) children.push(h("section", { class: "panel error" }, `This game cannot go on: ${v.broken}`));
    const modal = g && (g.is_over ? summary(v) : v.break ? breakModal(v) : null);
    if (modal) children.push(modal);
    app.replaceChildren(...children);
  }

  function topBar(v, mine) {
    const room = v.room, g = v.match;
    const host = mine.host;
    const bits = [h("span", { class: "title" }, room.name),
      h("span", { class: "info" }, `${room.rules_name}${Object.keys(room.changes).length ? " + house rules" : ""} · ${room.players} players`)];
    if (g) bits.push(h("span", { class: "info", id: "round" }, `round ${g.round + 1}${g.rounds ? ` of ${g.rounds}` : ""}${g.points_target ? ` · to ${g.points_target} points` : ""}`));
    bits.push(h("span", { class: "info", id: "room-status" }, room.status + (v.you.seat === null ? " · watching" : "")));
    if (host && (room.status === "playing" || room.status === "paused")) {
      const pausing = room.status === "playing";
      bits.push(h("button", { id: pausing ? "pause" : "resume", onclick: () => hostCall(pausing ? "pause" : "resume") }, pausing ? "Pause" : "Resume"));
    }
    const invite = `${location.origin}/room/${room.id}`;
    bits.push(h("button", { id: "copy-invite", onclick: () => navigator.clipboard && navigator.clipboard.writeText(invite) }, "Copy invite link"));
    return h("div", { class: "topbar" }, ...bits);
  }

  async function hostCall(what, body = {}) {
    try { await api("POST", `/api/rooms/${roomId}/${what}`, body, saved.get(roomId).host); }
    catch (e) { state.error = e.message; render(); }
  }

  function hostSeatControls(room, s) {
    const mine = saved.get(roomId);
    if (!mine.host || room.status === "over") return null;
    if (s.kind === "person" && s.connected) return null;
    const pick = h("select", { class: "bot-pick", "aria-label": `bot for seat ${s.seat}` }, botNames.map((b) => h("option", { value: b }, b)));
    pick.value = room.bot;
    const toBot = h("button", { class: "to-bot", onclick: () => hostCall(`seats/${s.seat}`, { kind: "bot", bot: pick.value }) },
      s.kind === "person" ? "Replace by bot" : "Give to bot");
    const open = s.kind !== "open" ? h("button", { onclick: () => hostCall(`seats/${s.seat}`, { kind: "open" }) }, "Open seat") : null;
    return h("span", { class: "row" }, pick, toBot, open);
  }

  function waitingRoom(v, mine) {
    const room = v.room;
    const invite = `${location.origin}/room/${room.id}`;
    const fill = h("input", { type: "checkbox", id: "fill-bots" });
    return h("section", { class: "panel" },
      h("h2", {}, "Waiting for players"),
      h("p", {}, "Invite link: ", h("a", { href: invite, id: "invite" }, invite)),
      h("ul", { class: "rooms" }, room.seats.map((s) => h("li", {},
        h("span", { class: "name" }, `Seat ${s.seat}: ${s.kind === "open" ? "empty" : s.name}`),
        h("span", { class: "muted" }, s.kind === "bot" ? `bot (${s.bot})` : s.kind === "person" ? (s.connected ? "here" : "away") : ""),
        hostSeatControls(room, s)))),
      mine.host ? h("div", { class: "row" },
        h("label", {}, fill, " fill empty seats with bots"),
        h("button", { class: "primary", id: "start", onclick: () => hostCall("start", { fill_with_bots: fill.checked }) }, "Start")) :
        h("p", { class: "muted" }, "The host starts the game."),
      state.error ? h("p", { class: "error" }, state.error) : null);
  }

  function joinPanel(room) {
    const name = h("input", { type: "text", id: "join-name", maxlength: 24, value: localStorage.getItem("bigtwo:name") || "", placeholder: "your name" });
    const err = h("div", { class: "error" });
    const open = room.seats.filter((s) => s.kind === "open");
    return h("section", { class: "panel" }, h("h3", {}, "Take a seat"), h("div", { class: "row" }, name,
      open.map((s) => h("button", { class: "primary join-seat", "data-seat": s.seat, onclick: async () => {
        try {
          localStorage.setItem("bigtwo:name", name.value.trim());
          const joined = await api("POST", `/api/rooms/${roomId}/join`, { name: name.value.trim() || "player", seat: s.seat });
          saved.set(roomId, { seat: joined.seat, token: joined.token });
          send({ type: "hello", token: joined.token });
        } catch (e) { err.textContent = e.message; }
      } }, `Sit at seat ${s.seat}`))), err);
  }

  function secondsLeft(timer) {
    if (!timer) return null;
    return Math.max(0, timer.seconds_left - (performance.now() - state.receivedAt) / 1000);
  }

  function seatPanel(v, s) {
    const g = v.match, room = v.room;
    const turn = g.to_move === s.seat && !g.is_over;
    const finished = (g.finished || []).indexOf(s.seat);
    const passed = (g.passed || []).includes(s.seat);
    const role = g.roles ? g.roles[s.seat] : null;
    const count = (g.hand_sizes || [])[s.seat] ?? 0;
    const back = cardBack();
    const timer = v.timer && v.timer.seat === s.seat ? v.timer : null;
    const bar = timer ? h("div", { class: "timer", "data-seat": s.seat }, h("div", { style: `width:${100 * secondsLeft(timer) / timer.seconds}%` })) : null;
    return h("div", { class: `seat${turn ? " turn" : ""}${s.seat === v.you.seat ? " me" : ""}`, "data-seat": s.seat, id: `seat-${s.seat}` },
      h("div", { class: "who" }, s.kind === "person" ? h("span", { class: `dot${s.connected ? " on" : ""}`, title: s.connected ? "connected" : "away" }) : null,
        s.name, s.seat === v.you.seat ? " (you)" : ""),
      h("div", { class: "meta" }, h("span", { class: "count", title: `${count} cards` }, back, h("span", { class: "n" }, `${count}`)),
        finished >= 0 ? ` · out #${finished + 1}` : passed ? " · passed" : "", role && role !== "neutral" ? ` · ${role}` : ""),
      h("div", { class: "meta" }, `total ${(g.totals || [])[s.seat] ?? 0}`, turn ? h("span", { class: "turn-label" }, " · to move") : null,
        timer ? h("span", { class: "secs" }, ` · ${Math.ceil(secondsLeft(timer))}s`) : null),
      bar);
  }

  function hostPanel(v) {
    const room = v.room;
    if (!saved.get(roomId).host || room.status === "over") return null;
    const rows = room.seats.map((s) => {
      const controls = hostSeatControls(room, s);
      return controls ? h("li", {}, h("span", { class: "name" }, `Seat ${s.seat}: ${s.name}`), controls) : null;
    }).filter(Boolean);
    if (!rows.length) return null;
    return h("details", { class: "log", id: "host-panel", open: room.seats.some((s) => s.kind === "person" && !s.connected) },
      h("summary", {}, "Host: seats"), h("ul", { class: "rooms" }, rows));
  }

  function describeTrick(v) {
    const g = v.match;
    if (g.phase === "exchange" || g.phase === "deal") {
      const w = g.waiting, what = g.phase === "deal" ? "the deal" : "exchanging cards";
      return w ? `${what}: ${seatName(v.room, w.seat)} is deciding (${w.kind})` : what;
    }
    if (!g.trick) return g.to_move === null ? "" : `${seatName(v.room, g.to_move)} leads`;
    return `${seatName(v.room, g.trick.seat)}: ${g.trick.kind}`;
  }

  function tableArea(v) {
    const g = v.match, room = v.room, me = v.you.seat;
    const myTurn = me !== null && g.to_move === me && room.status === "playing" && !v.break;
    const trickCards = g.trick ? g.trick.cards : [];
    const trick = h("div", { class: "trick", id: "trick" },
      h("div", { class: "cards" }, trickCards.map((c) => { const s = h("span", { class: "card", "data-card": c }); s.append(cardSvg(c)); return s; })),
      h("div", { class: "label" }, describeTrick(v)));
    const prompt = h("div", { class: "prompt", id: "prompt" });
    if (state.error) prompt.append(h("span", { class: "error", id: "error" }, state.error));
    else if (room.status === "paused") prompt.append("The host has paused the game.");
    else if (myTurn && g.phase === "play") prompt.append(h("strong", {}, "Your turn"), g.required_card ? ` · your play must contain ${shortName(g.required_card)}` : "", g.trick ? "" : " · lead anything");
    else if (me !== null && g.phase === "play" && g.to_move !== null) prompt.append(`Waiting for ${seatName(room, g.to_move)}`);
    if (v.last && v.last.by === "timeout") prompt.append(h("div", { class: "muted" }, `${seatName(room, v.last.seat)} ran out of time: the server moved for them`));

    const n = room.seats.length, first = me === null ? 0 : me + 1;
    const others = Array.from({ length: me === null ? n : n - 1 }, (_, k) => room.seats[(first + k) % n]);
    const parts = [h("div", { class: "seats", id: "seats" }, others.map((s) => seatPanel(v, s))), trick, prompt];
    if (me !== null) {
      parts.push(h("div", { class: "seats" }, seatPanel(v, room.seats[me])));
      const hand = h("div", { class: "hand", id: "hand" }, g.hand.map((c, i) => {
        const b = h("button", { class: `card${state.selected.has(i) ? " selected" : ""}`, "data-card": c, "data-index": i, "aria-pressed": state.selected.has(i) ? "true" : "false",
          onclick: () => { state.selected.has(i) ? state.selected.delete(i) : state.selected.add(i); state.error = ""; render(); } });
        b.append(cardSvg(c));
        return b;
      }));
      parts.push(hand);
      if (g.phase === "play") {
        parts.push(h("div", { class: "actions" },
          h("button", { class: "primary", id: "play", disabled: !myTurn || state.selected.size === 0,
            onclick: () => send({ type: "play", cards: selectedCards(), seq: v.seq }) }, "Play"),
          h("button", { id: "pass", disabled: !myTurn || !g.can_pass, onclick: () => send({ type: "pass", seq: v.seq }) }, "Pass"),
          h("button", { id: "clear", disabled: state.selected.size === 0, onclick: () => { state.selected.clear(); render(); } }, "Clear")));
      } else if ((g.phase === "exchange" || g.phase === "deal") && g.decision && room.status === "playing") {
        parts.push(decisionPanel(v));
      }
    }
    parts.push(historyLog(v));
    parts.push(hostPanel(v));
    if (g.rounds_done.length) parts.push(h("details", { class: "log" }, h("summary", {}, "Scores"), scoreTable(room, g.rounds_done, g.totals)));
    return h("div", { class: "felt", id: "table" }, ...parts);
  }

  function decisionPanel(v) {
    const g = v.match, d = g.decision, room = v.room;
    const who = d.to !== undefined ? seatName(room, d.to) : d.from !== undefined ? seatName(room, d.from) : "";
    const box = h("div", { class: "actions", id: "decision" }, h("div", { style: "width:100%;text-align:center" }, d.reason));
    if (d.kind === "give") {
      box.append(h("button", { class: "primary", id: "give", disabled: state.selected.size !== d.count,
        onclick: () => send({ type: "exchange", cards: selectedCards(), seq: v.seq }) },
      `Give ${d.count} card${d.count > 1 ? "s" : ""}${d.must !== "any" ? ` (${d.must})` : ""} to ${who}`));
    } else if (d.kind === "redeal" || d.kind === "swap") {
      const label = { redeal: "Ask for a new deal", swap: "Swap for the leftover card", keep: "Keep this deal" };
      for (const o of d.options || []) {
        box.append(h("button", { class: o === "keep" ? "" : "primary", id: `deal-${o}`, onclick: () => send({ type: "exchange", answer: o, seq: v.seq }) }, label[o] || o));
      }
    } else if (d.kind === "surrender") {
      const highest = g.hand.slice(-d.count);
      box.append(h("button", { class: "primary", id: "surrender", onclick: () => send({ type: "exchange", cards: highest, seq: v.seq }) }, `Surrender ${highest.map(shortName).join(" ")}`),
        h("button", { id: "decline", onclick: () => send({ type: "exchange", cards: [], seq: v.seq }) }, "Decline"));
    } else {
      const pick = h("select", { id: "answer-pick" }, (g.answers || []).map((a) => h("option", { value: a }, a)));
      box.append(pick, h("button", { class: "primary", id: "answer", onclick: () => send({ type: "exchange", answer: pick.value, seq: v.seq }) }, d.kind === "ask" ? "Ask" : "Choose"));
      if (d.answers && d.answers.length) box.append(h("div", { class: "muted", style: "width:100%;text-align:center" }, d.answers.map((a) => `${a.question}: ${a.answer}`).join(" · ")));
    }
    return box;
  }

  function historyLog(v) {
    const g = v.match, room = v.room;
    const lines = [];
    for (const e of g.exchanges || []) {
      if (e.type === "give") lines.push(`${seatName(room, e.from)} gave ${e.count || (e.cards || []).length} card(s) to ${seatName(room, e.to)}${e.cards ? `: ${e.cards.map(shortName).join(" ")}` : ""}`);
    }
    for (const a of g.history || []) {
      lines.push(`${seatName(room, a.seat)}: ${a.action === "pass" ? "pass" : a.cards.map(shortName).join(" ")}${a.note === "auto" ? " (skipped)" : ""}`);
    }
    return h("div", { class: "log", id: "log" }, lines.slice(-40).map((l) => h("div", {}, l)));
  }

  function breakModal(v) {
    const b = v.break, room = v.room, g = v.match, me = v.you.seat;
    const last = g.rounds_done[g.rounds_done.length - 1];
    const order = last ? last.finishing_order.map((s) => seatName(room, s)).join(", ") : "";
    const ready = me !== null && b.ready.includes(me);
    return h("div", { class: "modal", id: "break" }, h("div", {},
      h("h2", {}, `Round ${b.round} is over`),
      order ? h("p", {}, `Finishing order: ${order}`) : null,
      scoreTable(room, g.rounds_done, g.totals),
      last && last.details.length ? h("ul", { class: "muted" }, last.details.map((d) => h("li", {}, d))) : null,
      h("p", { class: "muted" }, `Next round in ${Math.ceil(secondsLeft({ seconds_left: b.seconds_left }))} s`,
        b.waiting_for.length ? ` · waiting for ${b.waiting_for.map((s) => seatName(room, s)).join(", ")}` : ""),
      me !== null ? h("button", { class: "primary", id: "continue", disabled: ready, onclick: () => send({ type: "continue" }) }, ready ? "Ready" : "Next round") : null));
  }

  function summary(v) {
    const room = v.room, g = v.match;
    const standings = g.standings || [];
    return h("div", { class: "modal", id: "summary" }, h("div", {},
      h("h2", {}, "The match is over"),
      h("table", { class: "scores", id: "standings" }, h("thead", {}, h("tr", {}, h("th", {}, "place"), h("th", {}, "player"), h("th", {}, "total"), h("th", {}, "sum of places"))),
        h("tbody", {}, standings.map((s, i) => h("tr", {}, h("td", {}, `${i + 1}`), h("td", {}, seatName(room, s)), h("td", {}, `${g.totals[s]}`), h("td", {}, `${(g.places || [])[s] ?? ""}`))))),
      h("h3", {}, "Rounds"), scoreTable(room, g.rounds_done, g.totals),
      h("div", { class: "row", style: "margin-top:.8rem" },
        h("a", { href: `/replay/${room.id}`, id: "replay-link" }, "Replay"),
        h("a", { href: `/api/records/${room.id}?format=text`, id: "download" }, "Download the record"),
        h("a", { href: `/api/records/${room.id}?format=json`, id: "download-json" }, "(JSON)"),
        h("a", { href: "/" }, "Lobby"))));
  }

  // the move timer ticks between views
  setInterval(() => {
    const v = state.view;
    if (!v || !(v.timer || v.break)) return;
    for (const el of document.querySelectorAll(".timer")) {
      const left = secondsLeft(v.timer);
      if (left === null) continue;
      el.firstChild.style.width = `${(100 * left) / v.timer.seconds}%`;
      el.classList.toggle("low", left < 10);
      const secs = el.parentElement.querySelector(".secs");
      if (secs) secs.textContent = ` · ${Math.ceil(left)}s`;
    }
  }, 250);
  connect();
}

// --- the replay viewer ------------------------------------------------------------------------------------
async function replayPage(roomId) {
  document.title = "bigtwo: replay";
  let data;
  try { data = await api("GET", `/api/records/${roomId}/replay`); }
  catch (e) { app.replaceChildren(h("section", { class: "panel" }, h("h2", {}, "No replay"), h("p", { class: "error" }, e.message), h("a", { href: "/" }, "lobby"))); return; }
  let i = 0, timer = null;
  const frames = data.frames;
  const slider = h("input", { type: "range", min: 0, max: frames.length - 1, value: 0, id: "replay-slider" });
  const view = h("div", { class: "felt replay", id: "replay" });
  function draw() {
    const f = frames[i];
    slider.value = i;
    view.replaceChildren(
      h("div", { class: "topbar" }, h("span", { class: "title" }, data.name), h("span", { class: "info" }, `${data.rules} · round ${f.round} · step ${i} of ${frames.length - 1}`)),
      h("div", { class: "prompt", id: "replay-note" }, f.label),
      h("div", { class: "trick" }, h("div", { class: "cards" }, (f.trick ? f.trick.cards : []).map((c) => { const s = h("span", { class: "card" }); s.append(cardSvg(c)); return s; })),
        h("div", { class: "label" }, f.trick ? `played by ${data.seats[f.trick.seat]}` : "")),
      h("div", { class: "hands" }, f.hands.map((cards, s) => {
        const out = f.finished.indexOf(s);
        const state = out >= 0 ? ` · out #${out + 1}` : f.passed.includes(s) ? " · passed" : "";
        const role = f.roles && f.roles[s] && f.roles[s] !== "neutral" ? ` · ${f.roles[s]}` : "";
        const score = f.scores ? ` · this round ${f.scores[s] > 0 ? "+" : ""}${f.scores[s]}` : "";
        return h("div", { class: `seatrow${f.actor === s ? " acted" : ""}${f.to_move === s ? " next" : ""}` },
          h("div", { class: "who" }, `${data.seats[s]} · ${cards.length} cards${state}${role} · total ${f.totals[s]}${score}${f.actor === s ? " ◀" : ""}`), miniCards(cards));
      })));
  }
  const step = (d) => { i = Math.max(0, Math.min(frames.length - 1, i + d)); draw(); };
  slider.addEventListener("input", () => { i = Number(slider.value); draw(); });
  const play = h("button", { id: "replay-play", onclick: () => {
    if (timer) { clearInterval(timer); timer = null; play.textContent = "Play"; return; }
    play.textContent = "Stop";
    timer = setInterval(() => { if (i >= frames.length - 1) { clearInterval(timer); timer = null; play.textContent = "Play"; } else step(1); }, 700);
  } }, "Play");
  app.replaceChildren(
    h("section", { class: "panel" }, h("h2", {}, `Replay: ${data.name}`),
      h("div", { class: "row" }, h("button", { onclick: () => { i = 0; draw(); } }, "First"), h("button", { id: "replay-prev", onclick: () => step(-1) }, "◀"), play,
        h("button", { id: "replay-next", onclick: () => step(1) }, "▶"), h("button", { onclick: () => { i = frames.length - 1; draw(); } }, "Last"),
        h("a", { href: `/api/records/${roomId}?format=text`, id: "replay-download" }, "Download the record"),
        h("a", { href: `/api/records/${roomId}?format=json` }, "(JSON)"), h("a", { href: "/" }, "Lobby")), slider),
    view);
  draw();
}
