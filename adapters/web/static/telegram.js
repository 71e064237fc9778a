// Load Telegram's own Mini App script only inside Telegram (its WebView
// gives the page a tgWebAppData fragment). Elsewhere the page works offline:
// no script from outside is ever asked for.
(function () {
  if (location.hash.indexOf("tgWebAppData") < 0) return;
  document.write('<script src="https://telegram.org/js/telegram-web-app.js"><\/script>');
})();
