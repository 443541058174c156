/* The game report's review: "this player only", and a click on the cost graph opens that decision in the
   replay. No network; names are only ever text. */
(function () {
  'use strict';
  var section = document.getElementById('review');
  if (!section) { return; }
  var box = document.getElementById('review-filter');
  var select = document.getElementById('review-player');
  var count = box && box.querySelector('.filter-count');
  var graph = section.querySelector('[data-figure="fig-review"]');

  function visibleTraces(seat) {
    if (!graph || !graph.data || !window.Plotly) { return; }
    var visible = graph.data.map(function (trace) { return seat === '' || String(trace.meta) === seat; });
    window.Plotly.restyle(graph, { visible: visible });
  }

  function apply() {
    var seat = select.value, rows = section.querySelectorAll('#review-flagged tbody tr'), shown = 0;
    Array.prototype.forEach.call(rows, function (row) {
      row.hidden = seat !== '' && row.getAttribute('data-seat') !== seat;
      if (!row.hidden) { shown += 1; }
    });
    Array.prototype.forEach.call(section.querySelectorAll('#review-counts tbody tr'), function (row) {
      row.hidden = seat !== '' && row.getAttribute('data-seat') !== seat;
    });
    section.setAttribute('data-player', seat);
    var heading = section.querySelector('#review-list .list-count');
    if (heading) {   // the list's own heading counts what it shows, as the filter's line does
      heading.textContent = shown === rows.length ? String(rows.length) : shown + ' of ' + rows.length;
    }
    if (count) {
      count.textContent = rows.length ? (shown === rows.length ? rows.length : shown + ' of ' + rows.length) +
        ' flagged decisions' : '';
    }
    visibleTraces(seat);
  }

  function onGraph() {
    if (!graph || !graph.on || graph.__reviewClicks) { return; }
    graph.__reviewClicks = true;
    graph.on('plotly_click', function (event) {
      var point = event.points && event.points[0];
      if (!point || !point.customdata) { return; }
      if (window.HeartsReport.showPosition) {
        window.HeartsReport.showPosition('#hand=' + point.customdata[0] + '&play=' + point.customdata[1]);
      }
    });
    if (select && select.value !== '') { visibleTraces(select.value); }
  }

  if (select) {
    box.hidden = false;
    select.addEventListener('change', apply);
    apply();
  }
  document.addEventListener('hearts-report-ready', onGraph);
  onGraph();
}());
