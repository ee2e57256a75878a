//! The one renderer: patches an element tree from `views` into the page,
//! keyed, so a step changes only the attributes and text that changed and a
//! moved shape keeps its node (which is what lets CSS transitions show the
//! move). Every demo's picture and controls go through here.
//!
//! Calls into the browser are the cost (each one crosses from wasm to JS),
//! so the patcher makes as few as it can: markup is parsed in one call, a
//! node's handle is looked up only when a patch first has to change it, and
//! a subtree that did not change is not visited on the page at all.

use views::element::El;
use views::page::scene::MOVE;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, Node};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// A node on the page and the element it was last patched from.
struct Mounted {
    /// The node, once looked up. Parsed nodes start without one: it is found
    /// by position (see [`nth_child`]) the first time a patch needs it.
    el: Option<Element>,
    from: El,
    children: Vec<Mounted>,
}

/// The managed children of one container element.
///
/// Invariant: a managed element's element children are exactly its
/// `Mounted` children, in the same order, so a node is found by position.
pub struct Patcher {
    root: Element,
    children: Vec<Mounted>,
}

impl Patcher {
    /// Takes over `root`: its children from now on are the patched ones.
    pub fn new(root: Element) -> Self {
        root.set_text_content(None);
        Patcher {
            root,
            children: Vec::new(),
        }
    }

    /// Patches `new` in. False when it held an [`El::unchanged`] stand-in
    /// for an element the page does not have: that place now holds an empty
    /// group, and the caller must patch again with everything built.
    pub fn patch(&mut self, new: Vec<El>) -> bool {
        let Some(doc) = self.root.owner_document() else {
            return true;
        };
        if self.children.is_empty() {
            self.children = first_render(&doc, &self.root, new);
        } else {
            let old = std::mem::take(&mut self.children);
            self.children = patch_children(&doc, &self.root, old, new);
        }
        !self.children.iter().any(holds_stand_in)
    }
}

/// Whether a stand-in was drawn: a kept node keeps the element it was drawn
/// from, so only a stand-in that matched nothing is ever mounted.
fn holds_stand_in(m: &Mounted) -> bool {
    m.from.unchanged || m.children.iter().any(holds_stand_in)
}

/// The `index`-th element child of `parent`.
fn nth_child(parent: &Element, index: usize) -> Option<Element> {
    parent.children().item(index as u32)
}

/// The first render of a page: one `innerHTML` of the escaped markup (one
/// call into the browser instead of several per element: most of the time
/// to an interactive demo), then the parsed nodes are adopted so later
/// patches are keyed as usual. `El::markup` escapes every text and attribute,
/// so nothing from a link or a form is ever parsed as markup.
fn first_render(doc: &Document, root: &Element, new: Vec<El>) -> Vec<Mounted> {
    if parse_into(root, &new) {
        return unresolved(new);
    }
    // The parser built another shape (views emit no markup it rewrites, so
    // this should not happen): build the page the slow way instead.
    root.set_text_content(None);
    new.into_iter()
        .map(|el| {
            let m = create(doc, el);
            if let Some(node) = &m.el {
                let _ = root.append_child(node);
            }
            m
        })
        .collect()
}

/// Makes `new` the children of `holder` with one parse of their escaped
/// markup; true when the parser built exactly those elements (one count
/// from the browser instead of reading every element's tag back).
fn parse_into(holder: &Element, new: &[El]) -> bool {
    fn count(el: &El) -> usize {
        1 + el.children.iter().map(count).sum::<usize>()
    }
    let mut html = String::new();
    for el in new {
        el.markup(&mut html);
    }
    holder.set_inner_html(&html);
    if let Ok(moved) = holder.query_selector_all(&format!("[{MOVE}]")) {
        for i in 0..moved.length() {
            if let Some(el) = moved.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
                set_move(&el, el.get_attribute(MOVE).as_deref());
            }
        }
    }
    let built: usize = new.iter().map(count).sum();
    holder.get_elements_by_tag_name("*").length() as usize == built
}

/// Nodes on the page not looked up yet. Parsed nodes are adopted this way,
/// none looked up: the markup already gave every form control its state
/// (`El::markup`), and a node's handle is found the first time a patch
/// changes it.
fn unresolved(new: Vec<El>) -> Vec<Mounted> {
    new.into_iter()
        .map(|mut from| {
            let kids = std::mem::take(&mut from.children);
            Mounted {
                el: None,
                children: unresolved(kids),
                from,
            }
        })
        .collect()
}

/// Whether patching `to` over a node would change anything on the page.
/// Live properties are compared with the page itself, so they always count.
fn differs(from: &El, children: &[Mounted], to: &El) -> bool {
    !to.unchanged
        && (from.attrs != to.attrs
            || from.text != to.text
            || to.attrs.iter().any(|(n, _)| n.starts_with('.'))
            || children.len() != to.children.len()
            || children
                .iter()
                .zip(&to.children)
                .any(|(m, t)| !same_place(&m.from, t) || differs(&m.from, &m.children, t)))
}

/// Whether `to` goes where `from` was drawn: same key and tag (a stand-in
/// matches on its key, its tag being whatever was drawn there).
fn same_place(from: &El, to: &El) -> bool {
    from.key == to.key && (to.unchanged || from.tag == to.tag)
}

fn patch_children(
    doc: &Document,
    parent: &Element,
    old: Vec<Mounted>,
    new: Vec<El>,
) -> Vec<Mounted> {
    // Children mostly keep their order, so the match for the next new child
    // is usually the next old one: search from there, wrapping round.
    let mut old: Vec<Option<Mounted>> = old.into_iter().map(Some).collect();
    let mut cursor = 0;
    let mut picks: Vec<Option<usize>> = Vec::with_capacity(new.len());
    let mut kept: Vec<Option<Mounted>> = Vec::with_capacity(new.len());
    for el in &new {
        let n = old.len();
        let found = (0..n)
            .map(|i| (cursor + i) % n)
            .find(|&i| old[i].as_ref().is_some_and(|m| same_place(&m.from, el)));
        if let Some(i) = found {
            cursor = i + 1;
        }
        picks.push(found);
        // Taken now, so that no two new children claim the same node.
        kept.push(found.and_then(|i| old[i].take()));
    }
    // Reused nodes that kept their relative order need no move: only new
    // nodes are put in. That is the usual step.
    let in_order = picks.iter().flatten().is_sorted();

    // Until children are removed or put in, the page still has the old
    // order, so a node is found by its old position. Look up now every node
    // a later stage needs: the ones to remove, and the ones to place or to
    // place a new node before.
    let mut updated = Vec::new();
    let mut fresh = Vec::new();
    for (j, (el, slot)) in new.into_iter().zip(kept.iter_mut()).enumerate() {
        match (slot.take(), picks[j]) {
            (Some(mut m), Some(at)) => {
                let anchor = !in_order || (j > 0 && picks[j - 1].is_none());
                if anchor && m.el.is_none() {
                    m.el = nth_child(parent, at);
                }
                updated.push(update(doc, parent, at, m, el));
            }
            _ => fresh.push(el),
        }
    }
    let gone: Vec<Element> = old
        .into_iter()
        .enumerate()
        .filter_map(|(i, m)| m.map(|m| m.el.or_else(|| nth_child(parent, i))))
        .flatten()
        .collect();
    for node in gone {
        node.remove();
    }

    let (mut updated, mut fresh) = (
        updated.into_iter(),
        create_all(doc, parent, fresh).into_iter(),
    );
    let mounted: Vec<(Mounted, bool)> = picks
        .iter()
        .filter_map(|p| match p {
            Some(_) => updated.next().map(|m| (m, false)),
            None => fresh.next().map(|m| (m, true)),
        })
        .collect();
    let mut next: Option<&Node> = None;
    for (m, created) in mounted.iter().rev() {
        let Some(node) = m.el.as_ref().map(AsRef::<Node>::as_ref) else {
            next = None;
            continue;
        };
        let misplaced = *created
            || (!in_order
                && (node.next_sibling().as_ref() != next
                    || node.parent_node().as_ref() != Some(parent.as_ref())));
        if misplaced {
            let _ = parent.insert_before(node, next);
        }
        next = Some(node);
    }
    mounted.into_iter().map(|(m, _)| m).collect()
}

/// Builds every new child of one parent with a single parse of their markup
/// (in a detached element of the parent's kind, so SVG parses as SVG), the
/// way the first render does: one call into the browser for the lot instead
/// of one per element and attribute. Returns them in order, not yet placed.
fn create_all(doc: &Document, parent: &Element, fresh: Vec<El>) -> Vec<Mounted> {
    if fresh.is_empty() {
        return Vec::new();
    }
    // The HTML Standard's "parsing HTML fragments" algorithm parses with the
    // holder as context element: under an SVG element the tokens are foreign
    // content and become SVG elements; under an HTML element of the parent's
    // kind, rows stay rows and options stay options. (The encapsulation
    // browser test fails if new shapes come out as HTML.)
    let holder = if fresh.iter().any(|el| el.svg && el.tag != "svg") {
        doc.create_element_ns(Some(SVG_NS), "g")
    } else {
        doc.create_element(&parent.local_name())
    };
    let Ok(holder) = holder else {
        return fresh.into_iter().map(|el| create(doc, el)).collect();
    };
    if !parse_into(&holder, &fresh) {
        return fresh.into_iter().map(|el| create(doc, el)).collect();
    }
    // Every new child is placed, so each needs its handle: all are looked up
    // before the first one leaves the holder.
    let tops: Vec<Option<Element>> = (0..fresh.len()).map(|i| nth_child(&holder, i)).collect();
    fresh
        .into_iter()
        .zip(tops)
        .map(|(mut from, top)| match top {
            Some(node) => {
                let kids = std::mem::take(&mut from.children);
                let children = unresolved(kids);
                Mounted {
                    el: Some(node),
                    from,
                    children,
                }
            }
            None => create(doc, from),
        })
        .collect()
}

/// Builds one element the slow way, a call per element and attribute: only
/// when parsing markup did not build what was asked.
fn create(doc: &Document, from: El) -> Mounted {
    let el = if from.svg {
        doc.create_element_ns(Some(SVG_NS), from.tag)
    } else {
        doc.create_element(from.tag)
    }
    .expect("valid tag names come from views");
    for (name, value) in &from.attrs {
        if !name.starts_with('.') {
            let _ = el.set_attribute(name, value);
        }
        if *name == MOVE {
            set_move(&el, Some(value));
        }
    }
    if let Some(text) = &from.text {
        el.set_text_content(Some(text));
    }
    let children: Vec<Mounted> = from
        .children
        .iter()
        .cloned()
        .map(|c| {
            let m = create(doc, c);
            if let Some(node) = &m.el {
                let _ = el.append_child(node);
            }
            m
        })
        .collect();
    // Properties last: a <select> needs its options before its value.
    sync_properties(doc, &el, &from);
    Mounted {
        el: Some(el),
        from: El {
            children: Vec::new(),
            ..from
        },
        children,
    }
}

/// Patches `to` over the node at position `index` of `parent` (the old
/// order: nothing in `parent` has moved yet). An unchanged subtree costs no
/// call into the browser.
fn update(doc: &Document, parent: &Element, index: usize, m: Mounted, mut to: El) -> Mounted {
    let Mounted { el, from, children } = m;
    if !differs(&from, &children, &to) {
        return Mounted { el, from, children };
    }
    let Some(el) = el.or_else(|| nth_child(parent, index)) else {
        // Not on the page where the patcher put it: keep the model's view of
        // it so that the next full render can recover.
        let kids = std::mem::take(&mut to.children);
        return Mounted {
            el: None,
            from: to,
            children: unresolved(kids),
        };
    };
    // Attributes nearly always come in the same order: compare by position
    // first, and look a name up only when the lists differ.
    let same_names = from.attrs.len() == to.attrs.len()
        && from.attrs.iter().zip(&to.attrs).all(|(a, b)| a.0 == b.0);
    for (i, (name, value)) in to.attrs.iter().enumerate() {
        if name.starts_with('.') {
            continue;
        }
        let before = if same_names {
            Some(from.attrs[i].1.as_str())
        } else {
            from.get(name)
        };
        if before != Some(value.as_str()) {
            let _ = el.set_attribute(name, value);
            if *name == MOVE {
                set_move(&el, Some(value));
            }
        }
    }
    if !same_names {
        for (name, _) in &from.attrs {
            if !name.starts_with('.') && to.get(name).is_none() {
                let _ = el.remove_attribute(name);
                if *name == MOVE {
                    set_move(&el, None);
                }
            }
        }
    }
    if to.text != from.text {
        el.set_text_content(to.text.as_deref());
    }
    let children = if to.text.is_some() {
        Vec::new()
    } else {
        let kids = std::mem::take(&mut to.children);
        let old = if from.text.is_some() {
            Vec::new()
        } else {
            children
        };
        patch_children(doc, &el, old, kids)
    };
    sync_properties(doc, &el, &to);
    to.children = Vec::new();
    Mounted {
        el: Some(el),
        from: to,
        children,
    }
}

/// Moves a group (`views::page::scene::MOVE`): its CSS transform, set
/// through the style object, which the Content Security Policy allows, where
/// a `style` attribute is refused.
fn set_move(el: &Element, transform: Option<&str>) {
    let style = el.unchecked_ref::<web_sys::HtmlElement>().style();
    let _ = match transform {
        Some(t) => style.set_property("transform", t),
        None => style.remove_property("transform").map(|_| ()),
    };
}

/// Keeps live form properties in step with the model: a switch always shows
/// the model's value (even after a refused click flipped it), a slider or
/// field too, except while the learner is typing in it.
fn sync_properties(doc: &Document, el: &Element, from: &El) {
    for (name, value) in &from.attrs {
        let Some(prop) = name.strip_prefix('.') else {
            continue;
        };
        let target: &JsValue = el.as_ref();
        let current =
            js_sys::Reflect::get(target, &JsValue::from_str(prop)).unwrap_or(JsValue::NULL);
        let wanted = if prop == "checked" {
            JsValue::from_bool(value == "true")
        } else {
            let editing = doc.active_element().as_ref() == Some(el);
            if editing {
                continue;
            }
            JsValue::from_str(value)
        };
        if current != wanted {
            let _ = js_sys::Reflect::set(target, &JsValue::from_str(prop), &wanted);
        }
    }
}

/// The element an event concerns, if it is (inside) one carrying `data-slot`.
pub fn slot_of(target: Option<web_sys::EventTarget>) -> Option<(Element, u32)> {
    let el = target?
        .dyn_into::<Element>()
        .ok()?
        .closest("[data-slot]")
        .ok()??;
    let slot = el.get_attribute("data-slot")?.parse().ok()?;
    Some((el, slot))
}
