// The host's page of `unodsl serve`: the tables with their links, and a new table.
// Every text from the server goes in with textContent.
"use strict";

const $ = (id) => document.getElementById(id);
const key = new URLSearchParams(location.hash.slice(1)).get("key") || "";

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = String(text);
  return e;
}

function notice(text, kind) {
  const box = $("notice");
  box.textContent = text;
  box.className = kind || "";
  box.hidden = false;
}

async function call(method, body) {
  const response = await fetch("/api/tables", {
    method: method, headers: { "x-host-key": key, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function link(label, href) {
  const a = el("a", "", label);
  a.href = href;
  a.target = "_blank";
  a.rel = "noopener";
  return a;
}

function show(data) {
  const list = $("tables");
  list.replaceChildren();
  for (const t of data.tables) {
    const li = el("li", "seat");
    li.append(el("div", "who", t.variant + " — " + t.players + " seats" + (t.game ? ", game " + t.game : "") +
      " (" + t.status + ")"));
    const seats = el("ul");
    for (const s of t.seats) {
      const item = el("li");
      item.append(link(s.name, s.link), el("span", "small", s.person ? (s.connected ? " — here" : " — away") : " — bot " + s.bot));
      seats.append(item);
    }
    li.append(seats);
    const bar = el("div", "bar");
    bar.append(link("spectators' link", t.watch), link("open as host", t.host_watch));
    li.append(bar);
    list.append(li);
  }
  const select = $("variant");
  if (!select.childElementCount) {
    for (const v of data.variants) { const o = el("option", "", v); o.value = v; select.append(o); }
  }
}

async function refresh() {
  try { show(await call("GET")); } catch (e) { notice(e.message); }
}

function parseOptions(text) {
  const options = {};
  for (const part of text.split(",").map((p) => p.trim()).filter(Boolean)) {
    const [name, value] = part.split("=").map((p) => p.trim());
    options[name] = value === undefined ? true : (/^\d+$/.test(value) ? Number(value) : value);
  }
  return options;
}

$("new").addEventListener("submit", async (event) => {
  event.preventDefault();
  const seed = $("seed").value.trim();
  try {
    await call("POST", { variant: $("variant").value, seats: Number($("seats").value), bots: $("bots").value,
      seed: /^\d+$/.test(seed) ? Number(seed) : null, options: parseOptions($("options").value) });
    notice("table opened", "info");
    refresh();
  } catch (e) { notice(e.message); }
});

refresh();
setInterval(refresh, 5000);
