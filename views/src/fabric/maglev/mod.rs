//! Maglev hashing: the backends' preference lists with how far each has
//! read, the lookup table filling in turn by turn (with the table before a
//! backend left and modulo hashing's), and Maglev, a hash ring and modulo
//! hashing measured on a large table.

mod figures;
mod lesson;

use crate::control::Control;
use crate::knob::{bounded, knob};
use crate::live::{Ui, View};
use crate::scene::{Cell, Scene, Table};
use demos::fabric::maglev::compare::{Scheme, LEAVER};
use demos::fabric::maglev::coverage::reached;
use demos::fabric::maglev::{
    Maglev, MaglevAction, BACKENDS, COMPARE_BACKENDS, COMPARE_SIZES, SIZE, VIRTUAL_NODES,
};
use demos::text::{decimal, grouped};

/// The composite size the Break-it note suggests, and the skip it uses to
/// show a list that misses entries.
const COMPOSITE: u64 = 8;
const SHARED_SKIP: u64 = 2;

fn compare_table(m: &Maglev) -> Table {
    let c = m.comparison();
    let ratio = c.size as f64 / c.backends as f64;
    let mut t = Table::new(
        "compare",
        format!(
            "A large table: {} entries, {} backends (M/N = {}; the paper's M > 100 × N {}), the ring with {} points a backend; b{LEAVER} leaves",
            grouped(c.size as i64),
            c.backends,
            decimal(ratio, 1),
            if c.size > 100 * c.backends { "holds" } else { "does not hold" },
            c.virtual_nodes
        ),
        &[
            "method",
            "entries a backend",
            "most ÷ mean",
            "spread",
            "moved",
            "of others'",
        ],
    );
    let mut put = |key: &str, name: String, s: &Scheme| {
        t.row(
            key,
            vec![
                Cell::text(name),
                Cell::mono(format!(
                    "{}–{}",
                    grouped(s.fewest as i64),
                    grouped(s.most as i64)
                )),
                Cell::mono(decimal(s.most_over_mean(c.size, c.backends), 3)),
                Cell::mono(match s.spread_percent() {
                    Some(p) => format!("{} %", decimal(p, 2)),
                    None => "some get none".to_string(),
                }),
                Cell::mono(grouped(s.moved as i64)),
                Cell::mono(grouped(s.extra() as i64)),
            ],
        )
        .focus("compare");
    };
    put("cmp-maglev", "Maglev".to_string(), &c.maglev);
    put(
        "cmp-ring",
        format!("ring, {} points", c.virtual_nodes),
        &c.ring,
    );
    put("cmp-modulo", "k mod N".to_string(), &c.modulo);
    t
}

impl View for Maglev {
    type Look = ();

    fn lesson() -> Option<crate::lesson::Lesson<Self>> {
        Some(lesson::lesson())
    }

    fn scene(&self, _: &(), ui: &mut Ui<Self>) -> Scene {
        let layout = ui.layout();
        let shares = self.shares();
        let each: Vec<String> = self
            .active()
            .iter()
            .map(|&i| format!("{} {}", self.name(i), shares[i]))
            .collect();
        let c = self.comparison();
        Scene::new(
            "Maglev hashing",
            format!(
                "A lookup table of {} entries: {} claimed in round {}{}; {}. On {} entries and {} backends, Maglev's shares are {} to {}, the ring's {} to {}.",
                self.size(),
                self.turns,
                self.round(),
                match self.left {
                    Some(i) => format!(", rebuilt without {}", self.name(i)),
                    None => String::new(),
                },
                each.join(", "),
                grouped(c.size as i64),
                c.backends,
                grouped(c.maglev.fewest as i64),
                grouped(c.maglev.most as i64),
                grouped(c.ring.fewest as i64),
                grouped(c.ring.most as i64),
            ),
        )
        .figure(figures::lists(self, layout, ui))
        .figure(figures::table(self, layout))
        .table(compare_table(self))
    }

    fn controls(&self, _: &(), ui: &mut Ui<Self>) -> Vec<Control> {
        let n = self.backends().len();
        let mut out = vec![Control::button(
            "fill",
            "Fill the table",
            ui.act(MaglevAction::Fill),
        )];
        if n >= 2 {
            let mut leave = vec![(
                "none".to_string(),
                "Nobody".to_string(),
                ui.act(MaglevAction::Return),
            )];
            for i in 0..n {
                leave.push((
                    format!("b{i}"),
                    self.name(i).to_string(),
                    ui.act(MaglevAction::Leave(i)),
                ));
            }
            out.push(Control::choice(
                "leave",
                "A backend leaves",
                self.left.map_or(0, |i| i + 1),
                leave,
            ));
        }
        out.push(Control::note(
            "Step gives the next backend its turn; a backend leaving builds the table again without it.",
        ));
        let picks = (0..n)
            .map(|i| {
                (
                    format!("b{i}"),
                    self.name(i).to_string(),
                    ui.act(MaglevAction::Select(i)),
                )
            })
            .collect();
        let b = &self.backends()[self.selected.min(n - 1)];
        let top = (self.size() as u32).saturating_sub(1);
        out.push(Control::group(
            "Backends",
            vec![
                Control::toggle(
                    "hashed",
                    "Offset and skip from the name's hash (SipHash-2-4: our choice)",
                    self.config.hashed,
                    ui.act(MaglevAction::SetHashed(!self.config.hashed)),
                ),
                bounded(
                    ui,
                    "backends",
                    "Backends",
                    &BACKENDS,
                    n as u32,
                    false,
                    MaglevAction::SetBackends,
                ),
                Control::choice("edit", "Edit", self.selected.min(n - 1), picks),
                knob(
                    ui,
                    "offset",
                    &format!("{}'s offset", b.name),
                    (b.offset as u32, 0, top),
                    "",
                    true,
                    |v| MaglevAction::SetOffset(u64::from(v)),
                ),
                knob(
                    ui,
                    "skip",
                    &format!("{}'s skip", b.name),
                    (b.skip as u32, 1, top.max(1)),
                    "",
                    true,
                    |v| MaglevAction::SetSkip(u64::from(v)),
                ),
            ],
        ));
        let mut sizes: Vec<u64> = COMPARE_SIZES.to_vec();
        if !sizes.contains(&self.config.compare_size) {
            sizes.push(self.config.compare_size);
            sizes.sort_unstable();
        }
        let at = sizes
            .iter()
            .position(|&s| s == self.config.compare_size)
            .unwrap_or(0);
        let size_options = sizes
            .iter()
            .map(|&s| {
                (
                    s.to_string(),
                    format!("{} entries", grouped(s as i64)),
                    ui.act(MaglevAction::SetCompareSize(s)),
                )
            })
            .collect();
        out.push(Control::group(
            "Large table",
            vec![
                Control::choice("compare-size", "Size M", at, size_options).dropdown(),
                bounded(
                    ui,
                    "virtual-nodes",
                    "Ring points a backend",
                    &VIRTUAL_NODES,
                    self.config.virtual_nodes,
                    false,
                    MaglevAction::SetVirtualNodes,
                ),
            ],
        ));
        let missed: Vec<String> = reached(SHARED_SKIP, COMPOSITE)
            .iter()
            .map(|e| e.to_string())
            .collect();
        out.push(Control::danger_group(
            "Break it",
            vec![
                bounded(
                    ui,
                    "size",
                    "Table size M",
                    &SIZE,
                    self.config.size,
                    true,
                    MaglevAction::SetSize,
                )
                .danger(),
                Control::note(format!(
                    "Try {COMPOSITE}: with M = {COMPOSITE} a skip of {SHARED_SKIP} reaches only entries {}, so a prime M is required.",
                    missed.join(", ")
                )),
                bounded(
                    ui,
                    "compare-backends",
                    "Backends on the large table",
                    &COMPARE_BACKENDS,
                    self.config.compare_backends,
                    true,
                    MaglevAction::SetCompareBackends,
                )
                .danger(),
                Control::note(
                    "Crowd the large table: as M/N falls below 100, Maglev's shares drift more than 1 % apart.",
                ),
            ],
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use demos::fabric::maglev::MaglevConfig;
    use demos::Model;

    #[test]
    fn every_list_and_entry_is_drawn() {
        let m = Maglev::new(&MaglevConfig::default());
        let scene = crate::build(&m, &()).0;
        for key in ["list-0", "list-2", "row-now", "row-mod"] {
            assert!(scene.find(key).is_some(), "{key}");
        }
        assert!(scene.find("row-before").is_none());
        assert!(scene.table_named("compare").is_some());
        assert!(scene.repeated_keys().is_empty());
    }

    /// A step restyles the same keys: the claimed cell turns from empty to
    /// claimed, and the outline of the latest claim appears over it.
    #[test]
    fn a_claim_restyles_its_cell() {
        let mut m = Maglev::new(&MaglevConfig::default());
        let class = |m: &Maglev| {
            let scene = crate::build(m, &()).0;
            let cell = scene.find("row-now").unwrap().children()[4].clone();
            cell.children()[0].class.clone()
        };
        assert!(class(&m).contains("idle"));
        m.apply(&MaglevAction::Claim).unwrap();
        assert!(class(&m).contains("done"), "{}", class(&m));
        assert!(crate::build(&m, &()).0.find("latest").is_some());
    }

    /// After B1 leaves and the table fills, entry 6 is marked as moved
    /// although its owner stayed, and B1's old entries as having to move.
    #[test]
    fn a_leaver_marks_what_moved() {
        let mut m = Maglev::new(&MaglevConfig::default());
        m.apply(&MaglevAction::Leave(1)).unwrap();
        m.apply(&MaglevAction::Fill).unwrap();
        let scene = crate::build(&m, &()).0;
        let now = scene.find("row-now").unwrap();
        let class = |j: usize| now.children()[j + 1].children()[0].class.clone();
        assert!(class(0).contains("warn") && class(2).contains("warn"));
        assert!(class(6).contains("fault"), "{}", class(6));
        assert!(class(1).contains("done"));
        let line = scene.find("moved-line").unwrap().text_content().unwrap();
        assert!(
            line.contains("Maglev 3 so far, 3 when full; modulo 4"),
            "{line}"
        );
    }
}
