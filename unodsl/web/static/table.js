// The table page of `unodsl serve`: one WebSocket to the server, which is the
// authority; this page only shows what it is sent and sends back the option picked.
// Every text from the server goes in with textContent: nothing it says is markup.
// The cards are drawn by cards.js, the scores and the results shown by results.js.
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
let isHost = false;
let seen = null;        // what the last render showed (for the animations and the scoreboard)
let noticeTimer = 0;
let deadline = null;    // the turn timer: { seat, end (performance.now() ms), seconds }
let noticeShown = null;  // the id of the table's notice last shown
let timerSeen = null;    // { key, seconds }: the time a decision started with (for the timer's bar)

const FAN_MOST = 12;     // backs drawn in a fan (more are counted)
const FAN_DISCARDS = 5;  // discards fanned
const NOTICE_SECONDS = { info: 5, error: 8 };

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}

// A notice that clears itself (one with a button stays until it is used).
function notice(text, kind, action, seconds) {
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
  clearTimeout(noticeTimer);
  const keep = seconds || NOTICE_SECONDS[kind === "info" ? "info" : "error"];
  if (!action) noticeTimer = setTimeout(() => { box.hidden = true; }, keep * 1000);
}

function connect(takeover) {
  const scheme = location.protocol === "https:" ? "wss://" : "ws://";
  ws = new WebSocket(scheme + location.host + "/t/" + encodeURIComponent(tableId) + "/ws");
  ws.addEventListener("open", () => {
    retry = 0;
    $("conn").textContent = me === null ? "online · watching" : "online";
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

function refused(text) {
  stopped = true;
  document.body.classList.add("refused");  // (nothing of the table to show: only the notice)
  $("status").textContent = "not connected";
  $("tobot").hidden = true;
  $("back").hidden = true;
  return text;
}

function receive(data) {
  if (data.type === "welcome") {
    $("variant").textContent = data.variant;
    document.title = data.variant + (me !== null ? " — P" + (me + 1) : " — spectator");
    isHost = !!data.host;
    $("host").hidden = !data.host;
    $("mine").hidden = data.seat === null;
    document.body.classList.toggle("spectator", data.seat === null);
    document.body.classList.remove("refused");
    $("notice").hidden = true;
  } else if (data.type === "error") {
    const seconds = data.seconds || undefined;
    if (data.code === "taken") {
      notice(refused(data.message), "", { label: "Use this window", run: () => { stopped = false; $("notice").hidden = true; ws.close(); connect(true); } });
    } else if (data.code === "moved" || data.code === "auth" || data.code === "table" || data.code === "flood") {
      notice(refused(data.message), "", data.code === "moved" ? { label: "Use this window again", run: () => { stopped = false; $("notice").hidden = true; connect(true); } } : null, 3600);
    } else {
      notice(data.message, "", null, seconds);
    }
  } else if (data.type === "info") {
    notice(data.message, "info", null, data.seconds || undefined);
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
    if (data.notice && data.notice.id !== noticeShown) {  // told to every page: an undo, a new game …
      noticeShown = data.notice.id;
      notice(data.notice.text, "info", null, data.notice.seconds);
    } else if (!data.notice && noticeShown !== null && $("notice").className === "info") {
      $("notice").hidden = true;
      noticeShown = null;
    }
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
  for (const line of lines || []) {
    const li = el("li");
    for (const [text, classes] of line) {
      li.append(el("span", String(classes).replace(/[^a-z0-9 -]/g, ""), text));
    }
    list.append(li);
  }
  while (list.childElementCount > 500) list.firstElementChild.remove();
  if (lines && lines.length) list.scrollTop = list.scrollHeight;
}

// A seat as shown: its label, and the name a person gave apart from it ("P2 · Ann").
function seatLabel(s, p) {
  const seat = s.seats[p];
  const label = seat.label || "P" + (p + 1);
  const name = seat.name || "";
  return name ? label + " · " + name : label;
}

function statusText(s) {
  const t = s.table;
  if (s.status === "lobby") return "Waiting for the host to start the game";
  if (s.status === "failed") {
    const why = s.failure || "the game stopped";
    return why.charAt(0).toUpperCase() + why.slice(1);
  }
  if (!t) return s.status;
  if (t.over) {
    const winners = s.scores && Array.isArray(s.scores.winners) ? s.scores.winners : t.winner !== null ? [t.winner] : [];
    return winners.length ? winners.map((p) => seatLabel(s, p)).join(" and ") + (winners.length > 1 ? " win the game" : " wins the game") :
      "The game is over";
  }
  const round = "Round " + t.round + " · ";
  if (t.turn !== null) return round + (t.turn === me ? "Your turn" : seatLabel(s, t.turn) + "'s turn");
  if (t.deciding) return round + (s.you && s.you.decision ? "Your decision" : "A player is deciding");
  return round + "…";
}

function render(s) {
  $("status").textContent = statusText(s);
  if (s.table) wheelFor((s.table.top && s.table.top.in_play) || s.table.color);
  const moved = motion(s);
  renderTimer(s);
  renderSeats(s, moved);
  renderCentre(s, moved);
  renderZones(s);
  renderHand(s, moved);
  renderDecision(s);
  renderUno(s);
  renderHost(s);
  tick();
  renderBetween(s);
  $("tobot").hidden = !!s.bot_plays;
  $("back").hidden = !s.bot_plays;
  $("botnote").textContent = s.status === "playing" && s.bot_plays ? "— a bot plays your seat now" : "";
  seen = remember(s);
}

// -- what moved since the last frame (for the animations) ------------------------------
function remember(s) {
  const t = s.table;
  return { game: s.game, round: t ? t.round : null, turns: t ? t.turns : null, turn: t ? t.turn : null,
    top: t && t.top ? t.top.label : null, discards: t ? t.discards.map((c) => c.label).join("|") : "",
    sizes: t ? t.seats.map((x) => x.size) : [], scores: t ? t.seats.map((x) => x.score) : [],
    hand: s.you ? s.you.hand.map((c) => c.label) : [], status: s.status, rounds: rounds(s).length };
}

function motion(s) {
  const t = s.table;
  const moved = { played: false, from: null, bubbles: {}, fresh: new Map() };
  if (!seen || !t || seen.game !== s.game || seen.round !== t.round) return moved;
  const discards = t.discards.map((c) => c.label).join("|");
  moved.played = discards !== seen.discards && t.top !== null;
  if (moved.played && seen.turn !== null) moved.from = seen.turn;
  t.seats.forEach((x, p) => {
    const before = seen.sizes[p];
    if (before === undefined) return;
    if (x.size > before) moved.bubbles[p] = "+" + (x.size - before);
    else if (!moved.played && seen.turn === p && t.turn !== p && x.size === before) moved.bubbles[p] = "pass";
  });
  // the cards in my hand that were not there before
  const count = new Map();
  for (const label of seen.hand) count.set(label, (count.get(label) || 0) + 1);
  if (s.you) {
    for (const c of s.you.hand) {
      const left = count.get(c.label) || 0;
      if (left > 0) count.set(c.label, left - 1);
      else moved.fresh.set(c.label, (moved.fresh.get(c.label) || 0) + 1);
    }
  }
  return moved;
}

// -- the others, the piles, my hand ------------------------------------------------------
function renderSeats(s, moved) {
  const list = $("seats");
  list.replaceChildren();
  s.seats.forEach((seat, p) => {
    const t = s.table ? s.table.seats[p] : null;
    const out = !!(t && (t.out || (t.flags || []).includes("out")));
    const li = el("li", "seat" + (s.table && s.table.turn === p ? " turn" : "") + (p === me ? " me" : "") + (out ? " out" : ""));
    li.dataset.seat = String(p);
    const who = el("div", "who");
    const label = seat.label || "P" + (p + 1);
    const name = seatLabel(s, p).slice(label.length + 3);
    who.append(el("span", "label", label));
    if (name) who.append(el("span", "", name));
    if (p === me) who.append(el("span", "you", "you"));
    li.append(who);
    li.append(el("div", "small", seat.person ? (seat.connected ? "person" : "person, away") : "bot: " + seat.bot));
    if (t) {
      if (p !== me && !out) li.append(fan(t));
      li.append(el("div", "count", t.size + (t.size === 1 ? " card" : " cards") + " · score " + t.score));
      if (out) li.append(el("span", "flag outflag", "out"));
      for (const f of t.flags || []) if (f !== "out") li.append(el("span", "flag", f.replace(/_/g, " ")));
      if (deadline && deadline.seat === p) li.append(el("div", "clock", timeLeft() + " s left"));
    }
    if (moved.bubbles[p]) li.append(el("span", "bubble", moved.bubbles[p]));
    list.append(li);
  });
}

// The others' hands as fanned backs; with two-sided cards, the faces their backs show.
function fan(t) {
  if (t.backs && t.backs.length) {
    const backs = el("div", "backs");
    for (const b of t.backs) backs.append(cardElement(b, "span", "mini"));
    return backs;
  }
  const box = el("div", "fan");
  const n = Math.min(t.size, FAN_MOST);
  const spread = Math.min(60, n * 7);
  for (let i = 0; i < n; i++) {
    const c = cardElement(null, "span");
    const angle = n > 1 ? -spread / 2 + (spread * i) / (n - 1) : 0;
    const dx = n > 1 ? (i - (n - 1) / 2) * Math.min(0.45, 3 / n) : 0;
    c.style.transform = "translateX(calc(-50% + " + dx.toFixed(2) + "em)) rotate(" + angle.toFixed(1) + "deg)";
    box.append(c);
  }
  box.setAttribute("role", "img");
  box.setAttribute("aria-label", t.size + " cards, face down");
  return box;
}

function renderCentre(s, moved) {
  const t = s.table;
  const draw = $("draw"), discard = $("discard"), facts = $("facts");
  draw.replaceChildren(); discard.replaceChildren(); facts.replaceChildren();
  if (!t) {
    if (s.status === "lobby") {
      facts.append(el("p", "lobby", isHost ? "Give each player the link of their seat, then press Start the game." :
        "The game starts when the host says so."));
    }
    return;
  }
  draw.append(cardElement(t.draw_back || null, "span"));
  draw.append(el("span", "count", "draw pile: " + t.draw_pile));
  const pile = el("div", "discards");
  const shown = t.discards.slice(-FAN_DISCARDS);
  shown.forEach((c, i) => {
    const fromTop = shown.length - 1 - i;
    const data = Object.assign({}, c);
    const top = fromTop === 0;
    if (top && t.top && t.top.wild !== undefined) data.wild = t.top.wild;
    const e = cardElement(data, "span", top ? "top" : "");
    const angle = [0, -11, 9, -18, 15][fromTop] || 0;
    const dx = [0, -0.6, 0.7, -1.1, 1.2][fromTop] || 0;
    e.style.transform = "translateX(" + dx + "em) rotate(" + angle + "deg)";
    const chosen = (t.top && t.top.in_play) || t.color;
    if (top && !paint(data.color) && chosen) {  // a wild card on top: the colour named for it
      const badge = el("span", "chosen");
      badge.append(colourMark(chosen));
      badge.title = "colour in play: " + chosen;
      e.append(badge);
    }
    if (top && moved.played) {
      e.classList.add("landed");
      e.style.setProperty("--from", moved.from === me && me !== null ? "translateY(6em)" : "translateY(-5em)");
    }
    pile.append(e);
  });
  discard.append(pile);
  discard.append(el("span", "count", "discard pile"));
  const add = (label, value) => {
    const p = el("div");
    p.append(el("span", "", label + " "));
    if (value instanceof Node) p.append(value); else p.append(el("b", "", value));
    facts.append(p);
  };
  const inPlay = (t.top && t.top.in_play) || t.color;
  if (inPlay) {
    const chip = el("span", "inplay");
    chip.append(colourMark(inPlay), el("span", "", inPlay));
    add("colour in play:", chip);
  }
  if (t.two_sided) add("side in play:", t.side);
  if (s.seats.length > 2) {
    const arrow = el("b");
    arrow.append(el("span", "arrow", t.direction > 0 ? "↻" : "↺"), el("span", "", t.direction > 0 ? " up the table" : " down the table"));
    add("play goes:", arrow);
  }
  if (t.penalty) add("pending penalty:", "+" + t.penalty + " cards");
  add("round:", String(t.round));
}

// The zones the variant declares (`zones:`): a row's cards, a pile's top card, or, when this
// page may not see them (face down, another player's), a back and how many cards there are.
function renderZones(s) {
  const box = $("zones");
  box.replaceChildren();
  const t = s.table;
  if (!t || !t.zones) return;
  for (const z of t.zones) {
    const whose = z.seat === null ? "" : z.seat === me ? "your " : seatLabel(s, z.seat) + "'s ";
    const zone = el("div", "zone" + (z.row ? " row" : ""));
    zone.dataset.zone = z.name;
    if (z.seat !== null) zone.dataset.seat = String(z.seat);
    if (z.about) zone.title = z.about;
    const cards = el("div", "zonecards");
    if (z.cards === null) {
      if (z.size) cards.append(cardElement(null, "span"));
    } else {
      for (const c of z.cards) {
        const card = cardElement(c, "span");
        if (c.said) {  // what its player said it counts as, where it lies ("7", "red")
          const name = String(c.label) + " (" + c.said + ")";
          card.title = name;
          card.setAttribute("aria-label", name);
          card.append(el("span", "said", c.said));
        }
        cards.append(card);
      }
    }
    zone.append(cards);
    const many = z.size + (z.size === 1 ? " card" : " cards");
    const count = z.size === 0 ? "empty" : z.cards === null ?
      many + (z.seat === null || z.seat === me ? ", face down" : ", hidden") : z.row ? "" : many;
    zone.append(el("span", "count", whose + z.title + (count ? ": " + count : "")));
    box.append(zone);
  }
}

function renderHand(s, moved) {
  const hand = $("hand");
  hand.replaceChildren();
  if (!s.you) {
    $("handsize").textContent = "";
    if (s.status === "lobby") hand.append(el("p", "help", "Your cards are dealt when the game starts."));
    return;
  }
  $("handsize").textContent = "(" + s.you.hand.length + ")";
  const mine = s.you.decision;
  hand.classList.toggle("myturn", !!(mine && mine.kind === "turn"));
  const fresh = new Map(moved.fresh);
  for (const c of s.you.hand) {
    const b = cardElement(c, "button", c.option !== null && c.option !== undefined ? "legal" : "");
    b.type = "button";
    if (c.option !== null && c.option !== undefined && mine) {
      b.setAttribute("aria-label", "play " + c.label);
      b.addEventListener("click", () => answer(mine, c.option));
    } else {
      b.disabled = true;
    }
    const left = fresh.get(c.label) || 0;
    if (left > 0) { b.classList.add("new"); fresh.set(c.label, left - 1); }
    hand.append(b);
  }
}

// -- the question asked of this seat: shown only when there is one -----------------------
function renderDecision(s) {
  const d = s.you ? s.you.decision : null;
  const box = $("decision"), options = $("options");
  options.replaceChildren();
  if (!d) {
    box.hidden = true;
    lastDecision = null;
    return;
  }
  box.hidden = false;
  $("question").textContent = d.question;
  $("help").textContent = d.help + (d.penalty && d.kind === "turn" ? " A penalty of " + d.penalty + " cards is pending on you." : "");
  if (d.kind === "int" && d.options.length > MANY_NUMBERS) {
    options.append(numberField(d));
  } else d.options.forEach((o, i) => {
    const b = el("button");
    b.type = "button";
    if (i < 9 && d.kind !== "int") b.append(el("kbd", "", String(i + 1)));  // (a number's key is itself)
    if (o.card) b.append(cardElement(o.card, "span"));
    if (o.what === "color") b.append(colourMark(o.color));
    b.append(el("span", "", o.text));
    b.dataset.what = o.what;
    if (s.you.uno && i === s.you.uno.yes) b.className = "unoyes";
    b.addEventListener("click", () => answer(d, i));
    options.append(b);
  });
  if (lastDecision !== d.id) {
    lastDecision = d.id;
    const active = document.activeElement;  // (a field being typed in keeps the focus)
    if (!(active instanceof HTMLInputElement || active instanceof HTMLTextAreaElement)) {
      const first = options.querySelector("input, button");
      if (first) first.focus({ preventScroll: true });
    }
  }
}

// A number from a wide range (choose_number offers up to 1,000): typed, not a wall of buttons.
const MANY_NUMBERS = 24;
function numberField(d) {
  const form = el("form", "numberfield");
  const lo = d.options[0].value, hi = d.options[d.options.length - 1].value;
  const input = el("input");
  input.type = "number";
  input.min = String(lo);
  input.max = String(hi);
  input.step = "1";
  input.value = String(lo);
  input.setAttribute("aria-label", "a number from " + lo + " to " + hi);
  const ok = el("button", "", "pick");
  ok.type = "submit";
  form.append(input, ok);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const i = d.options.findIndex((o) => String(o.value) === input.value.trim());
    if (i >= 0) {
      answer(d, i);
    } else {
      input.setCustomValidity("a whole number from " + lo + " to " + hi);
      input.reportValidity();
    }
  });
  input.addEventListener("input", () => input.setCustomValidity(""));
  return form;
}

function answer(d, option) {
  send({ type: "answer", decision: d.id, option: option });
}

// -- UNO: a call or a catch, whenever the frames say one is possible -------------------
// The server's `you.uno`, { action: "call" | "catch", decision, yes, no }, while the seat
// may call UNO or catch a missed call; the button sends an "uno" message. It is shown only
// where the variant has that call (`uno_button`); any other question is asked with its options.
function unoNow(s) {
  if (!s.you || s.status !== "playing" || !s.you.uno) return null;
  const u = s.you.uno;
  return { action: u.action, press: () => send({ type: "uno", action: u.action }) };
}

function renderUno(s) {
  const button = $("uno");
  button.hidden = me === null || !s.table || !s.uno_button;
  const now = unoNow(s);
  button.disabled = !now;
  button.classList.toggle("lit", !!now);
  button.dataset.action = now ? now.action : "";
  $("uno-what").textContent = !now ? "" : now.action === "call" ? "call it!" : "catch them!";
}

// -- the host's buttons: enabled only when the action is possible now ---------------------
function hostCan(s, action) {
  return !!(s.host && s.host[action]);
}

function renderHost(s) {
  if ($("host").hidden) return;
  for (const action of ["start", "restart", "undo", "save"]) $("h-" + action).disabled = !hostCan(s, action);
  const list = $("h-seats");
  list.replaceChildren();
  s.seats.forEach((seat, p) => {
    const li = el("li");
    const b = el("button", "", seat.person ? "A bot plays " + seatLabel(s, p) : "Let a person play " + (seat.label || "P" + (p + 1)));
    b.type = "button";
    b.disabled = !hostCan(s, "seats");
    b.addEventListener("click", () => send({ type: "host", action: seat.person ? "bot" : "person", seat: p }));
    li.append(b);
    list.append(li);
  });
}

// -- the turn timer, when the frames carry one: { seconds (left), mine } ----------------
function renderTimer(s) {
  const timer = s.timer;
  const t = s.table;
  if (!timer || s.status !== "playing" || !t) {
    deadline = null;
  } else {
    const seat = timer.mine ? me : t.turn;
    const key = s.game + "/" + t.turns + "/" + seat + "/" + (s.you && s.you.decision ? s.you.decision.id : "");
    if (!timerSeen || timerSeen.key !== key) timerSeen = { key: key, seconds: Math.max(1, timer.seconds) };
    deadline = { seat: seat, seconds: timerSeen.seconds, end: performance.now() + timer.seconds * 1000 };
  }
  tick();
}

function timeLeft() {
  return deadline ? Math.max(0, Math.ceil((deadline.end - performance.now()) / 1000)) : 0;
}

function tick() {
  const box = $("timer");
  box.hidden = !deadline;
  if (!deadline) return;
  const left = timeLeft();
  const who = deadline.seat === me ? "you" : state && deadline.seat !== null ? seatLabel(state, deadline.seat) : "";
  $("timer-text").textContent = (who === "you" ? "your time: " : who + "'s time: ") + left + " s";
  $("timer-fill").style.width = (100 * Math.max(0, deadline.end - performance.now()) / (deadline.seconds * 1000)).toFixed(1) + "%";
  box.classList.toggle("low", left <= 5);
  const clock = document.querySelector('#seats li[data-seat="' + deadline.seat + '"] .clock');
  if (clock) clock.textContent = left + " s left";
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
  $("uno").addEventListener("click", () => { const now = state && unoNow(state); if (now) now.press(); });
  $("r-play").addEventListener("click", () => send({ type: "again" }));
  $("r-confirm").addEventListener("click", () => send({ type: "host", action: "restart", seed: hostSeed() }));
  $("r-close").addEventListener("click", () => { resultsClosed = state ? state.game : -1; $("results").hidden = true; });
  $("rename").addEventListener("click", () => {
    const name = $("name").value.trim().slice(0, 24);
    localStorage.setItem("unodsl-name", name);
    send({ type: "name", name: name });
  });
  $("name").value = localStorage.getItem("unodsl-name") || "";
  document.addEventListener("keydown", (event) => {
    if (event.target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "r") { window.open($("rules").href, "_blank", "noopener"); return; }
    if (key === "u") { const now = state && unoNow(state); if (now) { event.preventDefault(); now.press(); } return; }
    const d = state && state.you ? state.you.decision : null;
    if (!d) return;
    let pick = -1;
    if (d.kind === "int") pick = d.options.findIndex((o) => String(o.value) === key);  // the digit itself
    else if (/^[1-9]$/.test(key)) pick = Number(key) - 1;
    const byWhat = { d: "draw", k: "keep", p: "pass", y: "yes", n: "no" };
    if (byWhat[key]) pick = d.options.findIndex((o) => o.what === byWhat[key] || (o.what === "word" && o.text === byWhat[key]));
    if (pick >= 0 && pick < d.options.length) { event.preventDefault(); answer(d, pick); }
  });
  setInterval(tick, 250);
}

wire();
$("mine").hidden = me === null;
$("uno").hidden = true;  // (until a game is on)
connect(false);
