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
 *   turns?: the ply that ends each turn, where a turn is two plies of one side
 *           (connect6): the viewer then steps, counts and marks by turn
 * Operations (generator/scene.py is the reference): ["add", id, kind, side, at],
 * ["move", id, to], ["remove", id], ["set", id, kind], ["mark", at, style],
 * ["note", text], ["path", [cell, ...], style], ["count", key, value].
 * Pieces and counts persist; marks, notes and paths belong to their ply only. A path is drawn straight from cell to
 * cell, except where scene.curves has the step (a Surakarta arc).
 * A piece is a <use> of the symbol scene.symbols names for its kind and side
 * ("*": any side), declared once in the board's <defs>; "set" changes the
 * kind and with it the symbol. No symbol, or a cell not on the board: not drawn.
 *
 * The first viewer on the page owns the URL hash `#ply=N`. When it is the
 * only one, its keys work on the whole page from the start (as lichess's do);
 * with several, each listens while it or a control inside it has the focus.
 * The move list is one Tab stop (a roving tabindex on the current entry).
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

  /* Keys typed into a text field, a select or a slider are theirs, not the viewer's. */
  function typing(el) {
    if (!el || !el.tagName) return false;
    var tag = el.tagName;
    if (tag === "SELECT" || tag === "TEXTAREA" || el.isContentEditable) return true;
    return tag === "INPUT" && !/^(checkbox|button|submit|reset)$/.test(el.type);
  }

  function Viewer(root, ownsHash, alone) {
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
    var turnEnds = data.turns || null;
    var shownEntry = -1;

    var view = "referee";
    var states = computeStates(data, view);
    var current = -1;
    var timer = null;
    var markFloor = 0; // the least radius of a mark, in board units (legible())
    var numberFloor = 0; // the least size of a move number on a piece, in board units

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
          var size = numberSize(piece.ply);
          // Readable on a phone, as far as the piece holds it (see legible()).
          if (size < numberFloor) size = Math.max(size, Math.min(numberFloor, scene.radius * 1.15));
          var text = svgElement("text", {
            "class": "q-num q-on-" + cssWord(piece.side),
            x: at[0], y: at[1], "font-size": size
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
      var marks = state.marks;
      // A turn of two stones: both are the last move.
      for (var k = turnStart(current) + 1; k < current; k++) marks = states[k].marks.concat(marks);
      for (var i = 0; i < marks.length; i++) {
        var mark = marks[i];
        var where = own(scene.cells, mark[0]) ? scene.cells[mark[0]] : null;
        if (!where) continue;
        var r = scene.marks[mark[1]] !== undefined ? scene.marks[mark[1]] : scene.marks["*"];
        // A mark drawn small for a wide board stays a visible dot on a phone (see legible()).
        if (r < markFloor) r = Math.min(markFloor, 2 * r);
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

    function link(i) {
      return i >= 0 && i < entries.length ? entries[i].querySelector("a") : null;
    }

    function showEntry(n) {
      if (shownEntry < 0) {
        // The first time: every entry leaves the Tab order but the current one.
        for (var i = 0; i < entries.length; i++) {
          entries[i].classList.remove("q-current");
          entries[i].removeAttribute("aria-current");
          var a = link(i);
          if (a) a.tabIndex = -1;
        }
      } else if (shownEntry < entries.length) {
        entries[shownEntry].classList.remove("q-current");
        entries[shownEntry].removeAttribute("aria-current");
        if (link(shownEntry)) link(shownEntry).tabIndex = -1;
      }
      shownEntry = Math.max(0, Math.min(n, entries.length) - 1);
      if (n > 0 && n <= entries.length) {
        entries[n - 1].classList.add("q-current");
        entries[n - 1].setAttribute("aria-current", "step");
      }
      if (link(shownEntry)) link(shownEntry).tabIndex = 0;
      if (n > 0) revealEntry(entries[n - 1]);
      else if (list) list.scrollTop = 0;
    }

    /* Turns (connect6): the ply before the turn that holds ply n, the turn's
     * number, and the plies a step forward or back reaches. */
    function turnStart(n) {
      if (!turnEnds || n <= 0) return n;
      var start = 0;
      for (var i = 0; i < turnEnds.length && turnEnds[i] < n; i++) start = turnEnds[i];
      return start;
    }

    function turnNumber(n) {
      if (!turnEnds) return n;
      var t = 0;
      for (var i = 0; i < turnEnds.length && n > 0; i++) {
        t++;
        if (turnEnds[i] >= n) break;
      }
      return t;
    }

    function step(by) {
      if (!turnEnds) return current + by;
      if (by < 0) return current > 0 ? turnStart(current) : 0;
      for (var i = 0; i < turnEnds.length; i++) if (turnEnds[i] > current) return turnEnds[i];
      return count;
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
          .replace("{n}", String(turnNumber(n))).replace("{m}", String(turnEnds ? turnEnds.length : count));
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
      go(step(1), true);
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
    on(".q-prev", "click", function () { user(step(-1)); });
    on(".q-next", "click", function () { user(step(1)); });
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

    // The only viewer of a page listens on the document, so its keys work as
    // soon as the page opens; of several, each listens on itself.
    (alone ? document : root).addEventListener("keydown", function (e) {
      if (e.altKey || e.ctrlKey || e.metaKey || e.defaultPrevented) return;
      if (typing(e.target)) return;
      var inList = list && list.contains(e.target);
      switch (e.key) {
        case "ArrowLeft":
        case "ArrowUp":
          user(step(-1));
          break;
        case "ArrowRight":
        case "ArrowDown":
          user(step(1));
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
      // Inside the move list the focus follows the current entry.
      var a = inList ? link(shownEntry) : null;
      if (a) a.focus({preventScroll: true});
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

    // Printed: the final position beside the whole list; then back.
    var beforePrint = null;
    function printing(on) {
      if (on && beforePrint === null) {
        stop();
        beforePrint = current;
        render(count);
      } else if (!on && beforePrint !== null) {
        render(beforePrint);
        beforePrint = null;
      }
    }
    window.addEventListener("beforeprint", function () { printing(true); });
    window.addEventListener("afterprint", function () { printing(false); });
    if (window.matchMedia) {
      var print = window.matchMedia("print");
      var changed = function (e) { printing(e.matches); };
      if (print.addEventListener) print.addEventListener("change", changed);
      else if (print.addListener) print.addListener(changed);
    }

    // The board takes the height the window leaves it below the viewer's top
    // (static/site.css reads --q-avail and --q-ratio).
    var box = svg.viewBox && svg.viewBox.baseVal;
    if (box && box.width && box.height) root.style.setProperty("--q-ratio", String(box.width / box.height));
    function fit() {
      var top = root.getBoundingClientRect().top + window.pageYOffset;
      root.style.setProperty("--q-avail", Math.max(240, Math.floor(window.innerHeight - top - 12)) + "px");
      legible();
    }

    // Coordinates drawn small for a wide board stay readable on a narrow
    // screen: at least LEGIBLE pixels, and no more than half again as large.
    var LEGIBLE = 10.5;
    var MARK_PX = 4; // the last move's dot: at least this radius on screen
    var NUMBER_PX = 9; // a move number on a piece: at least this size, where the piece has room
    var coordGroups = svg.querySelectorAll(".q-coords");
    function legible() {
      var width = svg.getBoundingClientRect().width;
      if (!box || !box.width || !width) return;
      var scale = width / box.width;
      var floor = MARK_PX / scale;
      if (floor !== markFloor) {
        markFloor = floor;
        numberFloor = NUMBER_PX / scale;
        if (current >= 0) render(current, true);
      }
      for (var i = 0; i < coordGroups.length; i++) {
        var drawn = parseFloat(coordGroups[i].getAttribute("font-size")) || 0;
        var wanted = Math.min(drawn * 1.5, LEGIBLE / scale);
        coordGroups[i].style.fontSize = drawn && drawn * scale < LEGIBLE ? wanted + "px" : "";
      }
    }
    if (alone) {
      fit();
      window.addEventListener("resize", fit);
    } else {
      legible();
    }

    // No entry has an id, so a deep link leaves the page where it opened: the
    // board in view, and the list scrolled within its own box to the move.
    var start = ownsHash ? parseHash(count) : null;
    root.classList.add("q-js");
    if (controls) controls.hidden = false;
    render(start === null ? count : start, true);
    if (start !== null && start > 0 && list && entries[start - 1]) {
      // A deep link: its move near the top of the list, where a phone's first screen still shows it.
      var li = entries[start - 1];
      if (list.scrollHeight > list.clientHeight) list.scrollTop = Math.max(0, li.offsetTop - li.offsetHeight);
    }
  }

  function boot() {
    var roots = document.querySelectorAll(".q-viewer");
    for (var i = 0; i < roots.length; i++) {
      try {
        new Viewer(roots[i], i === 0, roots.length === 1);
      } catch (e) {
        // One broken viewer must not stop the others; its static SVG stays.
        if (window.console) window.console.error("qipu viewer:", e);
      }
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
