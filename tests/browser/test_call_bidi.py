"""Names in the call's roster line are isolated from the words around them (I4 of a hostile player's
report): two right-to-left names in a left-to-right line keep their order and their comma."""

from __future__ import annotations

from typing import Any

from browser_helpers import host_table
from kt_helpers import join
from test_call import Stack, person, stack  # noqa: F401 (the fixtures)

SARA = "\u05e9\u05e8\u05d4"  # Hebrew
DAN = "\u05d3\u05df 7"  # Hebrew, then a digit

#: The left edge of each name's letters in the roster line as drawn (Range rects), by name.
LEFT_EDGES = """(names) => {
  const line = document.getElementById('call-roster');
  const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
  const text = []; let n;
  while ((n = walker.nextNode())) for (let i = 0; i < n.data.length; i++) text.push([n, i]);
  const flat = text.map(([node, i]) => node.data[i]).join('');
  return names.map((name) => {
    const at = flat.indexOf(name);
    let left = Infinity;
    for (let k = at; k < at + name.length; k++) {
      const [node, i] = text[k];
      const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
      const b = r.getBoundingClientRect();
      if (b.width) left = Math.min(left, b.left);
    }
    return left;
  });
}"""


def test_right_to_left_names_keep_their_order_in_the_roster(stack: Stack, person: Any) -> None:  # noqa: F811
    sara, dan, budi = person(), person(), person()
    code = host_table(sara, stack.one, name=SARA, seats=3)
    join(dan, stack.two, code, DAN)
    join(budi, stack.one, code, "Budi")  # (a page names its own seat "You": Budi reads the others)
    for page in (sara, dan):
        page.click("#call-join")
        page.wait_for_function("() => !!window.meja.call.me")
    for name in (SARA, DAN):
        budi.wait_for_function(f"() => document.getElementById('call-roster').textContent.includes({name!r})")
    assert budi.locator("#call-roster bdi").count() == 2
    first, second = budi.evaluate(LEFT_EDGES, [SARA, DAN])
    # A left-to-right line: the roster's first person is drawn left of the second.
    assert first < second, (first, second, budi.inner_text("#call-roster"))
