"""The lobby's Copy button copies the share link, also where the page has no
clipboard API: a browser gives `navigator.clipboard` only to a secure
context (https, localhost), and a table served on a LAN's http address (the
README's `web.public_url: http://<this machine>:8080`) is not one. There
Copy did nothing; now the selected link is copied the old way."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import WebServer
from tests.web.test_browser import new_table

#: A LAN address's page, as the browser makes it: not secure, so no clipboard API.
INSECURE = """
Object.defineProperty(window, "isSecureContext", { value: false });
Object.defineProperty(Navigator.prototype, "clipboard", { get: function () { return undefined; } });
window.__copied = [];
var execCommand = Document.prototype.execCommand;
Document.prototype.execCommand = function (name) {
  var field = document.activeElement;  // what is copied: the selected text of the focused field
  window.__copied.push([name, field.value.slice(field.selectionStart, field.selectionEnd)]);
  return execCommand.apply(this, arguments);
};
"""


async def test_copy_copies_the_link_without_a_clipboard_api(web: WebServer, browser: Any) -> None:
    made = await new_table(web, "Ana", "official")
    context = await browser.new_context(viewport={"width": 390, "height": 844})
    await context.add_init_script(INSECURE)
    page = await context.new_page()
    await page.goto(made["link"])
    await page.wait_for_selector("#name-step:not([hidden])")
    await page.fill("#name", "Bea")
    await page.click("#name-form button")
    await page.wait_for_selector("#share:not([hidden])")
    assert await page.evaluate("navigator.clipboard === undefined && !window.isSecureContext")
    link = await page.input_value("#share-link")
    await page.click("#copy")
    assert await page.evaluate("window.__copied") == [["copy", link]]
    await context.close()
