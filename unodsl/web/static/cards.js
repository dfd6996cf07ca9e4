// Cards drawn as SVG for the table page: a face (its colour, a mark of a shape of its
// own per colour, so that colours can be told apart without seeing them, a big numeral
// or symbol in the middle and small ones in the corners) and a back.
// A card is known by its label and colour only ("red 7", "red"): nothing here knows a
// variant. The big symbol is read from the label's words: a number is itself (also one
// that ends a longer name: "joker 2"), a number word its digit, "draw" with a number "+N", and the words of the language's own effects
// (skip, reverse, flip) a glyph; any other kind shows its initials, and its whole name
// is written under the symbol. Every text goes in with textContent.
"use strict";

const SVG = "http://www.w3.org/2000/svg";

// Each colour's paint, and a mark that is a shape of its own (colour-blind safe).
const PALETTE = {
  red: { fill: "#d7262e", mark: "circle" },
  yellow: { fill: "#f4c20d", mark: "triangle" },
  green: { fill: "#2e9e47", mark: "square" },
  blue: { fill: "#1d5fc4", mark: "diamond" },
  pink: { fill: "#e0458f", mark: "heart" },
  teal: { fill: "#12918f", mark: "hexagon" },
  orange: { fill: "#ee7411", mark: "star" },
  purple: { fill: "#7a44bf", mark: "cross" },
  hearts: { fill: "#c8232c", mark: "♥" },
  diamonds: { fill: "#d9532a", mark: "♦" },
  clubs: { fill: "#26374d", mark: "♣" },
  spades: { fill: "#1d1d24", mark: "♠" },
};
const WILD_FILL = "#1b1b1f";
// A wild card's four colours: those of the set the colour in play belongs to (see wheelFor).
const WHEELS = [["red", "yellow", "green", "blue"], ["pink", "teal", "orange", "purple"],
  ["hearts", "clubs", "diamonds", "spades"]];
let wheel = WHEELS[0];

function wheelFor(color) {
  wheel = WHEELS.find((w) => w.includes(color)) || wheel;
}
const NUMBER_WORDS = { zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9,
  ten: 10 };
const EFFECT_GLYPHS = { skip: "⊘", reverse: "⇄", flip: "⟳" };

function paint(color) {
  return PALETTE[color] || null;
}

function svg(tag, attrs, text) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

// The shape that marks a colour, centred on (x, y), `r` across half.
function markShape(color, x, y, r, fill) {
  const p = paint(color);
  const kind = p ? p.mark : null;
  const at = (points) => points.map(([a, b]) => (x + a * r).toFixed(2) + "," + (y + b * r).toFixed(2)).join(" ");
  const attrs = { fill: fill, stroke: "#111", "stroke-width": Math.max(0.6, r * 0.18), "stroke-linejoin": "round" };
  if (kind === "circle") return svg("circle", Object.assign({ cx: x, cy: y, r: r * 0.9 }, attrs));
  if (kind === "triangle") return svg("polygon", Object.assign({ points: at([[0, -1], [1, 0.8], [-1, 0.8]]) }, attrs));
  if (kind === "square") return svg("rect", Object.assign({ x: x - r * 0.8, y: y - r * 0.8, width: r * 1.6, height: r * 1.6 }, attrs));
  if (kind === "diamond") return svg("polygon", Object.assign({ points: at([[0, -1.1], [0.85, 0], [0, 1.1], [-0.85, 0]]) }, attrs));
  if (kind === "hexagon") return svg("polygon", Object.assign({ points: at([[0.95, 0], [0.48, 0.85], [-0.48, 0.85], [-0.95, 0], [-0.48, -0.85], [0.48, -0.85]]) }, attrs));
  if (kind === "star") {
    const pts = [];
    for (let i = 0; i < 10; i++) {
      const a = -Math.PI / 2 + i * Math.PI / 5, k = i % 2 ? 0.45 : 1.05;
      pts.push([Math.cos(a) * k, Math.sin(a) * k]);
    }
    return svg("polygon", Object.assign({ points: at(pts) }, attrs));
  }
  if (kind === "cross") return svg("polygon", Object.assign({ points: at([[-0.3, -1], [0.3, -1], [0.3, -0.3], [1, -0.3], [1, 0.3], [0.3, 0.3], [0.3, 1], [-0.3, 1], [-0.3, 0.3], [-1, 0.3], [-1, -0.3], [-0.3, -0.3]]) }, attrs));
  if (kind === "heart") {
    const d = `M ${x} ${y + r * 0.95} C ${x - r * 1.5} ${y - r * 0.1}, ${x - r * 0.7} ${y - r * 1.3}, ${x} ${y - r * 0.45} ` +
      `C ${x + r * 0.7} ${y - r * 1.3}, ${x + r * 1.5} ${y - r * 0.1}, ${x} ${y + r * 0.95} Z`;
    return svg("path", Object.assign({ d: d }, attrs));
  }
  // a suit's own sign, or an unknown colour's first letter
  const sign = kind || (color ? color.slice(0, 1).toUpperCase() : "");
  return svg("text", { x: x, y: y + r * 0.75, "font-size": r * 2.3, "text-anchor": "middle", fill: fill,
    stroke: "#111", "stroke-width": r * 0.12, "paint-order": "stroke", "font-weight": 700 }, sign);
}

// What a card shows in the middle: { big, caption }, read from its label.
function symbolOf(data) {
  let rest = String(data.label || "");
  if (data.color && rest.toLowerCase().startsWith(String(data.color).toLowerCase() + " ")) {
    rest = rest.slice(String(data.color).length + 1);
  }
  if (/^-?\d+$/.test(rest)) return { big: rest, caption: "" };
  const words = rest.split(/[\s_]+/).filter(Boolean);
  let big = "";
  for (let i = 0; i < words.length; i++) {
    const w = words[i].toLowerCase();
    const next = i + 1 < words.length ? words[i + 1].toLowerCase() : "";
    if (w === "draw") {
      const n = next in NUMBER_WORDS ? NUMBER_WORDS[next] : /^\d+$/.test(next) ? next : null;
      big += "+" + (n === null ? "" : n);
      if (n !== null) i++;
    } else if (w in EFFECT_GLYPHS) {
      big += EFFECT_GLYPHS[w];
    } else if (w in NUMBER_WORDS && words.length === 1) {
      big += NUMBER_WORDS[w];
    }
  }
  if (!big && words.length > 1 && /^-?\d+$/.test(words[words.length - 1])) {
    big = words[words.length - 1];  // a rank in the label ("joker 2"): the number, the name under it
  }
  if (!big) {
    const named = words.filter((w) => w.toLowerCase() !== "wild" || words.length === 1);
    big = data.wild && named.length === 1 && named[0].toLowerCase() === "wild" ? "" :
      named.slice(0, 2).map((w) => w.slice(0, 1).toUpperCase()).join("");
  }
  return { big: big, caption: rest };
}

// A card's face as an <svg> (60 × 90 units).
function cardFace(data) {
  const p = paint(data.color);
  const fill = p ? p.fill : WILD_FILL;
  const root = svg("svg", { viewBox: "0 0 60 90", class: "cardsvg", "aria-hidden": "true", focusable: "false" });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, fill: "#fff", stroke: "#222", "stroke-width": 1 }));
  root.append(svg("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, fill: fill }));
  const { big, caption } = symbolOf(data);
  // the oval in the middle: white, or the four colours of a wild card
  const oval = { cx: 30, cy: 45, rx: 21, ry: 33, transform: "rotate(28 30 45)" };
  if (!p && data.wild !== false) {  // (a card of no colour is a wild one, also when the frame does not say)
    const clip = "w" + Math.random().toString(36).slice(2, 9);
    const defs = svg("defs");
    const cp = svg("clipPath", { id: clip });
    cp.append(svg("ellipse", oval));
    defs.append(cp);
    root.append(defs);
    const g = svg("g", { "clip-path": "url(#" + clip + ")" });
    const quads = [[0, 0], [30, 0], [0, 45], [30, 45]];
    quads.forEach(([x, y], i) => g.append(svg("rect", { x: x, y: y, width: 30, height: 45, fill: PALETTE[wheel[[0, 3, 1, 2][i]]].fill })));
    root.append(g);
    root.append(svg("ellipse", Object.assign({ fill: "none", stroke: "#fff", "stroke-width": 1.5 }, oval)));
  } else {
    root.append(svg("ellipse", Object.assign({ fill: "#fff" }, oval)));
  }
  const ink = p ? fill : "#fff";  // on the white oval, or on the four colours of a wild card
  const long = big.length > 2;
  if (big) {
    root.append(svg("text", { x: 30, y: long ? 53 : 57, "text-anchor": "middle", class: "big",
      "font-size": long ? 19 : big.length === 2 ? 27 : 34, fill: ink, stroke: "#111", "stroke-width": 1.6,
      "paint-order": "stroke", "font-weight": 800 }, big));
  }
  // the corners: the symbol, and the colour's mark
  const corner = big || "W";
  const small = { "font-size": corner.length > 2 ? 7 : 10, fill: "#fff", stroke: "#111", "stroke-width": 1.4,
    "paint-order": "stroke", "font-weight": 800 };
  root.append(svg("text", Object.assign({ x: 8, y: 15 }, small), corner));
  root.append(svg("text", Object.assign({ x: 52, y: 75, "text-anchor": "end", transform: "rotate(180 52 75)" }, small), corner));
  if (p) {
    root.append(markShape(data.color, 50, 11, 4.2, "#fff"));
    root.append(markShape(data.color, 10, 79, 4.2, "#fff"));
  }
  if (caption) {
    root.append(svg("text", { x: 30, y: 83, "text-anchor": "middle", "font-size": caption.length > 14 ? 4.4 : 5.6,
      fill: "#fff", stroke: "#111", "stroke-width": 0.9, "paint-order": "stroke", "font-weight": 700,
      textLength: caption.length > 16 ? 44 : null, lengthAdjust: "spacingAndGlyphs" }, caption));
    const last = root.lastElementChild;
    if (last.getAttribute("textLength") === "null") last.removeAttribute("textLength");
  }
  return root;
}

// A card's back (a face down card whose other side is not shown).
function cardBack() {
  const root = svg("svg", { viewBox: "0 0 60 90", class: "cardsvg", "aria-hidden": "true", focusable: "false" });
  root.append(svg("rect", { x: 1, y: 1, width: 58, height: 88, rx: 7, fill: "#fff", stroke: "#222", "stroke-width": 1 }));
  root.append(svg("rect", { x: 4, y: 4, width: 52, height: 82, rx: 5, fill: "#1b1b1f" }));
  root.append(svg("ellipse", { cx: 30, cy: 45, rx: 20, ry: 32, transform: "rotate(28 30 45)", fill: "#d7262e" }));
  root.append(svg("text", { x: 30, y: 49, "text-anchor": "middle", "font-size": 12, "font-weight": 900,
    fill: "#f4c20d", stroke: "#111", "stroke-width": 1.4, "paint-order": "stroke", transform: "rotate(-20 30 45)" },
  "uno"));
  root.append(svg("text", { x: 30, y: 57, "text-anchor": "middle", "font-size": 6, "font-weight": 700,
    fill: "#fff", transform: "rotate(-20 30 45)" }, "dsl"));
  return root;
}

// A card as an element: `tag` (span, button), its face (or back), its label as its name.
function cardElement(data, tag, extra) {
  const e = document.createElement(tag || "span");
  const classes = ["card"];
  if (data && data.color && paint(data.color)) classes.push("c-" + data.color);
  if (data && data.wild) classes.push("wild");
  if (!data) classes.push("back");
  if (extra) classes.push(extra);
  e.className = classes.join(" ");
  e.append(data ? cardFace(data) : cardBack());
  const label = data ? String(data.label) : "a card, face down";
  e.title = label;
  e.setAttribute("aria-label", label);
  if (data) e.dataset.label = label;
  return e;
}

// A colour's swatch: its paint and its mark, for the colour in play and colour buttons.
function colourMark(color) {
  const root = svg("svg", { viewBox: "0 0 20 20", class: "mark", "aria-hidden": "true", focusable: "false" });
  const p = paint(color);
  root.append(svg("circle", { cx: 10, cy: 10, r: 9.3, fill: p ? p.fill : "#888", stroke: "#111", "stroke-width": 1 }));
  root.append(markShape(color, 10, 10, 4.6, "#fff"));
  return root;
}
