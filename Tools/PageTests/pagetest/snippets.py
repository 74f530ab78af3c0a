"""JavaScript expressions and selectors for the inspector's page that the scenarios share."""

import json

# The items of the fixture's scripted session (TodoApp.scriptedItems): #1 to #8 one of each kind,
# #9 to #12 side effects that end differently (two searches cancelled by the newer #11, which
# succeeds, and a sync, #12, that fails). A recording adds 300 renames after them.
SESSION = 12
RECORDED = SESSION + 300

# The positions of the timeline's row elements in the DOM, top to bottom.
ROW_POSITIONS = ("Array.from(document.querySelectorAll('[data-testid=timeline-row]'))"
                 ".map(r => Number(r.dataset.position))")
# The positions of the rows wholly inside the timeline's visible area.
ROWS_IN_VIEW = """(() => {
    const box = document.querySelector('[data-testid=timeline-scroll]').getBoundingClientRect();
    return Array.from(document.querySelectorAll('[data-testid=timeline-row]')).filter(r => {
        const b = r.getBoundingClientRect(); return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
    }).map(r => Number(r.dataset.position));
})()"""


def row_sel(position):
    """The selector of the timeline row at position."""
    return f'[data-testid=timeline-row][data-position="{position}"]'


def text_of(page, selector):
    """The text of the first element matching selector, or None when there is none."""
    return page.js("(() => { const e = document.querySelector(%s); return e ? e.textContent : null; })()"
                   % json.dumps(selector))
