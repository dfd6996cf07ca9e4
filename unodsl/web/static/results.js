// The scores of the table page (table.js): a scoreboard between rounds, and the
// results screen at the end with "play again" for every player (the host confirms).
// It reads the frames' `scores`, `again` and `host`; every text goes in with textContent.
"use strict";

let resultsClosed = -1;  // the game whose results the person closed
let scoreTimer = 0;

// -- between rounds and at the end: the frames' `scores` ------------------------------------
// { rounds: [{ round, winner, points: [by seat], totals: [by seat] }], winners: [seats] once over }
function rounds(s) {
  return s.scores && Array.isArray(s.scores.rounds) ? s.scores.rounds : [];
}

function renderBetween(s) {
  const done = rounds(s).length;
  if (seen && seen.game === s.game && done > seen.rounds && s.status === "playing") scoreboard(s, rounds(s)[done - 1]);
  if (!seen || seen.game !== s.game || s.status !== "playing") $("scoreboard").hidden = true;
  renderResults(s);
}

function scoresTable(s, r) {
  const table = el("table");
  const head = el("tr");
  head.append(el("th", "", ""), el("th", "n", "this round"), el("th", "n", "total"));
  table.append(head);
  s.seats.forEach((seat, p) => {
    const row = el("tr", p === r.winner ? "winner" : "");
    const points = r.points[p] || 0;
    row.append(el("td", "", seatLabel(s, p) + (p === me ? " (you)" : "")), el("td", "n", (points > 0 ? "+" : "") + points),
      el("td", "n", r.totals[p]));
    table.append(row);
  });
  return table;
}

function scoreboard(s, r) {
  const box = $("scoreboard");
  box.replaceChildren(el("h2", "", "Round " + r.round + ": " + (r.winner === me ? "you win it" : seatLabel(s, r.winner) + " wins it")));
  const close = el("button", "", "Next round");
  close.type = "button";
  close.addEventListener("click", () => { box.hidden = true; });
  box.append(scoresTable(s, r), close);
  box.hidden = false;
  clearTimeout(scoreTimer);
  scoreTimer = setTimeout(() => { box.hidden = true; }, 9000);
}

function renderResults(s) {
  const t = s.table;
  const box = $("results");
  if (s.status !== "over" || !t || resultsClosed === s.game) { box.hidden = true; return; }
  const winners = s.scores && Array.isArray(s.scores.winners) ? s.scores.winners :
    t.winner !== null && t.winner !== undefined ? [t.winner] : [];
  $("r-title").textContent = !winners.length ? "The game is over" : winners.includes(me) ? "You win the game!" :
    winners.map((p) => seatLabel(s, p)).join(" and ") + (winners.length > 1 ? " win the game" : " wins the game");
  const list = $("r-scores");
  list.replaceChildren();
  const done = rounds(s);
  const totals = done.length ? done[done.length - 1].totals : t.seats.map((x) => x.score);
  const order = s.seats.map((x, p) => p).sort((a, b) => winners.includes(b) - winners.includes(a) || totals[b] - totals[a]);
  for (const p of order) {
    const li = el("li", winners.includes(p) ? "winner" : "");
    li.append(el("span", "", seatLabel(s, p) + (p === me ? " (you)" : "")), el("span", "", totals[p] + " points"));
    list.append(li);
  }
  $("r-rounds").textContent = done.length ? done.length + (done.length === 1 ? " round" : " rounds") + " played" : "";
  // "play again": every player asks for it, the host confirms
  const wanted = Array.isArray(s.again) ? s.again : [];
  const play = $("r-play"), confirm = $("r-confirm");
  play.hidden = me === null || isHost;  // (the host starts the new game: that is their "play again")
  play.disabled = wanted.includes(me);
  confirm.hidden = !isHost;
  confirm.disabled = !hostCan(s, "restart");
  const who = wanted.map((p) => seatLabel(s, p)).join(", ");
  $("r-again").textContent = wanted.length ? who + (wanted.length === 1 ? " would" : " would all") + " play again" +
    (isHost ? ": start the new game when everyone is ready." : " — the host starts the next game.") :
    isHost ? "Start a new game for everyone when the players are ready." :
      me === null ? "The host may start another game." : "Would you play again? The host starts the next game.";
  box.hidden = false;
}
