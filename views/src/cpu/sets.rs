//! One cache level (or a TLB) drawn as a sets × ways grid: a row per set,
//! a cell per way with its tag, dirty bit and place in the replacement
//! order, the way the last access hit or filled marked. Shared by the cache
//! hierarchy and the TLB pictures.

use super::kit::{rect, text, MONO, SMALL, START};
use crate::scene::Shape;
use demos::cpu::cachesim::{Block, Level, Policy};

/// Width of the widest figures.
pub const WIDTH: f32 = 960.0;
const LABEL_W: f32 = 92.0;
const CELL_H: f32 = 40.0;
const GAP: f32 = 4.0;
/// Ways drawn side by side before the row wraps.
const PER_ROW: usize = 16;
/// Sets drawn when a level has more than [`ALL_SETS`].
const SOME_SETS: usize = 8;
const ALL_SETS: u64 = 16;
/// Width of a monospace character at normal and small size (0.6 em).
const MONO_W: f32 = 9.7;
const MONO_SMALL_W: f32 = 7.9;

/// What the last access did to one way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    Hit,
    /// A new line, with the first byte of the line it evicted, if any.
    Filled(Option<u64>),
}

/// The sets a picture shows: all of them when there are few, else the ones
/// ever used (the one the last access used among them), at most [`SOME_SETS`].
pub fn shown_sets(level: &Level, current: Option<u64>) -> Vec<u64> {
    if level.spec.sets <= ALL_SETS {
        return (0..level.spec.sets).collect();
    }
    let mut sets: Vec<u64> = current.into_iter().collect();
    for &s in level.sets.keys() {
        if sets.len() == SOME_SETS {
            break;
        }
        if Some(s) != current {
            sets.push(s);
        }
    }
    sets.sort_unstable();
    sets
}

/// Text that fits a cell: normal size, else small, else none.
fn fitted(key: &str, x: f32, y: f32, w: f32, s: String) -> Option<Shape> {
    let chars = s.chars().count() as f32;
    let style = if chars * MONO_W + 8.0 <= w {
        MONO
    } else if chars * MONO_SMALL_W + 6.0 <= w {
        MONO | SMALL
    } else {
        return None;
    };
    Some(text(key, x, y, s, style))
}

/// Each valid way's place in the eviction order, as the cell shows it:
/// `#1` is evicted next under LRU and FIFO; PLRU marks its victim `next`.
fn order_words(level: &Level, set: u64) -> Vec<String> {
    let policy = level.spec.policy;
    let mut words = vec![String::new(); level.spec.ways];
    let Some(s) = level.sets.get(&set) else {
        return words;
    };
    match policy {
        Policy::Lru | Policy::Fifo => {
            let valid = s.order(policy).into_iter().filter(|&w| s.ways[w].is_some());
            for (rank, way) in valid.enumerate() {
                words[way] = format!("#{}", rank + 1);
            }
        }
        Policy::Plru if s.valid() == s.ways.len() => {
            if let Some(w) = s.next_way(policy) {
                words[w] = "next".into();
            }
        }
        _ => {}
    }
    words
}

/// A set in words, its hover text and its line in the picture as text:
/// each valid way's name and state, and runs of empty ways together
/// (`set 1: way 0 0x1 (valid · hit); ways 1–3 empty`).
fn set_words(set: u64, ways: &[(usize, Option<String>)]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < ways.len() {
        let (way, said) = &ways[i];
        if let Some(said) = said {
            parts.push(format!("way {way} {said}"));
            i += 1;
            continue;
        }
        let run = ways[i..].iter().take_while(|(_, s)| s.is_none()).count();
        parts.push(match run {
            1 => format!("way {way} empty"),
            _ => format!("ways {way}–{} empty", way + run - 1),
        });
        i += run;
    }
    format!("set {set}: {}", parts.join("; "))
}

/// The grid from `top` down, at most `width` wide; returns the shapes and
/// the height and width used.
/// `prefix` makes the keys (`l1-set-3`, `l1-set-3-way-1`); `name` is the
/// text of a valid way (its tag, its page number).
pub fn grid(
    prefix: &str,
    level: &Level,
    sets: &[u64],
    (width, top): (f32, f32),
    mark: Option<(u64, usize, Mark)>,
    name: &dyn Fn(&Block) -> String,
) -> (Vec<Shape>, f32, f32) {
    let ways = level.spec.ways;
    let per_row = ways.min(PER_ROW);
    let lines = ways.div_ceil(per_row);
    // Many sets of few ways: two columns of sets, so the grid stays short.
    let columns = if sets.len() > 8 && ways <= 4 { 2 } else { 1 };
    let rows = sets.len().div_ceil(columns);
    let column_w = width / columns as f32;
    let cell_w = ((column_w - LABEL_W - 8.0) / per_row as f32 - GAP).min(150.0);
    let row_h = lines as f32 * (CELL_H + GAP) + 6.0;
    let mut shapes: Vec<Shape> = (0..per_row * columns)
        .map(|i| {
            let (c, w) = (i / per_row, i % per_row);
            let x = c as f32 * column_w + LABEL_W + w as f32 * (cell_w + GAP) + cell_w / 2.0;
            text(
                &format!("{prefix}-way-{i}"),
                x,
                top + 14.0,
                format!("way {w}"),
                SMALL,
            )
        })
        .filter(|_| cell_w >= 44.0)
        .collect();
    let top = top + 24.0;
    for (r, &set) in sets.iter().enumerate() {
        let left = (r / rows) as f32 * column_w;
        let y0 = top + (r % rows) as f32 * row_h;
        let words = order_words(level, set);
        let set_key = format!("{prefix}-set-{set}");
        // The set's focus is on its name: its empty ways are the row's own
        // rects, and a focused group outlines its rects as its frame.
        let mut row = vec![text(
            "name",
            left + 4.0,
            y0 + 26.0,
            format!("set {set}"),
            START | MONO,
        )
        .focus(set_key.clone())];
        let mut said: Vec<(usize, Option<String>)> = Vec::with_capacity(ways);
        for (way, word) in words.into_iter().enumerate() {
            let x = left + LABEL_W + (way % per_row) as f32 * (cell_w + GAP);
            let y = y0 + (way / per_row) as f32 * (CELL_H + GAP);
            let key = format!("{set_key}-way-{way}");
            let Some(block) = level.block(set, way) else {
                // An empty way is its dashed outline alone: a picture holds
                // up to a hundred, all empty at first, and each element is
                // parsed when the page opens. The set's label says it.
                row.push(
                    rect(&key, x, y, cell_w, CELL_H, "idle dashed")
                        .state("invalid")
                        .focus(key),
                );
                said.push((way, None));
                continue;
            };
            let hot = mark.and_then(|(s, w, m)| (s == set && w == way).then_some(m));
            let mut state = if block.dirty { "dirty" } else { "valid" }.to_string();
            let class = match hot {
                Some(Mark::Hit) => "hit thick",
                Some(Mark::Filled(_)) => "accent thick",
                None if block.dirty => "warn",
                None => "",
            };
            if let Some(m) = hot {
                state.push_str(if m == Mark::Hit {
                    " · hit"
                } else {
                    " · filled"
                });
            }
            let cx = x + cell_w / 2.0;
            let tag = name(&block);
            let mut cell = vec![rect("r", x, y, cell_w, CELL_H, "")];
            cell.extend(fitted("tag", cx, y + 19.0, cell_w, tag.clone()));
            let dirty = if block.dirty { " D" } else { "" };
            // The line just filled names its victim where the order would be.
            let note = match hot {
                Some(Mark::Filled(Some(base))) => {
                    format!("out: {}", name(&Block { base, dirty: false }))
                }
                _ => format!("{word}{dirty}"),
            };
            cell.push(text(
                "order",
                cx,
                y + 35.0,
                note.trim_start().into(),
                MONO | SMALL,
            ));
            said.push((way, Some(format!("{tag} ({state})"))));
            row.push(
                Shape::group(key.clone(), cell)
                    .class(class)
                    .state(state)
                    .focus(key),
            );
        }
        shapes.push(Shape::group(set_key, row).label(set_words(set, &said)));
    }
    let used = if columns > 1 {
        width
    } else {
        LABEL_W + per_row as f32 * (cell_w + GAP) + 8.0
    };
    (shapes, 24.0 + rows as f32 * row_h, used)
}
