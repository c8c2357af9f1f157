(function () {
  "use strict";
  // server-rendered tables: click a heading to sort (numbers by data-sort when given)
  function sortValue(td, numeric) {
    var raw = td.hasAttribute("data-sort") ? td.getAttribute("data-sort") : td.textContent.trim();
    if (!numeric) { return raw.toLowerCase(); }
    var v = parseFloat(raw.replace(/[^0-9eE+.\-]/g, ""));
    return isNaN(v) ? -Infinity : v;
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var heads = table.querySelectorAll("thead th");
    heads.forEach(function (th, col) {
      th.addEventListener("click", function () {
        var numeric = th.getAttribute("data-type") === "num";
        var dir = th.getAttribute("aria-sort") === "ascending" ? -1 : 1;
        heads.forEach(function (o) { o.removeAttribute("aria-sort"); });
        th.setAttribute("aria-sort", dir > 0 ? "ascending" : "descending");
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows).map(function (tr, i) {
          return { tr: tr, i: i, k: sortValue(tr.cells[col], numeric) };
        });
        rows.sort(function (a, b) { return (a.k < b.k ? -1 : a.k > b.k ? 1 : 0) * dir || a.i - b.i; });
        rows.forEach(function (r) { body.appendChild(r.tr); });
      });
    });
  });
  var fieldsFilter = document.getElementById("fields-filter");
  if (fieldsFilter) {
    var filterFields = function () {
      var want = fieldsFilter.value, shown = 0, rows = document.querySelectorAll("#fields-table tbody tr");
      rows.forEach(function (tr) {
        var attr = { regressed: "data-regressed", fixed: "data-fixed", both_wrong: "data-both-wrong" }[want];
        var show = !attr || Number(tr.getAttribute(attr)) > 0;
        tr.hidden = !show; if (show) { shown++; }
      });
      document.getElementById("fields-count").textContent = shown + " of " + rows.length + " fields";
    };
    fieldsFilter.addEventListener("change", filterFields);
    filterFields();
  }
  var source = document.getElementById("fw-items");
  if (!source) { return; }
  var data = JSON.parse(source.textContent);
  var OUT = data.outcomes;
  document.querySelectorAll("img.thumb[data-doc]").forEach(function (img) {
    var uri = data.thumbs[img.getAttribute("data-doc")];
    if (uri) { img.src = uri; }
  });
  var n = data.field.length;
  var field = Int32Array.from(data.field);
  var code = Uint8Array.from(data.code);
  var doc = new Int32Array(n);
  for (var d = 0; d + 1 < data.offsets.length; d++) {
    doc.fill(d, data.offsets[d], data.offsets[d + 1]);
  }
  var values = new Map();
  data.values.forEach(function (v) { values.set(v[0], v); });
  var FLIPS = ["both_right", "regressed", "fixed", "both_wrong"];
  function ok(c) { return c === 0 || c === 4 || c === 5; }
  var flip = new Uint8Array(n);
  for (var i = 0; i < n; i++) {
    var b = ok((code[i] / 6) | 0), c = ok(code[i] % 6);
    flip[i] = b && c ? 0 : b ? 1 : c ? 2 : 3;
  }
  var PAGE = 100;
  var el = {
    field: document.getElementById("f-field"),
    outcome: document.getElementById("f-outcome"),
    flip: document.getElementById("f-flip"),
    doc: document.getElementById("f-doc"),
    body: document.getElementById("items-body"),
    count: document.getElementById("items-count"),
    prev: document.getElementById("items-prev"),
    next: document.getElementById("items-next")
  };
  data.fields.forEach(function (name, k) {
    var o = document.createElement("option");
    o.value = String(k); o.textContent = name; el.field.appendChild(o);
  });
  var matches = new Int32Array(0), page = 0, sortKey = "", sortDir = 1;
  var FLIP_ORDER = [3, 0, 1, 2]; // regressed, fixed, both wrong, both right
  function keyOf(r) {
    if (sortKey === "doc") { return data.documents[doc[r]]; }
    if (sortKey === "field") { return data.fields[field[r]]; }
    if (sortKey === "b") { return OUT[(code[r] / 6) | 0]; }
    if (sortKey === "c") { return OUT[code[r] % 6]; }
    return FLIP_ORDER[flip[r]];
  }
  function sortMatches() {
    if (!sortKey) { return; }
    var rows = Array.prototype.slice.call(matches);
    var keys = new Map();
    rows.forEach(function (r) { keys.set(r, keyOf(r)); });
    rows.sort(function (a, b) {
      var ka = keys.get(a), kb = keys.get(b);
      return (ka < kb ? -1 : ka > kb ? 1 : 0) * sortDir || a - b;
    });
    matches = Int32Array.from(rows);
  }

  function apply() {
    var f = el.field.value === "" ? -1 : Number(el.field.value);
    var oc = el.outcome.value, side = oc ? oc.charAt(0) : "", want = oc ? OUT.indexOf(oc.slice(2)) : -1;
    var fl = el.flip.value, flipWant = FLIPS.indexOf(fl);
    var text = el.doc.value.trim().toLowerCase();
    var docOk = null;
    if (text) {
      docOk = new Uint8Array(data.documents.length);
      data.documents.forEach(function (name, k) { docOk[k] = name.toLowerCase().indexOf(text) >= 0 ? 1 : 0; });
    }
    var out = new Int32Array(n), m = 0;
    for (var r = 0; r < n; r++) {
      if (f >= 0 && field[r] !== f) { continue; }
      if (want >= 0) {
        var got = side === "b" ? (code[r] / 6) | 0 : code[r] % 6;
        if (got !== want) { continue; }
      }
      if (fl === "changed") { if (flip[r] !== 1 && flip[r] !== 2) { continue; } }
      else if (flipWant >= 0 && flip[r] !== flipWant) { continue; }
      if (docOk && !docOk[doc[r]]) { continue; }
      out[m++] = r;
    }
    matches = out.subarray(0, m); page = 0; sortMatches(); render();
  }

  function cell(tr, text, cls) {
    var td = document.createElement("td");
    td.textContent = text; if (cls) { td.className = cls; }
    tr.appendChild(td);
  }

  function render() {
    var start = page * PAGE, stop = Math.min(matches.length, start + PAGE);
    var frag = document.createDocumentFragment();
    for (var k = start; k < stop; k++) {
      var r = matches[k], v = values.get(r);
      var tr = document.createElement("tr");
      var link = data.links[doc[r]];
      if (link) {
        var td = document.createElement("td"), a = document.createElement("a");
        td.className = "doc"; a.href = link; a.textContent = data.documents[doc[r]];
        td.appendChild(a); tr.appendChild(td);
      } else { cell(tr, data.documents[doc[r]], "doc"); }
      // "fname": a field name stays whole (the table scrolls sideways inside its card)
      cell(tr, data.fields[field[r]], "fname");
      var ob = OUT[(code[r] / 6) | 0], oc = OUT[code[r] % 6];
      cell(tr, ob.replace("_", " "), "o-" + ob);
      if (data.has_candidate) { cell(tr, oc.replace("_", " "), "o-" + oc); }
      if (data.has_candidate) { cell(tr, FLIPS[flip[r]].replace("_", " "), "f-" + FLIPS[flip[r]]); }
      cell(tr, v ? v[1] : "", "val");
      cell(tr, v ? v[2] : "", "val");
      if (data.has_candidate) { cell(tr, v ? v[3] : "", "val"); }
      frag.appendChild(tr);
    }
    el.body.replaceChildren(frag);
    el.count.textContent = matches.length === 0 ? "no matching rows" :
      "rows " + (start + 1).toLocaleString("en") + "–" + stop.toLocaleString("en") +
      " of " + matches.length.toLocaleString("en") + (data.total_units > n ?
        " (" + n.toLocaleString("en") + " in this file; all " + data.total_units.toLocaleString("en") +
        " in items.parquet)" : " (" + n.toLocaleString("en") + " in all)");
    el.prev.disabled = page === 0;
    el.next.disabled = stop >= matches.length;
  }

  [el.field, el.outcome, el.flip].forEach(function (s) { s.addEventListener("change", apply); });
  var timer = 0;
  el.doc.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(apply, 150); });
  el.prev.addEventListener("click", function () { if (page > 0) { page--; render(); } });
  el.next.addEventListener("click", function () {
    if ((page + 1) * PAGE < matches.length) { page++; render(); }
  });
  document.querySelectorAll("#items-table th.sort").forEach(function (th) {
    th.addEventListener("click", function () {
      var key = th.getAttribute("data-key");
      sortDir = key === sortKey ? -sortDir : 1; sortKey = key;
      document.querySelectorAll("#items-table th.sort").forEach(function (o) { o.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", sortDir > 0 ? "ascending" : "descending");
      apply();
    });
  });
  apply();
  document.body.setAttribute("data-items-ready", "1");
})();
