//! The one renderer: patches an element tree from `views` into the page,
//! keyed, so a step changes only the attributes and text that changed and a
//! moved shape keeps its node (which is what lets CSS transitions show the
//! move). Every demo's picture and controls go through here.

use views::element::El;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Document, Element, Node};

const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// A node on the page and the element it was last patched from.
struct Mounted {
    el: Element,
    from: El,
    children: Vec<Mounted>,
}

/// The managed children of one container element.
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

    pub fn patch(&mut self, new: Vec<El>) {
        let Some(doc) = self.root.owner_document() else {
            return;
        };
        if self.children.is_empty() {
            self.children = first_render(&doc, &self.root, new);
            return;
        }
        let old = std::mem::take(&mut self.children);
        self.children = patch_children(&doc, &self.root, old, new);
    }
}

/// The first render of a page: one `innerHTML` of the escaped markup (one
/// call into the browser instead of several per element: most of the time
/// to an interactive demo), then the parsed nodes are adopted so later
/// patches are keyed as usual. `El::markup` escapes every text and attribute,
/// so nothing from a link or a form is ever parsed as markup.
fn first_render(doc: &Document, root: &Element, new: Vec<El>) -> Vec<Mounted> {
    let mut html = String::new();
    for el in &new {
        el.markup(&mut html);
    }
    root.set_inner_html(&html);
    let trusted = parsed_as_built(root, &new);
    adopt_children(doc, root, new, trusted)
}

/// Whether the parser built exactly the elements of `new`: one count from
/// the browser instead of reading every element's tag back (a string per
/// element, measured at about 3 ms of a 1,100-element first render).
fn parsed_as_built(holder: &Element, new: &[El]) -> bool {
    fn count(el: &El) -> usize {
        1 + el.children.iter().map(count).sum::<usize>()
    }
    let built: usize = new.iter().map(count).sum();
    holder.get_elements_by_tag_name("*").length() as usize == built
}

/// Pairs parsed nodes with the elements they came from. Should the parser
/// have built a different shape (it should not: views emit no markup the
/// HTML parser rewrites), the odd element is created the slow way instead;
/// `trusted` (the counts agree) skips checking each tag.
fn adopt_children(doc: &Document, parent: &Element, new: Vec<El>, trusted: bool) -> Vec<Mounted> {
    let mut node = parent.first_element_child();
    let mut mounted = Vec::with_capacity(new.len());
    for mut from in new {
        match node.take() {
            Some(el) if trusted || el.tag_name().eq_ignore_ascii_case(from.tag) => {
                node = el.next_element_sibling();
                let kids = std::mem::take(&mut from.children);
                let children = if from.text.is_some() {
                    Vec::new()
                } else {
                    adopt_children(doc, &el, kids, trusted)
                };
                sync_properties(doc, &el, &from);
                mounted.push(Mounted { el, from, children });
            }
            other => {
                let m = create(doc, from);
                let _ = parent.insert_before(&m.el, other.as_ref().map(|e| e.as_ref()));
                node = other;
                mounted.push(m);
            }
        }
    }
    while let Some(extra) = node {
        node = extra.next_element_sibling();
        extra.remove();
    }
    mounted
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
        let found = (0..n).map(|i| (cursor + i) % n).find(|&i| {
            old[i]
                .as_ref()
                .is_some_and(|m| m.from.tag == el.tag && m.from.key == el.key)
        });
        if let Some(i) = found {
            cursor = i + 1;
        }
        picks.push(found);
        // Taken now, so that no two new children claim the same node.
        kept.push(found.and_then(|i| old[i].take()));
    }
    for gone in old.into_iter().flatten() {
        gone.el.remove();
    }
    // Reused nodes that kept their relative order need no move: only new
    // nodes are put in. That is the usual step, and it spares two calls
    // into the browser per child.
    let in_order = picks.iter().flatten().is_sorted();
    let (mut updated, mut fresh) = (Vec::new(), Vec::new());
    for (el, slot) in new.into_iter().zip(kept.iter_mut()) {
        match slot.take() {
            Some(m) => updated.push(update(doc, m, el)),
            None => fresh.push(el),
        }
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
        let node: &Node = m.el.as_ref();
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
    let holder = if fresh.iter().any(|el| el.svg && el.tag != "svg") {
        doc.create_element_ns(Some(SVG_NS), "g")
    } else {
        doc.create_element(&parent.local_name())
    };
    let Ok(holder) = holder else {
        return Vec::new();
    };
    let mut html = String::new();
    for el in &fresh {
        el.markup(&mut html);
    }
    holder.set_inner_html(&html);
    let trusted = parsed_as_built(&holder, &fresh);
    adopt_children(doc, &holder, fresh, trusted)
}

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
            let _ = el.append_child(&m.el);
            m
        })
        .collect();
    // Properties last: a <select> needs its options before its value.
    sync_properties(doc, &el, &from);
    Mounted {
        el,
        from: El {
            children: Vec::new(),
            ..from
        },
        children,
    }
}

fn update(doc: &Document, m: Mounted, mut to: El) -> Mounted {
    let Mounted { el, from, children } = m;
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
        }
    }
    if !same_names {
        for (name, _) in &from.attrs {
            if !name.starts_with('.') && to.get(name).is_none() {
                let _ = el.remove_attribute(name);
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
        el,
        from: to,
        children,
    }
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
