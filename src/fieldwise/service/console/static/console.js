// The console's only script: copy buttons for secrets shown once, and the labels that let a
// table reflow on a phone. Pages work without it (tables then scroll inside their own box).
"use strict";

// Each cell gets its column's header as data-label; console.css shows it beside the value
// when a narrow screen stacks the cells of a row, so no column is ever off-screen.
(function () {
  var tables = document.querySelectorAll(".scroll > table");
  for (var t = 0; t < tables.length; t++) {
    var heads = tables[t].querySelectorAll("thead th");
    var rows = tables[t].querySelectorAll("tbody tr");
    for (var r = 0; r < rows.length; r++) {
      var cells = rows[r].children;
      for (var c = 0; c < cells.length && c < heads.length; c++) {
        cells[c].setAttribute("data-label", heads[c].textContent.trim());
      }
    }
    tables[t].classList.add("reflow");
  }
})();
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-copy]");
  if (!button) return;
  var field = document.getElementById(button.getAttribute("data-copy"));
  if (!field) return;
  field.select();
  var done = function () { button.textContent = "Copied"; };
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(field.value).then(done, function () {});
  } else if (document.execCommand("copy")) {
    done();
  }
});
