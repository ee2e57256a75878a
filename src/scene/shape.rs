//! One shape of a figure, any kind, drawn once and then kept up to date:
//! its geometry, classes and words are attributes and text read from its own
//! memo, so a step that changes the shape sets those on the element already
//! on the page (a move animates) and a step that leaves it alone costs one
//! comparison. A group draws its children the same way.
//!
//! Each shape reads a signal of its own (`Level`): one effect a level (a
//! figure's top level, or a group's children) compares the level's new
//! shapes with the ones its shapes hold and sets only those that changed. A
//! step that changes three shapes of a level of two hundred wakes three.
//! Measured: when every shape of a level read the level itself, each step
//! woke all of them, and each took itself off the level's list of readers
//! and back on (`IndexMap::shift_remove`, which moves all that follow): on
//! `/host/rss` (128 table cells, each clickable) that was 2.4 ms of a 20 ms
//! step in the reactive graph, plus every shape's look worked out again. On
//! `/net/encapsulation`, with every shape reading the whole scene, it had
//! been 2.5 ms of 22.
//!
//! What cannot change in place is the key: a shape's kind, its number of
//! arrowheads and whether it is clickable (which decides how its words are
//! written, see `views::page::naming::on_page`). A change of those draws the
//! shape anew.

use super::at::{self, SiblingAt};
use crate::dom::{apply, keyed, s, Attrs, El};
use leptos::prelude::*;
use leptos::reactive::effect::RenderEffect;
use views::page::naming::accessible_name;
use views::page::svg::{anchor, arrowhead, arrowheads, draws, num, text_class, translate};
use views::{Figure, Kind, Shape, Slot};
use web_sys::Element;

/// The slot of a figure's one Tab stop: its first clickable shape. The
/// others are reached with the arrow keys (a roving tab index, WAI-ARIA APG
/// "Developing a Keyboard Interface"; `figure::rove` moves it).
pub fn tab_stop(f: &Figure) -> Option<Slot> {
    f.walk().into_iter().find_map(|s| s.on_click)
}

/// A clickable shape's `tabindex`: 0 for the figure's Tab stop, else -1.
fn tab_index(slot: Slot, first: Option<Slot>) -> &'static str {
    if Some(slot) == first {
        "0"
    } else {
        "-1"
    }
}

/// What a shape's element is, as the last part of its row key: a change
/// draws the shape anew.
fn form(s: &Shape) -> String {
    let kind = match &s.kind {
        Kind::Rect { .. } => 'r',
        Kind::Circle { .. } => 'c',
        Kind::Line { .. } => 'l',
        Kind::Path { .. } => 'p',
        Kind::Text { .. } => 't',
        Kind::Group { .. } => 'g',
    };
    // Whether it has hover text: a clickable shape's when its label says
    // more than its words, any other's when it is labelled.
    let titled = match s.on_click {
        Some(_) => accessible_name(s).1.is_some(),
        None => s.label.is_some(),
    };
    // Pushed one by one: every row key of a level is worked out again
    // whenever the level changes, and `format!` showed in the profile.
    let mut form = String::with_capacity(4);
    form.push(kind);
    form.push(char::from(b'0' + arrowheads(s).len().min(9) as u8));
    if s.on_click.is_some() {
        form.push('b');
    }
    if titled {
        form.push('t');
    }
    if s.link.is_some() && matches!(s.kind, Kind::Text { .. }) {
        form.push('a');
    }
    form
}

/// The shapes among `shapes` that draw anything, with their index and the
/// key each is known by among its siblings: its own key, or, for a key
/// shared with earlier siblings, the key and which one it is (see
/// `at::AGAIN`): a keyed list needs unique keys.
fn sibling_keys(shapes: &[Shape]) -> impl Iterator<Item = (usize, &Shape, String)> {
    let drawing: Vec<(usize, &Shape)> = shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| draws(s))
        .collect();
    let keys = at::numbered(drawing.iter().map(|(_, s)| s.key.as_str()));
    drawing
        .into_iter()
        .zip(keys)
        .map(|((i, s), key)| (i, s, key))
}

/// The row keys of the shapes among `shapes` that draw anything, with their
/// index: the sibling key, a separator no key holds, its form.
pub fn drawn(shapes: &[Shape]) -> Vec<(usize, String)> {
    sibling_keys(shapes)
        .map(|(i, s, mut key)| {
            key.push('\u{1f}');
            key.push_str(&form(s));
            (i, key)
        })
        .collect()
}

/// A row key's shape key and form.
fn split(row: &str) -> (String, String) {
    let (key, form) = row.rsplit_once('\u{1f}').unwrap_or((row, ""));
    (key.to_string(), form.to_string())
}

fn joined(a: &str, b: &str) -> String {
    match (a.is_empty(), b.is_empty()) {
        (true, _) => b.to_string(),
        (_, true) => a.to_string(),
        _ => format!("{a} {b}"),
    }
}

/// The SVG attributes of a shape's geometry, by kind.
fn geometry(kind: &Kind) -> Vec<(&'static str, String)> {
    match kind {
        Kind::Rect { x, y, w, h, r } => vec![
            ("x", num(*x)),
            ("y", num(*y)),
            ("width", num(w.max(0.0))),
            ("height", num(h.max(0.0))),
            ("rx", num(*r)),
        ],
        Kind::Circle { x, y, r } => vec![("cx", num(*x)), ("cy", num(*y)), ("r", num(*r))],
        Kind::Line { x1, y1, x2, y2, .. } => vec![
            ("x1", num(*x1)),
            ("y1", num(*y1)),
            ("x2", num(*x2)),
            ("y2", num(*y2)),
        ],
        Kind::Path { d, .. } => vec![("d", d.clone())],
        Kind::Text {
            x, y, anchor: a, ..
        } => vec![
            ("x", num(*x)),
            ("y", num(*y)),
            ("text-anchor", anchor(*a).to_string()),
        ],
        Kind::Group { .. } => Vec::new(),
    }
}

/// The element a kind is drawn as.
fn tag(kind: char) -> &'static str {
    match kind {
        'r' => "rect",
        'c' => "circle",
        'l' => "line",
        'p' => "path",
        't' => "text",
        _ => "g",
    }
}

/// Everything a shape's own elements show, worked out in one go from the
/// shape: what a step changes is then one comparison, and the shape's one
/// effect sets it (`show`).
#[derive(Clone, Debug, Default, PartialEq)]
struct Look {
    /// The element's attributes (for an arrow, its group's).
    own: Attrs,
    /// An arrow's stroke: its geometry.
    stroke: Attrs,
    /// An arrow's heads: their path data.
    heads: Vec<Attrs>,
    /// The hover text, for a shape drawn with one.
    hover: String,
    /// A text shape's words, as the page writes them.
    words: String,
}

/// How the shape `s` looks on the page, drawn as `form` (see [`form`]);
/// `first`: the slot of its figure's Tab stop.
fn look(s: &Shape, heads: usize, inside: bool, first: Option<Slot>) -> Look {
    let clickable = s.on_click.is_some();
    let class = match &s.kind {
        Kind::Text { size, mono, .. } => joined(&text_class(*size, *mono), &s.class),
        _ if heads > 0 => joined("arrow", &s.class),
        _ => s.class.clone(),
    };
    let mut own: Attrs = vec![("class", Some(class)), ("data-state", s.state.clone())];
    let hover = if clickable {
        let (name, hover) = accessible_name(s);
        own.push(("data-slot", s.on_click.map(|slot| slot.to_string())));
        own.push((
            "tabindex",
            s.on_click.map(|slot| tab_index(slot, first).into()),
        ));
        own.push(("aria-label", name));
        hover.map(str::to_string)
    } else {
        s.label.clone()
    };
    let geometry: Attrs = geometry(&s.kind)
        .into_iter()
        .map(|(n, v)| (n, Some(v)))
        .collect();
    let (stroke, head_paths) = if heads > 0 {
        let paths = arrowheads(s)
            .into_iter()
            .map(|(from, tip)| vec![("d", Some(arrowhead(from, tip)))])
            .collect();
        (geometry, paths)
    } else {
        own.extend(geometry);
        (Vec::new(), Vec::new())
    };
    if let Kind::Group { x, y, .. } = &s.kind {
        own.push(("style:transform", translate(*x, *y)));
    }
    let words = match &s.kind {
        Kind::Text { text, .. } if inside || clickable => format!("{text} "),
        Kind::Text { text, .. } => text.clone(),
        _ => String::new(),
    };
    Look {
        own,
        stroke,
        heads: head_paths,
        hover: hover.unwrap_or_default(),
        words,
    }
}

/// Shapes' signals by sibling key, kept sorted (a hash map would bring its
/// code into the main module for this one use).
#[derive(Default)]
struct Signals(Vec<(String, RwSignal<Option<Shape>>)>);

impl Signals {
    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    fn get(&self, key: &str) -> Option<RwSignal<Option<Shape>>> {
        self.find(key).ok().map(|at| self.0[at].1)
    }

    fn insert(&mut self, key: String, signal: RwSignal<Option<Shape>>) {
        match self.find(&key) {
            Ok(at) => self.0[at].1 = signal,
            Err(at) => self.0.insert(at, (key, signal)),
        }
    }

    /// Takes `key` out if it still holds `signal` (a row drawn anew under
    /// the same key may have put its own in first).
    fn remove(&mut self, key: &str, signal: RwSignal<Option<Shape>>) {
        if let Ok(at) = self.find(key) {
            if self.0[at].1 == signal {
                self.0.remove(at);
            }
        }
    }
}

/// The shapes of one level of a figure (its top level, or a group's
/// children), each drawn shape behind a signal of its own.
#[derive(Clone, Copy)]
pub struct Level {
    /// The level as a whole. Its readers: the level's row keys and the one
    /// effect that hands each shape its new value; a shape drawn anew reads
    /// it once, untracked.
    all: Memo<Vec<Shape>>,
    /// The row keys of the shapes that draw anything ([`drawn`]).
    rows: Memo<Vec<(usize, String)>>,
    /// Each drawn shape's signal, by its sibling key; a row's signal goes
    /// with its row.
    own: StoredValue<Signals>,
}

impl Level {
    /// A level over `all`, under the current owner (the figure, or the
    /// group's row): its effect lives as long as that.
    pub fn new(all: Memo<Vec<Shape>>) -> Level {
        let rows = crate::dom::memo(move || all.try_with(|l| drawn(l)).unwrap_or_default());
        let own = StoredValue::new(Signals::default());
        // It reads `all` alone: an effect that also read `rows`, which
        // reads `all`, would miss a change that `rows` brought up to date
        // first (reactive_graph does not mark the effect that asked).
        let effect = RenderEffect::new(move |_| {
            all.try_with(|l| {
                // A level being taken down may still hear one last change:
                // what is gone by then is skipped, never read.
                own.try_with_value(|own| {
                    for (_, now, key) in sibling_keys(l) {
                        let Some(signal) = own.get(&key) else {
                            continue;
                        };
                        if signal.try_with_untracked(|was| was.as_ref() != Some(now)) == Some(true)
                        {
                            signal.try_set(Some(now.clone()));
                        }
                    }
                })
            })
        });
        StoredValue::new_local(effect);
        Level { all, rows, own }
    }

    /// The signal of the shape at `at` (its index now, and its sibling
    /// key): made when its row is drawn, from the level as it is, and given
    /// up with it.
    fn own(&self, at: &SiblingAt) -> RwSignal<Option<Shape>> {
        // Always a signal of its own: a row drawn anew under the same key
        // (its form changed) is drawn before the old row goes, and the old
        // row's signal goes with it.
        let (index, key) = at;
        let now = self.all.try_with_untracked(|l| l.get(*index).cloned());
        let signal = RwSignal::new(now.flatten());
        let own = self.own;
        let key = key.clone();
        own.try_update_value(|own| {
            own.insert(key.clone(), signal);
        });
        on_cleanup(move || {
            own.try_update_value(|own| own.remove(&key, signal));
        });
        signal
    }
}

/// How a shape's elements are laid out, from its form (see [`form`]): the
/// effect that keeps them up to date finds each by its place.
#[derive(Clone, Copy)]
struct Build {
    kind: char,
    heads: usize,
    clickable: bool,
    /// Drawn with a hover text (a `<title>`): a clickable shape's is its
    /// last child, any other's its first.
    titled: bool,
    /// A text inside a link to another page (`<a>` around the `<text>`).
    linked: bool,
}

impl Build {
    /// The layout `form` names (see [`form`]); `inside` when a shape around
    /// it is clickable.
    fn of(form: &str, inside: bool) -> Build {
        let mut chars = form.chars();
        let kind = chars.next().unwrap_or('g');
        let heads = chars.next().and_then(|c| c.to_digit(10)).unwrap_or(0) as usize;
        // The flags follow the kind and the count of heads: a text's kind
        // is `t` too, which read as a flag gave every text an empty hover
        // text and a span (two elements more a text).
        let flags = form.get(2..).unwrap_or_default();
        let clickable = flags.contains('b');
        Build {
            kind,
            heads,
            clickable,
            // Parts of a button have no hover text of their own.
            titled: flags.contains('t') && (clickable || !inside),
            linked: flags.contains('a'),
        }
    }

    fn title(self, el: &Element) -> Option<Element> {
        match (self.titled, self.clickable) {
            (false, _) => None,
            (true, true) => el.last_element_child(),
            (true, false) => el.first_element_child(),
        }
    }

    /// The first element after a hover text drawn first.
    fn first_part(self, el: &Element) -> Option<Element> {
        let first = el.first_element_child();
        if self.titled && !self.clickable {
            first.and_then(|t| t.next_element_sibling())
        } else {
            first
        }
    }

    /// The element that holds a text shape's words: its span beside a
    /// hover text, else the text itself.
    fn said(self, el: &Element) -> Option<Element> {
        if self.titled {
            self.first_part(el)
        } else {
            Some(el.clone())
        }
    }
}

/// Brings a shape's elements from how it looked (`before`) to `now`. The
/// first time (`before` is none) only the outer element's attributes are
/// set: the parts inside were drawn with the same look.
fn show(el: &Element, build: Build, before: Option<&Look>, now: &Look) {
    let Some(before) = before else {
        apply(el, &[], &now.own);
        return;
    };
    apply(el, &before.own, &now.own);
    if before.hover != now.hover {
        if let Some(title) = build.title(el) {
            title.set_text_content(Some(&now.hover));
        }
    }
    if build.kind == 't' && before.words != now.words {
        if let Some(said) = build.said(el) {
            said.set_text_content(Some(&now.words));
        }
    }
    if build.heads > 0 && (before.stroke != now.stroke || before.heads != now.heads) {
        let stroke = build.first_part(el);
        if let Some(stroke) = &stroke {
            apply(stroke, &before.stroke, &now.stroke);
        }
        let mut head = stroke.and_then(|s| s.next_element_sibling());
        for (was, is) in before.heads.iter().zip(&now.heads) {
            let Some(h) = head else { break };
            apply(&h, was, is);
            head = h.next_element_sibling();
        }
    }
}

/// An element with fixed attributes: a part of a shape drawn with the look
/// the shape has when it is drawn.
fn fixed(tag: &'static str, attrs: &Attrs) -> El {
    attrs
        .iter()
        .fold(s(tag), |el, (name, value)| el.maybe(name, value.clone()))
}

/// The shape at `at` of `level`, drawn as `form`; `inside` when a shape
/// around it is clickable; `first`: the slot of its figure's Tab stop.
///
/// Its elements are drawn once with the look it has now, and one effect
/// keeps them up to date (`El::live`). Measured on `/net/encapsulation`,
/// whose steps draw about a hundred new shapes each, against a memo a
/// shape, an effect an element and a derived signal a text: Step→DOM median
/// 19.3 → 17.6 ms (60 steps each, the two builds alternating).
fn shape(level: Level, at: SiblingAt, form: &str, inside: bool, first: Memo<Option<Slot>>) -> El {
    let build = Build::of(form, inside);
    let Build {
        kind,
        heads,
        clickable,
        titled,
        linked,
    } = build;
    let key = at::own_key(&at).to_string();
    let own = level.own(&at);
    let looks = move || {
        let first = if clickable { first.get() } else { None };
        own.try_with(|shape| {
            shape
                .as_ref()
                .map(|shape| look(shape, heads, inside, first))
        })
        .flatten()
    };
    let start = untrack(looks);
    // The first run of the effect only subscribes: the look it would work
    // out is `start`, which the parts inside were just drawn with.
    let first_look = std::cell::Cell::new(Some(start.clone()));
    let start = start.unwrap_or_default();
    let title = || titled.then(|| s("title").text(start.hover.clone()));
    let (first_title, last_title) = if clickable {
        (None, title())
    } else {
        (title(), None)
    };
    let mut el = s(if heads > 0 { "g" } else { tag(kind) }).testid(key).live(
        move |el, before: Option<Option<Look>>| {
            let now = match first_look.take() {
                Some(start) => {
                    own.track();
                    if clickable {
                        first.track();
                    }
                    start
                }
                None => looks(),
            };
            if let Some(now) = &now {
                show(el, build, before.flatten().as_ref(), now);
            }
            now
        },
    );
    if clickable {
        el = el.set("role", "button");
    }
    if heads > 0 {
        // With arrowheads: a group of the stroke and its heads.
        return el
            .maybe_child(first_title)
            .child(fixed(tag(kind), &start.stroke))
            .children((0..heads).map(|i| {
                let d = start.heads.get(i).cloned().unwrap_or_default();
                fixed("path", &d).class("head")
            }))
            .maybe_child(last_title);
    }
    match kind {
        't' if linked => link(
            match titled {
                true => el
                    .maybe_child(first_title)
                    .child(s("tspan").text(start.words.clone()))
                    .maybe_child(last_title),
                false => el.text(start.words.clone()),
            },
            own,
        ),
        't' if titled => el
            .maybe_child(first_title)
            .child(s("tspan").text(start.words.clone()))
            .maybe_child(last_title),
        't' => el.text(start.words.clone()),
        'g' => {
            let within = inside || clickable;
            let kids = Level::new(crate::dom::memo(move || {
                own.try_with(|g| g.as_ref().map(|g| g.children().to_vec()))
                    .flatten()
                    .unwrap_or_default()
            }));
            el.maybe_child(first_title)
                .view_child(shapes(kids, within, first))
                .maybe_child(last_title)
        }
        _ => el.maybe_child(first_title).maybe_child(last_title),
    }
}

/// A text that opens another page of the lab, inside an `<a>` whose address
/// the page works out from the shape's (`super::Onward`: the site's base and
/// the way back to this page, which changes as the learner acts).
fn link(text: El, own: RwSignal<Option<Shape>>) -> El {
    let onward = use_context::<super::Onward>();
    s("a")
        .class("scene-link")
        .bind(
            "href",
            crate::dom::text(move || {
                let to = own
                    .try_with(|s| s.as_ref().and_then(|s| s.link.clone()))
                    .flatten()?;
                Some(onward.map_or_else(|| to.clone(), |go| go.run(to.clone())))
            }),
        )
        .child(text)
}

/// The shapes of `level` that draw anything, keyed.
pub fn shapes(level: Level, inside: bool, first: Memo<Option<Slot>>) -> AnyView {
    keyed(
        move || level.rows.get(),
        move |index, row| {
            let (key, form) = split(&row);
            shape(level, (index, key), &form, inside, first)
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_form_names_its_parts_and_a_plain_text_has_none() {
        let plain = Shape::text("t", 0.0, 0.0, "words");
        let build = Build::of(&form(&plain), false);
        assert!(build.kind == 't' && !build.titled && !build.clickable && !build.linked);
        let labelled = Shape::text("t", 0.0, 0.0, "words").label("more");
        assert!(Build::of(&form(&labelled), false).titled);
        // Inside a button, a part has no hover text of its own.
        assert!(!Build::of(&form(&labelled), true).titled);
        let linked = Shape::text("t", 0.0, 0.0, "words").link("/nic/napi");
        assert!(Build::of(&form(&linked), false).linked);
        let button = Shape::rect("r", 0.0, 0.0, 1.0, 1.0).on_click(3);
        let build = Build::of(&form(&button), false);
        assert!(build.kind == 'r' && build.clickable);
    }

    #[test]
    fn a_picture_is_one_tab_stop_however_many_shapes_it_lets_you_click() {
        let mut figure = Figure::new("fig", "A picture", 100.0, 50.0);
        figure.push(Shape::rect("plain", 0.0, 0.0, 5.0, 5.0));
        for (i, key) in ["a", "b", "c"].into_iter().enumerate() {
            figure.push(Shape::rect(key, 10.0 * i as f32, 10.0, 5.0, 5.0).on_click(7 + i as u32));
        }
        figure.push(Shape::group(
            "g",
            vec![Shape::rect("d", 0.0, 30.0, 5.0, 5.0).on_click(11)],
        ));
        let first = tab_stop(&figure);
        let stops: Vec<(String, String)> = figure
            .walk()
            .into_iter()
            .filter_map(|s| {
                let look = look(s, 0, false, first);
                let (_, index) = look.own.into_iter().find(|(n, _)| *n == "tabindex")?;
                Some((s.key.clone(), index?))
            })
            .collect();
        assert_eq!(
            stops,
            [("a", "0"), ("b", "-1"), ("c", "-1"), ("d", "-1")].map(|(k, i)| (k.into(), i.into()))
        );
    }
}
