/* Qipu step-through viewer. One classic script, no dependencies, no fetch.
 *
 * It knows no game rules. Each `.q-viewer` on the page carries its data in
 * <script type="application/json" class="q-data">:
 *   scene:  {cells: {id: [x, y]}, radius, marks: {style: r, "*": r},
 *            numberSizes: [[minPly, fontSize], ...],
 *            symbols: {kind: {side: symbolId, "*": symbolId}},
 *            curves?: {"A|B": "A rx ry 0 large sweep x y"}}
 *   setup:  operations that build the start position
 *   plies:  [{n: number, l: label, o: ops, m: mark?, v: visibleTo?, h: hidden?}]
 *           o applies in every view; h is [[views], ops] groups, each applied
 *           only in the views it names; v lists who may read the label
 *   views:  [[id, label], ...]  (empty unless some ply is hidden from someone)
 *   setupHidden: [[views], ops] groups applied after setup in those views only
 *   counters: [[key, label], ...]  (captured stones ...; values come from ops)
 *   strings, marks: UI words and MARK words in the page language
 * Operations (generator/scene.py is the reference): ["add", id, kind, side, at],
 * ["move", id, to], ["remove", id], ["set", id, kind], ["mark", at, style],
 * ["note", text], ["path", [cell, ...], style], ["count", key, value].
 * Pieces and counts persist; marks, notes and paths belong to their ply only. A path is drawn straight from cell to
 * cell, except where scene.curves has the step (a Surakarta arc).
 * A piece is a <use> of the symbol scene.symbols names for its kind and side
 * ("*": any side), declared once in the board's <defs>; "set" changes the
 * kind and with it the symbol. No symbol, or a cell not on the board: not drawn.
 *
 * The first viewer on the page owns the URL hash `#ply=N`.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var HASH = /^#ply=(\d+)$/;

  function cssWord(name) {
    return String(name).replace(/[^A-Za-z0-9_-]+/g, "-") || "x";
  }

  function markClass(mark) {
    if (mark === null || mark === undefined) return "";
    return "q-mark-" + (mark < 0 ? "n" : mark > 0 ? "p" : "") + Math.abs(mark);
  }

  function visible(ply, view) {
    return view === "referee" || !ply.v || ply.v.indexOf(view) >= 0;
  }

  /* A ply's operations as one view sees them. */
  function opsFor(ply, view) {
    if (!ply.h) return ply.o;
    var ops = ply.o.slice();
    for (var g = 0; g < ply.h.length; g++) {
      if (ply.h[g][0].indexOf(view) >= 0) ops = ops.concat(ply.h[g][1]);
    }
    return ops;
  }

  /* The position after each ply: states[0] is the setup, states[M] the end.
   * Computed once per view; piece records are copied on write, so every
   * state can share the unchanged ones. */
  function computeStates(data, view) {
    var pieces = {};
    var counts = {};
    var states = [];

    function apply(ops, plyNumber) {
      var marks = [];
      var notes = [];
      var paths = [];
      var next = {};
      var nextCounts = counts;
      var id;
      for (id in pieces) next[id] = pieces[id];
      for (var i = 0; i < ops.length; i++) {
        var op = ops[i];
        var old;
        switch (op[0]) {
          case "add":
            next[op[1]] = {kind: op[2], side: op[3], at: op[4], ply: plyNumber};
            break;
          case "move":
            old = next[op[1]];
            if (old) next[op[1]] = {kind: old.kind, side: old.side, at: op[2], ply: old.ply};
            break;
          case "remove":
            delete next[op[1]];
            break;
          case "set":
            old = next[op[1]];
            if (old) next[op[1]] = {kind: op[2], side: old.side, at: old.at, ply: old.ply};
            break;
          case "mark":
            marks.push([op[1], op[2]]);
            break;
          case "note":
            notes.push(op[1]);
            break;
          case "path":
            paths.push([op[1], op[2]]);
            break;
          case "count":
            if (nextCounts === counts) {
              nextCounts = {};
              for (id in counts) nextCounts[id] = counts[id];
            }
            nextCounts[op[1]] = op[2];
            break;
          default:
            break; // an operation from a newer generator: skip, do not break the page
        }
      }
      pieces = next;
      counts = nextCounts;
      states.push({pieces: pieces, marks: marks, notes: notes, paths: paths, counts: counts});
    }

    apply(opsFor({o: data.setup || [], h: data.setupHidden}, view), 0);
    for (var n = 0; n < data.plies.length; n++) {
      var ply = data.plies[n];
      apply(opsFor(ply, view), ply.n);
    }
    return states;
  }

  function svgElement(name, attrs) {
    var el = document.createElementNS(SVG_NS, name);
    for (var key in attrs) el.setAttribute(key, attrs[key]);
    return el;
  }

  function clear(el) {
    while (el.firstChild) el.removeChild(el.firstChild);
  }

  function parseHash(max) {
    var m = HASH.exec(window.location.hash);
    if (!m) return null;
    return Math.max(0, Math.min(max, parseInt(m[1], 10)));
  }

  function writeHash(n) {
    var hash = "#ply=" + n;
    if (window.location.hash === hash) return;
    try {
      window.history.replaceState(window.history.state, "", hash);
    } catch (e) {
      // Some browsers refuse replaceState on file://; replacing the location
      // with only a new fragment does not reload the page either.
      window.location.replace(hash);
    }
  }

  function Viewer(root, ownsHash) {
    var dataEl = root.querySelector("script.q-data");
    if (!dataEl) return;
    var data = JSON.parse(dataEl.textContent);
    var scene = data.scene;
    var strings = data.strings || {};
    var plies = data.plies;
    var count = plies.length;
    var svg = root.querySelector("svg.q-board");
    var piecesLayer = svg.querySelector(".q-pieces");
    var marksLayer = svg.querySelector(".q-marks");
    var controls = root.querySelector(".q-controls");
    var slider = root.querySelector(".q-slider");
    var readout = root.querySelector(".q-readout");
    // The controls are the same markup on every page: the counts come from the data.
    if (slider) slider.max = String(count);
    var badge = root.querySelector(".q-badge");
    var notesBox = root.querySelector(".q-notes");
    var countsBox = root.querySelector(".q-counters");
    var list = root.querySelector(".q-moves");
    var playButton = root.querySelector(".q-play");
    var speed = root.querySelector(".q-speed");
    var numbersBox = root.querySelector(".q-numbers");
    var viewSelect = root.querySelector(".q-view");
    var entries = list ? list.querySelectorAll("li[data-ply]") : [];

    var view = "referee";
    var states = computeStates(data, view);
    var current = -1;
    var timer = null;

    var symbols = scene.symbols || {};

    function own(table, key) {
      return Object.prototype.hasOwnProperty.call(table, key);
    }

    /* The id of the symbol that shows a piece, as generator/boards/symbols.py looks it up. */
    function symbolOf(piece) {
      var sides = own(symbols, piece.kind) ? symbols[piece.kind] : null;
      if (!sides) return null;
      if (own(sides, piece.side)) return sides[piece.side];
      return own(sides, "*") ? sides["*"] : null;
    }

    function numberSize(ply) {
      var sizes = scene.numberSizes || [];
      for (var i = 0; i < sizes.length; i++) if (ply >= sizes[i][0]) return sizes[i][1];
      return scene.radius;
    }

    /* SVG path data through cells in order, as generator/boards build it:
     * "M x y", then "L x y" per step, or the step's arc from scene.curves. */
    function pathData(cells) {
      var curves = scene.curves || {};
      var d = "";
      for (var i = 0; i < cells.length; i++) {
        var at = own(scene.cells, cells[i]) ? scene.cells[cells[i]] : null;
        if (!at) return ""; // a cell this board does not have: draw nothing
        if (i === 0) {
          d = "M" + at[0] + " " + at[1];
        } else {
          var key = cells[i - 1] + "|" + cells[i];
          d += own(curves, key) ? curves[key] : "L" + at[0] + " " + at[1];
        }
      }
      return d;
    }

    function drawPieces(state) {
      clear(piecesLayer);
      clear(marksLayer);
      var showNumbers = numbersBox && numbersBox.checked;
      for (var id in state.pieces) {
        var piece = state.pieces[id];
        var at = own(scene.cells, piece.at) ? scene.cells[piece.at] : null;
        var symbol = at ? symbolOf(piece) : null;
        if (!symbol) continue;
        piecesLayer.appendChild(svgElement("use", {href: "#" + symbol, x: at[0], y: at[1]}));
        if (showNumbers && piece.ply > 0) {
          var text = svgElement("text", {
            "class": "q-num q-on-" + cssWord(piece.side),
            x: at[0], y: at[1], "font-size": numberSize(piece.ply)
          });
          text.textContent = String(piece.ply);
          piecesLayer.appendChild(text);
        }
      }
      for (var p = 0; p < state.paths.length; p++) {
        var d = pathData(state.paths[p][0]);
        if (!d) continue;
        marksLayer.appendChild(svgElement("path", {
          "class": "q-path q-path-" + cssWord(state.paths[p][1]), d: d
        }));
      }
      for (var i = 0; i < state.marks.length; i++) {
        var mark = state.marks[i];
        var where = own(scene.cells, mark[0]) ? scene.cells[mark[0]] : null;
        if (!where) continue;
        var r = scene.marks[mark[1]] !== undefined ? scene.marks[mark[1]] : scene.marks["*"];
        marksLayer.appendChild(svgElement("circle", {
          "class": "q-mark q-mark-" + cssWord(mark[1]), cx: where[0], cy: where[1], r: r
        }));
      }
    }

    function showBadge(n) {
      if (!badge) return;
      var ply = n > 0 ? plies[n - 1] : null;
      var mark = ply && visible(ply, view) && ply.m !== undefined ? ply.m : null;
      badge.className = "q-badge" + (mark === null ? "" : " " + markClass(mark));
      badge.textContent = mark === null ? "" : (data.marks && data.marks[String(mark)]) || String(mark);
      badge.hidden = mark === null;
    }

    function showCounts(state) {
      if (!countsBox) return;
      var values = countsBox.querySelectorAll("[data-count]");
      for (var i = 0; i < values.length; i++) {
        var key = values[i].getAttribute("data-count");
        values[i].textContent = String(state.counts[key] || 0);
      }
    }

    function showNotes(state) {
      if (!notesBox) return;
      clear(notesBox);
      for (var i = 0; i < state.notes.length; i++) {
        var p = document.createElement("p");
        p.textContent = state.notes[i];
        notesBox.appendChild(p);
      }
    }

    /* Keep the current entry visible by scrolling the list only, not the page. */
    function revealEntry(li) {
      if (!list || !li || list.scrollHeight <= list.clientHeight) return;
      var top = li.offsetTop;
      var bottom = top + li.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    }

    function showEntry(n) {
      for (var i = 0; i < entries.length; i++) {
        var on = i === n - 1;
        entries[i].classList.toggle("q-current", on);
        if (on) entries[i].setAttribute("aria-current", "step");
        else entries[i].removeAttribute("aria-current");
      }
      if (n > 0) revealEntry(entries[n - 1]);
      else if (list) list.scrollTop = 0;
    }

    function setDisabled(selector, off) {
      var button = root.querySelector(selector);
      // aria-disabled, not disabled: a disabled button would drop the focus
      // and with it the keyboard control of this viewer.
      if (button) button.setAttribute("aria-disabled", off ? "true" : "false");
    }

    function render(n, force) {
      if (n === current && !force) return;
      current = n;
      var state = states[n];
      drawPieces(state);
      showBadge(n);
      showNotes(state);
      showCounts(state);
      showEntry(n);
      if (slider) slider.value = String(n);
      if (readout) {
        readout.textContent = (strings["viewer.ply"] || "{n} / {m}")
          .replace("{n}", String(n)).replace("{m}", String(count));
      }
      setDisabled(".q-first", n === 0);
      setDisabled(".q-prev", n === 0);
      setDisabled(".q-next", n === count);
      setDisabled(".q-last", n === count);
      root.setAttribute("data-ply", String(n));
    }

    function go(n, fromUser) {
      n = Math.max(0, Math.min(count, n));
      render(n);
      if (fromUser && ownsHash) writeHash(n);
    }

    function stop() {
      if (timer !== null) window.clearTimeout(timer);
      timer = null;
      if (playButton) {
        playButton.setAttribute("aria-pressed", "false");
        playButton.setAttribute("aria-label", strings["viewer.play"] || "Play");
        playButton.title = strings["viewer.play"] || "Play";
      }
    }

    function tick() {
      if (current >= count) {
        stop();
        return;
      }
      go(current + 1, true);
      timer = window.setTimeout(tick, speed ? parseInt(speed.value, 10) : 1000);
    }

    function play() {
      if (current >= count) go(0, true);
      playButton.setAttribute("aria-pressed", "true");
      playButton.setAttribute("aria-label", strings["viewer.pause"] || "Pause");
      playButton.title = strings["viewer.pause"] || "Pause";
      timer = window.setTimeout(tick, speed ? parseInt(speed.value, 10) : 1000);
    }

    function user(n) {
      stop();
      go(n, true);
    }

    function on(selector, event, handler) {
      var el = root.querySelector(selector);
      if (el) el.addEventListener(event, handler);
    }

    on(".q-first", "click", function () { user(0); });
    on(".q-prev", "click", function () { user(current - 1); });
    on(".q-next", "click", function () { user(current + 1); });
    on(".q-last", "click", function () { user(count); });
    on(".q-play", "click", function () {
      if (timer !== null) stop();
      else play();
    });
    if (slider) slider.addEventListener("input", function () { user(parseInt(slider.value, 10)); });
    if (numbersBox) {
      numbersBox.addEventListener("change", function () {
        root.classList.toggle("q-show-numbers", numbersBox.checked);
        render(current, true);
      });
    }

    if (list) {
      list.addEventListener("click", function (e) {
        var link = e.target.closest ? e.target.closest("a[href^='#ply=']") : null;
        if (!link || !list.contains(link)) return;
        var m = HASH.exec(link.getAttribute("href"));
        if (!m) return;
        e.preventDefault();
        user(parseInt(m[1], 10));
      });
    }

    if (viewSelect && data.views && data.views.length) {
      var viewLabel = viewSelect.closest(".q-view-label");
      if (viewLabel) viewLabel.hidden = false;
      for (var v = 0; v < data.views.length; v++) {
        var option = document.createElement("option");
        option.value = data.views[v][0];
        option.textContent = data.views[v][1];
        viewSelect.appendChild(option);
      }
      viewSelect.addEventListener("change", function () {
        view = viewSelect.value;
        states = computeStates(data, view);
        relabel();
        render(current, true);
      });
    }

    /* Hide the labels of plies the chosen view may not see. */
    function relabel() {
      for (var i = 0; i < entries.length && i < plies.length; i++) {
        var shown = visible(plies[i], view);
        var label = entries[i].querySelector(".q-label");
        if (label) label.textContent = shown ? plies[i].l : strings["viewer.hidden"] || "?";
        entries[i].classList.toggle("q-hidden", !shown);
      }
    }

    // Keys act only while this viewer or a control inside it has the focus:
    // the listener sits on the viewer, so keys elsewhere never reach it.
    root.addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      var t = e.target;
      // The slider and the selects handle their own arrow keys.
      if (t.tagName === "SELECT" || (t.tagName === "INPUT" && t.type === "range")) return;
      switch (e.key) {
        case "ArrowLeft":
        case "ArrowUp":
          user(current - 1);
          break;
        case "ArrowRight":
        case "ArrowDown":
          user(current + 1);
          break;
        case "Home":
          user(0);
          break;
        case "End":
          user(count);
          break;
        default:
          return;
      }
      e.preventDefault();
    });

    // Swipe left/right on the board steps forward/back.
    var wrap = root.querySelector(".q-board-wrap");
    var touch = null;
    if (wrap) {
      wrap.addEventListener("touchstart", function (e) {
        touch = e.touches.length === 1 ? [e.touches[0].clientX, e.touches[0].clientY] : null;
      }, {passive: true});
      wrap.addEventListener("touchend", function (e) {
        if (!touch || !e.changedTouches.length) return;
        var dx = e.changedTouches[0].clientX - touch[0];
        var dy = e.changedTouches[0].clientY - touch[1];
        touch = null;
        if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) user(current + (dx < 0 ? 1 : -1));
      });
    }

    if (ownsHash) {
      window.addEventListener("hashchange", function () {
        var n = parseHash(count);
        if (n !== null) {
          stop();
          render(n);
        }
      });
    }

    var start = ownsHash ? parseHash(count) : null;
    root.classList.add("q-js");
    if (controls) controls.hidden = false;
    render(start === null ? count : start, true);

    if (start !== null) {
      // A deep link scrolls the browser to the move's list entry; bring the
      // board into view instead when it ended up off screen.
      window.addEventListener("load", function () {
        var box = svg.getBoundingClientRect();
        if (box.bottom < 0 || box.top > window.innerHeight) root.scrollIntoView({block: "start"});
      });
    }
  }

  function boot() {
    var roots = document.querySelectorAll(".q-viewer");
    for (var i = 0; i < roots.length; i++) {
      try {
        new Viewer(roots[i], i === 0);
      } catch (e) {
        // One broken viewer must not stop the others; its static SVG stays.
        if (window.console) window.console.error("qipu viewer:", e);
      }
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
