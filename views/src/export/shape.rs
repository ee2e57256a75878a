//! A figure's shapes as the downloaded file writes them: the same geometry,
//! classes and hover texts as the page, nothing interactive.

use super::node::Node;
use crate::page::svg::{anchor, arrowhead, arrowheads, draws, num, text_class};
use crate::scene::{Figure, Kind, Shape};

/// A figure's drawing, placed at (`x`, `y`) in the file.
pub fn drawing(f: &Figure, x: f32, y: f32) -> Node {
    Node::new("svg")
        .attr("class", "scene")
        .attr("viewBox", format!("0 0 {} {}", num(f.width), num(f.height)))
        .attr("x", num(x))
        .attr("y", num(y))
        .attr("width", num(f.width))
        .attr("height", num(f.height))
        .children(f.shapes.iter().filter(|s| draws(s)).map(shape))
}

/// One shape; its label is its `<title>` (hover text in a viewer).
pub fn shape(s: &Shape) -> Node {
    let mut el = match &s.kind {
        Kind::Rect { x, y, w, h, r } => Node::new("rect")
            .attr("x", num(*x))
            .attr("y", num(*y))
            .attr("width", num(w.max(0.0)))
            .attr("height", num(h.max(0.0)))
            .attr("rx", num(*r)),
        Kind::Circle { x, y, r } => Node::new("circle")
            .attr("cx", num(*x))
            .attr("cy", num(*y))
            .attr("r", num(*r)),
        Kind::Line { x1, y1, x2, y2, .. } => Node::new("line")
            .attr("x1", num(*x1))
            .attr("y1", num(*y1))
            .attr("x2", num(*x2))
            .attr("y2", num(*y2)),
        Kind::Path { d, .. } => Node::new("path").attr("d", d.clone()),
        Kind::Text {
            x,
            y,
            text,
            anchor: a,
            size,
            mono,
        } => Node::new("text")
            .attr("x", num(*x))
            .attr("y", num(*y))
            .attr("text-anchor", anchor(*a))
            .class(&text_class(*size, *mono))
            .text(text.clone()),
        Kind::Group { x, y, children } => {
            let g = Node::new("g");
            let g = if *x != 0.0 || *y != 0.0 {
                g.attr("transform", format!("translate({} {})", num(*x), num(*y)))
            } else {
                g
            };
            g.children(children.iter().filter(|c| draws(c)).map(shape))
        }
    };
    let heads = arrowheads(s);
    if !heads.is_empty() {
        // A line or path with arrowheads: a group of the stroke and its heads.
        el = Node::new("g")
            .attr("class", "arrow")
            .child(el)
            .children(heads.into_iter().map(|(from, tip)| {
                Node::new("path")
                    .attr("class", "head")
                    .attr("d", arrowhead(from, tip))
            }));
    }
    let mut el = el.class(&s.class).attr_opt("data-state", s.state.clone());
    if let Some(label) = &s.label {
        let title = Node::new("title").text(label.clone());
        if let Some(text) = el.text.take() {
            el.children.push(Node::new("tspan").text(text));
        }
        el.children.insert(0, title);
    }
    el
}
