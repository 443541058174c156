/* hearts-analysis reports: draws the charts and makes tables sortable. No network, no globals but one. */
(function () {
  'use strict';

  function readJSON(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  var SUITS = { C: ['\u2663', 'clubs'], D: ['\u2666', 'diamonds'], H: ['\u2665', 'hearts'], S: ['\u2660', 'spades'] };
  var RANKS = { T: ['10', 'ten'], J: ['J', 'jack'], Q: ['Q', 'queen'], K: ['K', 'king'], A: ['A', 'ace'],
    2: ['2', 'two'], 3: ['3', 'three'], 4: ['4', 'four'], 5: ['5', 'five'], 6: ['6', 'six'],
    7: ['7', 'seven'], 8: ['8', 'eight'], 9: ['9', 'nine'] };

  /* A card as text with its suit symbol and colour; the symbol and the label carry the suit, not colour alone. */
  function cardElement(name) {
    var rank = RANKS[name.charAt(0)], suit = SUITS[name.charAt(1)];
    var el = document.createElement('span');
    el.className = 'card suit-' + name.charAt(1) + (name.charAt(1) === 'H' ? ' points' : '') + (name === 'QS' ? ' qs points' : '');
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', rank[1] + ' of ' + suit[1]);
    el.title = rank[1] + ' of ' + suit[1] + ' (' + name + ')';
    var r = document.createElement('span');
    r.textContent = rank[0];
    var s = document.createElement('span');
    s.className = 's';
    s.setAttribute('aria-hidden', 'true');
    s.textContent = suit[0];
    el.appendChild(r);
    el.appendChild(s);
    return el;
  }

  function drawCharts() {
    var boxes = document.querySelectorAll('[data-figure]');
    if (!boxes.length || !window.Plotly) { return; }
    Array.prototype.forEach.call(boxes, function (box) {
      var figure = readJSON(box.getAttribute('data-figure'));
      box.textContent = '';
      window.Plotly.newPlot(box, figure.data, figure.layout, {
        responsive: true, displaylogo: false, showLink: false, showSendToCloud: false, showEditInChartStudio: false,
        modeBarButtonsToRemove: ['lasso2d', 'select2d', 'autoScale2d'],
        toImageButtonOptions: { format: 'png', scale: 2 }
      });
    });
  }

  function cellValue(cell, numeric) {
    var raw = cell.hasAttribute('data-value') ? cell.getAttribute('data-value') : cell.textContent.trim();
    if (!numeric) { return raw.toLowerCase(); }
    var n = parseFloat(raw);
    return isNaN(n) ? -Infinity : n;
  }

  function makeSortable(table) {
    var heads = table.querySelectorAll('thead th');
    Array.prototype.forEach.call(heads, function (th, column) {
      if (!th.hasAttribute('data-sort')) { return; }
      th.classList.add('sortable');
      var label = th.textContent;
      th.textContent = '';
      var button = document.createElement('button');
      button.type = 'button';
      button.textContent = label;
      button.title = 'Sort by ' + label.trim();
      th.appendChild(button);
      button.addEventListener('click', function () {
        var numeric = th.getAttribute('data-sort') === 'num';
        var ascending = th.getAttribute('aria-sort') !== 'ascending';
        if (!th.hasAttribute('aria-sort') && numeric) { ascending = false; }
        Array.prototype.forEach.call(heads, function (other) { other.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.forEach(function (row, i) { row.__order = i; });
        rows.sort(function (a, b) {
          var x = cellValue(a.cells[column], numeric), y = cellValue(b.cells[column], numeric);
          var c = x < y ? -1 : x > y ? 1 : a.__order - b.__order;
          return ascending ? c : (x === y ? c : -c);
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  }

  window.HeartsReport = { readJSON: readJSON, cardElement: cardElement };

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), makeSortable);
    drawCharts();
    document.dispatchEvent(new CustomEvent('hearts-report-ready'));
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
}());
