//! A demo's picture as plain data: figures of keyed shapes, tables and lists.
//!
//! A scene says *what* is there (a box that is NIC-owned, an arrow from here
//! to there, a label in monospace); the design system's stylesheet says how it
//! looks, and one renderer in the app draws any scene. Keys are stable across
//! steps, so the renderer patches the shapes that changed instead of
//! rebuilding the picture, and CSS transitions show what moved.
//!
//! A click on a shape sends a [`Slot`]: the number the demo's [`crate::Ui`]
//! gave the command when the scene was built. Scenes are therefore plain,
//! non-generic data, the same type for every demo.

use crate::draw::geometry::PathData;
use crate::slot::Slot;

/// Everything a demo shows, with its title and a text equivalent.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    /// What the picture shows, in a few words (also the downloaded file's name).
    pub title: String,
    /// The picture in words, for screen readers and the "as text" panel.
    pub summary: String,
    pub parts: Vec<Part>,
}

/// One block of the picture, laid out top to bottom.
#[derive(Clone, Debug, PartialEq)]
pub enum Part {
    Figure(Figure),
    Table(Table),
    List(List),
}

/// An SVG drawing in its own coordinate space (`width` × `height` units).
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Test hook and key of the drawing.
    pub key: String,
    /// Accessible name of the drawing.
    pub label: String,
    pub width: f32,
    pub height: f32,
    pub shapes: Vec<Shape>,
    /// Colour keys under the drawing: (semantic class, meaning in words).
    pub legend: Vec<(String, String)>,
    /// Extra classes on the figure (layout hints such as `wide`).
    pub class: String,
}

/// A shape with its identity and meaning. Build with the constructors below,
/// then chain `.class()`, `.state()`, `.label()`, `.focus()`, `.on_click()`.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    /// Unique within its figure and stable across steps (`desc-3`, `ptr-head`).
    pub key: String,
    pub kind: Kind,
    /// Semantic classes from the design system (`nic`, `done`, `fault`, …).
    pub class: String,
    /// The state as text, for tests and readers (`OWN`, `hit`): never colour alone.
    pub state: Option<String>,
    /// Accessible name; a shape with a label is announced, one without is decoration.
    pub label: Option<String>,
    /// The narration focus key that highlights this shape.
    pub focus: Option<String>,
    /// What clicking (or pressing Enter on) the shape sends.
    pub on_click: Option<Slot>,
    /// A text that opens another page of the lab: its path from the site's
    /// root and its query, as [`Item::link`]. Never inside a clickable
    /// shape (a link in a button is two controls in one).
    pub link: Option<String>,
}

/// The geometry of a shape, in figure units.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        /// Corner radius.
        r: f32,
    },
    Circle {
        x: f32,
        y: f32,
        r: f32,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        arrow: Arrow,
    },
    /// SVG path data, built with [`PathData`]; arrowheads follow the
    /// segment into the first and the last point.
    Path {
        d: String,
        arrow: Arrow,
        /// First point, then the one after it.
        start: [(f32, f32); 2],
        /// The point before the last, then the last.
        end: [(f32, f32); 2],
    },
    Text {
        x: f32,
        y: f32,
        text: String,
        anchor: Anchor,
        size: Size,
        mono: bool,
    },
    /// Children drawn translated by (`x`, `y`); moving a group moves them all,
    /// and the renderer animates the move.
    Group {
        x: f32,
        y: f32,
        children: Vec<Shape>,
    },
}

/// Arrowheads on a line or path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Arrow {
    #[default]
    None,
    End,
    Both,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Anchor {
    Start,
    #[default]
    Middle,
    End,
}

/// Size roles, so every demo's text is legible from the back of a lecture hall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Size {
    /// Axis ticks and footnotes.
    Small,
    #[default]
    Normal,
    /// Values that carry the idea (a register, a verdict).
    Large,
    /// A panel's heading.
    Title,
}

impl Size {
    /// Text height in figure units (static/scene.css).
    pub fn units(self) -> f32 {
        match self {
            Size::Small => 13.0,
            Size::Normal => 16.0,
            Size::Large => 21.0,
            Size::Title => 17.0,
        }
    }

    /// An estimate of one character's advance, for tests that check a
    /// text stays inside its figure: sans-serif text averages a little over
    /// half its height, monospace 0.6 of it.
    pub fn advance(self, mono: bool) -> f32 {
        self.units() * if mono { 0.6 } else { 0.55 }
    }
}

impl Shape {
    fn new(key: impl Into<String>, kind: Kind) -> Self {
        Shape {
            key: key.into(),
            kind,
            class: String::new(),
            state: None,
            label: None,
            focus: None,
            on_click: None,
            link: None,
        }
    }

    pub fn rect(key: impl Into<String>, x: f32, y: f32, w: f32, h: f32) -> Self {
        Self::new(key, Kind::Rect { x, y, w, h, r: 4.0 })
    }

    pub fn circle(key: impl Into<String>, x: f32, y: f32, r: f32) -> Self {
        Self::new(key, Kind::Circle { x, y, r })
    }

    pub fn line(key: impl Into<String>, (x1, y1): (f32, f32), (x2, y2): (f32, f32)) -> Self {
        Self::new(
            key,
            Kind::Line {
                x1,
                y1,
                x2,
                y2,
                arrow: Arrow::None,
            },
        )
    }

    /// A line with an arrowhead at its end.
    pub fn arrow(key: impl Into<String>, from: (f32, f32), to: (f32, f32)) -> Self {
        Self::line(key, from, to).arrowhead(Arrow::End)
    }

    pub fn path(key: impl Into<String>, d: PathData) -> Self {
        let (start, end) = d.ends();
        Self::new(
            key,
            Kind::Path {
                d: d.build(),
                arrow: Arrow::None,
                start,
                end,
            },
        )
    }

    /// Centred text of normal size.
    pub fn text(key: impl Into<String>, x: f32, y: f32, text: impl Into<String>) -> Self {
        Self::new(
            key,
            Kind::Text {
                x,
                y,
                text: text.into(),
                anchor: Anchor::Middle,
                size: Size::Normal,
                mono: false,
            },
        )
    }

    pub fn group(key: impl Into<String>, children: Vec<Shape>) -> Self {
        Self::new(
            key,
            Kind::Group {
                x: 0.0,
                y: 0.0,
                children,
            },
        )
    }

    /// Adds semantic classes (space-separated).
    pub fn class(mut self, class: &str) -> Self {
        if !class.is_empty() {
            if !self.class.is_empty() {
                self.class.push(' ');
            }
            self.class.push_str(class);
        }
        self
    }

    /// Adds `class` when `on` holds.
    pub fn class_if(self, on: bool, class: &str) -> Self {
        if on {
            self.class(class)
        } else {
            self
        }
    }

    pub fn state(mut self, state: impl Into<String>) -> Self {
        self.state = Some(state.into());
        self
    }

    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = Some(label.into());
        self
    }

    pub fn focus(mut self, key: impl Into<String>) -> Self {
        self.focus = Some(key.into());
        self
    }

    pub fn on_click(mut self, command: Slot) -> Self {
        self.on_click = Some(command);
        self
    }

    /// Makes a text a link to another page of the lab ([`Shape::link`]).
    pub fn link(mut self, to: impl Into<String>) -> Self {
        self.link = Some(to.into());
        self
    }

    /// Corner radius of a rect.
    pub fn rounded(mut self, radius: f32) -> Self {
        if let Kind::Rect { r, .. } = &mut self.kind {
            *r = radius;
        }
        self
    }

    pub fn arrowhead(mut self, heads: Arrow) -> Self {
        match &mut self.kind {
            Kind::Line { arrow, .. } | Kind::Path { arrow, .. } => *arrow = heads,
            _ => {}
        }
        self
    }

    /// Text anchored at its start (left) instead of its middle.
    pub fn start(self) -> Self {
        self.anchor(Anchor::Start)
    }

    /// Text anchored at its end (right).
    pub fn end(self) -> Self {
        self.anchor(Anchor::End)
    }

    pub fn anchor(mut self, to: Anchor) -> Self {
        if let Kind::Text { anchor, .. } = &mut self.kind {
            *anchor = to;
        }
        self
    }

    pub fn size(mut self, to: Size) -> Self {
        if let Kind::Text { size, .. } = &mut self.kind {
            *size = to;
        }
        self
    }

    /// Monospace: registers, addresses, values.
    pub fn mono(mut self) -> Self {
        if let Kind::Text { mono, .. } = &mut self.kind {
            *mono = true;
        }
        self
    }

    /// Moves a group (its children keep their own coordinates).
    pub fn at(mut self, dx: f32, dy: f32) -> Self {
        if let Kind::Group { x, y, .. } = &mut self.kind {
            *x = dx;
            *y = dy;
        }
        self
    }

    pub fn has_class(&self, class: &str) -> bool {
        self.class.split(' ').any(|c| c == class)
    }

    /// The text of a text shape.
    pub fn text_content(&self) -> Option<&str> {
        match &self.kind {
            Kind::Text { text, .. } => Some(text),
            _ => None,
        }
    }

    pub fn children(&self) -> &[Shape] {
        match &self.kind {
            Kind::Group { children, .. } => children,
            _ => &[],
        }
    }
}

impl Figure {
    pub fn new(key: impl Into<String>, label: impl Into<String>, width: f32, height: f32) -> Self {
        Figure {
            key: key.into(),
            label: label.into(),
            width,
            height,
            shapes: Vec::new(),
            legend: Vec::new(),
            class: String::new(),
        }
    }

    pub fn push(&mut self, shape: Shape) {
        self.shapes.push(shape);
    }

    pub fn extend(&mut self, shapes: impl IntoIterator<Item = Shape>) {
        self.shapes.extend(shapes);
    }

    pub fn legend(mut self, class: &str, meaning: impl Into<String>) -> Self {
        self.legend.push((class.to_string(), meaning.into()));
        self
    }

    pub fn class(mut self, class: &str) -> Self {
        self.class = class.to_string();
        self
    }

    /// Every shape, depth first.
    pub fn walk(&self) -> Vec<&Shape> {
        fn visit<'a>(shapes: &'a [Shape], out: &mut Vec<&'a Shape>) {
            for shape in shapes {
                out.push(shape);
                visit(shape.children(), out);
            }
        }
        let mut out = Vec::new();
        visit(&self.shapes, &mut out);
        out
    }

    /// The shape with this key, anywhere in the figure.
    pub fn find(&self, key: &str) -> Option<&Shape> {
        self.walk().into_iter().find(|s| s.key == key)
    }
}

/// A data table: a caption, column headings, rows whose first cell names them.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub key: String,
    pub caption: String,
    pub columns: Vec<String>,
    pub rows: Vec<Row>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub key: String,
    pub class: String,
    pub state: Option<String>,
    pub focus: Option<String>,
    pub cells: Vec<Cell>,
    /// What clicking the row sends (e.g. "show this outcome").
    pub on_click: Option<Slot>,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Cell {
    pub text: String,
    pub mono: bool,
    pub class: String,
    /// Test hook for a cell a test reads.
    pub key: Option<String>,
}

impl Cell {
    pub fn text(text: impl Into<String>) -> Self {
        Cell {
            text: text.into(),
            ..Cell::default()
        }
    }

    pub fn mono(text: impl Into<String>) -> Self {
        Cell {
            mono: true,
            ..Cell::text(text)
        }
    }

    pub fn class(mut self, class: &str) -> Self {
        self.class = class.to_string();
        self
    }

    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl Table {
    /// The cell carrying test hook `key`, in any row.
    pub fn cell(&self, key: &str) -> Option<&Cell> {
        self.rows
            .iter()
            .flat_map(|r| &r.cells)
            .find(|c| c.key.as_deref() == Some(key))
    }

    pub fn new(key: impl Into<String>, caption: impl Into<String>, columns: &[&str]) -> Self {
        Table {
            key: key.into(),
            caption: caption.into(),
            columns: columns.iter().map(|c| c.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, key: impl Into<String>, cells: Vec<Cell>) -> &mut Row {
        self.rows.push(Row {
            key: key.into(),
            class: String::new(),
            state: None,
            focus: None,
            cells,
            on_click: None,
        });
        self.rows.last_mut().expect("just pushed")
    }
}

impl Row {
    pub fn class(&mut self, class: &str) -> &mut Self {
        self.class = class.to_string();
        self
    }
    pub fn state(&mut self, state: impl Into<String>) -> &mut Self {
        self.state = Some(state.into());
        self
    }
    pub fn focus(&mut self, key: impl Into<String>) -> &mut Self {
        self.focus = Some(key.into());
        self
    }
    pub fn on_click(&mut self, command: Slot) -> &mut Self {
        self.on_click = Some(command);
        self
    }
}

/// A short list: a log, a queue of frames, the last few polls.
#[derive(Clone, Debug, PartialEq)]
pub struct List {
    pub key: String,
    pub heading: String,
    pub items: Vec<Item>,
    /// Shown when there are no items.
    pub empty: String,
    pub focus: Option<String>,
    /// `chips` draws items side by side; otherwise one per line.
    pub chips: bool,
    /// Extra classes (the live adapter adds `focus`).
    pub class: String,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct Item {
    pub key: String,
    pub text: String,
    pub class: String,
    /// A word before the text that says what colour alone would (`Fault:`).
    pub tag: Option<String>,
    pub mono: bool,
    /// Another page of the lab the item opens: its path from the site's
    /// root and its query (`/nic/napi?s=v1.…`). The page that draws it
    /// adds the site's base and the way back to itself.
    pub link: Option<String>,
}

impl Item {
    pub fn new(key: impl Into<String>, text: impl Into<String>) -> Self {
        Item {
            key: key.into(),
            text: text.into(),
            ..Item::default()
        }
    }
    pub fn class(mut self, class: &str) -> Self {
        self.class = class.to_string();
        self
    }
    pub fn tag(mut self, tag: impl Into<String>) -> Self {
        self.tag = Some(tag.into());
        self
    }
    pub fn mono(mut self) -> Self {
        self.mono = true;
        self
    }
    /// Makes the item a link to another page of the lab ([`Item::link`]).
    pub fn link(mut self, to: impl Into<String>) -> Self {
        self.link = Some(to.into());
        self
    }
}

impl List {
    pub fn new(
        key: impl Into<String>,
        heading: impl Into<String>,
        empty: impl Into<String>,
    ) -> Self {
        List {
            key: key.into(),
            heading: heading.into(),
            items: Vec::new(),
            empty: empty.into(),
            focus: None,
            chips: false,
            class: String::new(),
        }
    }
    pub fn chips(mut self) -> Self {
        self.chips = true;
        self
    }
    pub fn focus(mut self, key: impl Into<String>) -> Self {
        self.focus = Some(key.into());
        self
    }
    pub fn item(mut self, item: Item) -> Self {
        self.items.push(item);
        self
    }
}

impl Scene {
    pub fn new(title: impl Into<String>, summary: impl Into<String>) -> Self {
        Scene {
            title: title.into(),
            summary: summary.into(),
            parts: Vec::new(),
        }
    }

    pub fn figure(mut self, figure: Figure) -> Self {
        self.parts.push(Part::Figure(figure));
        self
    }

    pub fn table(mut self, table: Table) -> Self {
        self.parts.push(Part::Table(table));
        self
    }

    pub fn list(mut self, list: List) -> Self {
        self.parts.push(Part::List(list));
        self
    }

    pub fn figures(&self) -> impl Iterator<Item = &Figure> {
        self.parts.iter().filter_map(|p| match p {
            Part::Figure(f) => Some(f),
            _ => None,
        })
    }

    /// Keys that two siblings share (the shapes of a figure or of a group,
    /// a table's rows, a list's items): the renderer tells shapes apart by
    /// key, so a repeated one is a view's bug.
    pub fn repeated_keys(&self) -> Vec<String> {
        fn repeats<'a>(keys: impl Iterator<Item = &'a str>, out: &mut Vec<String>) {
            let mut seen = std::collections::BTreeSet::new();
            for key in keys {
                if !seen.insert(key) {
                    out.push(key.to_string());
                }
            }
        }
        fn shapes(list: &[Shape], out: &mut Vec<String>) {
            repeats(list.iter().map(|s| s.key.as_str()), out);
            for s in list {
                shapes(s.children(), out);
            }
        }
        let mut out = Vec::new();
        for part in &self.parts {
            match part {
                Part::Figure(f) => shapes(&f.shapes, &mut out),
                Part::Table(t) => repeats(t.rows.iter().map(|r| r.key.as_str()), &mut out),
                Part::List(l) => repeats(l.items.iter().map(|i| i.key.as_str()), &mut out),
            }
        }
        out
    }

    /// The shape with this key in any figure.
    pub fn find(&self, key: &str) -> Option<&Shape> {
        self.figures().find_map(|f| f.find(key))
    }

    pub fn table_named(&self, key: &str) -> Option<&Table> {
        self.parts.iter().find_map(|p| match p {
            Part::Table(t) if t.key == key => Some(t),
            _ => None,
        })
    }

    pub fn list_named(&self, key: &str) -> Option<&List> {
        self.parts.iter().find_map(|p| match p {
            Part::List(l) if l.key == key => Some(l),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_two_siblings_share_is_found_at_any_depth_and_cousins_may_share() {
        let mut figure = Figure::new("f", "F", 10.0, 10.0);
        figure.push(Shape::group(
            "a",
            vec![Shape::rect("r", 0.0, 0.0, 1.0, 1.0)],
        ));
        figure.push(Shape::group(
            "b",
            vec![Shape::rect("r", 0.0, 0.0, 1.0, 1.0)],
        ));
        let cousins = Scene::new("t", "s").figure(figure.clone());
        assert!(cousins.repeated_keys().is_empty());
        figure.push(Shape::group(
            "c",
            vec![
                Shape::rect("x", 0.0, 0.0, 1.0, 1.0),
                Shape::text("x", 0.0, 0.0, "x"),
            ],
        ));
        let twins = Scene::new("t", "s").figure(figure);
        assert_eq!(twins.repeated_keys(), vec!["x".to_string()]);
    }
}
