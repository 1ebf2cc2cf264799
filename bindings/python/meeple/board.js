// The board of meeple's pages (python -m meeple play: play.html; meeple view: viewer.html), drawn in the
// browser from a position's data (meeple.render.board_data): each tile a <use> of its symbol (render.page_assets
// puts the symbols, TILE_SIZE, COLOURS and TILE_NAMES in the page), the figures, the last tile placed outlined
// and the coordinates along the edges. It fits its box until the person zooms (wheel, buttons) or pans (drag);
// "Fit" brings the whole board back.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

document.head.appendChild(document.createElement("style")).textContent = `
  .board-box { display: flex; flex-direction: column; background: #f7f3e8; border: 1px solid #ccc; overflow: hidden; }
  .board-svg { flex: 1; min-height: 0; width: 100%; display: block; touch-action: none; cursor: grab; user-select: none; }
  .board-controls { flex: none; display: flex; gap: 4px; justify-content: flex-end; padding: 4px; }
  .board-controls button { min-width: 34px; padding: 4px 8px; font-size: 15px; cursor: pointer; }
  .last-tile { fill: none; stroke: #ff2bd6; stroke-width: 4; pointer-events: none; }
  .axis { font: 16px sans-serif; fill: #5a4a2e; }
  .scores { width: 100%; table-layout: fixed; }
  .scores th:first-child { width: 95px; }
  .scores th { font-size: 12px; font-weight: normal; border-bottom: 1px solid #999; }
  .name { display: inline-block; white-space: nowrap; }
  td:has(> .name) { text-align: left; }
  .name-text { display: inline-block; max-width: 78px; overflow: hidden; text-overflow: ellipsis; vertical-align: middle; }
  .dot { display: inline-block; width: 10px; height: 10px; border-radius: 50%; margin-right: 5px; vertical-align: middle; }
  .account-caption { font-size: 13px; margin: 10px 0 4px; color: #333; }
  .account-row { font-size: 13px; margin: 2px 0; }
  .feature-row { font-size: 13px; margin: 1px 0; padding: 1px 3px; border-radius: 3px; overflow-wrap: anywhere; }
  .feature-row[data-cells="[]"] { cursor: default; }
  .feature-row:not([data-cells="[]"]) { cursor: help; }
  .feature-row.shown { background: #ffe9a8; }
  .paid { white-space: nowrap; margin-left: 4px; }
  .paid b { margin-left: 3px; }
  .feature-cell { fill: #ffd400; fill-opacity: 0.35; stroke: #d18b00; stroke-width: 4; pointer-events: none; }
  .notes { font-size: 13px; white-space: pre-line; overflow-wrap: anywhere; margin-top: 4px; }
`;

function svgElement(name, attributes = {}) {
  const e = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  return e;
}

class Board {
  constructor(box) {
    const T = TILE_SIZE;
    this.box = box;
    box.classList.add("board-box");
    this.svg = svgElement("svg", {class: "board-svg", preserveAspectRatio: "xMidYMid meet"});
    this.axes = svgElement("g", {class: "axes"});
    this.tiles = svgElement("g", {class: "board"});
    this.figures = svgElement("g", {class: "figures"});
    this.marks = svgElement("g", {class: "marks"});
    this.highlights = svgElement("g", {class: "highlights"});  // cells a line of the page points at
    this.overlay = svgElement("g", {class: "overlay"});  // the page's own: legal cells, spots, the preview
    this.svg.append(this.axes, this.tiles, this.figures, this.marks, this.highlights, this.overlay);
    const controls = document.createElement("div");
    controls.className = "board-controls";
    for (const [name, label, title, run] of [
      ["zoom-in", "+", "zoom in (or the mouse wheel)", () => this.zoomBy(1.25)],
      ["zoom-out", "\u2212", "zoom out (or the mouse wheel)", () => this.zoomBy(0.8)],
      ["fit", "Fit", "the whole board in the window (drag the board to move it)", () => this.fit()]]) {
      const button = document.createElement("button");
      Object.assign(button, {className: name, textContent: label, title});
      button.addEventListener("click", run);
      controls.appendChild(button);
    }
    box.append(controls, this.svg);
    this.bounds = [-T, -T, 3 * T, 3 * T];
    this.view = this.bounds.slice();
    this.fitted = true;  // follows the board as it grows, until the person zooms or pans

    this.svg.addEventListener("wheel", (e) => {
      e.preventDefault();
      this.zoomBy(Math.exp(-e.deltaY * 0.002), this.toBoard(e.clientX, e.clientY));
    }, {passive: false});
    // Dragging pans; a press that hardly moves stays a click (on a cell, a spot), and a drag's click is swallowed.
    let drag = null;
    this.svg.addEventListener("pointerdown", (e) => {
      if (e.button === 0) drag = {x: e.clientX, y: e.clientY, view: this.view.slice(), moved: false};
    });
    window.addEventListener("pointermove", (e) => {
      if (!drag) return;
      const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
      if (!drag.moved && Math.hypot(dx, dy) < 5) return;
      drag.moved = true;
      const scale = this.scale();
      this.setView([drag.view[0] - dx / scale, drag.view[1] - dy / scale, drag.view[2], drag.view[3]]);
    });
    window.addEventListener("pointerup", () => {
      if (drag && drag.moved) this.svg.addEventListener("click", (e) => e.stopPropagation(), {capture: true, once: true});
      drag = null;
    });
    new ResizeObserver(() => { if (this.fitted) this.fit(); }).observe(box);
  }

  // Screen pixels per board pixel.
  scale() {
    const r = this.svg.getBoundingClientRect();
    return Math.min(r.width / this.view[2], r.height / this.view[3]) || 1;
  }

  // A point of the window in board pixels.
  toBoard(clientX, clientY) {
    const point = new DOMPoint(clientX, clientY).matrixTransform(this.svg.getScreenCTM().inverse());
    return [point.x, point.y];
  }

  setView(view, fitted = false) {
    this.view = view;
    this.fitted = fitted;
    this.svg.setAttribute("viewBox", view.join(" "));
  }

  // The whole board, at most as large as a board of 8 by 6 tiles would be (a first tile alone would fill the box).
  fit() {
    const [x, y, w, h] = this.bounds;
    const [width, height] = [Math.max(w, 8 * TILE_SIZE), Math.max(h, 6 * TILE_SIZE)];
    this.setView([x - (width - w) / 2, y - (height - h) / 2, width, height], true);
  }

  // Zooms by `factor` about a board point (the middle of the view by default), from a tile filling the
  // box down to ten times the whole board.
  zoomBy(factor, at = [this.view[0] + this.view[2] / 2, this.view[1] + this.view[3] / 2]) {
    const [x, y, w, h] = this.view;
    const largest = 10 * Math.max(this.bounds[2], this.bounds[3]);
    factor = Math.min(factor, Math.max(w, h) / TILE_SIZE, 1e9);
    factor = Math.max(factor, Math.max(w, h) / largest);
    this.setView([at[0] - (at[0] - x) / factor, at[1] - (at[1] - y) / factor, w / factor, h / factor]);
  }

  // Outlines these cells ([[x, y]]), and only these.
  highlight(cells) {
    const T = TILE_SIZE;
    this.highlights.replaceChildren(...cells.map(([x, y]) =>
      svgElement("rect", {class: "feature-cell", "data-x": x, "data-y": y, x: x * T + 3, y: y * T + 3, width: T - 6, height: T - 6})));
  }

  // position: {tiles: [[id, x, y, rotation]], figures: [svg], last: index or null}; cells: [[x, y]] more to
  // keep in view (where the tile in hand may go).
  draw(position, cells = []) {
    const T = TILE_SIZE;
    const tiles = position.tiles;
    this.tiles.replaceChildren();
    for (const [id, x, y, rotation] of tiles) {
      const g = svgElement("g", {class: "tile", "data-tile": id, "data-x": x, "data-y": y,
        transform: `translate(${x * T},${y * T}) rotate(${rotation},${T / 2},${T / 2})`});
      g.appendChild(svgElement("use", {href: `#tile-${id}`}));
      g.appendChild(svgElement("title")).textContent = `${TILE_NAMES[id] || "tile"} at (${x}, ${y})`;
      this.tiles.appendChild(g);
    }
    this.figures.innerHTML = position.figures.join("");
    this.marks.replaceChildren();
    if (position.last !== null && position.last !== undefined) {
      const [id, x, y] = tiles[position.last];
      this.marks.appendChild(svgElement("rect", {class: "last-tile", "data-tile": id, x: x * T + 1, y: y * T + 1,
        width: T - 2, height: T - 2}));
    }
    // Coordinates: x above each column, y left of each row, of the board and the cells around it.
    const xs = tiles.map((t) => t[1]).concat(cells.map((c) => c[0]));
    const ys = tiles.map((t) => t[2]).concat(cells.map((c) => c[1]));
    const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
    this.axes.replaceChildren();
    const label = (text, x, y, anchor) => {
      const t = svgElement("text", {x, y, "text-anchor": anchor, class: "axis"});
      t.textContent = text;
      this.axes.appendChild(t);
    };
    for (let x = x0; x <= x1; ++x) label(x, x * T + T / 2, y0 * T - 8, "middle");
    for (let y = y0; y <= y1; ++y) label(y, x0 * T - 8, y * T + T / 2 + 5, "end");
    const margin = 34;  // room for the coordinates
    this.bounds = [x0 * T - margin, y0 * T - margin, (x1 - x0 + 1) * T + margin + 12, (y1 - y0 + 1) * T + margin + 12];
    if (this.fitted) this.fit();
  }
}

// A seat's colour and name; names can be long (bot specs): cut with an ellipsis, whole in the tooltip.
function nameLabel(name, seat) {
  const label = document.createElement("span");
  label.className = "name";
  label.title = name;
  const dot = document.createElement("span");
  dot.className = "dot";
  dot.style.background = COLOURS[seat];
  const text = document.createElement("span");
  text.className = "name-text";
  text.textContent = name;
  label.append(dot, text);
  return label;
}

// The score table: each seat's score and its points by category.
function scoreTable(table, names, scores, breakdown) {
  table.classList.add("scores");
  table.innerHTML = "<tr><th></th><th>score</th><th>city</th><th>road</th><th>cloister</th><th>field</th><th>bonus</th></tr>";
  names.forEach((name, p) => {
    const row = table.insertRow();
    row.className = "score";
    row.insertCell().appendChild(nameLabel(name, p));
    const b = breakdown[p];
    for (const v of [scores[p], b.city, b.road, b.cloister, b.field, b.bonus]) row.insertCell().textContent = v;
  });
}

// What the board does not show: the tiles left; with the Count, his quarter and the followers in Carcassonne.
function positionNotes(box, names, position) {
  box.classList.add("notes");
  const lines = [`${position.tiles_left} tiles left`];
  const c = position.carcassonne;
  if (c) {
    lines.push(`the Count in the ${c.count} quarter of Carcassonne`);
    names.forEach((name, p) => {
      const where = c.quarters.map((q, i) => [q, c.followers[p][i]]).filter(([, n]) => n).map(([q, n]) => `${n} ${q}`);
      if (where.length) lines.push(`${name} in Carcassonne: ${where.join(", ")}`);
    });
  }
  box.textContent = lines.join("\n");
}

// The account of the end (meeple.render.final_account): per seat the score before final scoring, what each
// category added and the final score, as a line each (narrow enough for a side panel); then what final scoring
// paid whom, feature by feature, each feature's tiles outlined on `board` while the pointer is on its line.
function accountTable(box, names, account, board) {
  box.replaceChildren();
  board.highlight([]);
  if (!account) return;
  const caption = (text) => box.appendChild(Object.assign(document.createElement("div"), {className: "account-caption", textContent: text}));
  caption("Final scoring: unfinished cities, roads and cloisters, farms, barns, the King and the Robber");
  names.forEach((name, p) => {
    const a = account.seats[p];
    const row = document.createElement("div");
    row.className = "account-row";
    row.dataset.before = a.before;
    row.dataset.final = a.final;
    const points = ["city", "road", "cloister", "field", "bonus"].filter((c) => a[c])
      .map((c) => `<span class="gain" data-category="${c}" data-points="${a[c]}">+${a[c]} ${c}</span>`);
    row.append(nameLabel(name, p));
    row.insertAdjacentHTML("beforeend", `: ${a.before}${points.length ? ", " + points.join(", ") : ", nothing more"} ` +
      `= <b class="final">${a.final}</b>`);
    box.appendChild(row);
  });
  if (!account.features.length) return;
  caption("What paid whom (point at a line to see it on the board)");
  for (const f of account.features) {
    const row = document.createElement("div");
    row.className = "feature-row";
    row.dataset.what = f.what;
    row.dataset.category = f.category;
    row.dataset.cells = JSON.stringify(f.cells);
    // A cell's coordinates stay on one line.
    row.append(f.text[0].toUpperCase() + f.text.slice(1).replace(/\((-?\d+), (-?\d+)\)/g, "($1,\u00a0$2)") + ":");
    for (const p of f.paid) {
      const paid = document.createElement("span");
      paid.className = "paid";
      paid.dataset.seat = p;
      paid.dataset.points = f.points[p];
      paid.append(" ", nameLabel(names[p], p), Object.assign(document.createElement("b"), {textContent: `+${f.points[p]}`}));
      row.append(paid);
    }
    if (f.cells.length) {
      row.addEventListener("mouseenter", () => { row.classList.add("shown"); board.highlight(f.cells); });
      row.addEventListener("mouseleave", () => { row.classList.remove("shown"); board.highlight([]); });
    }
    box.appendChild(row);
  }
}
