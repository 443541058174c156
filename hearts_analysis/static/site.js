/* hearts-analysis site: a filter box above each table.filterable. No network; names are only ever text. */
(function () {
  'use strict';

  function words(text) {
    return text.toLowerCase().split(/\s+/).filter(function (w) { return w.length; });
  }

  function makeFilterable(table, index) {
    var box = document.createElement('div');
    box.className = 'table-filter no-print';
    var label = document.createElement('label');
    var input = document.createElement('input');
    input.type = 'search';
    input.id = 'filter-' + index;
    input.setAttribute('autocomplete', 'off');
    label.htmlFor = input.id;
    label.textContent = table.getAttribute('data-filter-label') || 'Filter';
    box.appendChild(label);
    box.appendChild(input);
    var check = null, flag = null;
    var spec = table.getAttribute('data-filter-check');
    if (spec) {
      var parts = spec.split('|');
      flag = 'data-' + parts[0];
      var checkLabel = document.createElement('label');
      check = document.createElement('input');
      check.type = 'checkbox';
      checkLabel.appendChild(check);
      checkLabel.appendChild(document.createTextNode(' ' + parts[1]));
      box.appendChild(checkLabel);
    }
    var count = document.createElement('span');
    count.className = 'filter-count muted';
    count.setAttribute('aria-live', 'polite');
    box.appendChild(count);
    var anchor = table.parentNode.classList.contains('table-scroll') ? table.parentNode : table;
    anchor.parentNode.insertBefore(box, anchor);

    var rows = Array.prototype.slice.call(table.tBodies[0].rows);
    var texts = rows.map(function (row) { return row.textContent.toLowerCase(); });

    function apply() {
      var wanted = words(input.value), shown = 0;
      rows.forEach(function (row, i) {
        var ok = wanted.every(function (w) { return texts[i].indexOf(w) >= 0; });
        if (ok && check && check.checked) { ok = parseFloat(row.getAttribute(flag) || '0') > 0; }
        row.hidden = !ok;
        if (ok) { shown += 1; }
      });
      table.setAttribute('data-shown', String(shown));
      count.textContent = shown === rows.length ? rows.length + ' rows' : shown + ' of ' + rows.length + ' rows';
    }
    input.addEventListener('input', apply);
    if (check) { check.addEventListener('change', apply); }
    apply();
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll('table.filterable'), makeFilterable);
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
}());
