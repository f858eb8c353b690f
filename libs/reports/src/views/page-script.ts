/*
 * The reporting page's own script, served by the api at .../Reports/Assets/reports-page.js
 * (the page's Content-Security-Policy takes scripts from this origin only). It draws each
 * chart the page describes in its `report-charts` JSON with Chart.js; the tables beside
 * them hold the same numbers, so the page says everything without it.
 */
export const PAGE_SCRIPT = `(function () {
  'use strict';
  var source = document.getElementById('report-charts');
  if (!source || typeof Chart === 'undefined') return;
  var specs = JSON.parse(source.textContent);
  var palette = ['#1d4ed8', '#b91c1c', '#7c3aed', '#737373', '#d97706', '#059669',
    '#0891b2', '#db2777', '#65a30d', '#9333ea', '#ea580c', '#0f766e'];
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
      plugins: { legend: { position: 'bottom' } } };
    if (spec.type === 'bar') {
      options.indexAxis = spec.horizontal ? 'y' : 'x';
      options.scales = { x: { stacked: spec.stacked, beginAtZero: true, ticks: { precision: 0 } },
        y: { stacked: spec.stacked, beginAtZero: true, ticks: { precision: 0 } } };
    }
    if (spec.type === 'line') options.scales = { y: { beginAtZero: true, ticks: { precision: 0 } } };
    var rows = spec.horizontal ? spec.labels.length : 0;
    canvas.parentElement.style.height = Math.max(280, 90 + 34 * rows) + 'px';
    new Chart(canvas, { type: spec.type, data: { labels: spec.labels, datasets: datasets }, options: options });
  });
})();
`;
