//! Cache hierarchy: the last access's path L1 → L2 → L3 → DRAM with the
//! cycles it cost, the address cut into tag / set / offset bits per level,
//! each level's sets × ways, and a small address space to click.

mod lesson;

use super::kit::{
    exponents, part, pow2, power_in, rect, text, LARGE, MONO, SMALL, START, STRONG, TITLE, TONE,
};
use super::sets::{caption, grid_in, shown_sets, Arrangement, Mark, WIDTH};
use crate::control::{Control, Field};
use crate::draw::text::pieces_as_lines;
use crate::layout::{Layout, NARROW_WIDTH};
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Scene, Shape};
use demos::cpu::cache_hierarchy::{CacheAction, CacheHierarchy, Preset, LATENCY, LINE, SETS, WAYS};
use demos::cpu::cachesim::parse::parse_number;
use demos::cpu::cachesim::{AccessKind, Allocation, Place, Policy};
use demos::text::plural;
use demos::Quantity;

/// What the learner has picked: loads or stores, and the level being edited
/// (`levels.len()` is DRAM).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Look {
    pub store: bool,
    pub edit: usize,
}

/// Lines in the clickable address space.
const SPACE_LINES: u64 = 64;
const BIT: f32 = 9.7;
/// A level's sets on a phone: at most four ways a line, so a cell is about
/// 80 units beside a set's name and 98 under it (where a server's tags,
/// `0x7fff00001`, fit).
const PHONE_GRID: Arrangement = Arrangement::narrow(4);

fn key(level: usize) -> String {
    format!("l{}", level + 1)
}

fn action(store: bool, addr: u64) -> CacheAction {
    if store {
        CacheAction::Store(addr)
    } else {
        CacheAction::Load(addr)
    }
}

/// Where the path figure draws its boxes: side by side on a laptop; on a
/// phone one under the other, L1 on top and DRAM at the bottom, each box
/// wide and low with its name and verdict left of its three facts.
struct PathDims {
    width: f32,
    /// The first box's top-left corner, and from one box to the next.
    first: (f32, f32),
    step: (f32, f32),
    size: (f32, f32),
    /// From a box's top-left: its name, its verdict, and its facts (one x,
    /// three baselines).
    title: (f32, f32),
    word: (f32, f32),
    info_x: f32,
    info_y: [f32; 3],
    /// The arrow to the next box, from a box's top-left.
    arrow: [(f32, f32); 2],
    /// The cost line's first baseline, below the last box's bottom.
    cycles_below: f32,
}

impl PathDims {
    fn for_layout(layout: Layout) -> Self {
        match layout {
            Layout::Wide => PathDims {
                width: WIDTH,
                first: (20.0, 8.0),
                step: (240.0, 0.0),
                size: (200.0, 150.0),
                title: (100.0, 26.0),
                word: (100.0, 104.0),
                info_x: 100.0,
                info_y: [48.0, 68.0, 138.0],
                arrow: [(204.0, 75.0), (236.0, 75.0)],
                cycles_below: 38.0,
            },
            Layout::Narrow => PathDims {
                width: NARROW_WIDTH,
                first: (10.0, 8.0),
                step: (0.0, 108.0),
                size: (400.0, 84.0),
                title: (80.0, 34.0),
                word: (80.0, 68.0),
                info_x: 280.0,
                info_y: [26.0, 48.0, 70.0],
                arrow: [(80.0, 86.0), (80.0, 106.0)],
                cycles_below: 28.0,
            },
        }
    }
}

/// From one line of a wrapped caption to the next.
const LINE_H: f32 = 22.0;

/// The four boxes of the hierarchy and the last access's cost.
fn path(m: &CacheHierarchy, layout: Layout) -> Figure {
    let sim = &m.sim;
    let last = m.last();
    let n = sim.levels.len();
    let d = PathDims::for_layout(layout);
    let mut f = Figure::new(
        "path",
        "The hierarchy and the last access's path",
        d.width,
        0.0,
    )
    .legend("hit", "hit: served here")
    .legend("miss", "miss: asked the next level")
    .legend("warn", "DRAM supplied the line");
    let corner = |i: usize| {
        let i = i as f32;
        (d.first.0 + i * d.step.0, d.first.1 + i * d.step.1)
    };
    for i in 0..=n {
        let (x, y) = corner(i);
        let lookup = last.and_then(|r| r.lookup(i));
        let (title, lines, word, class, state) = match sim.levels.get(i) {
            Some(l) => {
                let (s, c) = (&l.spec, &l.stats);
                let (word, class, state) = match lookup {
                    None => ("—", "idle", "not reached".to_string()),
                    Some(l) if l.hit() => ("HIT", "hit", "hit".into()),
                    Some(l) => (
                        "MISS",
                        "miss",
                        format!("{} miss", l.miss.map_or("a", |k| k.label())),
                    ),
                };
                let lines = [
                    format!("{} B · {}-way · {}", s.bytes(), s.ways, s.policy.label()),
                    format!("+{} cycles", s.latency),
                    format!("{} hits · {} misses", c.hits, c.misses),
                ];
                (s.name.clone(), lines, word, class, state)
            }
            None => {
                let served = last.is_some_and(|r| r.served == Place::Memory);
                let lines = [
                    "main memory".into(),
                    format!("+{} cycles", sim.memory_latency),
                    format!("{} line reads", sim.memory.reads),
                ];
                let (word, class, state) = if served {
                    ("SUPPLIES", "warn", "supplied")
                } else {
                    ("—", "idle", "not reached")
                };
                ("DRAM".into(), lines, word, class, state.into())
            }
        };
        let mut shapes = vec![
            rect("box", x, y, d.size.0, d.size.1, "panel"),
            text("title", x + d.title.0, y + d.title.1, title, TITLE),
            text(
                "word",
                x + d.word.0,
                y + d.word.1,
                word.into(),
                LARGE | TONE,
            ),
        ];
        for (j, line) in lines.into_iter().enumerate() {
            shapes.push(text(
                &format!("info-{j}"),
                x + d.info_x,
                y + d.info_y[j],
                line,
                MONO | SMALL,
            ));
        }
        let key = if i < n { key(i) } else { "dram".into() };
        f.push(part(key.clone(), shapes, class, state, true).focus(key));
        if i < n {
            let [(x1, y1), (x2, y2)] = d.arrow;
            f.push(Shape::arrow(
                format!("to-{i}"),
                (x + x1, y + y1),
                (x + x2, y + y2),
            ));
        }
    }
    // What the access was, then what it cost: one line, or two on a phone.
    let pieces = match last {
        None => vec!["No access yet: load or store an address.".to_string()],
        Some(r) => {
            let mut parts: Vec<String> = r
                .lookups
                .iter()
                .map(|l| sim.levels[l.level].spec.latency.to_string())
                .collect();
            if r.served == Place::Memory {
                parts.push(sim.memory_latency.to_string());
            }
            vec![
                format!(
                    "{} {:#x}: served by {}",
                    if r.kind == AccessKind::Store {
                        "Store"
                    } else {
                        "Load"
                    },
                    r.addr,
                    m.place_name(r.served),
                ),
                format!("in {} = {} cycles", parts.join(" + "), r.cycles),
            ]
        }
    };
    let mut y = corner(n).1 + d.size.1 + d.cycles_below;
    for (j, line) in pieces_as_lines(layout.is_narrow(), pieces, " ")
        .into_iter()
        .enumerate()
    {
        let key = if j == 0 {
            "cycles".into()
        } else {
            format!("cycles-{j}")
        };
        f.push(text(&key, d.first.0, y, line, START | MONO | STRONG).focus("cycles"));
        y += LINE_H;
    }
    // The last baseline plus room for the descenders.
    f.height = y - LINE_H + 18.0;
    f
}

/// Where the address figure draws each level's row. On a laptop: the
/// level's name, its tag / set / offset boxes, then the fields in words. On
/// a phone the name and the words share a line above the boxes, which start
/// at the left edge and wrap (a 36-bit tag alone is 359 units).
struct AddressDims {
    /// The name's baseline, from the row's top.
    name_y: f32,
    /// The first box's corner, from the row's left edge and top.
    boxes: (f32, f32),
    /// Boxes wrap, and a box wider than a line splits its digits over
    /// lines, at this x; `None`: one line, however long.
    right: Option<f32>,
    /// Where the fields in words start, from the row's top; `None`: after
    /// the boxes.
    fields: Option<(f32, f32)>,
}

impl AddressDims {
    fn for_layout(layout: Layout) -> Self {
        match layout {
            Layout::Wide => AddressDims {
                name_y: 24.0,
                boxes: (60.0, 0.0),
                right: None,
                fields: None,
            },
            Layout::Narrow => AddressDims {
                name_y: 16.0,
                boxes: (10.0, 24.0),
                right: Some(NARROW_WIDTH - 10.0),
                fields: Some((60.0, 16.0)),
            },
        }
    }
}

/// A box of bits is this tall; a row of boxes takes this much room.
const BITS_H: f32 = 34.0;
const BITS_LINE: f32 = 40.0;
/// From the last line of boxes' top to the next level's row.
const ROW_BELOW: f32 = 46.0;

/// The last address in binary, cut the way each level reads it.
fn address(m: &CacheHierarchy, layout: Layout) -> Figure {
    let bits = m.config.address_bits as usize;
    let last = m.last();
    let d = AddressDims::for_layout(layout);
    let mut f = Figure::new(
        "address",
        "The address split into tag, set index and offset bits",
        layout.pick(if bits <= 24 { 720.0 } else { WIDTH }, NARROW_WIDTH),
        44.0,
    )
    .legend("", "tag: compared with the ways")
    .legend("accent", "set index: picks the set")
    .legend("idle", "offset: the byte in the line");
    let Some(r) = last else {
        f.push(text("none", 10.0, 30.0, "No access yet.".into(), START));
        return f;
    };
    let binary = format!("{:0bits$b}", r.addr);
    f.push(text(
        "value",
        10.0,
        26.0,
        format!("address {:#x} = {bits} bits:", r.addr),
        START | STRONG,
    ));
    let mut y = 44.0;
    for l in &r.lookups {
        let spec = &m.sim.levels[l.level].spec;
        let (set_bits, off_bits) = (spec.set_bits() as usize, spec.offset_bits() as usize);
        let widths = [bits.saturating_sub(set_bits + off_bits), set_bits, off_bits];
        let values = [
            format!("tag {:#x}", l.tag),
            format!("set {}", l.set),
            format!("offset {}", l.offset),
        ];
        let mut shapes = vec![text(
            "name",
            10.0,
            y + d.name_y,
            spec.name.clone(),
            START | STRONG,
        )];
        let (mut x, mut top, mut from) = (d.boxes.0, y + d.boxes.1, 0);
        for (j, (width, value)) in widths.into_iter().zip(values.iter()).enumerate() {
            if width == 0 {
                continue;
            }
            let fits = |x: f32| d.right.map_or(width, |r| ((r - x - 10.0) / BIT) as usize);
            if fits(x) < width && x > d.boxes.0 {
                (x, top) = (d.boxes.0, top + BITS_LINE);
            }
            // Digits a line holds, spread evenly over the lines they need.
            let chunks = width.div_ceil(fits(x).max(1));
            let per_line = width.div_ceil(chunks);
            let w = per_line as f32 * BIT + 10.0;
            let digits = binary.get(from..from + width).unwrap_or("");
            from += width;
            let mut cells = vec![rect(
                "r",
                x,
                top,
                w,
                BITS_H + (chunks - 1) as f32 * BITS_LINE,
                "",
            )];
            for c in 0..chunks {
                let line = digits.get(c * per_line..((c + 1) * per_line).min(width));
                cells.push(text(
                    &if c == 0 {
                        "bits".into()
                    } else {
                        format!("bits-{c}")
                    },
                    x + w / 2.0,
                    top + 23.0 + c as f32 * BITS_LINE,
                    line.unwrap_or("").to_string(),
                    MONO,
                ));
            }
            top += (chunks - 1) as f32 * BITS_LINE;
            shapes.push(part(
                ["tag", "set", "offset"][j].into(),
                cells,
                ["", "accent", "idle"][j],
                value.clone(),
                false,
            ));
            x += w + 4.0;
        }
        let (fx, fy) = d.fields.unwrap_or((x + 8.0, 23.0));
        shapes.push(text(
            "fields",
            fx,
            y + fy,
            values.join(" · "),
            START | MONO | SMALL,
        ));
        f.push(Shape::group(format!("addr-{}", key(l.level)), shapes).focus("addr"));
        y = top + ROW_BELOW;
    }
    f.height = y;
    f
}

/// One level's sets and ways, the way the last access hit or filled marked.
fn level_figure(m: &CacheHierarchy, i: usize, layout: Layout) -> Figure {
    let level = &m.sim.levels[i];
    let s = &level.spec;
    let r = m.last();
    let lookup = r.and_then(|r| r.lookup(i));
    let mark = match (lookup, r.and_then(|r| r.fill(i))) {
        (Some(l), _) if l.hit() => l.way.map(|w| (l.set, w, Mark::Hit)),
        (_, Some(f)) => {
            let out = f.placed.evicted.map(|e| e.block.base);
            Some((f.placed.set, f.placed.way, Mark::Filled(out)))
        }
        _ => None,
    };
    let sets = shown_sets(level, lookup.map(|l| l.set));
    let order = match s.policy {
        Policy::Lru => "#1 = least recently used, evicted next",
        Policy::Fifo => "#1 = filled first, evicted next",
        Policy::Plru => "next = where the PLRU bits point",
        Policy::Random => "the victim is drawn at random",
    };
    let title = format!(
        "{}: {} set{} × {} way{} × {} B lines, {}{} · {order}{}",
        s.name,
        s.sets,
        plural(s.sets as usize),
        s.ways,
        plural(s.ways),
        s.line,
        s.policy.label(),
        match (s.allocation, i.checked_sub(1)) {
            (Allocation::Victims, Some(inner)) => format!(
                " · filled only by {}'s victims",
                m.sim.levels[inner].spec.name
            ),
            _ => String::new(),
        },
        if sets.len() as u64 == s.sets {
            String::new()
        } else {
            format!(" · showing {} of {} sets", sets.len(), s.sets)
        }
    );
    let name = |b: &demos::cpu::cachesim::Block| format!("{:#x}", s.split(b.base).tag);
    let (heading, top) = caption(&title, layout);
    let (arrangement, width) = layout.pick((Arrangement::WIDE, WIDTH), (PHONE_GRID, NARROW_WIDTH));
    let (cells, h, used) = grid_in(
        arrangement,
        &key(i),
        level,
        &sets,
        (width, top),
        mark,
        &name,
    );
    // A narrow grid gets a narrow figure, so it is drawn larger.
    let mut f = Figure::new(
        format!("{}-sets", key(i)),
        title.clone(),
        layout.pick(used.max(720.0), NARROW_WIDTH),
        h + top + 6.0,
    );
    if i + 1 == m.sim.levels.len() {
        f = f
            .legend("", "valid, clean")
            .legend("warn", "dirty (D): must be written back")
            .legend("idle dashed", "empty")
            .legend("hit", "hit just now")
            .legend("accent", "filled just now (out: the line it evicted)");
    }
    f.extend(heading);
    f.extend(cells);
    f
}

/// How the clickable lines are laid out: 16 a row on a laptop; 8 a row on
/// a phone, so each box stays a fingertip wide (44 units, about 38 px).
struct SpaceDims {
    width: f32,
    columns: u64,
    /// The first box's left edge (the row's address is left of it), and
    /// from one box to the next.
    left: f32,
    pitch: f32,
    box_w: f32,
}

impl SpaceDims {
    fn for_layout(layout: Layout) -> Self {
        match layout {
            Layout::Wide => SpaceDims {
                width: WIDTH,
                columns: 16,
                left: 96.0,
                pitch: 53.0,
                box_w: 50.0,
            },
            Layout::Narrow => SpaceDims {
                width: NARROW_WIDTH,
                columns: 8,
                left: 64.0,
                pitch: 44.0,
                box_w: 41.0,
            },
        }
    }
}

/// The first 64 lines of the address space, each a button that loads (or
/// stores) it; the text names the innermost level that holds it.
fn space(m: &CacheHierarchy, look: &Look, ui: &mut Ui<CacheHierarchy>) -> Figure {
    let d = SpaceDims::for_layout(ui.layout());
    let line = m.config.levels[0].line;
    let l1_sets = m.config.levels[0].sets;
    let lines = SPACE_LINES.min((1u64 << m.config.address_bits) / line);
    let verb = if look.store { "store" } else { "load" };
    let mut f = Figure::new(
        "space",
        format!("The first {lines} lines of memory: select one to {verb} it"),
        d.width,
        48.0 + lines.div_ceil(d.columns) as f32 * 34.0,
    )
    .legend("done", "cached: the innermost level holding it")
    .legend("idle", "only in DRAM");
    // The columns are L1's sets when each row starts again at set 0.
    let with_sets = d.columns.is_multiple_of(l1_sets);
    f.push(text(
        "head",
        4.0,
        20.0,
        if with_sets { "L1 set →" } else { "line at" }.into(),
        START | SMALL,
    ));
    let last = m.last().map(|r| r.addr / line);
    for n in 0..lines {
        let (col, row) = ((n % d.columns) as f32, (n / d.columns) as f32);
        let (x, y) = (d.left + col * d.pitch, 30.0 + row * 34.0);
        let mid = x + d.box_w / 2.0;
        let base = n * line;
        if n < d.columns && with_sets {
            f.push(text(
                &format!("col-{n}"),
                mid,
                20.0,
                (n % l1_sets).to_string(),
                MONO | SMALL,
            ));
        }
        if n % d.columns == 0 {
            f.push(text(
                &format!("row-{n}"),
                4.0,
                y + 21.0,
                format!("{base:#06x}"),
                START | MONO | SMALL,
            ));
        }
        let held = m.sim.levels.iter().find(|l| l.probe(base).is_some());
        let word = held.map_or("", |l| l.spec.name.as_str());
        // The line is one clickable box, its word drawn over it and letting
        // clicks through: no group round the two, as 64 groups were a
        // seventh of the page's elements.
        let key = format!("line-{base:#x}");
        f.push(
            rect(
                &key,
                x,
                y,
                d.box_w,
                30.0,
                if held.is_some() { "done" } else { "idle" },
            )
            .class_if(last == Some(n), "thick")
            .state(if held.is_some() { word } else { "DRAM" })
            .label(format!("{verb} {base:#x}"))
            .on_click(ui.act(action(look.store, base))),
        );
        f.push(
            text(
                &format!("{key}-word"),
                mid,
                y + 20.0,
                word.into(),
                MONO | SMALL,
            )
            .class("through"),
        );
    }
    f
}

/// The controls that edit the chosen level.
fn editor(m: &CacheHierarchy, look: &Look, ui: &mut Ui<CacheHierarchy>) -> Control {
    let n = m.config.levels.len();
    let edit = look.edit.min(n);
    let options = (0..=n)
        .map(|i| {
            let name = m.config.levels.get(i).map_or("DRAM", |l| l.name.as_str());
            (
                name.to_ascii_lowercase(),
                name.to_string(),
                ui.look(Look {
                    edit: i,
                    ..look.clone()
                }),
            )
        })
        .collect();
    let mut controls = vec![Control::choice("edit", "Level", edit, options)];
    let latency = m
        .config
        .levels
        .get(edit)
        .map_or(m.config.dram_latency, |l| l.latency);
    if let Some(l) = m.config.levels.get(edit) {
        let (sets, ways, line) = (l.sets, l.ways, l.line);
        let geometry = move |sets: u64, ways: usize, line: u64| {
            Ok(Command::Do(CacheAction::SetGeometry {
                level: edit,
                sets,
                ways,
                line,
            }))
        };
        controls.push(pow2(
            "sets",
            "Sets",
            sets,
            exponents(&SETS),
            "sets",
            ui.number(move |v| geometry(power_in(&SETS, v), ways, line)),
        ));
        controls.push(Control::number(
            "ways",
            "Ways",
            WAYS.control_range(ways),
            "ways",
            ui.number(move |v| {
                let ways = v.clamp(WAYS.min as i64, WAYS.max as i64) as usize;
                geometry(sets, ways, line)
            }),
        ));
        controls.push(pow2(
            "line-size",
            "Line size",
            line,
            exponents(&LINE),
            "B",
            ui.number(move |v| geometry(sets, ways, power_in(&LINE, v))),
        ));
        if edit > 0 {
            controls.push(policy_choice(ui, "policy", edit, l.policy));
        }
    }
    controls.push(Control::number(
        "latency",
        "Latency",
        LATENCY.control_range(latency),
        "cycles",
        ui.number(move |v| {
            let cycles = u32::from_i64(v.clamp(LATENCY.min.into(), LATENCY.max.into()));
            Ok(Command::Do(CacheAction::SetLatency {
                level: edit,
                cycles,
            }))
        }),
    ));
    Control::group("Edit a level (replays the accesses so far)", controls)
}

fn policy_choice(ui: &mut Ui<CacheHierarchy>, id: &str, level: usize, now: Policy) -> Control {
    let options = Policy::ALL
        .iter()
        .map(|&p| {
            (
                p.key(),
                p.label().to_string(),
                ui.act(CacheAction::SetPolicy { level, policy: p }),
            )
        })
        .collect();
    Control::choice(
        id,
        "Replacement",
        Policy::ALL.iter().position(|&p| p == now).unwrap_or(0),
        options,
    )
}

impl View for CacheHierarchy {
    type Look = Look;

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, look: &Look, ui: &mut Ui<Self>) -> Scene {
        let l1 = &self.sim.levels[0];
        let summary = match self.last() {
            None => "Cold caches and DRAM; no access yet.".to_string(),
            Some(r) => format!(
                "The last access, {:#x}, was served by {} in {} cycles. L1 holds {} of its {} lines and has missed {} times ({} conflict).",
                r.addr,
                self.place_name(r.served),
                r.cycles,
                l1.occupancy(),
                l1.spec.lines(),
                l1.stats.misses,
                l1.stats.conflict
            ),
        };
        let layout = ui.layout();
        let mut scene = Scene::new("Cache hierarchy", summary)
            .figure(path(self, layout))
            .figure(address(self, layout));
        for i in 0..self.sim.levels.len() {
            scene = scene.figure(level_figure(self, i, layout));
        }
        scene.figure(space(self, look, ui))
    }

    fn controls(&self, look: &Look, ui: &mut Ui<Self>) -> Vec<Control> {
        let store = look.store;
        let kinds = vec![
            (
                "load",
                "Load".to_string(),
                ui.look(Look {
                    store: false,
                    ..look.clone()
                }),
            ),
            (
                "store",
                "Store".to_string(),
                ui.look(Look {
                    store: true,
                    ..look.clone()
                }),
            ),
        ];
        let limit = 1u64 << self.config.address_bits;
        let field = Field::text("addr", "Address", "0x140")
            .help(format!("0x… hex or decimal, below {limit:#x}"));
        let go = ui.form(move |values| {
            let text = values.first().map_or("", |v| v.trim());
            let addr = parse_number(text).map_err(|e| format!("Not an address: {e}."))?;
            Ok(Command::Do(action(store, addr)))
        });
        let l1 = &self.config.levels[0];
        let double = ui.act(CacheAction::SetGeometry {
            level: 0,
            sets: l1.sets / 2,
            ways: l1.ways * 2,
            line: l1.line,
        });
        vec![
            Control::choice("kind", "Access", usize::from(store), kinds),
            Control::form(
                "access",
                "Access an address",
                vec![field],
                if store { "Store" } else { "Load" },
                go,
            ),
            Control::note("Or select a line in the picture. Step runs the next queued access."),
            Control::danger_group(
                "Break it",
                vec![
                    Control::button(
                        "thrash",
                        "Queue loads that all map to L1 set 0",
                        ui.act(CacheAction::Thrash),
                    )
                    .danger(),
                    Control::button("double-ways", "Halve L1's sets, double its ways", double),
                    policy_choice(ui, "l1-policy", 0, l1.policy),
                ],
            ),
            editor(self, look, ui),
            Control::group(
                "Start over",
                vec![
                    Control::button(
                        "preset-small",
                        "Small caches",
                        ui.act(CacheAction::UsePreset(Preset::Small)),
                    ),
                    Control::button(
                        "preset-server",
                        "A Sapphire Rapids core",
                        ui.act(CacheAction::UsePreset(Preset::Server)),
                    ),
                ],
            ),
        ]
    }

    /// Loads or stores, with any level or DRAM (`levels.len()`) in the editor.
    fn admit_look(&self, look: &Look) -> bool {
        look.edit <= self.config.levels.len()
    }

    /// The level as the editor shows it.
    fn link_look(&self, look: &Look) -> Look {
        Look {
            edit: look.edit.min(self.config.levels.len()),
            ..look.clone()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Input;
    use demos::Model;

    fn small() -> CacheHierarchy {
        CacheHierarchy::new(&Default::default())
    }

    fn state(scene: &Scene, key: &str) -> String {
        scene
            .find(key)
            .and_then(|s| s.state.clone())
            .unwrap_or_default()
    }

    #[test]
    fn the_server_l3_says_it_is_filled_by_l2_victims() {
        let label = |m: &CacheHierarchy| {
            let scene = crate::build(m, &Look::default()).0;
            scene
                .parts
                .iter()
                .find_map(|p| match p {
                    crate::scene::Part::Figure(f) if f.key == "l3-sets" => Some(f.label.clone()),
                    _ => None,
                })
                .unwrap()
        };
        let server = CacheHierarchy::new(
            &demos::cpu::cache_hierarchy::CacheHierarchyConfig::preset(Preset::Server),
        );
        assert!(label(&server).contains("filled only by L2's victims"));
        assert!(!label(&small()).contains("victims"));
    }

    #[test]
    fn a_cold_load_misses_everywhere_and_fills_every_level() {
        let mut m = small();
        m.apply(&CacheAction::Load(0x140)).unwrap();
        let scene = crate::build(&m, &Look::default()).0;
        assert_eq!(state(&scene, "l1"), "compulsory miss");
        assert_eq!(state(&scene, "dram"), "supplied");
        let cycles = scene.find("cycles").unwrap().text_content().unwrap();
        assert_eq!(
            cycles,
            "Load 0x140: served by DRAM in 5 + 11 + 84 + 250 = 350 cycles"
        );
        // 0x140 is line 5: L1 set 1, tag 0x1; the bits read 00 0001 | 01 | 00 0000.
        assert_eq!(state(&scene, "l1-set-1-way-0"), "valid · filled");
        let tag = scene.find("addr-l1").unwrap().children()[1].children()[1].text_content();
        assert_eq!(tag, Some("000001"));
        assert_eq!(state(&scene, "line-0x140"), "L1");
    }

    #[test]
    fn the_thrash_pattern_evicts_by_lru_while_the_other_sets_stay_empty() {
        let mut m = small();
        m.apply(&CacheAction::Thrash).unwrap();
        for _ in 0..4 {
            m.apply(&CacheAction::Step).unwrap();
        }
        let scene = crate::build(&m, &Look::default()).0;
        assert_eq!(state(&scene, "l1"), "conflict miss");
        assert_eq!(state(&scene, "l1-set-0-way-1"), "valid · filled");
        assert_eq!(state(&scene, "l1-set-1-way-0"), "invalid");
        let order = scene.find("l1-set-0-way-0").unwrap().children()[2].text_content();
        assert_eq!(
            order,
            Some("#1"),
            "0x200 in way 0 is now the least recently used"
        );
    }

    #[test]
    fn an_empty_way_is_a_dashed_outline_and_its_set_says_which_ways_are_empty() {
        let mut m = small();
        m.apply(&CacheAction::Load(0x140)).unwrap();
        let scene = crate::build(&m, &Look::default()).0;
        let find = |id: &str| scene.find(id).unwrap();
        let empty = find("l1-set-0-way-0");
        assert!(matches!(empty.kind, crate::Kind::Rect { .. }));
        assert_eq!(empty.state.as_deref(), Some("invalid"));
        assert!(empty.class.contains("dashed"));
        // No tag, no place in the eviction order: nothing to read but the set.
        assert!(empty.label.is_none() && empty.children().is_empty());
        let label = |key: &str| scene.find(key).unwrap().label.clone().unwrap();
        assert_eq!(label("l1-set-0"), "set 0: ways 0–1 empty");
        assert_eq!(
            label("l1-set-1"),
            "set 1: way 0 0x1 (valid · filled); way 1 empty"
        );
        // Hover text (the page's title of the set) and the picture as text
        // both say it.
        assert_eq!(
            crate::page::naming::on_page(find("l1-set-0"), false)
                .title_first
                .as_deref(),
            Some("set 0: ways 0–1 empty")
        );
        let words = crate::page::naming::describe(&scene).join(" ");
        assert!(words.contains("set 1: way 0 0x1 (valid · filled); way 1 empty"));
    }

    #[test]
    fn a_store_is_dirty_in_l1_and_clicks_follow_the_chosen_kind() {
        let m = small();
        let look = Look {
            store: true,
            edit: 0,
        };
        let (scene, _, ui) = crate::build(&m, &look);
        let slot = scene.find("line-0x40").unwrap().on_click.unwrap();
        assert_eq!(
            ui.resolve(slot, &Input::Press),
            Ok(Command::Do(CacheAction::Store(0x40)))
        );
        let mut m = m;
        m.apply(&CacheAction::Store(0x40)).unwrap();
        let scene = crate::build(&m, &look).0;
        assert_eq!(state(&scene, "l1-set-1-way-0"), "dirty · filled");
        assert_eq!(state(&scene, "l2-set-1-way-0"), "valid · filled");
    }

    #[test]
    fn the_address_form_reads_hex_and_decimal_and_explains_bad_text() {
        let m = small();
        let (_, controls, ui) = crate::build(&m, &Look::default());
        let Some(Control::Form(form)) = Control::find(&controls, "access") else {
            panic!("access form");
        };
        let send = |t: &str| ui.resolve(form.send, &Input::Fields(vec![t.into()]));
        assert_eq!(send("0x1c0"), Ok(Command::Do(CacheAction::Load(0x1c0))));
        assert_eq!(send(" 448 "), Ok(Command::Do(CacheAction::Load(448))));
        assert!(send("0x1g").unwrap_err().starts_with("Not an address"));
        assert!(send("").is_err());
    }

    #[test]
    fn a_big_level_shows_only_the_sets_in_use() {
        let mut m = CacheHierarchy::new(
            &demos::cpu::cache_hierarchy::CacheHierarchyConfig::preset(Preset::Server),
        );
        m.apply(&CacheAction::Load(0x7fff_0000_1000)).unwrap();
        let scene = crate::build(&m, &Look::default()).0;
        let l2 = scene.figures().find(|f| f.key == "l2-sets").unwrap();
        assert!(l2.label.ends_with("showing 1 of 2048 sets"));
        assert!(scene.find("l2-set-64-way-0").is_some());
    }
}
