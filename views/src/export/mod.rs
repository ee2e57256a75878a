//! "Download figure": the current picture as one standalone SVG file, with the
//! design system's scene styles inlined (light theme), ready for a slide.
//! One implementation for every demo: the shapes the page draws, with the
//! same geometry and classes (`crate::page::svg`), plus tables and lists set
//! as text.

mod node;
mod shape;

use crate::page::naming::describe;
use crate::page::svg::num;
use crate::scene::{List, Part, Scene, Table};
use node::Node as El;

/// The scene stylesheet: colours, strokes and text roles of every scene
/// class. The page's document inlines the same file (index.html), so
/// screen and file always agree.
pub const SCENE_CSS: &str = include_str!("../../../static/scene.css");

const MARGIN: f32 = 24.0;
const LINE: f32 = 24.0;
/// Width of a monospace character at the export's text size, for columns.
const CHAR: f32 = 9.0;

/// The file name for a downloaded figure: `stack-lab-descriptor-ring.svg`.
pub fn file_name(slug: &str) -> String {
    format!("stack-lab-{slug}.svg")
}

/// One figure's drawing alone, as SVG markup (no page around it): what the
/// narrow-layout preview of `tests/narrow_layouts.rs` shows of each figure.
pub fn figure_markup(f: &crate::scene::Figure) -> String {
    let mut out = String::new();
    shape::drawing(f, 0.0, 0.0).markup(&mut out);
    out
}

/// The standalone SVG document for a scene.
pub fn export(scene: &Scene) -> String {
    let mut body = Vec::new();
    let mut y = MARGIN;
    let mut width: f32 = 640.0;
    body.push(
        El::new("text")
            .attr("x", num(MARGIN))
            .attr("y", num(y + 8.0))
            .attr("class", "t-title")
            .text(scene.title.clone()),
    );
    y += LINE + 8.0;
    for part in &scene.parts {
        match part {
            Part::Figure(f) => {
                body.push(shape::drawing(f, MARGIN, y));
                width = width.max(f.width + 2.0 * MARGIN);
                y += f.height + 8.0;
                if !f.legend.is_empty() {
                    body.push(legend(&f.legend, y + 12.0));
                    y += LINE;
                }
                y += 8.0;
            }
            Part::Table(t) => {
                let (el, w, h) = table(t, y);
                body.push(el);
                width = width.max(w + 2.0 * MARGIN);
                y += h + 12.0;
            }
            Part::List(l) => {
                let (el, h) = list(l, y);
                body.push(el);
                y += h + 12.0;
            }
        }
    }
    let height = y + MARGIN;
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let root = El::new("svg")
        .attr("xmlns", "http://www.w3.org/2000/svg")
        .attr("class", "scene export")
        .attr("width", num(width))
        .attr("height", num(height))
        .attr("viewBox", format!("0 0 {} {}", num(width), num(height)))
        .child(El::new("title").text(scene.title.clone()))
        .child(El::new("desc").text(describe(scene).join(" ")))
        .child(El::new("style").text(SCENE_CSS.to_string()))
        .child(
            El::new("rect")
                .attr("class", "paper")
                .attr("width", "100%")
                .attr("height", "100%"),
        )
        .children(body);
    root.markup(&mut out);
    out.push('\n');
    out
}

fn legend(keys: &[(String, String)], y: f32) -> El {
    let mut x = MARGIN;
    let mut g = El::new("g").attr("class", "legend");
    for (class, meaning) in keys {
        // A key for a kind of line (class `line`, e.g. the execution
        // graph's relations) is a short stroke with the edges' dash, as on
        // the page; any other key is a swatch box.
        let is_line = class.split_whitespace().any(|c| c == "line");
        let (swatch, swatch_w) = if is_line {
            let stroke = El::new("line")
                .attr("x1", num(x))
                .attr("y1", num(y - 4.0))
                .attr("x2", num(x + 24.0))
                .attr("y2", num(y - 4.0));
            (stroke, 24.0)
        } else {
            let rect = El::new("rect")
                .attr("x", num(x))
                .attr("y", num(y - 11.0))
                .attr("width", "14")
                .attr("height", "14")
                .attr("rx", "3");
            (rect, 14.0)
        };
        g = g.child(
            El::new("g")
                .attr("class", class.clone())
                .child(swatch)
                .child(
                    El::new("text")
                        .attr("x", num(x + swatch_w + 6.0))
                        .attr("y", num(y))
                        .attr("text-anchor", "start")
                        .attr("class", "t-small")
                        .text(meaning.clone()),
                ),
        );
        x += 26.0 + swatch_w + meaning.chars().count() as f32 * 7.0;
    }
    g
}

fn text_at(x: f32, y: f32, text: &str, class: &str) -> El {
    El::new("text")
        .attr("x", num(x))
        .attr("y", num(y))
        .attr("text-anchor", "start")
        .class(class)
        .text(text.to_string())
}

/// A table set as aligned monospace columns; returns it, its width and height.
fn table(t: &Table, top: f32) -> (El, f32, f32) {
    let mut widths: Vec<usize> = t.columns.iter().map(|c| c.chars().count()).collect();
    for row in &t.rows {
        for (i, cell) in row.cells.iter().enumerate() {
            if let Some(w) = widths.get_mut(i) {
                *w = (*w).max(cell.text.chars().count());
            }
        }
    }
    let xs: Vec<f32> = widths
        .iter()
        .scan(MARGIN, |x, w| {
            let here = *x;
            *x += (*w as f32 + 2.0) * CHAR;
            Some(here)
        })
        .collect();
    let mut g = El::new("g").attr("class", "export-table");
    let mut y = top + 16.0;
    g = g.child(text_at(MARGIN, y, &t.caption, "t-title"));
    y += LINE;
    for (i, c) in t.columns.iter().enumerate() {
        g = g.child(text_at(xs[i], y, c, "mono strong"));
    }
    for row in &t.rows {
        y += LINE;
        let mut r = El::new("g").class(&row.class);
        for (i, cell) in row.cells.iter().enumerate().take(xs.len()) {
            r = r.child(text_at(
                xs[i],
                y,
                &cell.text,
                &format!("mono {}", cell.class),
            ));
        }
        g = g.child(r);
    }
    let width = widths.iter().map(|w| (*w as f32 + 2.0) * CHAR).sum::<f32>();
    (g, width, y - top + 8.0)
}

/// A list set as lines of text; returns it and its height.
fn list(l: &List, top: f32) -> (El, f32) {
    let mut g = El::new("g").attr("class", "export-list");
    let mut y = top + 16.0;
    g = g.child(text_at(MARGIN, y, &l.heading, "t-title"));
    if l.items.is_empty() {
        y += LINE;
        g = g.child(text_at(MARGIN, y, &l.empty, "muted"));
    }
    for item in &l.items {
        y += LINE;
        let text = match &item.tag {
            Some(tag) => format!("{tag} {}", item.text),
            None => item.text.clone(),
        };
        g = g.child(text_at(MARGIN, y, &text, &item.class));
    }
    (g, y - top + 8.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::Figure;

    #[test]
    fn a_line_key_is_exported_as_a_stroke_with_its_dash_and_a_box_key_as_a_box() {
        let f = Figure::new("f", "f", 200.0, 50.0)
            .legend("done line dashed", "rf")
            .legend("hit", "hit");
        let svg = export(&Scene::new("t", "s").figure(f));
        let legend = &svg[svg.find(r#"class="legend""#).unwrap()..];
        let (rf, hit) = legend.split_at(legend.find(r#"class="hit""#).unwrap());
        assert!(rf.contains(r#"class="done line dashed""#), "{rf}");
        assert!(rf.contains("<line") && !rf.contains("<rect"), "{rf}");
        assert!(hit.contains("<rect") && !hit.contains("<line"), "{hit}");
    }
}
