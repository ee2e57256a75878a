//! Cache hierarchy: the last access's path L1 → L2 → L3 → DRAM with the
//! cycles it cost, the address cut into tag / set / offset bits per level,
//! each level's sets × ways, and a small address space to click.

use super::sets::{grid, shown_sets, Mark, WIDTH};
use crate::control::{Control, Field};
use crate::live::{Command, Ui, View};
use crate::scene::{Figure, Item, List, Scene, Shape, Size};
use demos::cpu::cache_hierarchy::{CacheAction, CacheHierarchy, Preset, MAX_LATENCY};
use demos::cpu::cachesim::parse::parse_number;
use demos::cpu::cachesim::{AccessKind, AccessReport, Level, Place, Policy};
use demos::text::plural;

/// What the learner has picked: loads or stores, and the level being edited
/// (`levels.len()` is DRAM).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Look {
    pub store: bool,
    pub edit: usize,
}

/// Lines in the clickable address space, and per row.
const SPACE_LINES: u64 = 64;
const SPACE_COLS: u64 = 16;
const BOX_W: f32 = 200.0;
const BIT: f32 = 9.7;

fn key(level: usize) -> String {
    format!("l{}", level + 1)
}

fn kind(store: bool) -> AccessKind {
    if store {
        AccessKind::Store
    } else {
        AccessKind::Load
    }
}

fn action(kind: AccessKind, addr: u64) -> CacheAction {
    match kind {
        AccessKind::Load => CacheAction::Load(addr),
        AccessKind::Store => CacheAction::Store(addr),
    }
}

/// Hit, miss (and which C) or not reached: the word, its class, and state.
fn verdict(r: Option<&AccessReport>, level: usize) -> (&'static str, &'static str, String) {
    match r.and_then(|r| r.lookup(level)) {
        None => ("—", "idle", "not reached".into()),
        Some(l) if l.hit() => ("HIT", "hit", "hit".into()),
        Some(l) => (
            "MISS",
            "miss",
            format!("{} miss", l.miss.map_or("a", |k| k.label())),
        ),
    }
}

/// The four boxes of the hierarchy and the last access's cost.
fn path(m: &CacheHierarchy) -> Figure {
    let sim = &m.sim;
    let last = m.last();
    let n = sim.levels.len();
    let mut f = Figure::new(
        "path",
        "The hierarchy and the last access's path through it",
        WIDTH,
        214.0,
    )
    .legend("hit", "hit: served here")
    .legend("miss", "miss: asked the next level")
    .legend("warn", "DRAM supplied the line");
    for i in 0..=n {
        let x = 20.0 + i as f32 * 240.0;
        let cx = x + BOX_W / 2.0;
        let (title, lines, word, class, state) = match sim.levels.get(i) {
            Some(l) => {
                let s = &l.spec;
                let (word, class, state) = verdict(last, i);
                let counts = format!(
                    "{} hit{} · {} miss{}",
                    l.stats.hits,
                    plural(l.stats.hits as usize),
                    l.stats.misses,
                    if l.stats.misses == 1 { "" } else { "es" }
                );
                let geometry = format!("{} B · {}-way · {}", s.bytes(), s.ways, s.policy.label());
                (
                    s.name.clone(),
                    [geometry, format!("+{} cycles", s.latency), counts],
                    word,
                    class,
                    state,
                )
            }
            None => {
                let served = last.is_some_and(|r| r.served == Place::Memory);
                let (word, class, state) = if served {
                    ("SUPPLIES", "warn", "supplied")
                } else {
                    ("—", "idle", "not reached")
                };
                let reads = format!(
                    "{} line read{}",
                    sim.memory.reads,
                    plural(sim.memory.reads as usize)
                );
                let lines = [
                    "main memory".into(),
                    format!("+{} cycles", sim.memory_latency),
                    reads,
                ];
                ("DRAM".into(), lines, word, class, state.into())
            }
        };
        let mut shapes = vec![
            Shape::rect("box", x, 8.0, BOX_W, 150.0).class("panel"),
            Shape::text("title", cx, 34.0, title).size(Size::Title),
            Shape::text("word", cx, 112.0, word)
                .size(Size::Large)
                .class("tone"),
        ];
        for (j, line) in lines.into_iter().enumerate() {
            let y = [56.0, 76.0, 146.0][j];
            shapes.push(
                Shape::text(format!("info-{j}"), cx, y, line)
                    .mono()
                    .size(Size::Small),
            );
        }
        let key = if i < n { key(i) } else { "dram".into() };
        f.push(
            Shape::group(key.clone(), shapes)
                .class(class)
                .state(state.clone())
                .label(format!("{key}: {state}"))
                .focus(key),
        );
        if i < n {
            f.push(Shape::arrow(
                format!("to-{i}"),
                (x + BOX_W + 4.0, 83.0),
                (x + 236.0, 83.0),
            ));
        }
    }
    let text = match last {
        None => "No access yet: load or store an address.".to_string(),
        Some(r) => {
            let mut parts: Vec<String> = r
                .lookups
                .iter()
                .map(|l| sim.levels[l.level].spec.latency.to_string())
                .collect();
            if r.served == Place::Memory {
                parts.push(sim.memory_latency.to_string());
            }
            format!(
                "{} {:#x}: served by {} in {} = {} cycles",
                demos::text::capitalised(r.kind.verb()),
                r.addr,
                m.place_name(r.served),
                parts.join(" + "),
                r.cycles
            )
        }
    };
    f.push(
        Shape::text("cycles", 20.0, 196.0, text)
            .start()
            .mono()
            .class("strong")
            .focus("cycles"),
    );
    f
}

/// The last address in binary, cut the way each level reads it.
fn address(m: &CacheHierarchy) -> Figure {
    let bits = m.config.address_bits as usize;
    let n = m.sim.levels.len();
    let height = if m.last().is_some() {
        52.0 + 46.0 * n as f32
    } else {
        44.0
    };
    let mut f = Figure::new(
        "address",
        "The address split into tag, set index and offset bits",
        WIDTH,
        height,
    )
    .legend("", "tag: compared with the ways")
    .legend("accent", "set index: picks the set")
    .legend("idle", "offset: the byte in the line");
    let Some(r) = m.last() else {
        f.push(
            Shape::text("none", 10.0, 30.0, "No access yet.")
                .start()
                .class("muted"),
        );
        return f;
    };
    let binary = format!("{:0bits$b}", r.addr);
    f.push(
        Shape::text(
            "value",
            10.0,
            26.0,
            format!("address {:#x} = {bits} bits:", r.addr),
        )
        .start()
        .class("strong"),
    );
    for l in &r.lookups {
        let spec = &m.sim.levels[l.level].spec;
        let y = 44.0 + 46.0 * l.level as f32;
        let (set_bits, off_bits) = (spec.set_bits() as usize, spec.offset_bits() as usize);
        let tag_bits = bits.saturating_sub(set_bits + off_bits);
        let fields = [
            ("tag", tag_bits, "", format!("tag {:#x}", l.tag)),
            ("set", set_bits, "accent", format!("set {}", l.set)),
            ("offset", off_bits, "idle", format!("offset {}", l.offset)),
        ];
        let mut x = 60.0;
        let mut shapes = vec![Shape::text("name", 10.0, y + 24.0, spec.name.clone())
            .start()
            .class("strong")];
        let mut from = 0;
        for (name, width, class, value) in fields {
            if width == 0 {
                continue;
            }
            let w = width as f32 * BIT + 10.0;
            let digits = binary.get(from..from + width).unwrap_or("").to_string();
            from += width;
            shapes.push(
                Shape::group(
                    name,
                    vec![
                        Shape::rect("r", x, y, w, 34.0).rounded(3.0),
                        Shape::text("bits", x + w / 2.0, y + 23.0, digits).mono(),
                    ],
                )
                .class(class)
                .state(value.clone())
                .label(value),
            );
            x += w + 4.0;
        }
        shapes.push(
            Shape::text(
                "fields",
                x + 8.0,
                y + 23.0,
                format!("tag {:#x} · set {} · offset {}", l.tag, l.set, l.offset),
            )
            .start()
            .mono()
            .size(Size::Small),
        );
        f.push(Shape::group(format!("addr-{}", key(l.level)), shapes).focus("addr"));
    }
    f
}

/// One level's sets and ways, and what the last access did there.
fn level_figure(m: &CacheHierarchy, i: usize) -> Figure {
    let level: &Level = &m.sim.levels[i];
    let s = &level.spec;
    let r = m.last();
    let lookup = r.and_then(|r| r.lookup(i));
    let fill = r.and_then(|r| r.fill(i));
    let mark = match (lookup, fill) {
        (Some(l), _) if l.hit() => l.way.map(|w| (l.set, w, Mark::Hit)),
        (_, Some(f)) => Some((f.placed.set, f.placed.way, Mark::Filled)),
        _ => None,
    };
    let sets = shown_sets(level, lookup.map(|l| l.set));
    let order = match s.policy {
        Policy::Lru => " · #1 = least recently used, evicted next",
        Policy::Fifo => " · #1 = filled first, evicted next",
        Policy::Plru => " · next = where the PLRU bits point",
        Policy::Random => " · the victim is drawn at random",
    };
    let shown = if sets.len() as u64 == s.sets {
        String::new()
    } else {
        format!(" · showing {} of {} sets", sets.len(), s.sets)
    };
    let title = format!(
        "{}: {} set{} × {} way{} × {} B lines, {}{order}{shown}",
        s.name,
        s.sets,
        plural(s.sets as usize),
        s.ways,
        plural(s.ways),
        s.line,
        s.policy.label()
    );
    let name = |b: &demos::cpu::cachesim::Block| format!("{:#x}", s.split(b.base).tag);
    let (cells, h) = grid(&key(i), level, &sets, 30.0, mark, &name);
    let mut f = Figure::new(format!("{}-sets", key(i)), title.clone(), WIDTH, h + 74.0);
    if i + 1 == m.sim.levels.len() {
        f = f
            .legend("", "valid, clean")
            .legend("warn", "dirty (D): must be written back")
            .legend("idle dashed", "empty")
            .legend("hit", "hit just now")
            .legend("accent", "filled just now");
    }
    f.push(
        Shape::text("title", 4.0, 20.0, title)
            .start()
            .size(Size::Small)
            .class("strong"),
    );
    f.extend(cells);
    let policy = s.policy.reason();
    let last = match (lookup, fill) {
        (None, _) => format!("The last access did not reach {}.", s.name),
        (Some(l), _) if l.hit() => format!(
            "Hit: set {} way {} holds tag {:#x}.",
            l.set,
            l.way.unwrap_or(0),
            l.tag
        ),
        (_, Some(f)) => {
            let p = f.placed;
            match p.evicted {
                None => format!(
                    "Miss: set {} way {} was empty and takes the line.",
                    p.set, p.way
                ),
                Some(e) => format!(
                    "Miss: set {} way {} takes the line; out goes {:#x}{}, as {policy}.",
                    p.set,
                    p.way,
                    e.block.base,
                    if e.block.dirty {
                        " (dirty, written back)"
                    } else {
                        ""
                    }
                ),
            }
        }
        _ => String::new(),
    };
    f.push(
        Shape::text(format!("{}-last", key(i)), 4.0, h + 62.0, last)
            .start()
            .class("strong"),
    );
    f
}

/// The first 64 lines of the address space, each a button that loads (or
/// stores) it; the text says the innermost level that holds it.
fn space(m: &CacheHierarchy, look: &Look, ui: &mut Ui<CacheHierarchy>) -> Figure {
    let line = m.config.levels[0].line;
    let l1_sets = m.config.levels[0].sets;
    let lines = SPACE_LINES.min((1u64 << m.config.address_bits) / line);
    let rows = lines.div_ceil(SPACE_COLS);
    let verb = kind(look.store).verb();
    let mut f = Figure::new(
        "space",
        format!("The first {lines} lines of memory: select one to {verb} it"),
        WIDTH,
        48.0 + rows as f32 * 34.0,
    )
    .legend("done", "cached: the innermost level holding it")
    .legend("idle", "only in DRAM");
    let with_sets = SPACE_COLS.is_multiple_of(l1_sets);
    f.push(
        Shape::text(
            "head",
            4.0,
            20.0,
            if with_sets { "L1 set →" } else { "line at" },
        )
        .start()
        .size(Size::Small),
    );
    let last = m.last().map(|r| r.addr / line);
    for n in 0..lines {
        let (col, row) = ((n % SPACE_COLS) as f32, (n / SPACE_COLS) as f32);
        let x = 96.0 + col * 53.0;
        let y = 30.0 + row * 34.0;
        if n < SPACE_COLS && with_sets {
            f.push(
                Shape::text(
                    format!("col-{n}"),
                    x + 25.0,
                    20.0,
                    (n % l1_sets).to_string(),
                )
                .mono()
                .size(Size::Small),
            );
        }
        if n % SPACE_COLS == 0 {
            f.push(
                Shape::text(
                    format!("row-{n}"),
                    4.0,
                    y + 21.0,
                    format!("{:#06x}", n * line),
                )
                .start()
                .mono()
                .size(Size::Small),
            );
        }
        let base = n * line;
        let held = m.sim.levels.iter().position(|l| l.probe(base).is_some());
        let word = held.map_or(String::new(), |i| m.sim.levels[i].spec.name.clone());
        let label = format!(
            "{verb} {base:#x}: {}",
            held.map_or("in DRAM only".into(), |_| format!("in {word}"))
        );
        f.push(
            Shape::group(
                format!("line-{base:#x}"),
                vec![
                    Shape::rect("r", x, y, 50.0, 30.0).rounded(3.0),
                    Shape::text("t", x + 25.0, y + 20.0, word.clone())
                        .mono()
                        .size(Size::Small),
                ],
            )
            .class(if held.is_some() { "done" } else { "idle" })
            .class_if(last == Some(n), "thick")
            .state(if word.is_empty() { "DRAM".into() } else { word })
            .label(label)
            .on_click(ui.act(action(kind(look.store), base))),
        );
    }
    f
}

fn history(m: &CacheHierarchy) -> List {
    let mut list = List::new(
        "history",
        "Recent accesses, newest last",
        "No accesses yet.",
    )
    .chips();
    for (i, r) in m.history.iter().enumerate() {
        let class = match r.served {
            Place::Level(0) => "hit",
            Place::Level(_) => "warn",
            Place::Memory => "miss",
        };
        let letter = if r.kind == AccessKind::Store {
            "S"
        } else {
            "L"
        };
        list = list.item(
            Item::new(
                format!("h-{i}"),
                format!(
                    "{letter} {:#x} → {} · {}",
                    r.addr,
                    m.place_name(r.served),
                    r.cycles
                ),
            )
            .class(class)
            .mono(),
        );
    }
    list
}

/// A power-of-two setting as a slider over its exponent.
fn pow2_slider(
    id: &str,
    label: &str,
    (value, lo, hi): (u64, u32, u32),
    unit: &str,
    send: crate::live::Slot,
) -> Control {
    Control::slider(
        id,
        label,
        (
            i64::from(value.trailing_zeros()),
            i64::from(lo),
            i64::from(hi),
        ),
        "",
        send,
    )
    .shown(format!("{value} {unit}"))
}

/// The controls that edit the chosen level.
fn editor(m: &CacheHierarchy, look: &Look, ui: &mut Ui<CacheHierarchy>) -> Control {
    let n = m.config.levels.len();
    let edit = look.edit.min(n);
    let mut options: Vec<(String, String, crate::live::Slot)> = (0..n)
        .map(|i| {
            let name = m.config.levels[i].name.clone();
            (
                name.to_lowercase(),
                name,
                ui.look(Look {
                    edit: i,
                    ..look.clone()
                }),
            )
        })
        .collect();
    options.push((
        "dram".into(),
        "DRAM".into(),
        ui.look(Look {
            edit: n,
            ..look.clone()
        }),
    ));
    let mut controls = vec![Control::choice("edit", "Level", edit, options)];
    let latency = match m.config.levels.get(edit) {
        Some(l) => l.latency,
        None => m.config.dram_latency,
    };
    if let Some(l) = m.config.levels.get(edit).cloned() {
        let (sets, ways, line) = (l.sets, l.ways, l.line);
        let geometry = move |sets: u64, ways: usize, line: u64| {
            Command::Do(CacheAction::SetGeometry {
                level: edit,
                sets,
                ways,
                line,
            })
        };
        controls.push(pow2_slider(
            "sets",
            "Sets",
            (sets, 0, 16),
            "sets",
            ui.number(move |v| Ok(geometry(1 << v.clamp(0, 16), ways, line))),
        ));
        controls.push(Control::number(
            "ways",
            "Ways",
            (ways as i64, 1, 32),
            "ways",
            ui.number(move |v| Ok(geometry(sets, v.clamp(1, 32) as usize, line))),
        ));
        controls.push(pow2_slider(
            "line-size",
            "Line size",
            (line, 3, 9),
            "B",
            ui.number(move |v| Ok(geometry(sets, ways, 1 << v.clamp(3, 9)))),
        ));
        if edit > 0 {
            controls.push(policy_choice(ui, "policy", edit, l.policy));
        }
    }
    controls.push(Control::number(
        "latency",
        "Latency",
        (i64::from(latency), 0, i64::from(MAX_LATENCY)),
        "cycles",
        ui.number(move |v| {
            Ok(Command::Do(CacheAction::SetLatency {
                level: edit,
                cycles: v.clamp(0, i64::from(MAX_LATENCY)) as u32,
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
    let selected = Policy::ALL.iter().position(|&p| p == now).unwrap_or(0);
    Control::choice(id, "Replacement", selected, options)
}

impl View for CacheHierarchy {
    type Look = Look;

    fn scene(&self, look: &Look, ui: &mut Ui<Self>) -> Scene {
        let l1 = &self.sim.levels[0];
        let summary = match self.last() {
            None => format!("{} cold cache levels and DRAM; no access yet.", self.sim.levels.len()),
            Some(r) => format!(
                "The last {} of {:#x} was served by {} in {} cycles. L1 holds {} of its {} lines and has missed {} time{} ({} conflict).",
                r.kind.verb(),
                r.addr,
                self.place_name(r.served),
                r.cycles,
                l1.occupancy(),
                l1.spec.lines(),
                l1.stats.misses,
                plural(l1.stats.misses as usize),
                l1.stats.conflict
            ),
        };
        let mut scene = Scene::new("Cache hierarchy", summary)
            .figure(path(self))
            .figure(address(self));
        for i in 0..self.sim.levels.len() {
            scene = scene.figure(level_figure(self, i));
        }
        scene.figure(space(self, look, ui)).list(history(self))
    }

    fn controls(&self, look: &Look, ui: &mut Ui<Self>) -> Vec<Control> {
        let store = look.store;
        let kind_choice = Control::choice(
            "kind",
            "Access",
            usize::from(store),
            vec![
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
            ],
        );
        let limit = 1u64 << self.config.address_bits;
        let field = Field::text("addr", "Address", "0x140")
            .help(format!("hex (0x…) or decimal, below {limit:#x}"));
        let go = ui.form(move |values| {
            let text = values.first().map_or("", |v| v.trim());
            if text.is_empty() {
                return Err("Type an address: 0x140 or 320.".into());
            }
            let addr = parse_number(text).map_err(|e| format!("Not an address: {e}."))?;
            Ok(Command::Do(action(kind(store), addr)))
        });
        let l1 = &self.config.levels[0];
        let double = ui.act(CacheAction::SetGeometry {
            level: 0,
            sets: l1.sets / 2,
            ways: l1.ways * 2,
            line: l1.line,
        });
        vec![
            kind_choice,
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
        let last = scene.find("l1-last").unwrap().text_content().unwrap();
        assert_eq!(
            last,
            "Miss: set 0 way 1 takes the line; out goes 0x100, as it was the least recently used."
        );
        assert_eq!(state(&scene, "l1"), "conflict miss");
        assert_eq!(state(&scene, "l1-set-1-way-0"), "invalid");
        let order = scene.find("l1-set-0-way-0").unwrap().children()[2].text_content();
        assert_eq!(
            order,
            Some("#1"),
            "0x200 in way 0 is now the least recently used"
        );
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
