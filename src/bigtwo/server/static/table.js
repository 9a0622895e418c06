// The table: the seats around it, the trick, your hand, the tools (hint, explain, legal plays, undo, standing
// orders to pass), the move log, the chat, the score tables and the rematch. The server is the referee: this
// page shows the views it is sent and asks for moves; everything it shows of other seats is public.
import { cardBack, cardSvg, shortName } from "/static/cards.js";
import { kindName, t, tn } from "/static/i18n.js";
import { account, api, h, handOrder, miniCards, ordinal, plural, prefs, saved, wording } from "/static/ui.js";

// the server's emotes (bigtwo.server.messages.EMOTES): quick phrases and faces every system draws
// (a function: the words are looked up once the page's catalog has loaded, after this module is evaluated)
const EMOTES = () => ({ "good-game": "GG", "well-played": t("Well played!"), laugh: "😄", wow: "😮", oops: "😅", sad: "😢", cool: "😎" });
const SUITS = "DCHS";
const BUBBLE_MS = 6000; // how long a chat line shows beside its seat
const faces = (cards) => cards.map(shortName).join(" ");
const fillName = (text, name) => text.replace("{name}", name);
// a table's status as the header says it (looked up when said: the catalog loads after this module)
const STATUS = () => ({ waiting: t("waiting"), playing: t("playing"), paused: t("paused"), over: t("over") });

// Where the other seats sit, seen from the bottom seat, in the order of play. ``others`` lists them in turn
// order after the bottom seat. Clockwise play (seen from above) passes to the left: up the left side, along the
// top from left to right, down the right side. Counter-clockwise play passes to the right: up the right side,
// along the top from right to left, down the left side. Each list is in the order drawn (top to bottom down a
// side, left to right along the top).
export function seatPositions(others, direction = "clockwise") {
  const k = others.length;
  const side = k <= 1 ? 0 : k <= 5 ? 1 : 2;
  const near = others.slice(0, side).reverse(); // the side play goes up first, drawn from the top down
  const across = others.slice(side, k - side);
  const far = others.slice(k - side);
  if (direction === "counter-clockwise") return { left: far, top: across.reverse(), right: near };
  return { left: near, top: across, right: far };
}

export function tablePage(roomId, app, statusLine) {
  document.title = "bigtwo: table";
  const state = {
    view: null, selected: new Set(), error: "", errorSeq: -1, ws: null, retry: 0, receivedAt: 0,
    chat: [], chatSeen: {}, chatError: "", help: null, notices: [], noticeId: 0, alerts: 0, beeps: 0,
    focus: null, drag: null, pendingRender: false, logAtBottom: true,
    alertedSeq: -1, animate: null, votedRematch: false, sentOrders: false,
  };
  let botNames = ["greedy"];
  api("GET", "/api/bots").then((bots) => { botNames = bots.map((b) => b.name); render(); }).catch(() => {});
  window.bigtwo = state; // for people poking at the page (and tests)

  const root = h("div", { id: "table-root" });
  const chat = chatPanel();
  app.classList.add("table-page");
  app.replaceChildren(root, chat.panel);

  // --- the connection -------------------------------------------------------------------------------------
  function connect() {
    const proto = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${proto}://${location.host}/ws/rooms/${roomId}`);
    state.ws = ws;
    statusLine.textContent = t("connecting…");
    ws.onopen = () => {
      state.retry = 0;
      state.sentOrders = false;
      statusLine.textContent = t("connected");
      ws.send(JSON.stringify({ type: "hello", token: saved.get(roomId).token || null }));
    };
    ws.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "view") received(msg);
      else if (msg.type === "chat") {
        const now = performance.now();
        const fresh = state.chat.length > 0 || state.view !== null; // lines already said when we came in are not news
        for (const c of msg.messages) if (!(c.id in state.chatSeen)) state.chatSeen[c.id] = fresh ? now : 0;
        state.chat = msg.messages;
        chat.update(); // a refusal stays on screen until this person says something again (sayInChat)
        render();
        setTimeout(render, BUBBLE_MS + 50); // the speech bubbles go away
      }
      else if (msg.type === "help") { state.help = msg; if (msg.kind === "hint" && msg.ok) takeHint(msg); render(); }
      else if (msg.type === "error") {
        if (msg.about === "chat") { state.chatError = msg.message; chat.update(); return; }
        state.error = msg.message;
        state.errorSeq = msg.seq;
        render();
      }
    };
    ws.onclose = (ev) => {
      // the server says why it closed (too many messages, not reading, table closed...): show it
      statusLine.textContent = ev.reason ? t("disconnected ({why}): reconnecting…", { why: ev.reason }) : t("disconnected: reconnecting…");
      // no such table, the table was closed, or this page's address is refused: trying again would not help
      if (ev.code === 4404 || ev.code === 4410 || ev.code === 4403) {
        const title = { 4404: t("No such table"), 4410: t("This table was closed"), 4403: t("This page may not join the table") }[ev.code];
        const why = ev.code === 4403 && state.error ? state.error : ev.reason;
        app.replaceChildren(h("section", { class: "panel", id: "closed" }, h("h2", {}, title), why ? h("p", {}, why) : "", h("a", { href: "/" }, "back to the lobby")));
        statusLine.textContent = "";
        return;
      }
      // the table moved to another server process, or this one is restarting (a deploy): it goes on elsewhere,
      // so come back at once (spread a little, so a whole server's clients do not arrive in the same instant);
      // otherwise back off, doubling up to 16 s
      const moved = ev.code === 4301 || ev.code === 1012 || ev.code === 1001;
      state.retry = moved && state.retry < 2 ? state.retry + 1 : Math.min(state.retry + 1, 6);
      setTimeout(connect, moved && state.retry <= 2 ? 100 + Math.random() * 400 : 250 * 2 ** state.retry);
    };
  }

  function send(msg) {
    if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(JSON.stringify(msg));
    else { state.error = t("not connected: reconnecting…"); render(); }
  }

  function received(msg) {
    const before = state.view;
    state.view = msg;
    state.receivedAt = performance.now();
    const g = msg.match, me = msg.you.seat;
    if (before && before.seq !== msg.seq) {
      if (state.errorSeq < msg.seq) state.error = "";
      if (state.help && state.help.seq < msg.seq) state.help = null;
    }
    if (g) {
      // a selection lasts while others move; it ends with your own move, a new phase or a new deal
      const was = before && before.match;
      if (was && (was.round !== g.round || was.phase !== g.phase || g.hand.length < was.hand.length)) state.selected.clear();
      const hand = new Set(g.hand);
      for (const c of [...state.selected]) if (!hand.has(c)) state.selected.delete(c);
    }
    // a standing order to pass is this browser's preference: the server is told it again after each hello
    if (me !== null && !state.sentOrders) {
      state.sentOrders = true;
      if (prefs.get().auto && !msg.you.auto) send({ type: "autopass", auto: true });
    }
    noteEvents(before, msg);
    // while a finger or the mouse is down, the page is not redrawn: the tap (or the drag) lands on what was seen
    if (state.drag || state.pressing) { state.pendingRender = true; return; }
    render();
  }

  function released() {
    state.pressing = false;
    if (!state.pendingRender || state.drag) return;
    state.pendingRender = false;
    setTimeout(render, 0); // after the click this press makes
  }
  document.addEventListener("pointerdown", () => { state.pressing = true; }, true);
  document.addEventListener("pointerup", released, true);
  document.addEventListener("pointercancel", released, true);

  // keyboard play: on a card, Space or Enter selects it (it is a button); elsewhere Enter plays the selection,
  // Ctrl+Enter plays it from anywhere (a card included), P passes and Escape clears. Text fields keep their keys.
  document.addEventListener("keydown", (ev) => {
    const el = ev.target;
    if (ev.defaultPrevented || ev.altKey || ev.metaKey || el.closest?.("input, textarea, select, [contenteditable]")) return;
    const onControl = el.closest?.("button, a, summary, [tabindex]");
    const press = (id) => {
      const b = document.getElementById(id);
      if (!b || b.disabled) return;
      ev.preventDefault();
      b.click();
    };
    if (ev.key === "Enter" && (ev.ctrlKey || !onControl)) press("play");
    else if ((ev.key === "p" || ev.key === "P") && !ev.ctrlKey && !ev.shiftKey) press("pass");
    else if (ev.key === "Escape" && !document.querySelector(".modal")) press("clear");
  });

  // notices that must stay up (the timer moved for someone, a standing order passed), and the animations
  function noteEvents(before, v) {
    const g = v.match;
    if (before && g && before.seq < v.seq) {
      const w = wording(v.room, v.you.seat);
      for (const r of v.recent || []) {
        if (r.seq < before.seq) continue;
        if (r.by === "timeout") {
          const mine = r.seat === v.you.seat;
          const said = mine
            ? (r.action === "pass" ? t("Your time ran out: the server passed for you.") : r.action === "play" ? t("Your time ran out: the server played the lowest play for you.") : t("Your time ran out: the server answered for you."))
            : (r.action === "pass" ? t("{name}'s time ran out: the server passed for them.") : r.action === "play" ? t("{name}'s time ran out: the server played the lowest play for them.") : t("{name}'s time ran out: the server answered for them."));
          notice(fillName(said, w.name(r.seat)), "timeout");
        } else if (r.by === "auto" && r.seat === v.you.seat) {
          notice(t("Passed for you, as you asked."), "auto");
        }
      }
    }
    // plays arrived: the latest comes in from the seat that played it
    if (before && before.match && g && before.match.round === g.round && g.history.length > before.match.history.length) {
      for (let i = g.history.length - 1; i >= before.match.history.length; i--) {
        if (g.history[i].action === "play") { state.animate = { seat: g.history[i].seat, at: i }; break; }
      }
    }
    if (g && g.round !== (before && before.match ? before.match.round : g.round)) state.logAtBottom = true;
  }

  function notice(text, kind) {
    state.notices.push({ id: ++state.noticeId, text, kind });
    if (state.notices.length > 3) state.notices.shift();
  }

  // --- your turn: the title, and a sound if you asked for one ---------------------------------------------
  let audio = null;
  function beep() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
      const osc = audio.createOscillator(), gain = audio.createGain();
      osc.frequency.value = 660;
      gain.gain.value = 0.06;
      osc.connect(gain).connect(audio.destination);
      osc.start();
      osc.stop(audio.currentTime + 0.15);
      state.beeps += 1;
    } catch { /* no sound here */ }
  }

  function myTurn(v) {
    const g = v.match, me = v.you.seat;
    return !!g && me !== null && g.to_move === me && v.room.status === "playing" && !v.break && !g.is_over;
  }

  function alertTurn(v) {
    const mine = myTurn(v);
    document.title = `${mine ? `▶ ${t("Your turn")} · ` : ""}bigtwo: ${v.room.name}`;
    if (mine && state.alertedSeq !== v.seq && !v.you.pass_trick) {
      state.alertedSeq = v.seq;
      state.alerts += 1;
      if (prefs.get().sound) beep();
    }
  }

  // --- your hand: sorted by rank or suit, or in your own order (kept in this browser) ---------------------
  function handCards(g) {
    const pref = handOrder.get(roomId);
    let base = [...g.hand];
    if ((pref.sort || prefs.get().sort) === "suit") {
      const order = g.suit_order && g.suit_order !== "none" ? g.suit_order : SUITS;
      const suitOf = (c) => { const f = c.replace(/'$/, ""); return f === "BJ" || f === "RJ" ? 9 : order.indexOf(f.slice(-1)); };
      base = base.map((c, i) => [c, i]).sort((a, b) => suitOf(a[0]) - suitOf(b[0]) || a[1] - b[1]).map((x) => x[0]);
    }
    if (pref.custom && pref.custom.round === g.round) {
      const held = new Set(g.hand);
      const mine = pref.custom.order.filter((c) => held.has(c));
      const placed = new Set(mine);
      return [...mine, ...base.filter((c) => !placed.has(c))];
    }
    return base;
  }

  function sortHand(by) {
    prefs.set({ sort: by }); // kept for the next table too (a rematch is a new table)
    handOrder.set(roomId, { sort: by });
    render();
  }

  function moveCard(name, to) {
    const g = state.view.match;
    const order = handCards(g).filter((c) => c !== name);
    to = Math.max(0, Math.min(order.length, to));
    order.splice(to, 0, name);
    handOrder.set(roomId, { ...handOrder.get(roomId), custom: { round: g.round, order } });
    state.focus = name;
    render();
  }

  function selectedCards() {
    return handCards(state.view.match).filter((c) => state.selected.has(c));
  }

  function toggle(name) {
    if (state.selected.has(name)) state.selected.delete(name); else state.selected.add(name);
    state.error = "";
    state.focus = name;
    render();
  }

  // a card dragged along the hand (mouse, pen or finger) goes where it is dropped; a tap selects it
  function startDrag(ev, name) {
    if (ev.button !== undefined && ev.button !== 0) return;
    state.drag = { name, x: ev.clientX, y: ev.clientY, moved: false, el: ev.currentTarget };
    const move = (e) => {
      const d = state.drag;
      if (!d) return;
      const dx = e.clientX - d.x;
      if (!d.moved && Math.abs(dx) < 10) return;
      d.moved = true;
      d.el.classList.add("dragging");
      d.el.style.transform = `translate(${dx}px, -10px)`;
    };
    const up = (e) => {
      document.removeEventListener("pointermove", move);
      document.removeEventListener("pointerup", up);
      document.removeEventListener("pointercancel", up);
      const d = state.drag;
      state.drag = null;
      if (!d) return;
      if (d.moved) {
        const cards = [...document.querySelectorAll("#hand .card")].filter((c) => c.dataset.card !== d.name);
        let to = cards.length;
        for (let i = 0; i < cards.length; i++) {
          const r = cards[i].getBoundingClientRect();
          if (e.clientX < r.left + r.width / 2) { to = i; break; }
        }
        state.suppressClick = true; // the click that may follow a drag is not a selection
        setTimeout(() => { state.suppressClick = false; }, 0);
        state.pendingRender = false;
        moveCard(d.name, to);
      } else if (state.pendingRender) {
        state.pendingRender = false;
        setTimeout(render, 0); // after the click (a selection) this tap makes
      }
    };
    document.addEventListener("pointermove", move);
    document.addEventListener("pointerup", up);
    document.addEventListener("pointercancel", up);
  }

  function cardKey(ev, name) {
    const order = handCards(state.view.match);
    const i = order.indexOf(name);
    const step = ev.key === "ArrowLeft" ? -1 : ev.key === "ArrowRight" ? 1 : ev.key === "Home" ? -order.length : ev.key === "End" ? order.length : 0;
    if (!step) return;
    ev.preventDefault();
    if (ev.shiftKey || ev.altKey) moveCard(name, i + step);
    else {
      const next = order[Math.max(0, Math.min(order.length - 1, i + step))];
      state.focus = next;
      const el = document.querySelector(`#hand .card[data-card="${next}"]`);
      if (el) el.focus();
    }
  }

  function takeHint(help) {
    if (help.action === "play" || help.action === "cards") state.selected = new Set(help.cards);
    else if (help.action === "pass") state.selected.clear();
    else if (help.action === "answer") state.pick = { seq: help.seq, answer: help.answer };
  }

  // --- drawing --------------------------------------------------------------------------------------------
  function render() {
    const v = state.view;
    if (!v) return;
    const room = v.room, me = v.you.seat, g = v.match, mine = saved.get(roomId);
    // the move log keeps the newest line in view, unless its reader has scrolled up to read back
    const log = document.getElementById("log");
    const logBottom = !log || state.logAtBottom || log.scrollTop + log.clientHeight >= log.scrollHeight - 4;
    const logScroll = log ? log.scrollTop : 0;
    state.logAtBottom = false;
    alertTurn(v);
    const children = [topBar(v, mine)];
    if (room.status === "waiting") children.push(waitingRoom(v, mine));
    else if (g) children.push(tableArea(v));
    if (me === null && room.status !== "over" && room.seats.some((s) => s.kind === "open")) children.push(joinPanel(room));
    if (v.broken) children.push(h("section", { class: "panel error" }, t("This game cannot go on: {why}", { why: v.broken })));
    const modal = g && (g.is_over ? summary(v) : v.break ? breakModal(v) : null);
    if (modal) children.push(modal);
    root.replaceChildren(...children);
    const newLog = document.getElementById("log");
    if (newLog) newLog.scrollTop = logBottom ? newLog.scrollHeight : logScroll;
    if (state.focus) {
      const el = document.querySelector(`#hand .card[data-card="${state.focus}"]`);
      if (el && document.activeElement !== el && (document.activeElement === document.body || document.activeElement?.closest("#hand"))) el.focus();
    }
    state.animate = null;
    chat.update();
  }

  function topBar(v, mine) {
    const room = v.room, g = v.match;
    const bits = [h("span", { class: "title" }, room.name),
      h("span", { class: "info" }, `${room.rules_name}${Object.keys(room.changes).length && !room.rules_name.includes("house rules") ? ` + ${t("house rules")}` : ""} · ${tn("{n} player", "{n} players", room.players)}${room.rated ? ` · ${t("rated")}` : ""}`)];
    // between rounds the header still names the round just played (the break's), not the next one
    const shown = v.break ? v.break.round : g && g.round + 1;
    if (g) bits.push(h("span", { class: "info", id: "round" }, (g.rounds ? t("round {n} of {total}", { n: shown, total: g.rounds }) : t("round {n}", { n: shown }))
      + (g.points_target ? ` · ${t("to {n} points", { n: g.points_target })}` : "")));
    bits.push(h("span", { class: "info", id: "room-status" }, (STATUS()[room.status] || room.status) + (v.you.seat === null ? ` · ${t("watching")}` : "")));
    if (mine.host && (room.status === "playing" || room.status === "paused")) {
      const pausing = room.status === "playing";
      bits.push(h("button", { id: pausing ? "pause" : "resume", onclick: () => hostCall(pausing ? "pause" : "resume") }, pausing ? t("Pause") : t("Resume")));
    }
    bits.push(h("a", { class: "info", id: "table-rules", href: `/rules/table/${room.id}`, target: "_blank", rel: "noopener" }, t("Rules")));
    const invite = `${location.origin}/room/${room.id}`;
    bits.push(h("button", { id: "copy-invite", onclick: () => navigator.clipboard && navigator.clipboard.writeText(invite) }, t("Copy invite link")));
    const sound = h("input", { type: "checkbox", id: "sound", checked: !!prefs.get().sound, onchange: (e) => {
      prefs.set({ sound: e.target.checked });
      if (e.target.checked) beep(); // a first sound, started by the click itself (browsers allow sound after one)
    } });
    bits.push(h("label", { class: "toggle", title: t("a short sound when it is your turn") }, sound, " ", t("sound")));
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
    const pick = h("select", { class: "bot-pick", "aria-label": t("bot for {name}", { name: s.name }) }, botNames.map((b) => h("option", { value: b }, b)));
    pick.value = room.bot;
    // a seat a bot already holds is not offered to a bot again: it may be opened for a person
    const toBot = s.kind === "bot" ? null : h("button", { class: "to-bot", onclick: () => hostCall(`seats/${s.seat}`, { kind: "bot", bot: pick.value }) },
      s.kind === "person" ? t("Replace by bot") : t("Give to bot"));
    const open = s.kind !== "open" ? h("button", { onclick: () => hostCall(`seats/${s.seat}`, { kind: "open" }) }, t("Open seat")) : null;
    return h("span", { class: "row" }, toBot ? pick : null, toBot, open);
  }

  function waitingRoom(v, mine) {
    const room = v.room;
    const invite = `${location.origin}/room/${room.id}`;
    const fill = h("input", { type: "checkbox", id: "fill-bots" });
    return h("section", { class: "panel" },
      h("h2", {}, t("Waiting for players")),
      h("p", {}, t("Invite link:"), " ", h("a", { href: invite, id: "invite" }, invite)),
      h("ul", { class: "rooms" }, room.seats.map((s) => h("li", {},
        h("span", { class: "name" }, `${t("Seat {n}", { n: s.seat + 1 })}: ${s.kind === "open" ? t("empty") : s.name}`),
        h("span", { class: "muted" }, s.kind === "bot" ? t("bot ({name})", { name: s.bot }) : s.kind === "person" ? (s.connected ? t("here") : t("away")) : ""),
        hostSeatControls(room, s)))),
      // which way play will go: the seats above are in the order of play (none at two players)
      room.direction_said ? h("p", { class: "muted", id: "seat-order" }, room.direction_said.listed) : null,
      mine.host ? h("div", { class: "row" },
        h("label", {}, fill, " fill empty seats with bots"),
        h("button", { class: "primary", id: "start", onclick: () => hostCall("start", { fill_with_bots: fill.checked }) }, t("Start")),
        // a table never started frees its place among the tables its host's address may have open
        h("button", { id: "close-table", onclick: () => { if (confirm(t("Close this table? Everyone at it is sent back to the lobby."))) hostCall("close"); } }, t("Close the table"))) :
        h("p", { class: "muted" }, t("The host starts the game.")),
      state.error ? h("p", { class: "error" }, state.error) : null);
  }

  function joinPanel(room) {
    // a name is needed, as in the lobby's form (a signed-in player sits under their username)
    const name = h("input", { type: "text", id: "join-name", maxlength: 24, required: true, "aria-label": t("your name"),
      value: account.username || localStorage.getItem("bigtwo:name") || "", placeholder: t("your name"), disabled: !!account.username });
    const err = h("div", { class: "error" });
    const open = room.seats.filter((s) => s.kind === "open");
    return h("section", { class: "panel" }, h("h3", {}, t("Take a seat")), h("div", { class: "row" }, name,
      open.map((s) => h("button", { class: "primary join-seat", "data-seat": s.seat, onclick: async () => {
        if (account.ready) await account.ready;
        const called = account.username || name.value.trim();
        if (!called) { err.textContent = t("Type your name first: the others at the table will know you by it."); name.focus(); return; }
        try {
          localStorage.setItem("bigtwo:name", called);
          const joined = await api("POST", `/api/rooms/${roomId}/join`, { name: called, seat: s.seat });
          saved.set(roomId, { seat: joined.seat, token: joined.token });
          state.sentOrders = false;
          send({ type: "hello", token: joined.token });
        } catch (e) { err.textContent = e.message; }
      } }, t("Sit at seat {n}", { n: s.seat + 1 })))), err);
  }

  function secondsLeft(timer) {
    if (!timer) return null;
    return Math.max(0, timer.seconds_left - (performance.now() - state.receivedAt) / 1000);
  }

  // each seat's last action in the trick being played: its cards, or a pass
  function lastInTrick(g) {
    const out = {};
    const start = g.trick_start || 0;
    (g.history || []).slice(start).forEach((e, k) => { out[e.seat] = { ...e, at: start + k }; });
    return out;
  }

  function seatBox(v, s, pos, inTrick) {
    const g = v.match, me = v.you.seat;
    const turn = g.to_move === s.seat && !g.is_over;
    const out = (g.finished || []).indexOf(s.seat);
    const passed = (g.passed || []).includes(s.seat);
    const role = g.roles ? g.roles[s.seat] : null;
    const count = (g.hand_sizes || [])[s.seat] ?? 0;
    const timer = v.timer && v.timer.seat === s.seat ? v.timer : null;
    const bar = timer ? h("div", { class: "timer", "data-seat": s.seat }, h("div", { style: `width:${100 * secondsLeft(timer) / timer.seconds}%` })) : null;
    const last = inTrick[s.seat];
    let lastShown = null;
    if (g.phase === "play" || g.phase === "over") {
      if (last && last.action === "play") {
        const cards = miniCards(last.cards, "mini trickcards");
        if (state.animate && state.animate.at === last.at) cards.classList.add("enter", `from-${pos}`);
        lastShown = cards;
      } else if (last) lastShown = h("span", { class: "passmark" }, last.note === "auto" ? t("pass (skipped)") : t("pass"));
    }
    const line = [...state.chat].reverse().find((c) => c.seat === s.seat);
    const fresh = line && performance.now() - (state.chatSeen[line.id] || 0) < BUBBLE_MS;
    const bubble = fresh ? h("span", { class: `bubble${line.emote ? " emote" : ""}` }, line.text) : null;
    const status = out >= 0 ? t("out {place}", { place: ordinal(out + 1) }) : passed ? t("passed") : "";
    // the running score: points, or (rules scored by finishing order) the sum of places so far
    const placeSum = (g.place_sums || [])[s.seat] ?? 0;  // every finished round's, though the view lists the latest
    const total = g.ranks_only ? (g.rounds_done.length ? `${placeSum}` : null) : `${(g.totals || [])[s.seat] ?? 0}`;
    return h("div", { class: `seat pos-${pos}${turn ? " turn" : ""}${s.seat === me ? " me" : ""}`, "data-seat": s.seat, "data-pos": pos, id: `seat-${s.seat}` },
      h("div", { class: "who", title: s.name }, s.kind === "person" ? h("span", { class: `dot${s.connected ? " on" : ""}`, title: s.connected ? t("connected") : t("away") }) : null,
        h("span", { class: "nm" }, s.name), s.seat === me ? ` ${t("(you)")}` : ""),
      h("div", { class: "meta" }, h("span", { class: "count", title: plural(count, "card") }, cardBack(), h("span", { class: "n" }, `${count}`)),
        status ? h("span", { class: "state" }, status) : null, role && role !== "neutral" ? h("span", { class: "role" }, role) : null,
        total !== null ? h("span", { class: "total", title: g.ranks_only ? t("sum of places (lower is better)") : t("total points this match") }, g.ranks_only ? t("places {n}", { n: total }) : t("{n} pts", { n: total })) : null,
        turn ? h("span", { class: "turn-label" }, t("to move")) : null,
        timer ? h("span", { class: "secs" }, `${Math.ceil(secondsLeft(timer))}s`) : null),
      h("div", { class: "last", id: `last-${s.seat}` }, lastShown),
      bubble, bar);
  }

  function hostPanel(v) {
    const room = v.room;
    if (!saved.get(roomId).host || room.status === "over") return null;
    const rows = room.seats.map((s) => {
      const controls = hostSeatControls(room, s);
      return controls ? h("li", {}, h("span", { class: "name" }, s.kind === "open" ? `Seat ${s.seat + 1} (empty)` : s.name), controls) : null;
    }).filter(Boolean);
    if (!rows.length) return null;
    return h("details", { class: "log", id: "host-panel", open: room.seats.some((s) => s.kind === "person" && !s.connected) },
      h("summary", {}, t("Host: seats")), h("ul", { class: "rooms" }, rows));
  }

  const DECIDING = { redeal: t("whether to ask for a new deal"), swap: t("whether to swap for the leftover card"), give: t("which cards to give"),
    surrender: t("whether to surrender"), ask: t("what to ask"), demand: t("what to demand"), bid: t("whether to bid"),
    trade: t("what to offer"), reply: t("whether to accept an offer"), request: t("what to ask for"), grant: t("whether to grant a request"),
    look: t("whether to look at the hand") };
  function describeTrick(v) {
    const g = v.match, w = wording(v.room, v.you.seat);
    if (g.phase === "exchange" || g.phase === "deal") {
      const wt = g.waiting, what = g.phase === "deal" ? t("The deal") : t("Exchanging cards");
      if (!wt) return what;
      const deciding = DECIDING[wt.kind] || wt.kind;
      return wt.seat === v.you.seat ? t("{what}: You are deciding {decision}", { what, decision: deciding })
        : t("{what}: {name} is deciding {decision}", { what, name: w.name(wt.seat), decision: deciding });
    }
    if (g.is_over) return "";
    if (!g.trick) return g.to_move === null ? "" : w.said(g.to_move, t("You lead"), t("{name} leads"));
    return `${w.name(g.trick.seat)}: ${kindName(g.trick.kind)}`;
  }

  function tableArea(v) {
    const g = v.match, room = v.room, me = v.you.seat;
    const mine = myTurn(v);
    const n = room.seats.length, bottom = me === null ? 0 : me;
    const others = Array.from({ length: n - 1 }, (_, k) => room.seats[(bottom + 1 + k) % n]);
    const pos = seatPositions(others, g.direction);
    const inTrick = lastInTrick(g);
    const posOf = {};
    for (const side of ["left", "top", "right"]) for (const s of pos[side]) posOf[s.seat] = side;
    posOf[bottom] = "bottom";

    const trickCards = g.trick ? g.trick.cards : [];
    const trickEl = h("div", { class: "cards" }, trickCards.map((c) => { const s = h("span", { class: "card", "data-card": c }); s.append(cardSvg(c)); return s; }));
    if (state.animate && g.trick && state.animate.seat === g.trick.seat) trickEl.classList.add("enter", `from-${posOf[g.trick.seat]}`);
    const center = h("div", { class: "center" },
      h("div", { class: "trick", id: "trick" }, trickEl, h("div", { class: "label" }, describeTrick(v))),
      promptLine(v), noticeList(), directionLine(v, bottom, others));
    const ring = h("div", { class: `ring seats-${n}`, id: "seats" },
      h("div", { class: "side left", id: "side-left" }, pos.left.map((s) => seatBox(v, s, "left", inTrick))),
      h("div", { class: "side top", id: "side-top" }, pos.top.map((s) => seatBox(v, s, "top", inTrick))),
      h("div", { class: "side right", id: "side-right" }, pos.right.map((s) => seatBox(v, s, "right", inTrick))),
      center);
    const parts = [ring, h("div", { class: "bottom-seat" }, seatBox(v, room.seats[bottom], "bottom", inTrick))];
    if (me !== null) {
      parts.push(handRow(v));
      if (g.decision && room.status === "playing") parts.push(decisionPanel(v));  // a face-down hand's too
      else if (g.phase === "play" && !g.is_over) parts.push(playActions(v, mine));
      parts.push(helpPanel(v));
    }
    parts.push(historyLog(v));
    parts.push(hostPanel(v));
    if (g.rounds_done.length) parts.push(h("details", { class: "log scores-box" }, h("summary", {}, t("Scores")), scoreTable(v, g.rounds_done)));
    return h("div", { class: `felt phase-${g.phase}`, id: "table" }, ...parts);
  }

  // which way play goes round this table, in the server's words (none at two players: back and forth), and who
  // plays after the bottom seat
  function directionLine(v, bottom, others) {
    const said = v.room.direction_said;
    if (!said) return null;
    const w = wording(v.room, v.you.seat);
    const after = bottom === v.you.seat ? t("{name} plays after you", { name: w.name(others[0].seat) })
      : t("{name} plays after {other}", { name: w.name(others[0].seat), other: w.name(bottom) });
    return h("div", { class: "direction", id: "direction", role: "note", "data-direction": v.match.direction,
      title: `${said.long}: ${after}`, "aria-label": `${said.short}: ${after}` },
    h("span", { class: "arrow", "aria-hidden": "true" }, said.arrow), ` ${said.short}`);
  }

  function promptLine(v) {
    const g = v.match, room = v.room, me = v.you.seat, w = wording(room, me);
    const prompt = h("div", { class: "prompt", id: "prompt" });
    if (state.error) prompt.append(h("span", { class: "error", id: "error" }, state.error));
    else if (room.status === "paused") prompt.append(t("The host has paused the game."));
    else if (myTurn(v) && g.phase === "play") {
      const lead = g.required_card ? ` · ${t("lead with {cards} in your play", { cards: faces(g.required_card.split(" ")) })}` : g.trick ? "" : ` · ${t("lead anything")}`;
      prompt.append(h("strong", {}, t("Your turn")), lead);
    } else if (me !== null && g.phase === "play" && g.to_move !== null) prompt.append(t("Waiting for {name}", { name: w.name(g.to_move) }));
    return prompt;
  }

  function noticeList() {
    return h("div", { class: "notices", id: "notices" }, state.notices.map((nt) => h("div", { class: `notice ${nt.kind}`, "data-kind": nt.kind },
      h("span", {}, nt.text),
      h("button", { class: "dismiss", "aria-label": t("dismiss"), onclick: () => { state.notices = state.notices.filter((x) => x.id !== nt.id); render(); } }, "×"))));
  }

  function handRow(v) {
    const g = v.match;
    const order = handCards(g);
    // one stop for Tab (the card last touched, else the first): the arrows move along the hand from there
    const keys = t("your hand: arrows move along it, shift+arrows move a card, space selects, Enter plays, P passes, Escape clears");
    const stop = order.includes(state.focus) ? state.focus : order[0];
    const hand = h("div", { class: "hand", id: "hand", role: "group", "aria-label": keys, title: keys },
      order.map((c, i) => {
        const sel = state.selected.has(c);
        const b = h("button", { class: `card${sel ? " selected" : ""}`, "data-card": c, "data-index": i, "aria-pressed": sel ? "true" : "false", tabindex: c === stop ? "0" : "-1",
          onpointerdown: (ev) => startDrag(ev, c),
          onclick: () => { if (state.suppressClick) { state.suppressClick = false; return; } toggle(c); },
          onkeydown: (ev) => cardKey(ev, c), onfocus: () => { state.focus = c; } });
        b.append(cardSvg(c));
        return b;
      }));
    return hand;
  }

  function playActions(v, mine) {
    const g = v.match, me = v.you.seat;
    const out = (g.finished || []).includes(me);
    const canPassTrick = g.trick && g.trick.seat !== me && !out;
    const sort = handOrder.get(roomId).sort || prefs.get().sort || "rank";
    return h("div", { class: "controls" },
      h("div", { class: "actions" },
        h("button", { class: "primary", id: "play", disabled: !mine || state.selected.size === 0,
          onclick: () => send({ type: "play", cards: selectedCards(), seq: v.seq }) }, t("Play")),
        h("button", { id: "pass", class: state.help && state.help.kind === "hint" && state.help.action === "pass" ? "suggested" : "", disabled: !mine || !g.can_pass, onclick: () => send({ type: "pass", seq: v.seq }) }, t("Pass")),
        h("button", { id: "clear", disabled: state.selected.size === 0 && !state.error, onclick: () => { state.selected.clear(); state.error = ""; render(); } }, t("Clear"))),
      h("div", { class: "actions tools" },
        h("button", { id: "hint", disabled: !mine, onclick: () => send({ type: "hint", seq: v.seq }) }, t("Hint")),
        h("button", { id: "explain", disabled: state.selected.size === 0, onclick: () => send({ type: "explain", cards: selectedCards(), seq: v.seq }) }, t("Explain")),
        h("button", { id: "legal", disabled: !mine, onclick: () => send({ type: "legal", seq: v.seq }) }, t("Legal plays")),
        v.you.may_undo ? h("button", { id: "undo", title: t("take back your last turn (every other seat is a bot)"), onclick: () => send({ type: "undo", seq: v.seq }) }, t("Undo")) : null),
      h("div", { class: "actions orders" },
        h("label", { class: "toggle", title: t("pass for me whenever the table shows that no hand of my size could beat the play") },
          h("input", { type: "checkbox", id: "auto-pass", checked: !!v.you.auto, onchange: (e) => { prefs.set({ auto: e.target.checked }); send({ type: "autopass", auto: e.target.checked }); } }),
          " ", t("auto-pass when I cannot beat")),
        canPassTrick || v.you.pass_trick ? h("button", { id: "pass-trick", class: v.you.pass_trick ? "on" : "", "aria-pressed": v.you.pass_trick ? "true" : "false",
          onclick: () => send({ type: "autopass", trick: !v.you.pass_trick }) }, v.you.pass_trick ? t("Passing until the next trick ✓") : t("Pass until the next trick")) : null,
        h("span", { class: "sort" }, t("sort:"),
          h("button", { id: "sort-rank", class: sort === "rank" ? "on" : "", onclick: () => sortHand("rank") }, t("rank")),
          h("button", { id: "sort-suit", class: sort === "suit" ? "on" : "", onclick: () => sortHand("suit") }, t("suit")))));
  }

  function helpPanel(v) {
    const help = state.help;
    if (!help) return h("div", { id: "help", class: "help empty" });
    const box = h("div", { id: "help", class: `help ${help.ok ? "ok" : "no"}`, "data-kind": help.kind },
      h("span", { class: "text" }, help.text),
      h("button", { class: "dismiss", "aria-label": t("close"), onclick: () => { state.help = null; render(); } }, "×"));
    if (help.kind === "legal" && help.plays.length) {
      box.append(h("div", { class: "legal-list", id: "legal-list" }, help.plays.map((p) => h("button", { class: "legal-play", onclick: () => {
        if (p.action === "answer") send({ type: "exchange", answer: p.answer, seq: v.seq });
        else if (p.action === "pass") send({ type: "pass", seq: v.seq });
        else { state.selected = new Set(p.cards); render(); }
      } }, p.text))));
    }
    return box;
  }

  function decisionPanel(v) {
    const g = v.match, d = g.decision, room = v.room, w = wording(room, v.you.seat);
    const other = d.to !== undefined ? d.to : d.from;
    const box = h("div", { class: "decision", id: "decision", "data-kind": d.kind }, h("div", { class: "why" }, d.said || d.reason));
    const buttons = h("div", { class: "actions" });
    if (d.kind === "give") {
      buttons.append(h("button", { class: "primary", id: "give", disabled: state.selected.size !== d.count,
        onclick: () => send({ type: "exchange", cards: selectedCards(), seq: v.seq }) },
      tn("Give {n} card to {name}", "Give {n} cards to {name}", d.count, { name: w.object(other) }) + (d.must !== "any" ? ` (${d.must})` : "")));
    } else if (d.kind === "redeal" || d.kind === "swap") {
      if (d.kind === "swap" && g.swap_offer) box.append(h("div", { class: "offer" }, t("On offer:"), " ", miniCards(g.swap_offer)));
      const label = { redeal: t("Ask for a new deal"), swap: t("Swap for the leftover card"), keep: t("Keep this deal") };
      for (const o of d.options || []) {
        buttons.append(h("button", { class: o === "keep" ? "" : "primary", id: `deal-${o}`, onclick: () => send({ type: "exchange", answer: o, seq: v.seq }) }, label[o] || o));
      }
    } else if (d.kind === "bid") {
      const pick = selectedCards();
      buttons.append(h("button", { class: "primary", id: "bid", disabled: pick.length !== 1,
        onclick: () => { const cards = selectedCards(); state.selected.clear(); send({ type: "exchange", cards, seq: v.seq }); } },
      pick.length === 1 ? t("Bid {cards}", { cards: faces(pick) }) : t("Pick a card to bid")),
      h("button", { id: "bid-pass", onclick: () => send({ type: "exchange", answer: "pass", seq: v.seq }) }, t("Pass")));
    } else if (d.kind === "request" || d.kind === "trade") {
      // the cards asked for are another player's: typed, as on the cards (10S or TS); an offer gives the picked cards
      const want = h("input", { id: "want", type: "text", maxlength: "20", placeholder: d.kind === "trade" ? t("cards wanted, e.g. 2S") : t("cards, e.g. 2S AH") });
      if (d.kind === "request" && d.count) {
        buttons.append(want, h("button", { class: "primary", id: "request", onclick: () => {
          const cards = want.value.trim().split(/\s+/).filter(Boolean);
          if (cards.length) send({ type: "exchange", cards, seq: v.seq });
        } }, t("Ask {name}", { name: w.object(d.from) })));
      } else if (d.kind === "trade" && d.count) {
        const others = room.seats.filter((s) => s.seat !== v.you.seat);
        const to = h("select", { id: "offer-to" }, others.map((s) => h("option", { value: String(s.seat) }, w.object(s.seat))));
        buttons.append(want, to, h("button", { class: "primary", id: "offer", onclick: () => {
          const give = selectedCards(), wanted = want.value.trim();
          if (!give.length || !wanted) { state.error = tn("pick up to {n} card to give, and type the cards you want", "pick up to {n} cards to give, and type the cards you want", d.count); render(); return; }
          state.selected.clear();  // a bid outbid or an offer declined leaves the hand as it was: start afresh
          send({ type: "exchange", answer: `${give.join(" ")} for ${wanted} to seat ${to.value}`, seq: v.seq });
        } }, t("Offer the picked cards")));
      }
      const label = { none: t("Let them choose"), done: t("Let trading end"), play: t("End trading and lead") };
      for (const o of d.options || []) buttons.append(h("button", { id: `answer-${o}`, onclick: () => send({ type: "exchange", answer: o, seq: v.seq }) }, label[o] || o));
    } else if (d.kind === "reply" || d.kind === "grant" || d.kind === "look") {
      if (d.cards) box.append(h("div", { class: "offer" }, "Offered: ", miniCards(d.cards)));
      if (d.want) box.append(h("div", { class: "offer" }, "Asked of you: ", miniCards(d.want)));
      const label = { accept: t("Accept"), decline: t("Decline"), grant: t("Grant"), refuse: t("Refuse"), look: t("Look at the hand"), pass: t("Pass without looking") };
      for (const o of g.answers || d.options || []) {
        buttons.append(h("button", { class: o === "accept" || o === "grant" || o === "look" ? "primary" : "", id: `answer-${o}`,
          onclick: () => send({ type: "exchange", answer: o, seq: v.seq }) }, label[o] || o));
      }
    } else if (d.kind === "surrender") {
      const highest = g.hand.slice(-d.count);
      buttons.append(h("button", { class: "primary", id: "surrender", onclick: () => send({ type: "exchange", cards: highest, seq: v.seq }) }, `Surrender ${faces(highest)}`),
        h("button", { id: "decline", onclick: () => send({ type: "exchange", cards: [], seq: v.seq }) }, t("Decline")));
    } else {
      // the answer picked (or hinted) stays picked while the page is redrawn; the answers sent are the server's
      // own, each shown in the server's words for it (a question as asked)
      const answers = g.answers || [], said = g.answers_said || answers;
      const picked = state.pick && state.pick.seq === v.seq && answers.includes(state.pick.answer) ? state.pick.answer : answers[0];
      const pick = h("select", { id: "answer-pick", onchange: () => { state.pick = { seq: v.seq, answer: pick.value }; } },
        answers.map((a, i) => h("option", { value: a, selected: a === picked }, said[i])));
      buttons.append(pick, h("button", { class: "primary", id: "answer", onclick: () => send({ type: "exchange", answer: pick.value, seq: v.seq }) }, d.kind === "ask" ? t("Ask") : t("Choose")));
      if (d.answers && d.answers.length) box.append(h("div", { class: "muted", id: "asked" }, d.answers.map((a) => a.said).join(" · ")));
    }
    buttons.append(h("button", { id: "hint", onclick: () => send({ type: "hint", seq: v.seq }) }, t("Hint")));
    box.append(buttons);
    return box;
  }

  // an exchange event other than a card given, in the table's words (auctions, trading and requests)
  function eventLine(e, w) {
    const said = {
      bid: () => `${w.subject(e.from, "bids")} ${faces(e.cards)} for ${faces([e.card])}`,
      sold: () => `${w.subject(e.to, "buys")} ${faces(e.cards)} with ${faces(e.paid)}, now on the table`,
      unsold: () => t("Nobody bids for {cards}", { cards: faces(e.cards) }),
      offer: () => `${w.subject(e.from, "offers")} ${faces(e.cards)} to ${w.object(e.to)} for ${faces(e.want)}`,
      reply: () => `${w.subject(e.from, e.answer === "accept" ? "accepts" : "declines")} the offer`,
      vote: () => `${w.subject(e.from, "lets")} trading end (${e.votes} of ${e.needed})`,
      "trade-ended": () => (e.reason === "play" ? `${w.subject(e.from, "ends")} trading to lead` : t("Trading ends")),
      request: () => `${w.subject(e.from, "asks")} ${w.object(e.to)} for ${faces(e.cards)}`,
      grant: () => `${w.subject(e.from, e.answer === "grant" ? "grants" : "refuses")} ${faces(e.cards)} to ${w.object(e.to)}`,
    }[e.type];
    return said ? h("div", { class: "line exchange" }, said()) : null;
  }

  // the round so far: exchanges, then every play and pass, a rule between tricks; the newest stays in view
  function historyLog(v) {
    const g = v.match, room = v.room, w = wording(room, v.you.seat);
    const lines = [h("div", { class: "sep round" }, t("Round {n}", { n: g.round + 1 }))];
    for (const e of g.exchanges || []) {
      if (e.type !== "give") { const line = eventLine(e, w); if (line) lines.push(line); continue; }
      const count = e.count ?? (e.cards || []).length;
      lines.push(h("div", { class: "line exchange" }, (e.from === v.you.seat ? tn("You give {n} card to {other}", "You give {n} cards to {other}", count, { other: w.object(e.to) })
        : tn("{name} gives {n} card to {other}", "{name} gives {n} cards to {other}", count, { name: w.name(e.from), other: w.object(e.to) })) + (e.cards ? `: ${faces(e.cards)}` : ""),
        e.said ? h("span", { class: "why" }, ` (${e.said})`) : null));
    }
    const starts = new Set(g.trick_starts || []);
    const history = g.history || [];
    const lastPlay = {};
    history.forEach((e, i) => { if (e.action === "play") lastPlay[e.seat] = i; });
    const out = new Set(g.finished || []);
    history.forEach((e, i) => {
      if (i > 0 && starts.has(i)) lines.push(h("div", { class: "sep trick" }, t("new trick")));
      if (e.action === "pass") {
        const said = e.note === "auto" ? w.said(e.seat, t("You pass (automatic skip)"), t("{name} passes (automatic skip)"))
          : e.note === "drew" ? w.said(e.seat, t("You pass and draw a card"), t("{name} passes and draws a card"))
            : w.said(e.seat, t("You pass"), t("{name} passes"));
        lines.push(h("div", { class: "line pass" }, said));
      } else {
        const goes = out.has(e.seat) && lastPlay[e.seat] === i ? (e.seat === v.you.seat ? t("and go out!") : t("and goes out!")) : "";
        lines.push(h("div", { class: "line play" }, w.said(e.seat, t("You play {cards}"), t("{name} plays {cards}"), { cards: faces(e.cards) }),
          e.kind && e.kind !== "single" ? h("span", { class: "kind" }, ` (${kindName(e.kind)})`) : null,
          e.note === "called" ? h("strong", {}, ` ${t("last card!")}`) : null, goes ? h("strong", {}, ` ${goes}`) : null));
      }
    });
    return h("div", { class: "log", id: "log", "aria-live": "polite" }, lines);
  }

  // the score table: points, or the places under rules scored by finishing order
  function scoreTable(v, roundsDone) {
    const room = v.room, g = v.match, ranks = g.ranks_only, w = wording(room, v.you.seat);
    const names = room.seats.map((s) => w.name(s.seat));
    const place = (r, s) => r.finishing_order.indexOf(s) + 1;
    const sums = names.map((_, s) => (g.place_sums || [])[s] ?? roundsDone.reduce((sum, r) => sum + place(r, s), 0));
    const totals = ranks ? sums : (g.totals || []);
    return h("div", { class: "scroll" }, h("table", { class: `scores${ranks ? " places" : ""}`, "data-scoring": ranks ? "places" : "points" },
      h("thead", {}, h("tr", {}, h("th", {}, t("round")), names.map((n) => h("th", { title: n }, n)))),
      h("tbody", {},
        roundsDone.map((r) => h("tr", {}, h("td", {}, `${r.round + 1}`),
          names.map((_, i) => ranks
            ? h("td", { title: tn("{n} card left", "{n} cards left", r.cards_left[i]) }, ordinal(place(r, i)))
            : h("td", { title: `${ordinal(place(r, i))} · ${tn("{n} card left", "{n} cards left", r.cards_left[i])}` }, r.scores[i] > 0 ? `+${r.scores[i]}` : `${r.scores[i]}`)))),
        h("tr", { class: "total" }, h("td", {}, ranks ? t("sum of places") : t("total")), totals.map((x) => h("td", {}, `${x}`))))));
  }

  // the hands left when the round ended: public now, shown face up
  function handsLeft(v, r) {
    if (!r || !r.hands_left || !r.hands_left.length) return null;
    const w = wording(v.room, v.you.seat);
    return h("div", { class: "hands-left", id: "hands-left" }, r.finishing_order.map((s) => h("div", { class: "seatrow", "data-seat": s },
      h("span", { class: "who" }, `${ordinal(r.finishing_order.indexOf(s) + 1)} · ${w.name(s)}`),
      r.hands_left[s].length ? miniCards(r.hands_left[s]) : h("span", { class: "muted" }, ` ${t("out")}`))));
  }

  function breakModal(v) {
    const b = v.break, room = v.room, g = v.match, me = v.you.seat, w = wording(room, me);
    const last = g.rounds_done[g.rounds_done.length - 1];
    const ready = me !== null && b.ready.includes(me);
    return h("div", { class: "modal", id: "break" }, h("div", {},
      h("h2", {}, t("Round {n} is over", { n: b.round })),
      handsLeft(v, last),
      scoreTable(v, g.rounds_done),
      last && last.said && last.said.length ? h("ul", { class: "muted details" }, last.said.map((d) => h("li", {}, d))) : null,
      // the seconds tick between views (the interval below)
      // the whole sentence translated ({n} where each language puts it), the number a span of its own
      h("p", { class: "muted", id: "break-countdown" }, ...t("Next round in {n} s", { n: "\u0000" }).split("\u0000").flatMap((part, i) =>
        i ? [h("span", { id: "break-seconds" }, `${Math.ceil(secondsLeft({ seconds_left: b.seconds_left }))}`), part] : [part]),
        b.waiting_for.length ? ` · ${t("waiting for {names}", { names: b.waiting_for.map((s) => w.object(s)).join(", ") })}` : ""),
      me !== null ? h("button", { class: "primary", id: "continue", disabled: ready, onclick: () => send({ type: "continue" }) }, ready ? t("Ready") : t("Next round")) : null));
  }

  function summary(v) {
    const room = v.room, g = v.match, me = v.you.seat, w = wording(room, me);
    const standings = g.standings || [];
    const last = g.rounds_done[g.rounds_done.length - 1];
    const ranks = g.ranks_only;
    return h("div", { class: "modal", id: "summary" }, h("div", {},
      h("h2", {}, t("The match is over")),
      h("div", { class: "scroll" }, h("table", { class: "scores", id: "standings" }, h("thead", {}, h("tr", {}, h("th", {}, "place"), h("th", {}, "player"), h("th", {}, ranks ? "sum of places" : "total"))),
        h("tbody", {}, standings.map((s, i) => h("tr", {}, h("td", {}, ordinal(i + 1)), h("td", {}, w.name(s)), h("td", {}, `${ranks ? (g.places || [])[s] : g.totals[s]}`)))))),
      h("h3", {}, t("The last round")), handsLeft(v, last),
      last && last.said && last.said.length ? h("ul", { class: "muted details" }, last.said.map((d) => h("li", {}, d))) : null,
      h("h3", {}, t("Rounds")), scoreTable(v, g.rounds_done),
      rematchBox(v),
      h("div", { class: "row", style: "margin-top:.8rem" },
        h("a", { href: `/replay/${room.id}`, id: "replay-link" }, t("Replay")),
        h("a", { href: `/api/records/${room.id}?format=text`, id: "download" }, t("Download the record")),
        h("a", { href: `/api/records/${room.id}?format=json`, id: "download-json" }, "(JSON)"),
        h("a", { href: "/" }, t("Lobby")))));
  }

  function rematchBox(v) {
    const r = v.rematch, me = v.you.seat, w = wording(v.room, me);
    if (!r) return null;
    if (r.room) {
      const mine = saved.get(roomId);
      if (me !== null && mine.token && state.votedRematch) {
        saved.set(r.room, { seat: mine.seat, token: mine.token, host: mine.host });
        setTimeout(() => { location.href = `/room/${r.room}`; }, 50);
      }
      const follow = () => { if (me !== null && mine.token) saved.set(r.room, { seat: mine.seat, token: mine.token, host: mine.host }); };
      return h("div", { class: "rematch", id: "rematch-box" }, h("a", { href: `/room/${r.room}`, id: "rematch-link", class: "button primary", onclick: follow }, t("Go to the rematch")));
    }
    const waiting = r.people.filter((s) => !r.votes.includes(s));
    const asked = r.votes.map((s) => w.name(s));
    return h("div", { class: "rematch", id: "rematch-box" },
      me !== null && v.room.seats[me].kind === "person" ? h("button", { class: "primary", id: "rematch", onclick: () => { state.votedRematch = true; send({ type: "rematch" }); } },
        r.votes.includes(me) ? t("Rematch asked: ask again") : t("Rematch (the same seats)")) : null,
      h("span", { class: "muted", id: "rematch-status" },
        asked.length ? ` ${asked.join(", ")} ${asked.length === 1 && r.votes[0] !== me ? "asks" : "ask"} for a rematch` : "",
        asked.length && waiting.length ? ` · ${t("waiting for {names}", { names: waiting.map((s) => w.object(s)).join(", ") })}` : ""));
  }

  // --- the chat: a panel kept across views (what you type stays), lines as text, emotes as buttons -----------
  function chatPanel() {
    const list = h("div", { class: "chat-list", id: "chat-list", "aria-live": "polite" });
    const input = h("input", { type: "text", id: "chat-input", maxlength: 200, placeholder: t("say something"), autocomplete: "off" });
    const err = h("div", { class: "error", id: "chat-error" });
    const form = h("form", { id: "chat-form", class: "row", onsubmit: (ev) => {
      ev.preventDefault();
      const text = input.value.trim();
      if (!text) return;
      sayInChat({ type: "chat", text });
      input.value = "";
    } }, input, h("button", { type: "submit", id: "chat-send" }, t("Send")));
    const emotes = h("div", { class: "emotes" }, Object.entries(EMOTES()).map(([k, e]) => h("button", { class: "emote", "data-emote": k, title: k.replace("-", " "), type: "button", onclick: () => sayInChat({ type: "chat", emote: k }) }, e)));
    const panel = h("section", { class: "panel chat", id: "chat" }, h("h3", {}, t("Chat")), list, emotes, form, err);
    let shown = -1;
    // the last refusal is cleared by the next line sent, not by anyone's line arriving: a broadcast of an
    // earlier accepted line can come in just after the refusal and would wipe it before it was read
    function sayInChat(msg) {
      state.chatError = "";
      err.textContent = "";
      send(msg);
    }
    function update() {
      const v = state.view;
      const seated = v && v.you.seat !== null;
      input.disabled = !seated;
      input.placeholder = seated ? t("say something") : t("take a seat to chat");
      for (const b of emotes.querySelectorAll("button")) b.disabled = !seated;
      err.textContent = state.chatError;
      const lastId = state.chat.length ? state.chat[state.chat.length - 1].id : 0;
      if (lastId === shown) return;
      shown = lastId;
      list.replaceChildren(...state.chat.map((c) => h("div", { class: `chat-line${c.emote ? " emote" : ""}`, "data-seat": c.seat },
        h("span", { class: "who" }, `${c.name}: `), h("span", { class: "said" }, c.text))));
      list.scrollTop = list.scrollHeight; // the newest line in view
    }
    return { panel, update };
  }

  // the move timer ticks between views
  setInterval(() => {
    const v = state.view;
    if (!v || !(v.timer || v.break)) return;
    const breakLeft = document.getElementById("break-seconds");
    if (breakLeft && v.break) breakLeft.textContent = `${Math.ceil(secondsLeft({ seconds_left: v.break.seconds_left }))}`;
    for (const el of document.querySelectorAll(".timer")) {
      const left = secondsLeft(v.timer);
      if (left === null) continue;
      el.firstChild.style.width = `${(100 * left) / v.timer.seconds}%`;
      el.classList.toggle("low", left < 10);
      const secs = el.parentElement.querySelector(".secs");
      if (secs) secs.textContent = `${Math.ceil(left)}s`;
    }
  }, 250);
  connect();
}
