//! One cache level (or a TLB) drawn as a sets × ways grid: a row per set,
//! a cell per way with its tag, dirty bit and place in the replacement
//! order, the way the last access hit or filled marked. Shared by the cache
//! hierarchy and the TLB pictures.

use super::kit::{rect, text, MONO, SMALL, START, STRONG};
use crate::draw::text::{line_key, wrap_caption};
use crate::layout::Layout;
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

/// How a grid is arranged: the wide layout's, or a phone's (where 16 ways
/// side by side would be 17 units each).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Arrangement {
    /// Room left of each row for the set's name, where the cells start;
    /// `None`: what the longest name shown takes.
    pub label_w: Option<f32>,
    /// A set whose ways take several lines has its name on a line above
    /// them instead, so the cells get the whole width.
    pub name_above_wrapped: bool,
    /// Most ways drawn side by side before a set's row wraps.
    pub per_row: usize,
    /// Spread a wrapping set evenly over its lines (4 ways at most 3 a line
    /// as 2 + 2, not 3 + 1) and drop the `way n` heads, which would name
    /// only the first line's ways.
    pub even: bool,
    /// Many sets of few ways in two columns of sets, so the grid stays short.
    pub columns: bool,
}

impl Arrangement {
    /// Laptops: up to 16 ways a line, the set's name on its left.
    pub const WIDE: Arrangement = Arrangement {
        label_w: Some(LABEL_W),
        name_above_wrapped: false,
        per_row: PER_ROW,
        even: false,
        columns: true,
    };

    /// Phones: one column of sets, at most `per_row` ways a line, spread
    /// evenly; a one-line set's name left of it in a column just wide
    /// enough, a wrapping set's name above it.
    pub const fn narrow(per_row: usize) -> Arrangement {
        Arrangement {
            label_w: None,
            name_above_wrapped: true,
            per_row,
            even: true,
            columns: false,
        }
    }
}

/// Height of the line a set's name takes above its row, and where the
/// name starts.
const NAME_H: f32 = 20.0;
const NAME_X: f32 = 4.0;
/// Height of the line of `way n` heads.
const HEAD_H: f32 = 24.0;

/// How wide a caption line may be on a phone, in figure units.
const CAPTION_W: f32 = 412.0;
/// From one caption line to the next.
const CAPTION_LINE: f32 = 17.0;

/// A grid figure's caption, small and bold at its top: one line on a wide
/// screen, as many as it takes on a phone. Returns the text shapes (`title`,
/// `title-1`, …) and where the grid below them starts.
pub fn caption(caption: &str, layout: Layout) -> (Vec<Shape>, f32) {
    let lines = match layout {
        Layout::Wide => vec![caption.to_string()],
        Layout::Narrow => wrap_caption(caption, crate::draw::text::small_chars_in(CAPTION_W)),
    };
    let shapes: Vec<Shape> = lines
        .into_iter()
        .enumerate()
        .map(|(i, line)| {
            let key = line_key("title", i);
            text(
                &key,
                4.0,
                20.0 + i as f32 * CAPTION_LINE,
                line,
                START | SMALL | STRONG,
            )
        })
        .collect();
    let top = 30.0 + shapes.len().saturating_sub(1) as f32 * CAPTION_LINE;
    (shapes, top)
}

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
    at: (f32, f32),
    mark: Option<(u64, usize, Mark)>,
    name: &dyn Fn(&Block) -> String,
) -> (Vec<Shape>, f32, f32) {
    grid_in(Arrangement::WIDE, prefix, level, sets, at, mark, name)
}

/// [`grid`] arranged as `arr` says.
pub fn grid_in(
    arr: Arrangement,
    prefix: &str,
    level: &Level,
    sets: &[u64],
    (width, top): (f32, f32),
    mark: Option<(u64, usize, Mark)>,
    name: &dyn Fn(&Block) -> String,
) -> (Vec<Shape>, f32, f32) {
    let ways = level.spec.ways;
    let most = ways.min(arr.per_row);
    let lines = ways.div_ceil(most);
    let per_row = if arr.even { ways.div_ceil(lines) } else { most };
    // A way's line and place in it. Spread evenly, the lines short of
    // `per_row` are the last ones, one way short each (16 ways at most 3
    // a line: 3 3 3 3 2 2).
    let short = if arr.even { per_row * lines - ways } else { 0 };
    let full = (lines - short) * per_row;
    let place = |way: usize| match way.checked_sub(full) {
        Some(w) => (lines - short + w / (per_row - 1), w % (per_row - 1)),
        None => (way / per_row, way % per_row),
    };
    // Many sets of few ways: two columns of sets, so the grid stays short.
    let columns = if arr.columns && sets.len() > 8 && ways <= 4 {
        2
    } else {
        1
    };
    let rows = sets.len().div_ceil(columns);
    let column_w = width / columns as f32;
    let name_above = arr.name_above_wrapped && lines > 1;
    let longest = sets.iter().map(|s| format!("set {s}").len()).max();
    let label_w = match arr.label_w {
        _ if name_above => NAME_X,
        Some(w) => w,
        None => NAME_X + longest.unwrap_or(0) as f32 * MONO_W + 6.0,
    };
    let name_h = if name_above { NAME_H } else { 0.0 };
    let cell_w = ((column_w - label_w - 8.0) / per_row as f32 - GAP).min(150.0);
    let row_h = name_h + lines as f32 * (CELL_H + GAP) + 6.0;
    // An evenly wrapped set has no `way n` heads, nor the line they take.
    let dropped = arr.even && lines > 1;
    let heads = cell_w >= 44.0 && !dropped;
    let head_h = if dropped { 4.0 } else { HEAD_H };
    let mut shapes: Vec<Shape> = (0..per_row * columns)
        .map(|i| {
            let (c, w) = (i / per_row, i % per_row);
            let x = c as f32 * column_w + label_w + w as f32 * (cell_w + GAP) + cell_w / 2.0;
            text(
                &format!("{prefix}-way-{i}"),
                x,
                top + 14.0,
                format!("way {w}"),
                SMALL,
            )
        })
        .filter(|_| heads)
        .collect();
    let top = top + head_h;
    for (r, &set) in sets.iter().enumerate() {
        let left = (r / rows) as f32 * column_w;
        let y0 = top + (r % rows) as f32 * row_h;
        let words = order_words(level, set);
        let set_key = format!("{prefix}-set-{set}");
        // The set's focus is on its name: its empty ways are the row's own
        // rects, and a focused group outlines its rects as its frame.
        let name_y = if name_above { y0 + 15.0 } else { y0 + 26.0 };
        let mut row = vec![text(
            "name",
            left + NAME_X,
            name_y,
            format!("set {set}"),
            START | MONO,
        )
        .focus(set_key.clone())];
        let mut said: Vec<(usize, Option<String>)> = Vec::with_capacity(ways);
        for (way, word) in words.into_iter().enumerate() {
            let (line, at) = place(way);
            let x = left + label_w + at as f32 * (cell_w + GAP);
            let y = y0 + name_h + line as f32 * (CELL_H + GAP);
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
        label_w + per_row as f32 * (cell_w + GAP) + 8.0
    };
    (shapes, head_h + rows as f32 * row_h, used)
}
