// director-card.js: the "keep this" card's Print button (the page has no
// inline script).
document.getElementById('print-card').addEventListener('click', () => window.print());
