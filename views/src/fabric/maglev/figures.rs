//! The small table's two figures: each backend's preference list with how
//! far it has read, and the lookup table filling in, with the table before
//! a backend left and modulo hashing's tables beside it.

use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::Ui;
use crate::scene::{Figure, Shape, Size};
use demos::fabric::maglev::{modulo_table, modulo_without, preference, Maglev, MaglevAction};

const CELL_H: f32 = 26.0;
const ROW_PITCH: f32 = 34.0;
const TOP: f32 = 30.0;

/// Where the cells go: a label column, then M cells.
pub struct Grid {
    pub width: f32,
    label_w: f32,
    pitch: f32,
}

impl Grid {
    pub fn of(m: &Maglev, layout: Layout) -> Grid {
        let width = layout.pick(720.0, NARROW_WIDTH);
        let label_w = layout.pick(110.0, 76.0);
        let room = (width - label_w - 6.0) / m.size().max(1) as f32;
        Grid {
            width,
            label_w,
            pitch: room.min(40.0),
        }
    }

    fn x(&self, j: usize) -> f32 {
        self.label_w + j as f32 * self.pitch
    }

    /// One cell: a box and the text in it.
    fn cell(&self, key: String, j: usize, y: f32, class: &str, text: String) -> Shape {
        let w = self.pitch - 3.0;
        Shape::group(
            key,
            vec![
                Shape::rect("box", self.x(j), y, w, CELL_H)
                    .class(class)
                    .rounded(3.0),
                Shape::text("text", self.x(j) + w / 2.0, y + 18.0, text)
                    .mono()
                    .size(Size::Small),
            ],
        )
    }
}

/// How backend `i`'s list reads at place `j`.
fn mark(m: &Maglev, i: usize, j: usize, entries: &[Option<usize>]) -> (&'static str, &'static str) {
    let Some(read) = m.read_to(i) else {
        return ("idle ghost", "left");
    };
    let e = preference(&m.backends()[i], m.size(), j);
    if j < read {
        if entries[e] == Some(i) {
            ("done", "claimed")
        } else {
            ("warn", "passed")
        }
    } else if j == read && !m.full() {
        ("accent", "next")
    } else {
        ("idle", "ahead")
    }
}

pub fn lists(m: &Maglev, layout: Layout, ui: &mut Ui<Maglev>) -> Figure {
    let g = Grid::of(m, layout);
    let entries = m.entries();
    let n = m.backends().len();
    let height = TOP + n as f32 * ROW_PITCH + 4.0;
    let mut f = Figure::new(
        "lists",
        format!(
            "Each backend's preference list: entry offset + j·skip mod {} for j = 0 to {}",
            m.size(),
            m.size().saturating_sub(1)
        ),
        g.width,
        height,
    )
    .legend("done", "claimed by this backend")
    .legend("warn", "already taken when it read there")
    .legend("accent", "where it reads next")
    .legend("idle", "not read yet");
    f.push(
        Shape::text(
            "lists-title",
            4.0,
            18.0,
            "preference lists (offset:skip) · select one to edit",
        )
        .start()
        .size(Size::Small),
    );
    let turn = m.whose_turn();
    for (i, b) in m.backends().iter().enumerate() {
        let y = TOP + i as f32 * ROW_PITCH;
        let mut parts = vec![Shape::text(
            "name",
            4.0,
            y + 18.0,
            format!(
                "{}{} {}:{}",
                if i == m.selected { "▸" } else { "" },
                b.name,
                b.offset,
                b.skip
            ),
        )
        .start()
        .mono()
        .size(layout.pick(Size::Normal, Size::Small))
        .class_if(i == m.selected, "strong")];
        let mut claimed = Vec::new();
        for j in 0..m.size() {
            let (class, what) = mark(m, i, j, &entries);
            let e = preference(b, m.size(), j);
            if what == "claimed" {
                claimed.push(e.to_string());
            }
            parts.push(g.cell(format!("c{j}"), j, y, class, e.to_string()));
        }
        let state = if m.left == Some(i) {
            "left"
        } else if turn == Some(i) {
            "turn"
        } else {
            "waiting"
        };
        let list: Vec<String> = (0..m.size())
            .map(|j| preference(b, m.size(), j).to_string())
            .collect();
        f.push(
            Shape::group(format!("list-{i}"), parts)
                .state(state)
                .focus(format!("list-{i}"))
                .label(format!(
                    "{}'s preference list, offset {} and skip {}: {}. {}",
                    b.name,
                    b.offset,
                    b.skip,
                    list.join(", "),
                    match m.read_to(i) {
                        None => "It has left.".to_string(),
                        Some(r) => format!(
                            "Read to place {r}; claimed {}.",
                            if claimed.is_empty() {
                                "nothing yet".to_string()
                            } else {
                                claimed.join(", ")
                            }
                        ),
                    }
                ))
                .on_click(ui.act(MaglevAction::Select(i))),
        );
    }
    f
}

/// One labelled row of cells, each `(key, text, class)`.
fn row(
    g: &Grid,
    key: &str,
    focus: &str,
    y: f32,
    label: String,
    cells: Vec<(String, String, &'static str)>,
    layout: Layout,
) -> Shape {
    let mut parts = vec![Shape::text("label", 4.0, y + 18.0, label.clone())
        .start()
        .size(layout.pick(Size::Normal, Size::Small))];
    let mut said = Vec::new();
    for (j, (cell_key, text, class)) in cells.into_iter().enumerate() {
        said.push(format!("{j} {text}"));
        parts.push(g.cell(cell_key, j, y, class, text));
    }
    Shape::group(key, parts)
        .focus(focus)
        .label(format!("{label}: {}", said.join(", ")))
}

pub fn table(m: &Maglev, layout: Layout) -> Figure {
    let g = Grid::of(m, layout);
    let size = m.size();
    let n = m.backends().len();
    let entries = m.entries();
    let before = m.original();
    let name = |o: usize| m.name(o).to_string();
    let mut rows = 2;
    if m.left.is_some() {
        rows += 2;
    }
    let height = TOP + rows as f32 * ROW_PITCH + 30.0;
    let mut f = Figure::new(
        "table",
        format!(
            "The lookup table's {size} entries: who owns each{}, and modulo hashing's table for comparison",
            if m.left.is_some() { ", before and after the backend left" } else { "" }
        ),
        g.width,
        height,
    )
    .legend("done", "claimed; same owner as before")
    .legend("warn", "was the leaver's: must move")
    .legend("fault", "moved although its owner stayed")
    .legend("idle", "empty, or no change to show")
    .legend("accent", "the latest claim");
    f.push(
        Shape::text("entries-title", 4.0, 18.0, "entry")
            .start()
            .size(Size::Small),
    );
    for j in 0..size {
        f.push(
            Shape::text(
                format!("i{j}"),
                g.x(j) + (g.pitch - 3.0) / 2.0,
                20.0,
                j.to_string(),
            )
            .mono()
            .size(Size::Small),
        );
    }
    // The latest claim's outline, drawn first so the cell sits on it.
    if let Some(t) = m.last_turn() {
        f.push(
            Shape::rect(
                "latest",
                g.x(t.claimed) - 3.0,
                TOP - 3.0,
                g.pitch + 3.0,
                CELL_H + 6.0,
            )
            .class("accent")
            .rounded(5.0),
        );
    }
    let now_cells = entries
        .iter()
        .enumerate()
        .map(|(j, owner)| {
            let class = match (owner, m.left) {
                (None, _) => "idle",
                (Some(_), None) => "done",
                (Some(o), Some(gone)) => {
                    if *o == before[j] {
                        "done"
                    } else if before[j] == gone {
                        "warn"
                    } else {
                        "fault"
                    }
                }
            };
            (
                format!("entry-{j}"),
                owner.map_or("·".to_string(), name),
                class,
            )
        })
        .collect();
    let now_label = match m.left {
        Some(gone) => format!("w/o {}", m.name(gone)),
        None => "Maglev".to_string(),
    };
    f.push(row(
        &g, "row-now", "table", TOP, now_label, now_cells, layout,
    ));
    let mut y = TOP + ROW_PITCH;
    if let Some(gone) = m.left {
        let cells = before
            .iter()
            .enumerate()
            .map(|(j, &o)| {
                let class = if o == gone { "warn" } else { "idle" };
                (format!("b{j}"), name(o), class)
            })
            .collect();
        f.push(row(
            &g,
            "row-before",
            "table",
            y,
            "before".to_string(),
            cells,
            layout,
        ));
        y += ROW_PITCH;
    }
    let modulo = modulo_table(size, n);
    let cells = modulo
        .iter()
        .enumerate()
        .map(|(j, &o)| {
            let class = if m.left == Some(o) { "warn" } else { "idle" };
            (format!("m{j}"), name(o), class)
        })
        .collect();
    f.push(row(
        &g,
        "row-mod",
        "modulo",
        y,
        format!("k mod {n}"),
        cells,
        layout,
    ));
    y += ROW_PITCH;
    if let Some(gone) = m.left {
        let after = modulo_without(size, n, gone);
        let cells = after
            .iter()
            .enumerate()
            .map(|(j, &o)| {
                let class = if o == modulo[j] {
                    "done"
                } else if modulo[j] == gone {
                    "warn"
                } else {
                    "fault"
                };
                (format!("a{j}"), name(o), class)
            })
            .collect();
        f.push(row(
            &g,
            "row-mod-after",
            "modulo",
            y,
            format!("k mod {}", n - 1),
            cells,
            layout,
        ));
        y += ROW_PITCH;
    }
    let line = match m.left {
        Some(gone) => format!(
            "moved: Maglev {} so far, {} when full; modulo {} (of {size})",
            m.moved_so_far(),
            m.moved_when_leaves(gone),
            m.modulo_moved(gone)
        ),
        None => "let a backend leave to see which entries change owner".to_string(),
    };
    f.push(
        Shape::text("moved-line", 4.0, y + 16.0, line)
            .start()
            .size(Size::Small)
            .focus("moved"),
    );
    f
}
