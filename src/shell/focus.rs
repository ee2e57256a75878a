//! Where keyboard focus goes when the page changes under it: never lost to
//! the document (a keyboard user would start again from the top).

use crate::platform::focus;
use web_sys::Element;

/// Runs `then` once the page has drawn what the change just made stand for.
/// Leptos sets the DOM from signals in tasks it queues when a signal is set;
/// this task is queued after them, and runs in the same turn, before the
/// browser handles any more input.
pub fn after_redraw(then: impl FnOnce() + 'static) {
    leptos::task::spawn_local(async move { then() });
}

/// Runs `change`, and keeps focus usable after the redraw: a control that
/// became disabled while it had focus hands it to its neighbour (Back at
/// step 0 → Step) instead of dropping it to the page.
pub fn kept(change: impl FnOnce()) {
    let focused = active();
    change();
    if let Some(el) = focused {
        after_redraw(move || {
            // Only if focus is still there, or was dropped to the page: never
            // take it back from where the learner has moved it since.
            let now = active();
            if now.is_none() || now.as_ref() == Some(&el) {
                keep(&el);
            }
        });
    }
}

fn document() -> Option<web_sys::Document> {
    web_sys::window()?.document()
}

/// The element with focus, unless that is the page itself.
pub fn active() -> Option<Element> {
    let doc = document()?;
    let el = doc.active_element()?;
    let page = doc.body().map(Element::from);
    (Some(&el) != page.as_ref()).then_some(el)
}

fn usable(el: &Element) -> bool {
    el.is_connected()
        && !el.has_attribute("disabled")
        && el.get_attribute("aria-hidden").as_deref() != Some("true")
}

/// Whether `el` takes focus by itself (a control, a link, a tab stop).
fn focusable(el: &Element) -> bool {
    let tag = el.tag_name().to_ascii_lowercase();
    usable(el)
        && (matches!(
            tag.as_str(),
            "button" | "select" | "input" | "textarea" | "a"
        ) || el.get_attribute("tabindex").is_some_and(|t| t != "-1"))
}

/// The nearest sibling after `el` that takes focus, else before it.
fn neighbour(el: &Element) -> Option<Element> {
    let mut next = el.next_element_sibling();
    while let Some(n) = next {
        if focusable(&n) {
            return Some(n);
        }
        next = n.next_element_sibling();
    }
    let mut before = el.previous_element_sibling();
    while let Some(b) = before {
        if focusable(&b) {
            return Some(b);
        }
        before = b.previous_element_sibling();
    }
    None
}

/// Focuses the element with test id `id`, if there is one.
pub fn to_testid(id: &str) -> bool {
    let found = document().and_then(|d| {
        d.query_selector(&format!("[data-testid=\"{id}\"]"))
            .ok()
            .flatten()
    });
    match found {
        Some(el) if usable(&el) => {
            focus(&el);
            true
        }
        _ => false,
    }
}

/// After a redraw: `el` had focus. It keeps it while it can be used; if it
/// became disabled, its neighbour takes it (Back disabled at step 0 hands
/// focus to Step); if it was redrawn as a new node, that node takes it.
pub fn keep(el: &Element) {
    if !el.is_connected() {
        if let Some(id) = el.get_attribute("data-testid") {
            if to_testid(&id) {
                return;
            }
        }
        to_testid("step");
        return;
    }
    if usable(el) {
        if active().as_ref() != Some(el) {
            focus(el);
        }
        return;
    }
    match neighbour(el) {
        Some(n) => focus(&n),
        None => {
            to_testid("step");
        }
    }
}
