// The table page of `unodsl serve`: one WebSocket to the server, which is the
// authority; this page only shows what it is sent and sends back the option picked.
// Every text from the server goes in with textContent: nothing it says is markup.
"use strict";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.hash.slice(1));
const seatParam = params.get("seat");
const me = seatParam !== null && /^\d+$/.test(seatParam) ? Number(seatParam) : null;
const token = params.get("token") || "";
const hostKey = params.get("host") || "";
const tableId = location.pathname.split("/")[2] || "";

let ws = null;
let retry = 0;
let stopped = false;   // refused or moved: no automatic reconnection
let state = null;
let lastDecision = null;
let lastShown = "";

const KNOWN = new Set(["red", "yellow", "green", "blue", "pink", "teal", "orange", "purple"]);

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function colourClass(color) {
  return KNOWN.has(color) ? "c-" + color : "";
}

function card(data, tag, extra) {
  const e = el(tag || "span", ["card", colourClass(data.color), data.wild ? "wild" : "", extra || ""].join(" ").trim(),
    data.label);
  e.title = data.label;
  return e;
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

function notice(text, kind, action) {
  const box = $("notice");
  box.replaceChildren(el("span", "", text));
  box.className = kind || "";
  if (action) {
    const b = el("button", "", action.label);
    b.type = "button";
    b.addEventListener("click", action.run);
    box.append(b);
  }
  box.hidden = false;
}

function connect(takeover) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/t/" + encodeURIComponent(tableId) + "/ws");
  ws.addEventListener("open", () => {
    retry = 0;
    $("conn").textContent = "online";
    $("conn").className = "conn on";
    const hello = { type: "hello", token: token, host: hostKey, takeover: !!takeover };
    if (me !== null) hello.seat = me;
    const name = localStorage.getItem("unodsl-name");
    if (name && me !== null) hello.name = name;
    ws.send(JSON.stringify(hello));
  });
  ws.addEventListener("message", (event) => {
    let data;
    try { data = JSON.parse(event.data); } catch (e) { return; }
    receive(data);
  });
  ws.addEventListener("close", () => {
    $("conn").textContent = "offline";
    $("conn").className = "conn";
    if (stopped) return;
    retry = Math.min(retry + 1, 6);
    setTimeout(() => connect(false), 500 * retry);
  });
}

function receive(data) {
  if (data.type === "welcome") {
    $("variant").textContent = data.variant;
    document.title = data.variant + (me !== null ? " — P" + (me + 1) : " — spectator");
    $("host").hidden = !data.host;
    $("mine").hidden = data.seat === null;
    $("notice").hidden = true;
  } else if (data.type === "error") {
    if (data.code === "taken") {
      stopped = true;
      notice(data.message, "", { label: "Use this window", run: () => { stopped = false; $("notice").hidden = true; ws.close(); connect(true); } });
    } else if (data.code === "moved" || data.code === "auth" || data.code === "table" || data.code === "flood") {
      stopped = true;
      notice(data.message, "", data.code === "moved" ? { label: "Use this window again", run: () => { stopped = false; $("notice").hidden = true; connect(true); } } : null);
    } else {
      notice(data.message);
    }
  } else if (data.type === "info") {
    notice(data.message, "info");
  } else if (data.type === "state") {
    state = data;
    const shown = JSON.stringify(Object.assign({}, data, { lines: null, reset: null }));
    if (shown !== lastShown) {  // a frame with only new narration leaves the controls (and the focus) alone
      lastShown = shown;
      const focus = focused();
      render(data);
      refocus(focus);
    }
    narrate(data.lines, data.reset);
  }
}

// The control that has the focus, as (its section, its place there), to give it back after a render.
function focused() {
  const active = document.activeElement;
  const box = active ? active.closest("#options, #hand, #h-seats") : null;
  return box ? [box.id, Array.prototype.indexOf.call(box.querySelectorAll("button"), active)] : null;
}

function refocus(where) {
  if (!where || document.activeElement !== document.body) return;
  const buttons = $(where[0]).querySelectorAll("button");
  const target = buttons[Math.min(where[1], buttons.length - 1)];
  if (target && !target.disabled) target.focus({ preventScroll: true });
}

function narrate(lines, reset) {
  const list = $("lines");
  if (reset) list.replaceChildren();
  for (const line of lines) {
    const li = el("li");
    for (const [text, classes] of line) {
      li.append(el("span", classes.replace(/[^a-z0-9 -]/g, ""), text));
    }
    list.append(li);
  }
  while (list.childElementCount > 500) list.firstElementChild.remove();
  if (lines.length) list.scrollTop = list.scrollHeight;
}

function statusText(s) {
  const t = s.table;
  if (s.status === "lobby") return "Waiting for the host to start the game";
  if (s.status === "failed") return s.message;
  if (!t) return s.status;
  if (t.over) return (t.winner !== null ? s.seats[t.winner].name + " wins the game" : "The game is over");
  const round = "Round " + t.round + " · ";
  if (t.turn !== null) return round + (t.turn === me ? "Your turn" : s.seats[t.turn].name + "'s turn");
  if (t.deciding) return round + (s.you && s.you.decision ? "Your decision" : "A player is deciding");
  return round + "…";
}

function render(s) {
  $("status").textContent = statusText(s);
  renderSeats(s);
  renderCentre(s);
  renderHand(s);
  renderDecision(s);
  renderHost(s);
  $("tobot").hidden = !!s.bot_plays;
  $("back").hidden = !s.bot_plays;
}

function renderSeats(s) {
  const list = $("seats");
  list.replaceChildren();
  s.seats.forEach((seat, p) => {
    const t = s.table ? s.table.seats[p] : null;
    const li = el("li", "seat" + (s.table && s.table.turn === p ? " turn" : "") + (p === me ? " me" : ""));
    li.append(el("div", "who", seat.name + (p === me ? " (you)" : "")));
    const who = seat.person ? (seat.connected ? "person" : "person, away") : "bot: " + seat.bot;
    li.append(el("div", "small", who));
    if (t) {
      li.append(el("div", "", t.size + (t.size === 1 ? " card" : " cards") + " · score " + t.score));
      for (const f of t.flags) li.append(el("span", "flag", f.replace(/_/g, " ")));
      if (t.backs.length && p !== me) {
        const backs = el("div", "backs");
        for (const b of t.backs) backs.append(card(b, "span", "mini back"));
        li.append(backs);
      }
    }
    list.append(li);
  });
}

function renderCentre(s) {
  const t = s.table;
  const draw = $("draw"), discard = $("discard"), facts = $("facts");
  draw.replaceChildren(); discard.replaceChildren(); facts.replaceChildren();
  if (!t) return;
  draw.append(t.draw_back ? card(t.draw_back, "span", "back") : el("span", "card", "draw"));
  draw.append(el("span", "count", "draw pile: " + t.draw_pile));
  if (t.top) discard.append(card(t.top, "span"));
  discard.append(el("span", "count", "top card"));
  const add = (label, value) => { const p = el("div"); p.append(el("span", "", label + " "), el("b", "", value)); facts.append(p); };
  if (t.color) add("colour to match:", t.color);
  if (t.two_sided) add("side in play:", t.side);
  if (s.seats.length > 2) add("play goes:", t.direction > 0 ? "up the table ↻" : "down the table ↺");
  if (t.penalty) add("pending penalty:", t.penalty + " cards");
  add("round:", String(t.round));
}

function renderHand(s) {
  const hand = $("hand");
  hand.replaceChildren();
  if (!s.you) { $("handsize").textContent = ""; return; }
  $("handsize").textContent = "(" + s.you.hand.length + ")";
  const mine = s.you.decision;
  for (const c of s.you.hand) {
    const b = card(c, "button", c.option !== null ? "legal" : "");
    b.type = "button";
    if (c.option !== null && mine) {
      b.setAttribute("aria-label", "play " + c.label);
      b.addEventListener("click", () => answer(mine, c.option));
    } else {
      b.disabled = true;
    }
    hand.append(b);
  }
}

function renderDecision(s) {
  const d = s.you ? s.you.decision : null;
  const box = $("decision"), options = $("options");
  options.replaceChildren();
  if (!d) {
    $("question").textContent = s.status === "playing" && s.bot_plays ? "A bot plays your seat now." : "";
    $("help").textContent = "";
    box.classList.remove("active");
    lastDecision = null;
    return;
  }
  $("question").textContent = d.question;
  $("help").textContent = d.help + (d.penalty && d.kind === "turn" ? " A penalty of " + d.penalty + " cards is pending on you." : "");
  box.classList.add("active");
  d.options.forEach((o, i) => {
    const b = el("button");
    b.type = "button";
    if (i < 9) b.append(el("kbd", "", String(i + 1)));
    b.append(el("span", "", o.text));
    const colour = o.what === "color" ? colourClass(o.color) : o.card ? colourClass(o.card.color) : "";
    if (colour) b.className = "swatch " + colour;
    b.dataset.what = o.what;
    b.addEventListener("click", () => answer(d, i));
    options.append(b);
  });
  if (lastDecision !== d.id) {
    lastDecision = d.id;
    const active = document.activeElement;  // (a field being typed in keeps the focus)
    if (!(active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement)) {
      const first = options.querySelector("button");
      if (first) first.focus({ preventScroll: true });
    }
  }
}

function answer(d, option) {
  send({ type: "answer", decision: d.id, option: option });
}

function renderHost(s) {
  if ($("host").hidden) return;
  $("h-start").disabled = s.status === "playing";
  const list = $("h-seats");
  list.replaceChildren();
  s.seats.forEach((seat, p) => {
    const li = el("li");
    const b = el("button", "", seat.person ? "A bot plays " + seat.name : "Let a person play P" + (p + 1));
    b.type = "button";
    b.addEventListener("click", () => send({ type: "host", action: seat.person ? "bot" : "person", seat: p }));
    li.append(b);
    list.append(li);
  });
}

function hostSeed() {
  const text = $("h-seed").value.trim();
  return /^\d{1,15}$/.test(text) ? Number(text) : null;
}

function wire() {
  $("h-start").addEventListener("click", () => send({ type: "host", action: "start", seed: hostSeed() }));
  $("h-restart").addEventListener("click", () => send({ type: "host", action: "restart", seed: hostSeed() }));
  $("h-undo").addEventListener("click", () => send({ type: "host", action: "undo" }));
  $("h-save").addEventListener("click", () => send({ type: "host", action: "save" }));
  $("tobot").addEventListener("click", () => send({ type: "seat", action: "bot" }));
  $("back").addEventListener("click", () => send({ type: "seat", action: "back" }));
  $("rename").addEventListener("click", () => {
    const name = $("name").value.trim().slice(0, 24);
    localStorage.setItem("unodsl-name", name);
    send({ type: "name", name: name });
  });
  $("name").value = localStorage.getItem("unodsl-name") || "";
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
    const d = state && state.you ? state.you.decision : null;
    const key = event.key.toLowerCase();
    if (key === "r") { window.open($("rules").href, "_blank", "noopener"); return; }
    if (!d) return;
    let pick = -1;
    if (/^[1-9]$/.test(key)) pick = Number(key) - 1;
    const byWhat = { d: "draw", k: "keep", p: "pass", y: "yes", n: "no" };
    if (byWhat[key]) pick = d.options.findIndex((o) => o.what === byWhat[key] || (o.what === "word" && o.text === byWhat[key]));
    if (pick >= 0 && pick < d.options.length) { event.preventDefault(); answer(d, pick); }
  });
}

wire();
$("mine").hidden = me === null;
connect(false);
