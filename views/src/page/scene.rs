//! Scene → elements: figures as SVG, tables and lists as HTML, and the
//! picture as text. The page and the figure export both use these mappings.

use crate::element::{num, El};
use crate::layout::NARROW_WIDTH;
use crate::scene::{Anchor, Arrow, Figure, Kind, List, Part, Scene, Shape, Size, Table};

/// The attribute that carries a group's move on the page: the renderer sets
/// its value as the element's CSS `transform`.
pub const MOVE: &str = "data-translate";

/// Where the elements go: the live page (keys, slots, animated moves) or a
/// standalone file (plain attributes, nothing interactive).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Page,
    Export,
}

/// The whole scene for the page: its parts, then the picture as text.
/// `before` is the scene the page shows now, when this one is patched over
/// it: a figure's shapes that are equal there become [`El::unchanged`].
pub fn scene(scene: &Scene, before: Option<&Scene>) -> Vec<El> {
    let figure_before = |key: &str| before?.figures().into_iter().find(|f| f.key == key);
    let mut out: Vec<El> = scene
        .parts
        .iter()
        .map(|part| match part {
            Part::Figure(f) => figure(f, Target::Page, figure_before(&f.key)),
            Part::Table(t) => table(t),
            Part::List(l) => list(l),
        })
        .collect();
    out.push(as_text(scene));
    out
}

/// The picture in words, from the scene itself: its summary, then what each
/// labelled shape says.
pub fn describe(scene: &Scene) -> Vec<String> {
    let mut lines = vec![scene.summary.clone()];
    for figure in scene.figures() {
        let labels: Vec<&str> = figure
            .walk()
            .into_iter()
            .filter_map(|s| s.label.as_deref())
            .collect();
        if !labels.is_empty() {
            lines.push(format!("{}: {}.", figure.label, labels.join("; ")));
        }
    }
    lines
}

fn as_text(scene: &Scene) -> El {
    El::html("details", "as-text")
        .attr("class", "as-text")
        .attr("data-testid", "as-text")
        .child(El::html("summary", "s").text("The picture as text"))
        .children(
            describe(scene)
                .into_iter()
                .enumerate()
                .map(|(i, line)| El::html("p", i.to_string()).text(line)),
        )
}

/// A figure: the SVG drawing and its legend. A shape equal to the one at
/// its place in `before` (the figure on the page) is only a stand-in: a step
/// of a 1,000-shape picture changes a few, and building and comparing the
/// rest was most of its cost.
pub fn figure(f: &Figure, target: Target, before: Option<&Figure>) -> El {
    let interactive = f.walk().iter().any(|s| s.on_click.is_some());
    let before = before.map_or(&[][..], |b| &b.shapes[..]);
    let shapes = f
        .shapes
        .iter()
        .enumerate()
        .filter(|(_, s)| draws(s))
        .map(|(i, s)| {
            if before.get(i) == Some(s) {
                El::unchanged(s.key.clone())
            } else {
                shape(s, target)
            }
        });
    // One Tab stop a figure: its first clickable shape; the arrow keys move
    // among the rest (a roving tab index, WAI-ARIA APG "Developing a Keyboard
    // Interface"; the page moves it, `render::events::rove`).
    let first = f.walk().into_iter().find_map(|s| s.on_click);
    let shapes = shapes.map(|mut el| {
        rove_from(&mut el, first);
        el
    });
    let svg = El::svg("svg", "svg")
        .attr("class", "scene")
        .attr("viewBox", format!("0 0 {} {}", num(f.width), num(f.height)))
        .attr("role", if interactive { "group" } else { "img" })
        .attr("aria-label", f.label.clone())
        .attr("data-testid", f.key.clone())
        .children(shapes);
    // A figure no wider than a narrow layout's may fill a phone's width
    // instead of keeping the minimum that keeps wide figures legible.
    let fits = if f.width <= NARROW_WIDTH {
        " fits-narrow"
    } else {
        ""
    };
    let mut out = El::html("figure", format!("fig-{}", f.key))
        .class(&format!("scene-figure{fits} {}", f.class))
        .child(svg);
    if !f.legend.is_empty() {
        out = out.child(
            El::html("figcaption", "legend")
                .attr("class", "legend")
                .children(f.legend.iter().enumerate().map(|(i, (class, meaning))| {
                    El::html("span", i.to_string())
                        .class(&format!("key {class}"))
                        .text(meaning.clone())
                })),
        );
    }
    out
}

/// Takes every clickable shape in `el` but the one with slot `first` out of
/// the Tab order (`tabindex="-1"`).
fn rove_from(el: &mut El, first: Option<crate::Slot>) {
    let slot = el.get("data-slot").and_then(|s| s.parse().ok());
    if slot.is_some() && slot != first {
        for (name, value) in &mut el.attrs {
            if *name == "tabindex" {
                *value = "-1".into();
            }
        }
    }
    for child in &mut el.children {
        rove_from(child, first);
    }
}

/// Whether a shape puts anything on the page. A text with no words, no label
/// and no click draws nothing, so it gets no element: pictures keep a slot
/// for a word that comes and goes (a cache way's place in the eviction
/// order, a descriptor's note), and on a first render those empty slots were
/// up to 300 elements, each one parsed. When the word comes, the patcher
/// inserts the element where a fresh render puts it.
fn draws(s: &Shape) -> bool {
    !matches!(&s.kind, Kind::Text { text, .. } if text.is_empty())
        || s.label.is_some()
        || s.on_click.is_some()
}

fn size_class(size: Size) -> &'static str {
    match size {
        Size::Small => "t-small",
        Size::Normal => "",
        Size::Large => "t-large",
        Size::Title => "t-title",
    }
}

/// One shape. Keys become test hooks on the page, states `data-state`,
/// labels a `<title>` (hover text and accessible name).
pub fn shape(s: &Shape, target: Target) -> El {
    shape_within(s, target, false)
}

/// The words a shape shows, in the order they are drawn: its own text and
/// its children's.
pub fn visible_words(s: &Shape) -> Vec<&str> {
    match &s.kind {
        Kind::Text { text, .. } => text.split_whitespace().collect(),
        Kind::Group { children, .. } => children.iter().flat_map(visible_words).collect(),
        _ => Vec::new(),
    }
}

/// What a clickable shape is called (its `aria-label`), and the hover text
/// it keeps (its `<title>`, drawn after its texts). WCAG 2.5.3 "Label in
/// Name": a voice-control user says what they see ("click T1"), which only
/// works when the name holds the visible text; axe-core checks it as
/// `label-content-name-mismatch`, and counts a `<title>` as visible text. So
/// the name is the shown words, then the label; a label that only repeats
/// the shown words is the name alone, with no hover text.
pub fn accessible_name(s: &Shape) -> (Option<String>, Option<&str>) {
    let shown = visible_words(s).join(" ");
    match s.label.as_deref() {
        None if shown.is_empty() => (None, None),
        None => (Some(shown), None),
        Some(label) if shown.is_empty() => (Some(label.to_string()), Some(label)),
        Some(label) if same_words(label, &shown) => (Some(label.to_string()), None),
        Some(label) => (Some(format!("{shown}: {label}")), Some(label)),
    }
}

/// Whether two texts say the same words, ignoring case and punctuation (as
/// axe-core compares them).
fn same_words(a: &str, b: &str) -> bool {
    let words = |t: &str| -> Vec<String> {
        t.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    words(a) == words(b)
}

/// A shape, knowing whether it is inside a clickable one. There its parts
/// get no hover text of their own, and each text ends with a space: the page's text of a button is its texts run
/// together, and without it "T1" and "ready" read as one word "T1ready" to
/// assistive technology (SVG layout drops a trailing space, so nothing moves).
fn shape_within(s: &Shape, target: Target, inside_button: bool) -> El {
    let in_button = inside_button || (target == Target::Page && s.on_click.is_some());
    let mut el = match &s.kind {
        Kind::Rect { x, y, w, h, r } => El::svg("rect", s.key.clone())
            .attr("x", num(*x))
            .attr("y", num(*y))
            .attr("width", num(w.max(0.0)))
            .attr("height", num(h.max(0.0)))
            .attr("rx", num(*r)),
        Kind::Circle { x, y, r } => El::svg("circle", s.key.clone())
            .attr("cx", num(*x))
            .attr("cy", num(*y))
            .attr("r", num(*r)),
        Kind::Line {
            x1,
            y1,
            x2,
            y2,
            arrow,
        } => {
            let line = El::svg("line", "line")
                .attr("x1", num(*x1))
                .attr("y1", num(*y1))
                .attr("x2", num(*x2))
                .attr("y2", num(*y2));
            match arrow {
                Arrow::None => line,
                _ => with_heads(
                    line,
                    *arrow,
                    [(*x1, *y1), (*x2, *y2)],
                    [(*x2, *y2), (*x1, *y1)],
                ),
            }
        }
        Kind::Path {
            d,
            arrow,
            start,
            end,
        } => {
            let path = El::svg("path", "path").attr("d", d.clone());
            match arrow {
                Arrow::None => path,
                _ => with_heads(path, *arrow, *end, [start[1], start[0]]),
            }
        }
        Kind::Text {
            x,
            y,
            text,
            anchor,
            size,
            mono,
        } => {
            let anchor = match anchor {
                Anchor::Start => "start",
                Anchor::Middle => "middle",
                Anchor::End => "end",
            };
            let mut class = size_class(*size).to_string();
            if *mono {
                class.push_str(" mono");
            }
            El::svg("text", s.key.clone())
                .attr("x", num(*x))
                .attr("y", num(*y))
                .attr("text-anchor", anchor)
                .class(&class)
                .text(if in_button {
                    format!("{text} ")
                } else {
                    text.clone()
                })
        }
        Kind::Group { x, y, children } => {
            let mut g = El::svg("g", s.key.clone());
            if *x != 0.0 || *y != 0.0 {
                g = match target {
                    // A CSS transform, so moving the group animates. It is
                    // carried in `MOVE` and set as a style property by the
                    // renderer: a `style` attribute is refused by the page's
                    // Content Security Policy (style-src, no 'unsafe-inline').
                    Target::Page => g.attr(MOVE, format!("translate({}px,{}px)", num(*x), num(*y))),
                    Target::Export => {
                        g.attr("transform", format!("translate({} {})", num(*x), num(*y)))
                    }
                };
            }
            g.children(
                children
                    .iter()
                    .filter(|c| draws(c))
                    .map(|c| shape_within(c, target, in_button)),
            )
        }
    };
    el.key = s.key.clone();
    let mut el = el.class(&s.class).attr_opt("data-state", s.state.clone());
    if target == Target::Page {
        el = el.attr("data-testid", s.key.clone());
        if let Some(slot) = s.on_click {
            let (name, hover) = accessible_name(s);
            el = el
                .attr("data-slot", slot.to_string())
                .attr("role", "button")
                .attr("tabindex", "0")
                .attr_opt("aria-label", name);
            return match hover {
                Some(label) => with_title(el, label, Place::Last),
                None => el,
            };
        }
    }
    match &s.label {
        // A button's parts are presentational: its name speaks for them, and
        // a title of theirs would be read as part of its visible text.
        Some(_) if inside_button => el,
        Some(label) => with_title(el, label, Place::First),
        None => el,
    }
}

/// Where a `<title>` goes among its element's children.
#[derive(Clone, Copy, PartialEq)]
enum Place {
    First,
    /// After the texts, so that the text of a button reads as its name does.
    Last,
}

/// Adds a `<title>` child; a text shape keeps its text by moving it into a
/// `<tspan>` beside the title.
fn with_title(mut el: El, label: &str, place: Place) -> El {
    let title = El::svg("title", "title").text(label.to_string());
    if let Some(text) = el.text.take() {
        el.children.push(El::svg("tspan", "text").text(text));
        match place {
            Place::First => el.children.insert(0, title),
            Place::Last => el.children.push(title),
        }
    } else if place == Place::Last {
        el.children.push(title);
    } else {
        el.children.insert(0, title);
    }
    el
}

/// A line or path with arrowheads: a group holding the stroke and its heads
/// (drawn as paths, so they take the stroke's colour in any SVG viewer).
fn with_heads(stroke: El, arrow: Arrow, end: [(f32, f32); 2], start: [(f32, f32); 2]) -> El {
    let mut g = El::svg("g", "")
        .attr("class", "arrow")
        .child(stroke)
        .child(head("head-end", end[0], end[1]));
    if arrow == Arrow::Both {
        g = g.child(head("head-start", start[0], start[1]));
    }
    g
}

/// A filled arrowhead with its tip at `tip`, pointing away from `from`.
fn head(key: &str, from: (f32, f32), tip: (f32, f32)) -> El {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt().max(0.001);
    let (ux, uy) = (dx / len, dy / len);
    let (bx, by) = (tip.0 - 10.0 * ux, tip.1 - 10.0 * uy);
    let (nx, ny) = (-uy * 5.0, ux * 5.0);
    El::svg("path", key).attr("class", "head").attr(
        "d",
        format!(
            "M{} {}L{} {}L{} {}Z",
            num(tip.0),
            num(tip.1),
            num(bx + nx),
            num(by + ny),
            num(bx - nx),
            num(by - ny)
        ),
    )
}

/// A table: caption, column headings, and rows whose first cell is their name.
pub fn table(t: &Table) -> El {
    let head = El::html("thead", "h").child(El::html("tr", "r").children(
        t.columns.iter().enumerate().map(|(i, c)| {
            El::html("th", i.to_string())
                .attr("scope", "col")
                .text(c.clone())
        }),
    ));
    let rows = t.rows.iter().map(|row| {
        let cells = row.cells.iter().enumerate().map(|(i, cell)| {
            let tag = if i == 0 { "th" } else { "td" };
            let mut class = cell.class.clone();
            if cell.mono {
                class.push_str(" mono");
            }
            let mut el = El::html(tag, i.to_string())
                .attr_opt("scope", (i == 0).then_some("row"))
                .class(&class)
                .attr_opt("data-testid", cell.key.clone());
            match (i, row.on_click) {
                (0, Some(slot)) => {
                    el = el.child(
                        El::html("button", "b")
                            .attr("type", "button")
                            .attr("class", "row-btn")
                            .attr("data-slot", slot.to_string())
                            .text(cell.text.clone()),
                    )
                }
                _ => el = el.text(cell.text.clone()),
            }
            el
        });
        El::html("tr", row.key.clone())
            .class(&row.class)
            .attr_opt("data-state", row.state.clone())
            .attr("data-testid", row.key.clone())
            .children(cells)
    });
    El::html("div", format!("table-{}", t.key))
        .attr("class", "table-scroll")
        .attr("tabindex", "0")
        .attr("role", "region")
        .attr("aria-label", t.caption.clone())
        .child(
            El::html("table", "t")
                .attr("data-testid", t.key.clone())
                .child(El::html("caption", "c").text(t.caption.clone()))
                .child(head)
                .child(El::html("tbody", "b").children(rows)),
        )
}

/// A list: a heading and its items (or what "empty" means here).
pub fn list(l: &List) -> El {
    let items: Vec<El> = if l.items.is_empty() {
        vec![El::html("li", "empty")
            .attr("class", "muted")
            .text(l.empty.clone())]
    } else {
        l.items
            .iter()
            .map(|item| {
                let mut class = item.class.clone();
                if item.mono {
                    class.push_str(" mono");
                }
                let mut li = El::html("li", item.key.clone())
                    .class(&class)
                    .attr("data-testid", item.key.clone());
                match &item.tag {
                    Some(tag) => {
                        li = li
                            .child(
                                El::html("span", "tag")
                                    .attr("class", "tone-word")
                                    .text(format!("{tag} ")),
                            )
                            .child(El::html("span", "text").text(item.text.clone()))
                    }
                    None => li = li.text(item.text.clone()),
                }
                li
            })
            .collect()
    };
    let class = if l.chips {
        format!("scene-list chips {}", l.class)
    } else {
        format!("scene-list {}", l.class)
    };
    El::html("section", format!("list-{}", l.key))
        .class(&class)
        .attr("aria-label", l.heading.clone())
        .child(El::html("h3", "h").text(l.heading.clone()))
        .child(
            El::html("ul", "u")
                .attr("data-testid", l.key.clone())
                .children(items),
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picture(fill: &str) -> Scene {
        let mut figure = Figure::new("fig", "A picture", 100.0, 50.0);
        figure.push(Shape::rect("a", 0.0, 0.0, 10.0, 10.0).class(fill));
        figure.push(Shape::rect("b", 20.0, 0.0, 10.0, 10.0));
        Scene::new("t", "s").figure(figure)
    }

    fn svg_children(els: &[El]) -> &[El] {
        &els[0].children[0].children
    }

    #[test]
    fn shapes_equal_to_the_page_are_stand_ins_and_changed_ones_are_built() {
        let before = picture("nic");
        let after = picture("done");
        let els = scene(&after, Some(&before));
        let shapes = svg_children(&els);
        assert_eq!(shapes[0].key, "a");
        assert!(!shapes[0].unchanged, "the changed shape is built in full");
        assert_eq!(shapes[0].get("class"), Some("done"));
        assert_eq!(shapes[1].key, "b");
        assert!(shapes[1].unchanged, "the unchanged shape is a stand-in");
        assert!(shapes[1].attrs.is_empty());
    }

    fn thread_box(label: &str) -> Shape {
        Shape::group(
            "thread-1",
            vec![
                Shape::rect("box", 0.0, 0.0, 40.0, 20.0).label("a part's own label"),
                Shape::text("name", 2.0, 10.0, "T1"),
                Shape::text("word", 20.0, 10.0, "ready"),
            ],
        )
        .label(label)
        .on_click(3)
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
        let el = super::figure(&figure, Target::Page, None);
        let stops: Vec<(&str, &str)> = el
            .walk()
            .into_iter()
            .filter_map(|d| Some((d.get("data-testid")?, d.get("tabindex")?)))
            .collect();
        assert_eq!(stops, [("a", "0"), ("b", "-1"), ("c", "-1"), ("d", "-1")]);
    }

    #[test]
    fn a_clickable_shape_is_named_with_the_words_it_shows() {
        // The label alone hid "T1 ready" from a voice-control user.
        let el = shape(&thread_box("next: load · 0/3"), Target::Page);
        assert_eq!(el.get("aria-label"), Some("T1 ready: next: load · 0/3"));
        // The page's text of the button, in order, is what its name says:
        // the texts end with a space (no "T1ready"), the hover text is last.
        let text: String = el.walk().iter().filter_map(|d| d.text.clone()).collect();
        assert_eq!(text, "T1 ready next: load · 0/3");
        assert_eq!(el.walk().iter().filter(|d| d.tag == "title").count(), 1);
        // A label that only repeats the shown words is the name, no title.
        let el = shape(&thread_box("t1 READY"), Target::Page);
        assert_eq!(el.get("aria-label"), Some("t1 READY"));
        assert!(el.walk().iter().all(|d| d.tag != "title"));
        // Outside a button, and in the exported figure, a text is as written.
        let plain = shape(&Shape::text("t", 0.0, 0.0, "T1"), Target::Page);
        assert_eq!(plain.text.as_deref(), Some("T1"));
        let exported = shape(&thread_box("x"), Target::Export);
        assert!(exported
            .walk()
            .iter()
            .all(|d| d.text.as_deref() != Some("T1 ")));
    }

    #[test]
    fn a_moved_group_carries_its_move_for_the_renderer_never_a_style_attribute() {
        let group = Shape::group("g", vec![Shape::rect("r", 0.0, 0.0, 1.0, 1.0)]).at(12.0, -3.5);
        let page = shape(&group, Target::Page);
        assert_eq!(page.get(MOVE), Some("translate(12px,-3.5px)"));
        assert_eq!(page.get("style"), None);
        let file = shape(&group, Target::Export);
        assert_eq!(file.get("transform"), Some("translate(12 -3.5)"));
        assert_eq!(file.get(MOVE), None);
    }

    #[test]
    fn without_a_page_to_patch_over_everything_is_built() {
        let els = scene(&picture("nic"), None);
        assert!(svg_children(&els).iter().all(|e| !e.unchanged));
        // Another figure's shapes never stand in, even with equal keys.
        let mut other = picture("nic");
        if let Some(Part::Figure(f)) = other.parts.first_mut() {
            f.key = "other".into();
        }
        let els = scene(&picture("nic"), Some(&other));
        assert!(svg_children(&els).iter().all(|e| !e.unchanged));
    }

    #[test]
    fn a_text_without_words_draws_no_element_unless_it_is_labelled_or_clickable() {
        let mut figure = Figure::new("fig", "A picture", 100.0, 50.0);
        figure.push(Shape::text("empty", 0.0, 0.0, ""));
        figure.push(Shape::text("labelled", 0.0, 0.0, "").label("nothing yet"));
        figure.push(Shape::group(
            "g",
            vec![
                Shape::rect("r", 0.0, 0.0, 10.0, 10.0),
                Shape::text("word", 0.0, 0.0, ""),
            ],
        ));
        let unchanged = Scene::new("t", "s").figure(figure);
        let draw = |before| {
            let els = scene(&unchanged, before);
            let keys = |els: &[El]| els.iter().map(|e| e.key.clone()).collect::<Vec<_>>();
            let shapes = svg_children(&els);
            (keys(shapes), keys(&shapes[1].children))
        };
        let drawn = (vec!["labelled".into(), "g".into()], vec!["r".into()]);
        assert_eq!(draw(None), drawn);
        // Patched over itself: the empty text is not a stand-in for a node
        // the page never had.
        let (top, _) = draw(Some(&unchanged));
        assert_eq!(top, drawn.0);
    }
}
