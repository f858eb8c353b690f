/*
 * The reporting page's own script, served by the api at .../Reports/Assets/reports-page.js
 * (the page's Content-Security-Policy takes scripts from this origin only). It writes each
 * `<time data-local>` in the reader's locale and time zone (the page sends UTC text), shows
 * the cue of each table box that scrolls sideways, and draws each chart the page describes
 * in its `report-charts` JSON with Chart.js; the tables beside the charts hold the same
 * numbers, so the page says everything without it.
 *
 * Every plot gets at least MIN_PLOT px of height: a legend that wraps onto more lines
 * (a narrow screen) makes the chart's box taller instead of the plot shorter.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var MIN_PLOT = 220;

  var local = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  document.querySelectorAll('time[data-local]').forEach(function (time) {
    var when = new Date(time.dateTime);
    if (isNaN(when.getTime())) return;
    time.title = time.textContent;
    time.textContent = local.format(when);
  });

  document.querySelectorAll('.table-box').forEach(function (box) {
    var region = box.querySelector('.table');
    var cue = box.querySelector('.scroll-cue');
    if (!region || !cue) return;
    var update = function () { cue.hidden = region.scrollWidth <= region.clientWidth; };
    update();
    if (typeof ResizeObserver !== 'undefined') new ResizeObserver(update).observe(region);
  });

  var source = document.getElementById('report-charts');
  if (!source || typeof Chart === 'undefined') return;
  var specs = JSON.parse(source.textContent);
  var palette = ['#1d4ed8', '#b91c1c', '#7c3aed', '#737373', '#d97706', '#059669',
    '#0891b2', '#db2777', '#65a30d', '#9333ea', '#ea580c', '#0f766e'];

  // Grows the chart's box by what its plot lacks (the chart follows its box's size).
  function fit(chart) {
    var lacking = MIN_PLOT - (chart.chartArea.bottom - chart.chartArea.top);
    if (lacking <= 0) return;
    var box = chart.canvas.parentElement;
    box.style.height = Math.ceil(box.clientHeight + lacking) + 'px';
    chart.resize();
  }
  // After a layout (a resize that wraps the legend anew), outside Chart.js's own update.
  var keepPlotHeight = {
    id: 'keepPlotHeight',
    afterLayout: function (chart) {
      if (chart.chartArea.bottom - chart.chartArea.top < MIN_PLOT)
        requestAnimationFrame(function () { fit(chart); });
    }
  };

  // A bar's name beside a narrow plot: "Program › filter" on two lines, each cut to a
  // third of the chart's width (the table holds the whole names).
  function barLabel(value) {
    var most = Math.max(12, Math.floor(this.chart.width / 3 / 6.5));
    return String(this.getLabelForValue(value)).split(' › ').map(function (line) {
      return line.length > most ? line.slice(0, most - 1) + '…' : line;
    });
  }

  specs.forEach(function (spec) {
    var canvas = document.querySelector('canvas[data-chart="' + spec.id + '"]');
    if (!canvas) return;
    var datasets = spec.datasets.map(function (set, k) {
      var color = palette[k % palette.length];
      if (spec.type === 'doughnut') {
        return { label: set.label, data: set.data,
          backgroundColor: spec.labels.map(function (_, i) { return palette[i % palette.length]; }) };
      }
      return { label: set.label, data: set.data, backgroundColor: color, borderColor: color,
        borderWidth: spec.type === 'line' ? 2 : 0, tension: 0.2,
        pointRadius: spec.labels.length > 60 ? 0 : 2 };
    });
    var options = { responsive: true, maintainAspectRatio: false, animation: false,
      plugins: { legend: { position: 'bottom', labels: { boxWidth: 12, boxHeight: 12 } } } };
    if (spec.type === 'bar') {
      options.indexAxis = spec.horizontal ? 'y' : 'x';
      options.scales = { x: { stacked: spec.stacked, beginAtZero: true, ticks: { precision: 0 } },
        y: { stacked: spec.stacked, beginAtZero: true, ticks: { precision: 0 } } };
      if (spec.horizontal) options.scales.y.ticks.callback = barLabel;
    }
    if (spec.type === 'line') {
      // Days as MM-DD, level: the tooltip names the whole day.
      options.scales = {
        x: { ticks: { maxRotation: 0, autoSkipPadding: 8,
          callback: function (value) { return String(this.getLabelForValue(value)).slice(5); } } },
        y: { beginAtZero: true, ticks: { precision: 0 } } };
    }
    var rows = spec.horizontal ? spec.labels.length : 0;
    if (rows) canvas.parentElement.style.height = Math.max(280, 90 + 34 * rows) + 'px';
    fit(new Chart(canvas, { type: spec.type, data: { labels: spec.labels, datasets: datasets },
      options: options, plugins: [keepPlotHeight] }));
  });
})();
`;
